"""Behaviour suite: with bodies that never complete normally (every way out is a return, a raise or
a break), run with context managers that suppress the body's exception. The code after such a with
statement runs only on the suppressed path; the body's own last `return` (its exit call copied in
front of it) must stay in the body, or the suppressed path would run it too."""

from managers import ASup, Sup, check


def never_completes_consts(x, suppress):
    log = []
    with Sup(log, suppress):
        if check(x):
            return True, log
        return False, log


def never_completes_const_returns(x, suppress):
    with Sup([], suppress):
        if check(x):
            return True
        return False


def never_completes_then_code(x, suppress):
    log = []
    with Sup(log, suppress):
        if check(x):
            return 1
        return 2
    log.append("suppressed")
    return log


def never_completes_raise(x, suppress):
    log = []
    with Sup(log, suppress):
        check(x)
        raise ValueError("always")
    return "after", log


def never_completes_name(x, suppress):
    log = []
    result = "unset"
    with Sup(log, suppress):
        result = check(x)
        return result
    return "after " + str(result), log


def never_completes_in_loop(xs, suppress):
    log = []
    for x in xs:
        with Sup(log, suppress):
            if check(x):
                return "found", x, log
            return "first", x, log
    return "none", log


def completes_then_const(x, suppress):
    log = []
    with Sup(log, suppress):
        check(x)
    return False, log


def never_completes_nested(x, suppress):
    log = []
    with Sup(log, suppress):
        with Sup(log, not suppress):
            if check(x):
                return "inner"
            return "inner false"
        return "outer"


async def async_never_completes(x, suppress):
    log = []
    async with ASup(log, suppress):
        if check(x):
            return True, log
        return False, log


async def async_never_completes_const_returns(x, suppress):
    async with ASup([], suppress):
        if check(x):
            return True
        return False


async def async_never_completes_then_code(x, suppress):
    log = []
    async with ASup(log, suppress):
        if check(x):
            return 1
        return 2
    log.append("suppressed")
    return log


async def async_completes(x, suppress):
    log = []
    async with ASup(log, suppress):
        check(x)
    return False, log


def nested_loop_returns(xs, suppress, log):
    # both withs' bodies end in a loop left only by return (3.9: the loop's exit is the return's
    # copy, exit calls of both withs in front of it; constants are loaded after the exit calls)
    it = iter(xs)
    with Sup(log, not suppress):
        with Sup(log, suppress):
            while True:
                x = next(it)
                if check(x):
                    return False
                if x:
                    continue
                return True
    return "after"


def arms_return_or_raise(x, suppress, log):
    # every arm of the body's if returns (constants: 3.9 loads them after the exit call) or
    # raises; the code after the with runs only on the suppressed path
    with Sup(log, suppress):
        if x == "a":
            log.append("a")
            return False
        elif check(x):
            log.append("true")
            return True
        else:
            log.append("else")
            raise RuntimeError("unexpected")
    return "after"


def loop_with_continue_last(xs, suppress):
    # a with ending in continue: the code after it runs only when __exit__ suppresses
    log = []
    n = 0
    for x in xs:
        n += 1
        with Sup(log, suppress):
            check(x)
            continue
        log.append("suppressed %s" % x)
    return n, log


def loop_if_arms_with_last(xs, suppress):
    # each arm of an if ends the loop body with a with (3.9 threads the normal way's jump back to
    # the loop past the arm's end, the suppressed way's not)
    log = []
    for x in xs:
        if x == "a":
            log.append("a")
        elif x == "b":
            with Sup(log, suppress):
                check(x)
        else:
            with Sup(log, suppress):
                log.append(check(x))
    return log


def with_in_if_early_return(x, suppress):
    # a with inside an if arm whose body returns a computed value on one branch: the other
    # branch leaves the body through its exit call to the code after the with
    log = []
    if x != "skip":
        with Sup(log, suppress):
            y = check(x)
            if y:
                return "ret " + str(y), log
        log.append("after with")
    return "end", log


def try_with_return_except_return(x, suppress):
    # `try: with cm: return v` / `except E: return w` (zoneinfo valid_key, socket.has_dualstack_ipv6):
    # where the manager suppresses, the try body completes and the function returns None; 3.12+
    # copy that `return None` into the suppressed path, and the clause's `return w` must stay in
    # the clause (read after the try statement it returned w on the suppressed path too)
    log = []
    try:
        with Sup(log, suppress):
            return check(x) == True, log
    except KeyError:
        return False


S = [("a", True), ("", True), ("boom", True), ("a", False), ("boom", False), ("", False)]

CASES = {
    "never_completes_consts": S,
    "try_with_return_except_return": S,
    "never_completes_then_code": S,
    "never_completes_raise": S,
    "never_completes_name": S,
    "never_completes_in_loop": [(["", "a"], True), (["boom", "a"], True), (["boom"], False), ([], True)],
    "completes_then_const": S,
    "never_completes_nested": S,
    "async_never_completes": S,
    "async_never_completes_then_code": S,
    "async_completes": S,
    "never_completes_const_returns": S,
    "async_never_completes_const_returns": S,
    "nested_loop_returns": [(["b", "a"], True, []), (["b", ""], False, []), (["boom"], True, []), (["boom"], False, []), ([""], True, [])],
    "arms_return_or_raise": [(x, sup, []) for x in ("a", "b", "", "boom") for sup in (True, False)],
    "loop_with_continue_last": [(["a", "boom", ""], True), (["a", ""], False), (["boom"], False), ([], True)],
    "loop_if_arms_with_last": [(["a", "b", "c", "boom"], True), (["a", "b", ""], False), (["b", "boom"], True), (["boom"], False)],
    "with_in_if_early_return": S + [("skip", True), ("skip", False)],
}
