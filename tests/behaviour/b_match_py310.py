"""Behaviour suite (3.10+): match statements with every pattern kind - literal, capture, wildcard,
value, group, sequence (with star), mapping (with **rest), class (positional and keyword), or-patterns,
as-patterns, guards."""

import enum


class Color(enum.Enum):
    RED = 1
    GREEN = 2


class Point:
    __match_args__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


LIMIT = 10


def match_literal(x):
    match x:
        case 0:
            return "zero"
        case 1 | 2:
            return "one or two"
        case "s":
            return "string s"
        case None:
            return "none"
        case True:
            return "true"
        case -3:
            return "minus three"
        case 1.5:
            return "float"
        case b"b":
            return "bytes"
        case 2j:
            return "complex"
        case _:
            return "other"


def match_capture(x):
    match x:
        case 0:
            return "zero"
        case other:
            return "captured %r" % (other,)


def match_value_pattern(x):
    match x:
        case Color.RED:
            return "red"
        case Color.GREEN:
            return "green"
        case Color():
            return "another color"
        case int(n) if n > LIMIT:
            return "above limit"


def match_guard_in_last_case(x):
    # the guard's failure and the pattern's each end in their own copy of the return after the
    # match (3.12+)
    match x:
        case Color():
            return "a color"
        case int(n) if n > LIMIT:
            return "above limit"


def match_only_guarded_case(x):
    match x:
        case (a, b) if a < b:
            return b - a


def match_dotted_value(x):
    import math

    match x:
        case math.pi:
            return "pi"
        case Color.RED:
            return "red"
    return "no match"


def match_sequence(x):
    match x:
        case []:
            return "empty"
        case [a]:
            return ("one", a)
        case [a, b]:
            return ("two", a, b)
        case [a, *rest]:
            return ("many", a, rest)
        case _:
            return "not a sequence"


def match_sequence_star_middle(x):
    match x:
        case [first, *_, last]:
            return first, last
        case (single,):
            return single
    return None


def match_tuple_vs_list(x):
    match x:
        case (1, 2):
            return "pair 1 2"
        case [1, [2, 3]]:
            return "nested"
        case [_, _, _]:
            return "three"
        case str():
            return "str"
    return "other"


def match_mapping(x):
    match x:
        case {"type": "point", "x": px, "y": py}:
            return ("point", px, py)
        case {"type": "circle", **rest}:
            return ("circle", sorted(rest))
        case {}:
            return "some mapping"
        case _:
            return "not mapping"


def match_class_positional(p):
    match p:
        case Point(0, 0):
            return "origin"
        case Point(0, y):
            return "on y axis at %r" % (y,)
        case Point(x, 0):
            return "on x axis at %r" % (x,)
        case Point(x, y):
            return "at %r,%r" % (x, y)
        case _:
            return "not a point"


def match_class_keyword(p):
    match p:
        case Point(x=0, y=yy):
            return ("x zero", yy)
        case Point(x=xx, y=0):
            return ("y zero", xx)
    return "no"


def match_builtin_classes(x):
    match x:
        case bool(b):
            return "bool %r" % b
        case int(i) if i > 100:
            return "big int"
        case int():
            return "int"
        case str() | bytes():
            return "text"
        case list([*items]):
            return "list of %d" % len(items)
        case dict(d):
            return "dict %d" % len(d)
    return "unknown"


def match_or_pattern_captures(x):
    match x:
        case [a, 1] | [1, a]:
            return "pair with one, other %r" % (a,)
        case {"k": a} | {"j": a}:
            return "mapping %r" % (a,)
    return None


def match_as_pattern(x):
    match x:
        case [(1 | 2) as small, *_] as whole:
            return small, whole
        case Point(x=(0 | 1) as px) as pt:
            return "point", px, pt.y
        case (str() as s):
            return "s=" + s
    return "none"


def match_guard(x):
    match x:
        case [a, b] if a == b:
            return "equal pair"
        case [a, b] if a > b:
            return "descending"
        case [_, _]:
            return "pair"
        case n if isinstance(n, int) and n < 0:
            return "negative"
    return "fallthrough"


def match_guard_side_effects(xs):
    log = []

    def check(v):
        log.append(v)
        return v > 1

    for x in xs:
        match x:
            case int(v) if check(v):
                log.append("big")
            case int(v):
                log.append("small")
            case _:
                log.append("other")
    return log


def match_nested_patterns(cmd):
    match cmd:
        case ["go", ("north" | "south") as d]:
            return "go " + d
        case ["drop", *objs] if objs:
            return "drop " + ",".join(objs)
        case {"action": "move", "to": [x, y]}:
            return "move %r" % ((x, y),)
        case ["quit"] | ["exit"]:
            return "bye"
    return "unknown command"


def match_in_loop(items):
    out = []
    for it in items:
        match it:
            case 0:
                continue
            case "stop":
                break
            case [x, *_]:
                out.append(x)
            case _:
                out.append(it)
    return out


def match_no_case_matches(x):
    result = "unset"
    match x:
        case 1:
            result = "one"
    return result


def match_subject_expression(a, b):
    match a, b:
        case (0, 0):
            return "both zero"
        case (0, _) | (_, 0):
            return "one zero"
        case (x, y) if x == y:
            return "same"
    return "differ"


def match_string_not_sequence(x):
    match x:
        case [a, b]:
            return "sequence of two"
        case str(s):
            return "string " + s
    return "other"


def match_mapping_rest_and_values(d):
    match d:
        case {"a": 1, **kw}:
            return "a1", kw
        case {"a": [1, *_] as lst}:
            return "a list", lst
    return "no"


def match_raises_in_guard(x):
    match x:
        case [v] if 10 // v:
            return "nonzero"
        case _:
            return "default"


def match_walrus_and_class_error(x):
    match x:
        case Point(a, b, c):
            return a, b, c
    return "no"


CASES = {
    "match_literal": [(0,), (2,), ("s",), (None,), (True,), (-3,), (1.5,), (b"b",), (2j,), ("q",)],
    "match_capture": [(0,), ([1],)],
    "match_value_pattern": [(Color.RED,), (Color.GREEN,), (10,), (11,), (1,)],
    "match_guard_in_last_case": [(Color.RED,), (11,), (3,), ("s",), (None,)],
    "match_only_guarded_case": [((1, 5),), ((5, 1),), ((1, 2, 3),), ([2, 9],), ("ab",), (7,)],
    "match_dotted_value": [(3.141592653589793,), (Color.RED,), (1,)],
    "match_sequence": [([],), ([1],), ((1, 2),), ([1, 2, 3],), ("ab",), (5,)],
    "match_sequence_star_middle": [([1, 2, 3, 4],), ((9,),), ([],)],
    "match_tuple_vs_list": [((1, 2),), ([1, 2],), ([1, [2, 3]],), ((1, 2, 3),), ("abc",), (None,)],
    "match_mapping": [({"type": "point", "x": 1, "y": 2},), ({"type": "circle", "r": 1},), ({"a": 1},), ([],)],
    "match_class_positional": [(Point(0, 0),), (Point(0, 5),), (Point(3, 0),), (Point(1, 2),), (1,)],
    "match_class_keyword": [(Point(0, 1),), (Point(2, 0),), (Point(1, 1),)],
    "match_builtin_classes": [(True,), (500,), (5,), ("s",), (b"b",), ([1, 2],), ({"a": 1},), (1.5,)],
    "match_or_pattern_captures": [([5, 1],), ([1, 7],), ({"k": 1},), ({"j": 2},), ([2, 2],)],
    "match_as_pattern": [([1, 9],), ([3],), (Point(1, 5),), ("x",), (Point(4, 4),)],
    "match_guard": [([1, 1],), ([3, 1],), ([1, 3],), (-5,), (5,)],
    "match_guard_side_effects": [([1, 2, "a", 3],), ([],)],
    "match_nested_patterns": [(["go", "north"],), (["go", "east"],), (["drop", "a", "b"],), (["drop"],),
                              ({"action": "move", "to": [1, 2]},), (["quit"],), (["exit"],)],
    "match_in_loop": [([1, 0, [5, 6], "stop", 9],), ([],)],
    "match_no_case_matches": [(1,), (2,)],
    "match_subject_expression": [(0, 0), (0, 1), (2, 0), (3, 3), (1, 2)],
    "match_string_not_sequence": [("ab",), ([1, 2],), (1,)],
    "match_mapping_rest_and_values": [({"a": 1, "b": 2},), ({"a": [1, 2]},), ({"a": 2},)],
    "match_raises_in_guard": [([1],), ([0],), (5,)],
    "match_walrus_and_class_error": [(Point(1, 2),), (1,)],
}
