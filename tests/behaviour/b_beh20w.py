"""Behaviour suite (branch beh20w): `break` out of with bodies in `while` loops whose way out 3.10
copies the code after the loop after the exit call (run after `__exit__`: read into the body it
would run before it), and with bodies that never complete whose code after the statement ends in
a conditional jump (3.10 lays it out in the handler's suppressed-path block). The managers record
their exits and suppress when told."""

from managers import ASup, Sup, check


def compute(log):
    log.append("compute")
    if "fail" in log:
        raise KeyError("compute")
    return len(log)


def while_break_then_raise(xs, suppress, log):
    while xs:
        with Sup(log, suppress):
            check(xs.pop())
            break
    raise ValueError(log)


def while_if_break_then_call(xs, suppress, log):
    while xs:
        with Sup(log, suppress):
            if check(xs.pop()):
                break
            log.append("more")
    return compute(log)


def while_true_nested_break_then_call(xs, suppress, log):
    while True:
        with Sup(log, not suppress):
            with Sup(log, suppress):
                check(xs.pop())
                break
    return compute(log)


def while_true_break_then_long_code(xs, suppress, log):
    # the code after the loop too long to copy: the `break` jumps to it
    while True:
        with Sup(log, suppress):
            check(xs.pop())
            break
    log.append("a")
    log.append("b")
    return compute(log)


def while_return_computed_in_body(xs, suppress, log):
    while xs:
        with Sup(log, suppress):
            check(xs.pop())
            return compute(log)
    return "done"


def while_never_completes_then_code(xs, suppress, log):
    while xs:
        with Sup(log, suppress):
            check(xs.pop())
            return len(log)
        log.append("suppressed")
    return "done"


def completes_by_arms_then_call(xs, suppress, log):
    # every way out of the body runs the exit call, then a copy of `return compute(log)`
    with Sup(log, suppress):
        while xs:
            if not check(xs.pop()):
                break
            log.append("more")
        if log:
            if "fail" not in log:
                log.append("tail")
    return compute(log)


def completes_by_arms_return_locals(xs, suppress, log):
    n, last = 0, None
    with Sup(log, suppress):
        while n < len(xs):
            last = xs[n]
            if check(last):
                break
            n += 1
        if n:
            log.append(n)
        elif last:
            log.append(last)
    return n, last


async def async_while_break_then_raise(xs, suppress, log):
    while xs:
        async with ASup(log, suppress):
            check(xs.pop())
            break
    raise ValueError(log)


_L = [
    (["a", "boom"], True, []),
    (["a", "boom"], False, []),
    (["a", "", "boom"], True, []),
    (["", "a"], False, []),
    (["a"], True, ["fail"]),
    (["boom", "a"], True, ["fail"]),
]

CASES = {
    "while_break_then_raise": _L + [([], True, [])],
    "while_if_break_then_call": _L + [([], True, [])],
    "while_true_nested_break_then_call": _L,
    "while_true_break_then_long_code": _L,
    "while_return_computed_in_body": _L + [([], True, [])],
    "while_never_completes_then_code": _L + [([], True, [])],
    "async_while_break_then_raise": _L + [([], True, [])],
    "completes_by_arms_then_call": _L + [([], True, [])],
    "completes_by_arms_return_locals": _L + [([], True, [])],
}
