"""Behaviour suite (session 19, lead): shapes of the stdlib rows the 3.10 sweep still missed.
First, comprehensions whose last condition is a constant false: 3.10+ drop the element (and the
test), so the loop only stores its target (test_grammar's testGenexps)."""


def comp_if_false(xs):
    a = [y for y in xs if False]
    b = {y for y in xs if False}
    c = {y: y for y in xs if False}
    d = list(y for y in xs if False)
    return a, b, c, d


def nested_genexp_if_false(n):
    # the inner generator is still consumed: a bad iterable raises
    return sum(x for x in (y for y in (z for z in range(n) if True) if False) if True)


def comp_if_false_tuple_target(pairs):
    return [k for k, v in pairs if False], [v for k, v in pairs]


CASES = {
    "comp_if_false": [([1, 2, 3],), ([],), ("ab",), (None,)],
    "nested_genexp_if_false": [(0,), (5,), ("x",)],
    "comp_if_false_tuple_target": [([(1, 2), (3, 4)],), ([],), ([(1, 2, 3)],)],
}
