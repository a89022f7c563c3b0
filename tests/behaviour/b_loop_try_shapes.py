"""Behaviour suite: loops and try statements in the shapes that needed teaching (session 11).

A `return` inside a `while` loop that ends a `for` body (the while's test leaving straight for the
for's header); `if c: break` in a try body inside a `for` loop (3.11 jumps from the body's end over
the handler); `continue` in an except clause of a `while c:` loop (3.10-3.13 jump to the guard).
"""


def while_in_for_return_last(xs, limit):
    for x in xs:
        while x > 0:
            x -= 3
            if x == limit:
                return x * 10
    return "miss"


def while_in_for_return_else(xs, limit):
    seen = []
    for x in xs:
        while x > 0:
            if x == limit:
                return seen, x
            else:
                seen.append(x)
                x -= 3
    return seen


def while_in_for_else_continue(xs, limit):
    out = []
    for x in xs:
        while x > 0:
            if x == limit:
                break
            x -= 3
        else:
            continue
        out.append(x)
    return out


def for_try_if_break(xs):
    out = []
    for x in xs:
        try:
            v = 10 // x
            if v > 3:
                break
        except ZeroDivisionError:
            v = 0
        out.append(v)
    return out


def for_try_if_break_rest(xs):
    out = []
    for x in xs:
        try:
            v = 10 // x
            out.append("t")
            if v > 3:
                break
            out.append(v)
        except ZeroDivisionError:
            continue
        out.append(-v)
    return out


def while_try_clause_continue(items):
    log = []
    while items:
        try:
            v = items.pop()
            log.append(10 // v)
        except ZeroDivisionError:
            log.append("z")
            continue
        log.append("after")
    return log


def while_try_clause_continue_or_break(items):
    log = []
    while items:
        try:
            v = items.pop()
            log.append(10 // v)
        except ZeroDivisionError as e:
            log.append(str(e)[:3])
            if len(items) > 2:
                continue
            break
        except TypeError:
            return log, "type"
    return log, len(items)

CASES = {
    "while_in_for_return_last": [([7, 8], 4), ([7, 8], 5), ([], 1), ([9], 0), ([9], -3)],
    "while_in_for_return_else": [([7, 8], 4), ([7, 8], 5), ([], 1), ([3, 1], 1), ([6], 9)],
    "while_in_for_else_continue": [([7, 8], 4), ([7, 8], 5), ([], 1), ([3, 1], 1), ([4, 7], 1)],
    "for_try_if_break": [([1, 2, 5],), ([0, 5, 2],), ([],), ([5, 0, 1],), ([20, 10],)],
    "for_try_if_break_rest": [([1, 2, 5],), ([0, 5, 2],), ([],), ([5, 0, 1],), ([20, 10],)],
    "while_try_clause_continue": [([1, 0, 2],), ([],), ([0, 0],), ([5, 0, 0, 0, 1],)],
    "while_try_clause_continue_or_break": [([1, 0, 2],), ([],), ([0, 0],), ([5, 0, 0, 0, 1],), ([1, "a", 2],)],
}
