"""Behaviour suite (branch beh19): `break` out of `async with` bodies inside loops, whose code after
the loop the compiler copies after the awaited exit call (3.12+), and the ways out of try bodies in
loops that the session-19 refusals were about. Each context manager records its exits and
suppresses when told: code after the awaited exit call runs after `__aexit__` (read into the body,
it would run before it, and `__aexit__` would see its exceptions)."""

from managers import ASup, Sup, check


def compute(log):
    log.append("compute")
    if "fail" in log:
        raise KeyError("compute")
    return len(log)


async def async_while_true_break_then_call(xs, suppress, log):
    # 3.12+ copy `return compute(log)` after the awaited exit call: it runs after `__aexit__`
    while True:
        async with ASup(log, suppress):
            check(xs.pop())
            break
    return compute(log)


async def async_while_true_break_then_raise(xs, suppress, log):
    while True:
        async with ASup(log, suppress):
            log.append(check(xs.pop()))
            break
    raise ValueError(len(log))


async def async_while_true_break_then_const(xs, suppress, log):
    # a constant return after the exit call: the same behaviour either way
    while True:
        async with ASup(log, suppress):
            check(xs.pop())
            break
    return 5


def bump(i, n):
    if i >= n:
        raise StopIteration
    return i + 1


def while_except_break_finally_rebinds(n):
    # 3.12+ copy `return log` after the finally body's copy in the except clause: `log` is read
    # after the finally body rebinds it (read as `return log` in the try body, it was read before)
    log = []
    i = 0
    while True:
        try:
            i = bump(i, n)
        except StopIteration:
            log.append("stop")
            break
        else:
            if i == 3:
                continue
        finally:
            log = log + ["f"]
    return log


_L = [(["a", "boom"], True, []), (["a"], False, []), (["boom"], False, []), (["boom", "a"], True, []),
      (["", "fail"], True, ["fail"]), (["a"], False, ["fail"])]
CASES = {
    "async_while_true_break_then_call": _L,
    "async_while_true_break_then_raise": _L,
    "async_while_true_break_then_const": _L,
    "while_except_break_finally_rebinds": [(0,), (2,), (4,)],
}
