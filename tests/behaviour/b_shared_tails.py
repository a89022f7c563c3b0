"""Behaviour suite: `and` / `or` values whose arms share their last operand (`a and b or c`: the
test of `a` jumps straight to `c`), and chained comparisons and boolean values whose arms never
meet because the compiler copied the statement's exit (`return a < b < c`) into each. The
operands of some log their evaluation into the list argument (compared after the call), so a
decompiled version that evaluates one twice or out of order gives a different result."""


def t(log, v):
    log.append(v)
    return v


def and_or(a, b, c):
    return a and b or c


def and_or_logged(a, b, c, log):
    return t(log, a) and t(log, b) or t(log, c)


def or_and(a, b, c):
    return (a or b) and (b or c)


def and_or_and_or(a, b, c, d, e):
    return a and b or c and d or e


def three_and_or(a, b, c, d):
    return a and b and c or d


def and_or_assigned(a, b, c, log):
    x = t(log, a) and t(log, b) or t(log, c)
    return x


def and_or_argument(a, b, c):
    return str(a and b or c)


def and_or_in_list(a, b, c):
    return [a and b or c, a or b and c, not a and b or c]


def not_and_or(a, b, c):
    return not a and b or c


def chain_return(a, b, c):
    return a < b < c


def chain_return_logged(a, b, c, log):
    return t(log, a) < t(log, b) < t(log, c)


def chain_three_return(a, b, c, d):
    return a < b <= c < d


def chain_four_logged(a, b, c, d, e, log):
    return t(log, a) <= t(log, b) < t(log, c) <= t(log, d) != t(log, e)


def chain_assigned(a, b, c):
    x = a < b < c
    return x


def chain_is_not(a, b, c):
    return a is not b is not c


def chain_in(a, b, c):
    return a in [b] in [[c]]


def chain_tuple(a, b, c, d):
    return a < b <= c < d, a is not b is not c, a in [b] in [[c]]


def and_return(a, b):
    return a and b


def chain_in_branch(a, b, c):
    if a:
        return b < c < a
    return a and b or c


def chain_raise(a, b, c):
    if not a < b < c:
        raise ValueError((a, b, c))
    return "ordered"


CASES = {
    "and_or": [(1, 2, 3), (0, 2, 3), (1, 0, 3), (0, 0, 0), (1, "", [])],
    "and_or_logged": [(1, 2, 3, []), (0, 2, 3, []), (1, 0, 3, []), (0, 0, 0, [])],
    "or_and": [(1, 2, 3), (0, 2, 3), (0, 0, 3), (0, 0, 0), (1, 0, 0)],
    "and_or_and_or": [(1, 1, 1, 1, 1), (1, 0, 1, 2, 3), (0, 0, 1, 0, 5), (0, 1, 0, 1, 0)],
    "three_and_or": [(1, 2, 3, 4), (1, 0, 3, 4), (0, 2, 3, 4), (1, 2, 0, 0)],
    "and_or_assigned": [(1, 2, 3, []), (0, 2, 3, []), (1, 0, 3, [])],
    "and_or_argument": [(1, 2, 3), (0, 2, 3)],
    "and_or_in_list": [(1, 2, 3), (0, 2, 3), (1, 0, 0), (0, 0, 0)],
    "not_and_or": [(1, 2, 3), (0, 2, 3), (0, 0, 3)],
    "chain_return": [(1, 2, 3), (3, 2, 1), (1, 1, 2), (1, 3, 2)],
    "chain_return_logged": [(1, 2, 3, []), (3, 2, 1, []), (1, 3, 2, [])],
    "chain_three_return": [(1, 2, 2, 3), (1, 2, 3, 3), (2, 1, 3, 4), (1, 3, 2, 4)],
    "chain_four_logged": [
        (1, 2, 3, 3, 4, []),
        (1, 2, 3, 3, 3, []),
        (2, 1, 0, 0, 0, []),
        (1, 1, 2, 3, 4, []),
    ],
    "chain_assigned": [(1, 2, 3), (3, 2, 1)],
    "chain_is_not": [(1, 2, 3), (1, 1, 3), (None, 2, 2)],
    "chain_in": [(1, 1, 1), (1, 2, 1), (1, 1, 2)],
    "chain_tuple": [(1, 2, 2, 3), (3, 2, 1, 0)],
    "and_return": [(1, 2), (0, 2), ([], 1)],
    "chain_in_branch": [(5, 1, 2), (5, 2, 1), (0, 1, 2), (0, 0, 0)],
    "chain_raise": [(1, 2, 3), (3, 2, 1)],
}
