"""Behaviour suite (3.14+): template strings (PEP 750) - fields with conversions, format specs (nested
fields too), the `=` form, spacing in a field's source text, and templates in comprehensions."""


def parts(t):
    return [(type(p).__name__, p) if isinstance(p, str) else (p.value, p.expression, p.conversion, p.format_spec)
            for p in t]


def plain(a, b):
    return parts(t"x{a}y{b}z"), parts(t""), parts(t"text only")


def conversions(a):
    return parts(t"{a!r}{a!s}{a!a}{a}")


def format_specs(a, w):
    return parts(t"{a:>10}{a:{w}}{a!r:>{w}.{w}}")


def debug_and_spacing(a):
    return parts(t"{a=}{ a }{a = }{a+1}{ a * 2 }")


def expressions(d, xs):
    return parts(t"{d['k']}{xs[0]}{len(xs)}{[x for x in xs]}{(lambda: 1)()}")


def in_comprehension(xs):
    return [parts(t"<{x}>") for x in xs]


def multiline(a):
    return parts(t"""first {a}
second""")


CASES = {
    "plain": [(1, "b"), ("a", None)],
    "conversions": [("é",), (3,)],
    "format_specs": [(3.5, 6), ("s", 2)],
    "debug_and_spacing": [(2,), (10,)],
    "expressions": [({"k": 1}, [4, 5]), ({}, [])],
    "in_comprehension": [([1, 2],), ([],)],
    "multiline": [(1,)],
}
