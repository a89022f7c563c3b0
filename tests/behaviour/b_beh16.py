"""Behaviour suite: 3.11+ `break` out of a `while` loop nested last in an outer loop's body, from
an except clause through a finally body's copy (branch beh16, session 16).

The inner loop's exit is then a lone JUMP_BACKWARD to the outer loop's header, and the compiler
threads the clause's `break` (after POP_EXCEPT and the finally copy) straight to that header: only
a `break` gets there from inside the inner loop.

Also 3.11+ `return CONSTANT` out of nested `async with` bodies: past the inner statement's awaited
exit call the way out runs the outer statement's awaited exit call (an await loop of its own)
before the `return`.
"""

from managers import ASup, check


def for_while_clause_break_finally(xs, log):
    for x in xs:
        while x > 0:
            try:
                log.append(10 // (x - 2))
            except ZeroDivisionError:
                log.append("zero")
                break
            finally:
                x -= 1
    return log


def for_while_clause_break(xs, log):
    for x in xs:
        while x > 0:
            try:
                log.append(10 // (x - 2))
                x -= 1
            except ZeroDivisionError:
                break
    return log


def while_while_clause_break_finally(n, log):
    i = 0
    while i < n:
        i += 1
        x = i
        while x > 0:
            try:
                log.append(6 // (x - 2))
            except ZeroDivisionError:
                log.append("zero")
                break
            finally:
                x -= 1
                log.append(x)
    return i


def for_if_while_clause_break_rebinds(xs, log):
    # the finally body rebinds the name the code after the loops reads
    last = None
    for x in xs:
        if x:
            while x > 0:
                try:
                    log.append(10 // (x - 3))
                except ZeroDivisionError:
                    last = "zero"
                    break
                finally:
                    last = x
                    x -= 1
        else:
            log.append("empty")
    return last


async def async_nested_return_only(x, suppress, log):
    async with ASup(log, not suppress):
        async with ASup(log, suppress):
            check(x)
            return "inner"
        return "outer"


async def async_nested_if_return(x, suppress, log):
    async with ASup(log, suppress):
        async with ASup(log, not suppress):
            if check(x):
                return "inner"
            log.append("between")
            return "inner false"
        log.append("after inner")
        return "outer"


async def async_three_deep_return(x, suppress, log):
    async with ASup(log, suppress):
        async with ASup(log, not suppress):
            async with ASup(log, suppress):
                if check(x):
                    return 1
                return 2
            return 3
        return 4


async def async_nested_return_computed(x, suppress, log):
    # the value is computed before the exit calls append to the log: a copy without their entries
    async with ASup(log, suppress):
        async with ASup(log, not suppress):
            if check(x):
                return list(log)
            return log + ["false"]
        return "outer"


def _x():
    return [(x, sup, []) for x in ("a", "", "boom") for sup in (True, False)]


CASES = {
    "for_while_clause_break_finally": [([3, 0, 1], []), ([2, 5], []), ([], []), ([4, -1], [])],
    "for_while_clause_break": [([3, 0, 1], []), ([2, 5], []), ([], []), ([4, -1], [])],
    "while_while_clause_break_finally": [(0, []), (1, []), (3, []), (5, [])],
    "for_if_while_clause_break_rebinds": [([4, 0, 1], []), ([3, 5], []), ([], []), ([0, 0], [])],
    "async_nested_return_only": _x(),
    "async_nested_if_return": _x(),
    "async_three_deep_return": _x(),
    "async_nested_return_computed": _x(),
}
