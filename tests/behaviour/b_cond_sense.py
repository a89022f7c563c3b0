"""Behaviour suite: the sense of `in` / `is` tests. Through 3.13 the compiler folds `not (a in b)`
into `a not in b` before it chooses jumps; 3.14 folds only values, so `if not a in b:` tests `in`
and jumps the other way from `if a not in b:`. Each written form must come back as one that
compiles to the same operator and the same jump; `not (a < b)` is not `a >= b` (NaN) and stays."""


def not_in_test(v, m):
    if not v in m:  # noqa: E713
        m[v] = 1
    else:
        m[v] = None
    return m


def not_is_test(a, b):
    if not a is b:  # noqa: E714
        return "different"
    return "same"


def not_or_is_not(x, y):
    if not isinstance(x, int) or x is not y:
        return "no"
    return "yes"


def not_or_in(name, seen):
    if not name or name in seen:
        return "skip"
    return name


def not_and_in(flag, key, d):
    for k in key:
        if not flag or k not in d:
            d[k] = 0
    return d


def not_compare_kept(a, b):
    if not (a < b):
        return "not less"
    return "less"


def not_of_or_in(x, a, b):
    if not (x in a or x in b):
        return "neither"
    return "one"


def while_not_in(xs, stop):
    i = 0
    while not xs[i] in stop:  # noqa: E713
        i += 1
    return i


def assert_not_in(x, s):
    assert not x in s, x  # noqa: E713
    return x


def value_not_in(x, s):
    return not x in s  # noqa: E713


class Odd:
    def __eq__(self, other):
        return True

    def __lt__(self, other):
        return False


CASES = {
    "not_in_test": [(1, {}), (1, {1: 2})],
    "not_is_test": [(1, 1), (1, 2), (None, None)],
    "not_or_is_not": [(1, 1), (1, 2), ("a", "a")],
    "not_or_in": [("", set()), ("a", {"a"}), ("b", {"a"})],
    "not_and_in": [(True, "ab", {"a": 1}), (False, "ab", {}), (True, "", {})],
    "not_compare_kept": [(1, 2), (2, 1), (float("nan"), 1.0), (Odd(), 1)],
    "not_of_or_in": [(1, [1], []), (1, [], [1]), (1, [], [])],
    "while_not_in": [([1, 2, 3], {3}), ([4], {4})],
    "assert_not_in": [(1, {2}), (1, {1})],
    "value_not_in": [(1, {2}), (1, {1})],
}
