"""Context managers and a test the behaviour suite's `with` modules share (not a b_* module: the
suite does not run it)."""


class Sup:
    """Records enter/exit; suppresses the exception when told to, except the IndexError of popping
    an empty list (suppressed, a `while True:` body that pops would go round for ever, the log
    growing until memory runs out)."""

    def __init__(self, log, suppress):
        self.log = log
        self.suppress = suppress

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, typ, val, tb):
        self.log.append("exit %s" % (typ.__name__ if typ else None))
        return self.suppress and typ is not IndexError


class ASup(Sup):
    """The same, as an asynchronous context manager."""

    async def __aenter__(self):
        return self.__enter__()

    async def __aexit__(self, typ, val, tb):
        return self.__exit__(typ, val, tb)


def check(x):
    if x == "boom":
        raise KeyError(x)
    return bool(x)
