"""Behaviour suite (branch beh310w): with bodies that never complete, and ways out of with bodies
inside loops, whose code after the statement (or after the loop) 3.10 copies into the way out or
into the handler's suppressed path. Every context manager records its exits and suppresses when
told: the code after a with statement runs only where `__exit__` suppressed, and code the compiler
copied after an exit call runs after `__exit__` (read into the body it would run before it, and
`__exit__` would see its exceptions)."""

from managers import ASup, Sup, check


def compute(log):
    log.append("compute")
    if "fail" in log:
        raise KeyError("compute")
    return len(log)


def while_true_break_then_raise(xs, suppress, log):
    while True:
        with Sup(log, suppress):
            check(xs.pop())
            break
    raise ValueError("after")


def while_true_if_break_then_call(xs, suppress, log):
    while True:
        with Sup(log, suppress):
            if check(xs.pop()):
                break
            log.append("more")
    return compute(log)


def for_break_then_call(xs, suppress, log):
    for x in xs:
        with Sup(log, suppress):
            if check(x):
                break
            log.append("more")
    return compute(log)


def for_return_computed(xs, suppress, log):
    for x in xs:
        with Sup(log, suppress):
            if check(x):
                return compute(log)
            log.append("more")
    return "done"


def while_break_then_call(xs, suppress, log):
    while xs:
        with Sup(log, suppress):
            check(xs.pop())
            break
    return compute(log)


def nested_continue_return(xs, suppress, log):
    it = iter(xs)
    with Sup(log, not suppress):
        with Sup(log, suppress):
            while True:
                x = next(it)
                if check(x):
                    continue
                return True
    return "after"


def nested_return_then_code(x, suppress, log):
    with Sup(log, not suppress):
        with Sup(log, suppress):
            if check(x):
                return 1
            return 2
        log.append("outer body")
    return "after"


def never_completes_name_then_const(x, suppress, log):
    with Sup(log, suppress):
        y = check(x)
        return y
    return "after"


def never_completes_raise_only(x, suppress, log):
    with Sup(log, suppress):
        check(x)
        raise ValueError("body")
    log.append("after")
    return "after"


def completes_then_small_return(x, suppress, log):
    with Sup(log, suppress):
        check(x)
    return "after"


def body_return_same_as_after(x, suppress, log):
    with Sup(log, suppress):
        check(x)
        return "same"
    return "same"


def loop_never_completes_continue_or_return(xs, suppress, log):
    for x in xs:
        with Sup(log, suppress):
            if check(x):
                continue
            return "empty"
        log.append("suppressed")
    return "done"


async def async_for_break_then_call(xs, suppress, log):
    for x in xs:
        async with ASup(log, suppress):
            if check(x):
                break
            log.append("more")
    return compute(log)


async def async_for_return_computed(xs, suppress, log):
    for x in xs:
        async with ASup(log, suppress):
            if check(x):
                return compute(log)
            log.append("more")
    return "done"


async def async_for_return_local(xs, suppress, log):
    n = 0
    for x in xs:
        async with ASup(log, suppress):
            n += 1
            if check(x):
                return n
    return -1


async def async_never_completes_nested(x, suppress, log):
    async with ASup(log, not suppress):
        async with ASup(log, suppress):
            if check(x):
                return "inner"
            return "inner false"
        return "outer"



# 3.11 / 3.12 read these two wrongly (found here, session 13: the `break`'s copy of the code after
# the loop after the awaited exit call is read into the body): KNOWN_DEFECTS in
# tests/test_decompile_behaviour.py
async def async_while_break_then_call(xs, suppress, log):
    # 3.10 copies `return compute(log)` after the awaited exit call of the `break`
    while xs:
        async with ASup(log, suppress):
            check(xs.pop())
            break
    return compute(log)

async def async_while_true_if_break_then_call(xs, suppress, log):
    while True:
        async with ASup(log, suppress):
            if check(xs.pop()):
                break
            log.append("more")
    return compute(log)


def while_true_break_then_code_return_local(xs, suppress, log):
    # the code after the loop appends before returning a local: not the with body's
    n = 0
    while True:
        with Sup(log, suppress):
            n += 1
            if check(xs.pop()):
                break
            log.append("more")
    log.append("after")
    return n


def while_true_break_return_local(xs, suppress, log):
    # 3.10 copies `return n` (a plain local) after the exit call of the `break`
    n = 0
    while True:
        with Sup(log, suppress):
            n += 1
            if check(xs.pop()):
                break
            log.append("more")
    return n


def with_if_return_local_after(x, suppress, log):
    # a body that completes, `return v` after it copied onto each way out of the body
    v = "start"
    with Sup(log, suppress):
        if x == "a":
            v = check(x)
        else:
            log.append("else")
            v = check(x) or "other"
    return v


def for_break_return_locals_tuple(xs, suppress, log):
    # 3.10 copies `return n, last` (locals made into a tuple) after the exit call of each way out
    n, last = 0, None
    for x in xs:
        with Sup(log, suppress):
            n += 1
            last = x
            if check(x):
                break
            log.append("more")
    return n, last


_L = [
    (["a", "boom"], True, []),
    (["a", "boom"], False, []),
    (["a", "", "boom"], True, []),
    (["", "a"], False, []),
    (["a"], True, ["fail"]),
    (["boom", "a"], True, ["fail"]),
]
_X = [(x, sup, []) for x in ("a", "", "boom") for sup in (True, False)]

CASES = {
    "while_true_break_then_raise": [(["a", "boom"], True, []), (["a"], False, []), (["boom"], False, [])],
    "while_true_if_break_then_call": _L,
    "for_break_then_call": _L + [([], True, [])],
    "for_return_computed": _L + [([], True, [])],
    "while_break_then_call": _L + [([], True, [])],
    "nested_continue_return": [(["a", ""], True, []), (["a", "boom"], True, []), (["a", "boom"], False, []), (["boom"], True, [])],
    "nested_return_then_code": _X,
    "never_completes_name_then_const": _X,
    "never_completes_raise_only": _X,
    "completes_then_small_return": _X,
    "body_return_same_as_after": _X,
    "loop_never_completes_continue_or_return": _L + [([], True, [])],
    "async_for_break_then_call": _L + [([], True, [])],
    "async_for_return_computed": _L + [([], True, [])],
    "async_for_return_local": _L + [([], True, [])],
    "async_never_completes_nested": _X,
    "while_true_break_then_code_return_local": _L,
    "while_true_break_return_local": _L,
    "with_if_return_local_after": _X,
    "for_break_return_locals_tuple": _L + [([], True, [])],
}
CASES["async_while_break_then_call"] = _L + [([], True, [])]
CASES["async_while_true_if_break_then_call"] = _L
