"""Behaviour suite: expressions - operators, f-strings, walrus, chained comparisons, conditional
expressions, slices, star-unpacking, literals, attribute/subscript assignment forms."""


def arithmetic(a, b):
    return a + b, a - b, a * b, a / b, a // b, a % b, a ** 2, -a, +a, abs(a - b)


def bitwise(a, b):
    return a & b, a | b, a ^ b, ~a, a << 2, a >> 1


def augmented(a, b):
    x = a
    x += b
    x *= 2
    x -= 1
    x //= 3
    x **= 2
    x %= 1000
    y = a
    y |= b
    y &= 0xFF
    y ^= 3
    y <<= 1
    y >>= 2
    return x, y


def augmented_targets(xs, k):
    class O:
        pass

    o = O()
    o.v = 10
    o.v += k
    xs[0] += k
    xs[-1] *= 2
    d = {"a": 1}
    d["a"] -= k
    return o.v, xs, d


def matmul(a, b):
    class M:
        def __init__(self, v):
            self.v = v

        def __matmul__(self, o):
            return M(self.v * o.v)

        def __imatmul__(self, o):
            return M(self.v + o.v)

    m = M(a) @ M(b)
    m @= M(1)
    return m.v


def comparisons(a, b):
    return a < b, a <= b, a == b, a != b, a > b, a >= b, a is b, a is not b


def membership(x, seq):
    return x in seq, x not in seq, not x in seq  # noqa: E713


def chained_comparison(a, b, c):
    return a < b < c, a == b == c, a < b > c, a <= b != c


def chained_comparison_side_effect(x):
    calls = []

    def f(v):
        calls.append(v)
        return v

    r = f(1) < f(x) < f(10)
    return r, calls


def chained_long(a, b, c, d):
    return a < b <= c < d, a is not b is not c, a in [b] in [[c]]


def chained_in_if(x):
    if 0 <= x < 10:
        return "digit"
    elif -10 < x < 0 or 10 <= x <= 99:
        return "two"
    return "other"


def conditional_expr(x):
    return "even" if x % 2 == 0 else "odd"


def conditional_expr_nested(x):
    return "neg" if x < 0 else "zero" if x == 0 else "small" if x < 10 else "big"


def conditional_expr_in_args(a, b):
    return max(a if a else b, b if b else a), [a or b, a and b]


def boolean_ops(a, b, c):
    return a and b or c, a or b and c, not a or not b, (a or b) and (b or c), not (a and b)


def boolean_short_circuit(x):
    log = []

    def t(v):
        log.append(v)
        return v

    r = t(x) and t(1) or t(2) and t(0)
    return r, log


def walrus_if(xs):
    if (n := len(xs)) > 2:
        return "long", n
    return "short", n


def walrus_while(data):
    it = iter(data)
    out = []
    while (v := next(it, None)) is not None:
        out.append(v)
    return out


def walrus_in_expression(x):
    y = (z := x * 2) + z
    return y, z, [w := 5, w * 2]


def fstring_basic(x, y):
    return f"x={x} y={y} sum={x + y}"


def fstring_conversions(x):
    return f"{x!r}|{x!s}|{x!a}"


def fstring_format_spec(x, width, prec):
    return f"{x:>{width}.{prec}f}|{x:<10}|{x:^{width}}|{x:+.2e}"


def fstring_nested_spec(x, w):
    fill = "*"
    return f"{x:{fill}^{w}}|{x!r:>{w + 2}}"


def fstring_debug_equals(x):
    return f"{x=}|{x = }|{x*2=:>6}"


def fstring_quotes_and_braces(s):
    return f"{{{s}}}" + f'"{s}"' + f"{s!r:{len(s) + 4}}"


def fstring_expressions(d):
    return f"{d['a']}-{len(d)}-{', '.join(sorted(d))}-{'yes' if d else 'no'}"


def fstring_format_dunder(x):
    class F:
        def __format__(self, spec):
            return "<" + spec + ">"

    return f"{F():abc}|{F():{x}}|{F()!s:>20}"


def percent_and_format(x):
    return "%s-%r-%05.1f" % (x, x, 3.14159), "{0}-{1!r}".format(x, x), format(x, "")


def slices(xs, a, b):
    return xs[a:b], xs[a:], xs[:b], xs[::2], xs[a:b:-1], xs[::-1], xs[:]


def slice_assign_delete(xs, a, b):
    xs = list(xs)
    xs[a:b] = ["X"]
    ys = list(range(10))
    del ys[::3]
    ys[1:3] = []
    zs = list(range(6))
    zs[::2] = "abc"
    return xs, ys, zs


def slice_objects(x):
    s = slice(1, x)
    return [0, 1, 2, 3, 4][s], "hello"[x:-1], (1, 2, 3)[-x:]


def extended_subscripts(x):
    class G:
        def __getitem__(self, k):
            return k

    g = G()
    return g[1:2, x], g[..., 1], g[x, :], g[::x], g[()], g[1:2:3]


def star_unpack_assign(seq):
    a, *b = seq
    *c, d = seq
    e, *f, g = seq
    return a, b, c, d, e, f, g


def star_unpack_nested(seq):
    (a, *b), c = seq
    return a, b, c


def star_in_literals(a, b):
    return [*a, *b], (*a, 0), {*a, *b} == set(a) | set(b), {**{"x": 1}, **dict.fromkeys(b, 2)}


def star_in_call(a, b):
    def f(*args, **kw):
        return args, sorted(kw.items())

    return f(*a, *b), f(1, *a, 2), f(**{"k": 1}, **{"j": 2})


def tuple_swap(a, b, c):
    a, b = b, a
    a, b, c = c, a, b
    return a, b, c


def chained_assignment(x):
    a = b = c = x
    d = e = [x]
    d.append(1)
    return a, b, c, e


def multiple_target_unpack(x):
    p = q, r = (x, x + 1)
    return p, q, r


def literals(x):
    return (
        1, -1, 1.5, 1e100, 2j, True, False, None, ..., "s", b"b", r"\n",
        (1,), (), [], {}, {1}, frozenset(), {"a": [1, (2,)]}, 0xFF, 0o7, 0b101, 1_000,
        "\u00e9", "\x00", x,
    )


def big_literal_collections(x):
    lst = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, x]
    dct = {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9, "j": 10, "k": x}
    st = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}
    return lst, dct, sorted(st)


def attribute_chains(x):
    import os.path

    return os.path.basename(x), x.upper().lower().strip(), "".join([x]).__len__()


def subscript_chains(d, a, b):
    return d[a][b], d[a][-1:], d.get(a, {})[b]


def unary_not_combinations(a, b):
    return not a, not not a, not (a == b), not a == b, -(-a), ~~a


def operator_precedence(a, b, c):
    return a + b * c, (a + b) * c, a ** b ** c, -a ** 2, (-a) ** 2, a - b - c, a - (b - c), a / b / c


def string_ops(s, n):
    return s * n, s + s, s[::-1], s.split(), "%s" % s, s.join("ab")


def ellipsis_and_none(x):
    return x is None, x is ..., x == (), type(...).__name__


def lambda_default_capture(x):
    fs = [(lambda k=k: k * x) for k in range(3)]
    return [f() for f in fs]


CASES = {
    "arithmetic": [(7, 2), (7.5, 2), (1, 0), ("a", 1)],
    "bitwise": [(12, 10), (0, -1), (1.0, 2)],
    "augmented": [(5, 3), (0, 0), ("a", 1)],
    "augmented_targets": [([1, 2, 3], 4), ([5], 1), ([], 1)],
    "matmul": [(2, 3), ("a", 1)],
    "comparisons": [(1, 2), (2, 1), (1, 1), (1, "a")],
    "membership": [(1, [1, 2]), (3, (1, 2)), ("a", "abc"), (1, 5)],
    "chained_comparison": [(1, 2, 3), (1, 1, 1), (3, 2, 1), (1, 3, 2), (1, "a", 2)],
    "chained_comparison_side_effect": [(5,), (0,), (20,)],
    "chained_long": [(1, 2, 3, 4), (1, 2, 2, 3), (4, 3, 2, 1), (1, 1, 1, 1)],
    "chained_in_if": [(5,), (-5,), (50,), (100,), ("a",)],
    "conditional_expr": [(1,), (2,), ("a",)],
    "conditional_expr_nested": [(-1,), (0,), (5,), (50,)],
    "conditional_expr_in_args": [(0, 1), (2, 0), (0, 0)],
    "boolean_ops": [(0, 0, 0), (1, 0, 1), (1, 1, 0), ("", "a", None), (0, 1, 1)],
    "boolean_short_circuit": [(0,), (1,), (None,)],
    "walrus_if": [([1, 2, 3],), ([],), (5,)],
    "walrus_while": [([1, 2, None, 3],), ([],)],
    "walrus_in_expression": [(2,), ("a",)],
    "fstring_basic": [(1, 2), ("a", "b"), (1, "a")],
    "fstring_conversions": [("é",), (1,), ([1, "x"],)],
    "fstring_format_spec": [(3.14159, 10, 2), (2, 5, 0), ("s", 3, 1)],
    "fstring_nested_spec": [("ab", 6), (1, 4)],
    "fstring_debug_equals": [(1,), ("s",)],
    "fstring_quotes_and_braces": [("x",), ("",)],
    "fstring_expressions": [({"a": 1, "b": 2},), ({},)],
    "fstring_format_dunder": [("z",)],
    "percent_and_format": [(1,), ("s",)],
    "slices": [([0, 1, 2, 3, 4, 5], 1, 4), ("abcdef", -3, None), ([1], 5, 0), ([1], "a", 1)],
    "slice_assign_delete": [([1, 2, 3], 0, 2), ("ab", 1, 1)],
    "slice_objects": [(3,), (0,), ("a",)],
    "extended_subscripts": [(1,), ("a",)],
    "star_unpack_assign": [([1, 2, 3, 4],), ("ab",), ([1],)],
    "star_unpack_nested": [([[1, 2, 3], 4],), ([[1], 2],), ([[], 2],)],
    "star_in_literals": [([1, 2], "ab"), ((), ())],
    "star_in_call": [([1], [2, 3]), ((), ())],
    "tuple_swap": [(1, 2, 3), ("a", "b", "c")],
    "chained_assignment": [(1,), ("s",)],
    "multiple_target_unpack": [(1,), ("a",)],
    "literals": [(0,)],
    "big_literal_collections": [(0,), ("x",)],
    "attribute_chains": [("/a/b.txt",), (1,)],
    "subscript_chains": [({"a": {"b": 1}}, "a", "b"), ({"a": [1, 2]}, "a", 0), ({}, "a", "b")],
    "unary_not_combinations": [(1, 1), (0, 1), (5, -5), (1.5, 0)],
    "operator_precedence": [(2, 3, 2), (1, 0, 1), (2.0, 1, 4)],
    "string_ops": [("a b", 2), ("", 0), ("x", "y")],
    "ellipsis_and_none": [(None,), (...,), ((),)],
    "lambda_default_capture": [(2,), ("a",)],
}
