"""Behaviour suite: forms CPython 3.14 compiles in new ways, written so that every version runs them -
all()/any()/tuple() of a generator expression (3.14 inlines them behind a test that the name is the
builtin), module and class annotations (3.14: a compiler-made __annotate__ function and, for
annotations inside compound statements, __conditional_annotations__). `async with` (3.14: LOAD_SPECIAL
__aenter__/__aexit__) is in b_py314_async.py, template strings (3.14 syntax) in b_tstrings_py314.py."""

LIMIT: int = 3
names: list[str]
if LIMIT > 2:
    big: bool = True
    size: "int"
else:
    small: bool
for _i in range(2):
    looped: int
while LIMIT < 0:
    never: str


def module_annotations():
    g = globals()
    if "__annotate__" in g:
        return sorted(g["__annotate__"](1).items())
    return sorted(g.get("__annotations__", {}).items())


def all_positive(xs):
    return all(x > 0 for x in xs)


def any_equal(xs, y):
    if any(x == y for x in xs):
        return "found"
    return "missing"


def tuple_of_squares(xs):
    return tuple(x * x for x in xs)


def all_in_expression(xs, ys):
    ok = all(x in ys for x in xs) and any(y for y in ys)
    return ok, tuple(str(x) for x in xs if x), all(xs), any(x for x in ())


def shadowed_all(xs):
    all = lambda it: "shadow %d" % len(list(it))  # noqa: E731
    return all(x for x in xs)


def all_with_side_effects(xs):
    seen = []

    def check(x):
        seen.append(x)
        return x < 3

    return all(check(x) for x in xs), any(check(-x) for x in xs), seen


def class_annotations(v):
    class Point:
        """A point."""

        x: int
        y: int = v
        label: "str" = "p"
        if v:
            z: float
            w: float = 2.0
        for _k in range(1):
            k: int
        norm = v * 2

        def length(self) -> int:
            n: int = self.y
            return n

    return sorted(Point.__annotations__.items(), key=repr), Point.y, Point.label, Point.norm, Point().length()


def class_annotations_closure(t):
    class Box:
        item: t
        count: int = 0

    return sorted(Box.__annotations__.items(), key=repr), Box.count


def class_annotations_only_conditional(flag):
    class Maybe:
        if flag:
            a: int
        else:
            b: str
        for _ in range(1):
            c: bytes

    return sorted(Maybe.__annotations__.items(), key=repr)


CASES = {
    "module_annotations": [()],
    "all_positive": [([1, 2, 3],), ([1, -2, 3],), ([],), (None,)],
    "any_equal": [([1, 2, 3], 2), ([1, 2], 5), ([], 0)],
    "tuple_of_squares": [([1, 2, 3],), ([],), ("ab",)],
    "all_in_expression": [([1, 2], [1, 2, 3]), ([0, 4], [4]), ([], [])],
    "shadowed_all": [([1, 2, 3],), ([],)],
    "all_with_side_effects": [([1, 2, 3, 4],), ([5],), ([],)],
    "class_annotations": [(0,), (7,)],
    "class_annotations_closure": [(int,), (list[str],)],
    "class_annotations_only_conditional": [(True,), (False,)],
}
