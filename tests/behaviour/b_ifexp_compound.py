"""Behaviour suite: conditional expressions whose test is an `and` / `or` / `not` combination (the
test's parts are blocks of their own that jump to either arm), as values, in comprehensions,
generator expressions, arguments, and nested in each other."""


def ifexp_and(c, tc):
    return c if tc and c else tc


def ifexp_or(a, b):
    return "yes" if a or b else "no"


def ifexp_and_or(a, b, c):
    return 1 if a and b or c else 2


def ifexp_not_and(a, b):
    return "x" if not a and b else "y"


def ifexp_in_genexpr(s, t):
    return "".join(c if tc == " " and c.isspace() else tc for c, tc in zip(s, t))


def ifexp_in_listcomp(xs):
    return [x if x and x > 1 else -1 for x in xs]


def ifexp_as_argument(a, b):
    return max(a if a and b else b, 0)


def ifexp_nested(a, b, c):
    return (a if a and b else b) if c or a else (c if b and c else 0)


def ifexp_chained_compare_test(x):
    return "mid" if 0 < x < 10 and x != 5 else "out"


def ifexp_three_parts(a, b, c):
    return [a, b, c] if a and b and c else None


CASES = {
    "ifexp_and": [(1, 2), (0, 2), (1, 0), (0, 0)],
    "ifexp_or": [(0, 0), (1, 0), (0, 1)],
    "ifexp_and_or": [(1, 1, 0), (1, 0, 0), (0, 0, 1), (0, 1, 0)],
    "ifexp_not_and": [(0, 1), (1, 1), (0, 0)],
    "ifexp_in_genexpr": [("a b", "x  "), ("", "")],
    "ifexp_in_listcomp": [([0, 1, 2, 3],), ([],)],
    "ifexp_as_argument": [(3, 1), (0, -2), (5, 0)],
    "ifexp_nested": [(1, 1, 1), (0, 1, 1), (1, 0, 0), (0, 0, 0), (2, 0, 1)],
    "ifexp_chained_compare_test": [(3,), (5,), (11,), (-1,)],
    "ifexp_three_parts": [(1, 2, 3), (1, 0, 3), (0, 0, 0)],
}
