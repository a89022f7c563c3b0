"""Behaviour suite: tests that `is` / `in` negate exactly. An `assert x in s` compiles to a jump
past the raise when `x in s` holds, read back as `if x not in s: raise`; the assert takes that test
negated exactly (`x in s`, not `not x not in s`, which compiles `not in`). Likewise `not (a is None
or b in c)` reads back as `a is not None and b not in c`."""


def assert_in(name):
    assert name in ("utcoffset", "dst")
    return name


def assert_is_not(x):
    assert x is not None, "x is None"
    return x


def assert_not_in_and(x, seen):
    assert x not in seen and x is not None
    seen.add(x)
    return sorted(seen)


def raise_unless_choice(choices, value):
    if choices is not None and value not in choices:
        raise ValueError(value)
    return value


CASES = {
    "assert_in": [("dst",), ("x",)],
    "assert_is_not": [(1,), (None,)],
    "assert_not_in_and": [(1, {2}), (2, {2}), (None, set())],
    "raise_unless_choice": [(None, 1), ((1, 2), 2), ((1, 2), 3)],
}
