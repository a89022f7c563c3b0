"""Behaviour suite: assert, del, every import form inside functions, return forms, pass, docstrings,
print side effects and mutated arguments."""


def assert_plain(x):
    assert x
    return "passed"


def assert_message(x):
    assert x > 0, "x must be positive, got %r" % (x,)
    return x


def assert_in_loop(xs):
    total = 0
    for x in xs:
        assert isinstance(x, int), x
        total += x
    return total


def assert_complex_condition(a, b):
    assert a and (b or a > 5), (a, b)
    assert not (a == b == 0)
    return a, b


def del_local(x):
    y = x
    del y
    try:
        return y  # noqa: F821
    except UnboundLocalError:
        return "unbound"


def del_multiple(d, xs):
    del d["a"], xs[0]
    return d, xs


def del_attr(x):
    class O:
        pass

    o = O()
    o.a = x
    o.b = 2
    del o.a
    return sorted(vars(o)), hasattr(o, "a")


def del_slice_and_item(xs):
    del xs[1:3]
    del xs[-1]
    return xs


def del_tuple_target(x):
    a, b, c = x, x, x
    del (a, b), [c]
    return "deleted"


def del_missing(d):
    del d["missing"]
    return d


def import_plain(x):
    import math

    return math.floor(x)


def import_dotted(x):
    import os.path

    return os.path.join("a", x), os.__name__


def import_dotted_as(x):
    import os.path as osp

    return osp.join(x, "b"), osp.__name__.endswith("path")


def import_from(x):
    from collections import OrderedDict, defaultdict

    d = defaultdict(int)
    d[x] += 1
    return list(OrderedDict(d).items())


def import_from_as(x):
    from json import dumps as d, loads as l  # noqa: E741

    return l(d(x)), d(x)


def import_from_dotted(x):
    from xml.etree import ElementTree as ET

    return ET.tostring(ET.Element(x)).decode()


def import_missing(name):
    try:
        __import__(name)
    except ImportError as e:
        return "missing " + type(e).__name__
    from importlib import import_module

    return import_module(name).__name__


def import_from_missing_name(x):
    try:
        from math import does_not_exist  # noqa: F401
    except ImportError:
        return "no name", x
    return "found"


def import_in_branch(x):
    if x:
        import string as s
    else:
        import re as s
    return s.__name__


def import_relative_fails(x):
    try:
        from . import sibling  # noqa: F401
    except ImportError as e:
        return "relative: " + str(e)
    return "imported"


def print_side_effect(x):
    print("value", x)
    print(x, x, sep="-", end="!\n")
    return None


def print_in_loop(n):
    for i in range(n):
        print(i, end=" ")
    print()
    return n


def mutate_argument(xs, d):
    xs.append(len(xs))
    xs.sort()
    d["seen"] = True
    d.pop("drop", None)


def return_forms(k):
    if k == 0:
        return
    if k == 1:
        return None
    if k == 2:
        return 1, 2
    if k == 3:
        return (1,)
    return [k]


def docstring_function(x):
    """A docstring that is not an expression statement of the body."""
    return x


def pass_statements(x):
    if x:
        pass
    else:
        pass
    for _ in ():
        pass
    while False:
        pass
    try:
        pass
    except Exception:
        pass
    return x


def expression_statements(xs):
    xs.append(1)
    xs[0]
    len(xs)
    xs.append(2) if xs else xs.append(3)
    return xs


def unused_constant_expr(x):
    "not a docstring" if x else None  # noqa: B018
    42  # noqa: B018
    return x


def nonlocal_and_del(x):
    v = x

    def f():
        nonlocal v
        del v

    f()
    try:
        return v
    except NameError as e:
        return type(e).__name__


def global_statement_in_loop(xs):
    global LAST_SEEN
    for x in xs:
        LAST_SEEN = x
    return LAST_SEEN


def raise_various(k):
    if k == 0:
        raise
    if k == 1:
        raise TypeError("t")
    if k == 2:
        raise StopIteration(5)
    return k


CASES = {
    "assert_plain": [(1,), (0,), ("",)],
    "assert_message": [(1,), (-2,), ("a",)],
    "assert_in_loop": [([1, 2],), ([1, "x"],), ([],)],
    "assert_complex_condition": [(1, 1), (1, 0), (6, 0), (0, 0), (0, 1)],
    "del_local": [(1,)],
    "del_multiple": [({"a": 1, "b": 2}, [1, 2]), ({}, [1]), ({"a": 1}, [])],
    "del_attr": [(1,)],
    "del_slice_and_item": [([1, 2, 3, 4, 5],), ([],)],
    "del_tuple_target": [(1,)],
    "del_missing": [({"missing": 1},), ({},)],
    "import_plain": [(2.5,), ("a",)],
    "import_dotted": [("b",), (1,)],
    "import_dotted_as": [("a",)],
    "import_from": [("k",)],
    "import_from_as": [([1, "a"],), ({"x": None},)],
    "import_from_dotted": [("tag",)],
    "import_missing": [("json",), ("no_such_module_xyz",)],
    "import_from_missing_name": [(1,)],
    "import_in_branch": [(1,), (0,)],
    "import_relative_fails": [(1,)],
    "print_side_effect": [(1,), ("s",)],
    "print_in_loop": [(3,), (0,)],
    "mutate_argument": [([3, 1], {"drop": 1}), ([], {}), ([1, "a"], {})],
    "return_forms": [(0,), (1,), (2,), (3,), (4,)],
    "docstring_function": [(1,)],
    "pass_statements": [(1,), (0,)],
    "expression_statements": [([],), ([5],), (None,)],
    "unused_constant_expr": [(1,), (0,)],
    "nonlocal_and_del": [(1,)],
    "global_statement_in_loop": [([1, 2],), ([],)],
    "raise_various": [(0,), (1,), (2,), (3,)],
}
