"""Behaviour suite, 3.11+: `break` out of a with body in a `while` loop whose other ways out (if
any) the compiler laid out elsewhere, with the code after the loop run after `__exit__` (3.12+
copy a small one right after the exit call). The manager records its exits and suppresses when
told; the code after the loop records itself and may raise (which `__exit__` must not see)."""

from managers import Sup


def step(xs, log):
    x = xs.pop()
    if x == "boom":
        raise KeyError(x)
    log.append(x)
    return x


def after(log):
    log.append("after")
    if "fail" in log:
        raise KeyError("after")
    return len(log)


def two_withs_break(xs, suppress, log):
    while True:
        with Sup(log, suppress):
            with Sup(log, not suppress):
                if step(xs, log) == "stop":
                    break
    return after(log)


def break_in_for_body(xs, suppress, log):
    for k in range(2):
        while True:
            with Sup(log, suppress):
                if step(xs, log) == "stop":
                    break
                log.append("more")
        log.append(k)
    return after(log)


def break_last_then_raise_value(xs, suppress, log):
    while True:
        with Sup(log, suppress):
            step(xs, log)
            break
    raise ValueError(len(log))


def guard_break_last(xs, suppress, log):
    while xs:
        with Sup(log, suppress):
            step(xs, log)
            break
    return after(log)


CASES = {
    "two_withs_break": [(["stop", "a", "boom"], True, []), (["stop", "boom"], False, []), (["stop"], True, ["fail"])],
    "break_in_for_body": [(["stop", "a", "stop", "boom"], True, []), (["stop", "stop"], False, ["fail"]), (["stop", "boom"], False, [])],
    "break_last_then_raise_value": [(["a", "boom"], True, []), (["a"], False, []), (["boom"], False, [])],
    "guard_break_last": [(["a", "boom"], True, []), (["boom"], True, []), ([], True, ["fail"]), (["a"], False, ["fail"])],
}
