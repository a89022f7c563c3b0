"""Behaviour suite (session 17, branch borrow17): constant tests the compiler drops (a dead `if`
between statements, at the start of an arm, in a loop, `if 0 and x:` before `elif`,
`if __debug__ and x:` nested in an arm, `while True and x:`, `y = 1 if __debug__ else 0`), which
3.14 reads back from the loads after them (structure/dead_if.rs). Shapes of imaplib's Idler
methods, unix_console's __setup_movement, _pylong's inner, test_zipfile's
test_write_with_optimization."""


class Idle:
    def __init__(self, debug):
        self.debug = debug
        self.log = []
        self.responses = list(range(debug))

    def mesg(self, s):
        self.log.append(s)


def idle_next(imap, typ):
    # imaplib Idler.__next__: `if __debug__ and imap.debug >= 4:` inside an arm
    if not typ:
        if __debug__ and imap.debug >= 4:
            imap.mesg("idle iterator exhausted")
        return ("stop", imap.log)
    return (typ, imap.log)


def idle_exit(imap, exc_type):
    # imaplib Idler.__exit__: the test after a walrus arm, a loop after it
    imap.log.append("done")
    if leftovers := len(imap.responses):
        if __debug__ and imap.debug >= 4:
            imap.mesg(f"idle quit with {leftovers} leftover responses")
        while imap.responses:
            imap.log.append(imap.responses.pop(0))
    try:
        if exc_type:
            raise OSError(exc_type)
        imap.log.append("sent")
    except OSError:
        if exc_type == 2:
            raise
    return imap.log


def setup_movement(cub, cuf, cub1, log):
    # unix_console __setup_movement: `if 0 and x:` then `elif` arms
    if 0 and cub:
        log.append("hpa")
    elif cub and cuf:
        log.append("cub_cuf")
    elif cub1:
        log.append("cub1")
    else:
        raise RuntimeError("insufficient terminal")
    log.append(len(log))
    return log


def inner(n, w, out):
    # _pylong inner: `if 0: ... else: ...` after statements
    if w <= 1:
        out.append(n)
        return
    w1 = w >> 1
    w2 = w - w1
    if 0:
        hi, lo = divmod(n, 10 ** w2)
    else:
        p = 10 ** w2
        hi = n // p
        lo = n - hi * p
    inner(hi, w1, out)
    inner(lo, w2, out)
    return out


def write_optimized(items):
    # test_write_with_optimization: `x = 1 if __debug__ else 0`, then a with statement
    log = []
    optlevel = 1 if __debug__ else 0
    ext = ".pyc"
    for it in items:
        if not __debug__:
            continue
        log.append((it + ext, optlevel))
    return log


def drain(xs):
    out = []
    it = list(xs)
    if it:
        while True and it:
            out.append(it.pop())
    return out


CASES = {
    "idle_next": [(Idle(5), 0), (Idle(1), 0), (Idle(5), "OK")],
    "idle_exit": [(Idle(5), 0), (Idle(0), 1), (Idle(2), 2), (Idle(4), 0)],
    "setup_movement": [(1, 1, 0, []), (1, 0, 1, []), (0, 0, 0, []), (0, 1, 1, [])],
    "inner": [(1234, 4, []), (7, 1, []), (98765, 5, [])],
    "write_optimized": [(["a", "b"],), ([],)],
    "drain": [([1, 2, 3],), ([],)],
}
