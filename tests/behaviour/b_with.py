"""Behaviour suite: with statements (one and several items, as-targets, suppression, exits from inside)."""


class Rec:
    """A context manager that records enter/exit in a shared log and can suppress exceptions."""

    def __init__(self, log, name, suppress=False):
        self.log = log
        self.name = name
        self.suppress = suppress

    def __enter__(self):
        self.log.append("enter " + self.name)
        return self.name.upper()

    def __exit__(self, typ, val, tb):
        self.log.append("exit %s %s" % (self.name, typ.__name__ if typ else None))
        return self.suppress


def with_simple(x):
    log = []
    with Rec(log, "a"):
        log.append(x * 2)
    return log


def with_as(x):
    log = []
    with Rec(log, "b") as v:
        log.append(v + str(x))
    return log, v


def with_raises(x):
    log = []
    try:
        with Rec(log, "c"):
            log.append(10 // x)
    except ZeroDivisionError:
        log.append("caught")
    return log


def with_suppress(x):
    log = []
    with Rec(log, "d", suppress=True):
        log.append(1)
        log.append(10 // x)
        log.append(2)
    log.append("after")
    return log


def with_two_items(x):
    log = []
    with Rec(log, "a") as a, Rec(log, "b") as b:
        log.append(a + b + str(10 // x))
    return log


def with_three_items_suppress(x):
    log = []
    with Rec(log, "a"), Rec(log, "b", suppress=True) as b, Rec(log, "c"):
        log.append(b)
        if x:
            raise KeyError(x)
    return log


def with_nested(x):
    log = []
    with Rec(log, "outer"):
        with Rec(log, "inner", suppress=x > 1):
            if x:
                raise ValueError(x)
            log.append("body")
        log.append("between")
    return log


def with_return_inside(x):
    log = []

    def inner():
        with Rec(log, "r"):
            if x:
                return "early"
            log.append("late")
        return "end"

    return inner(), log


def with_in_loop_break_continue(xs):
    log = []
    for x in xs:
        with Rec(log, str(x)):
            if x == 0:
                continue
            if x < 0:
                break
            log.append(x)
    return log


def with_tuple_target(x):
    class Pair:
        def __enter__(self):
            return (x, x + 1)

        def __exit__(self, *exc):
            return False

    with Pair() as (a, b):
        return a * b


def with_attr_target(x):
    log = []

    class NS:
        pass

    ns = NS()
    with Rec(log, "t") as ns.value:
        pass
    return ns.value, log


def with_exit_args(x):
    seen = []

    class M:
        def __enter__(self):
            return self

        def __exit__(self, t, v, tb):
            seen.append((t is None, v is None, tb is None))
            return True

    with M():
        if x:
            raise RuntimeError("boom")
    return seen


def with_no_enter(x):
    with x:
        return "entered"


def with_file_like(text):
    import io

    with io.StringIO(text) as f:
        first = f.readline()
        rest = f.read()
    return first, rest, f.closed


def with_open_context_lock(x):
    import threading

    lock = threading.Lock()
    with lock:
        held = lock.locked()
    return held, lock.locked(), x


CASES = {
    "with_simple": [(1,), ("s",)],
    "with_as": [(1,), (None,)],
    "with_raises": [(1,), (0,), ("q",)],
    "with_suppress": [(1,), (0,)],
    "with_two_items": [(1,), (0,)],
    "with_three_items_suppress": [(0,), (1,)],
    "with_nested": [(0,), (1,), (2,)],
    "with_return_inside": [(0,), (1,)],
    "with_in_loop_break_continue": [([1, 0, 2, -1, 3],), ([],), ([0],)],
    "with_tuple_target": [(2,), ("a",)],
    "with_attr_target": [(0,)],
    "with_exit_args": [(0,), (1,)],
    "with_no_enter": [(1,), (None,)],
    "with_file_like": [("a\nb\nc",), ("",)],
    "with_open_context_lock": [(1,)],
}
