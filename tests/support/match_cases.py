"""Functions using `match` with every kind of pattern (3.10+), for tests/test_decompile_match.py."""


class Point:
    __match_args__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __repr__(self):
        return f"Point({self.x!r}, {self.y!r})"


class Color:
    RED = 1
    GREEN = 2

    class Shade:
        DARK = "dark"


NOT_A_CLASS = 42


class K:
    A = "a"
    B = "b"


def m_literals(x):
    match x:
        case 0:
            return "zero"
        case 1:
            return "one"
        case -1:
            return "minus one"
        case "s":
            return "str"
        case b"b":
            return "bytes"
        case 2.5:
            return "float"
    return "none matched"


def m_singletons(x):
    match x:
        case None:
            return "None"
        case True:
            return "True"
        case False:
            return "False"
        case _:
            return "other"


def m_dotted(x):
    match x:
        case Color.RED:
            return "red"
        case Color.GREEN:
            return "green"
        case Color.Shade.DARK:
            return "dark"
        case _:
            return "?"


def m_capture(x):
    match x:
        case 1:
            return "one"
        case other:
            return ("other", other)


def m_wildcard_only(x):
    y = 0
    match x:
        case 1:
            y = 1
        case _:
            y = 2
    return y


def m_no_default(x):
    r = []
    match x:
        case 1:
            r.append("a")
        case 2:
            r.append("b")
    r.append("end")
    return r


def m_seq_fixed(x):
    match x:
        case []:
            return "empty"
        case [a]:
            return ("one", a)
        case [a, b]:
            return ("two", a, b)
        case (a, b, c):
            return ("three", a, b, c)
        case _:
            return "other"


def m_seq_star(x):
    match x:
        case [first, *rest]:
            return (first, rest)
        case _:
            return None


def m_seq_star_middle(x):
    match x:
        case [a, *mid, b]:
            return (a, mid, b)
        case [*all_]:
            return all_
        case _:
            return "no"


def m_seq_star_wildcard(x):
    match x:
        case [a, *_, b]:
            return (a, b)
        case [_, _, *_]:
            return "two or more"
        case [*_]:
            return "short"
        case _:
            return "not a sequence"


def m_seq_literals(x):
    match x:
        case [1, 2]:
            return "12"
        case [1, y]:
            return ("1y", y)
        case [x0, 2, *_]:
            return ("x2", x0)
        case _:
            return "other"


def m_mapping(x):
    match x:
        case {"a": 1}:
            return "a1"
        case {"a": av, "b": bv}:
            return (av, bv)
        case {"k": v, **rest}:
            return (v, rest)
        case {}:
            return "some mapping"
        case _:
            return "not a mapping"


def m_mapping_rest_only(x):
    match x:
        case {"t": "point", **others}:
            return others
        case {**everything}:
            return ("all", everything)
        case _:
            return None


def m_class_kw(x):
    match x:
        case Point(x=0, y=0):
            return "origin"
        case Point(x=0, y=yy):
            return ("on y", yy)
        case Point(x=xx, y=0):
            return ("on x", xx)
        case Point():
            return "point"
        case _:
            return "not a point"


def m_class_pos(x):
    match x:
        case Point(0, 0):
            return "origin"
        case Point(a, b):
            return (a, b)
        case _:
            return "?"


def m_builtin_class(x):
    match x:
        case int(n):
            return ("int", n)
        case str(s) if s:
            return ("str", s)
        case str():
            return "empty str"
        case list([a, b]):
            return ("list2", a, b)
        case _:
            return "other"


def m_class_typeerror(x):
    match x:
        case Point(1, 2, 3):
            return "three positional"
        case _:
            return "no"


def m_not_a_class(x):
    match x:
        case 0:
            return "zero"
        case NOT_A_CLASS():
            return "never"
    return "end"


def m_or(x):
    match x:
        case 1 | 2 | 3:
            return "small"
        case "a" | "b":
            return "letter"
        case None | True:
            return "singleton"
        case _:
            return "other"


def m_or_last(x):
    match x:
        case 0:
            return "zero"
        case 1 | 2:
            return "one or two"
    return "else"


def m_or_nested(x):
    match x:
        case [1 | 2, y]:
            return ("a", y)
        case (Point() | None) as p:
            return ("point or none", p)
        case _:
            return "other"


def m_or_capture(x):
    match x:
        case [v] | (v, _):
            return v
        case {"a": v} | {"b": v}:
            return ("map", v)
        case _:
            return None


def m_as(x):
    match x:
        case [1, _] as pair:
            return pair
        case (0 | 1) as bit:
            return ("bit", bit)
        case Point(x=(0 as zero)) as p:
            return (zero, p)
        case _:
            return None


def m_guard(x):
    match x:
        case n if n > 100:
            return "big"
        case [a, b] if a == b:
            return "pair equal"
        case [a, b] if a < b and b < 10:
            return "pair ordered"
        case Point(x=xx) if xx is None:
            return "x none"
        case _ if isinstance(x, str):
            return "string"
        case _:
            return "other"


def m_nested(x):
    match x:
        case {"points": [Point(x=0, y=y0), *more]}:
            return (y0, len(more))
        case [[a, b], [c, d]]:
            return a + b + c + d
        case [Point(a, b), {"k": [c, *_]}]:
            return (a, b, c)
        case _:
            return "other"


def m_tuple_subject(a, b):
    match a, b:
        case (0, 0):
            return "both zero"
        case (0, y):
            return ("a zero", y)
        case (x, 0):
            return ("b zero", x)
        case _:
            return "neither"


def m_in_loop(xs):
    out = []
    for x in xs:
        match x:
            case 0:
                continue
            case "stop":
                break
            case [a, *_]:
                out.append(a)
            case _:
                out.append(x)
    out.append("end")
    return out


def m_statements_around(x):
    total = 1
    match x:
        case [a, b]:
            total += a * b
        case {"n": n}:
            total += n
        case int():
            total = -total
    total *= 2
    return total


def m_nested_match(x, y):
    match x:
        case 0:
            match y:
                case 0:
                    return "00"
                case _:
                    return "0y"
        case _:
            return "x"


def m_single_case(x):
    match x:
        case [a, b]:
            return a + b
    return None


def m_body_flow(x):
    r = 0
    match x:
        case [a, b]:
            if a:
                r = b
            else:
                r = -b
        case int(n):
            while n > 0:
                r += n
                n -= 1
        case _:
            r = None
    return r


def m_or_as_guard(x):
    match x:
        case (1 | 2) as n if n > 1:
            return ("n", n)
        case str() | bytes():
            return "text"
        case [*_]:
            return "seq"
    return "none"


def m_mapping_dotted_keys(x):
    match x:
        case {K.A: 1, K.B: bb}:
            return bb
        case {K.A: [aa, *_]}:
            return aa
        case _:
            return None


def m_values_misc(x):
    match x:
        case -5:
            return "minus five"
        case 1.5 | -2.5:
            return "floats"
        case "a" "b":
            return "ab"
        case ():
            return "empty tuple pattern"
        case _:
            return "?"


def m_subject_expr(d):
    match d.get("k"), len(d):
        case (None, 0):
            return "empty"
        case (None, n):
            return ("no k", n)
        case (v, _):
            return ("k", v)


def m_fallthrough(x):
    r = []
    match x:
        case [a, *rest] if rest:
            r.append(a)
        case [a]:
            r.append(-a)
        case Point(x=px) if px:
            r.append(px)
    r.append(len(r))
    return r


def m_class_nested(x):
    match x:
        case Point(x=Point(x=0) | None, y=[_, *_] as ys):
            return ys
        case Point(Point(a, b), c):
            return (a, b, c)
        case _:
            return None


FUNCTIONS = [
    name for name, value in list(globals().items()) if name.startswith("m_") and callable(value)
]

SUBJECTS = [
    0, 1, 2, 3, -1, 101, 2.5, "s", "a", "b", "", "stop", b"b", None, True, False,
    [], [1], [1, 2], [2, 2], [1, 3], [3, 2], (1, 2, 3), [5, 2, 7, 9], "xy",
    [[1, 2], [3, 4]], [Point(1, 2), {"k": [5, 6]}], [0, "stop", [9], 4],
    {}, {"a": 1}, {"a": 5, "b": 6}, {"b": 7}, {"k": 1, "z": 2}, {"t": "point", "u": 1},
    {"points": [Point(0, 3), Point(1, 1)]}, {"n": 4},
    Point(0, 0), Point(0, 5), Point(4, 0), Point(1, 1), Point(None, 2), Color.RED, Color.GREEN,
    "dark", range(3), object(), -5, 1.5, -2.5, "ab", (), b"x", {"a": 1, "b": 9}, {"a": [4, 5]},
    {"k": None}, {"k": 3, "j": 1}, Point(Point(1, 2), 3), Point(Point(0, 1), [1]), Point(None, (7, 8)),
]
