"""Behaviour suite: chained assignments of a name or constant through attribute and item targets
(`self.a = self.b = None`): the value is loaded once and copied (COPY / DUP_TOP), which two
separate assignments would not do."""


class Box:
    pass


def attrs_none():
    b = Box()
    b.a = b.b = None
    return b.a, b.b


def attrs_name(v):
    b = Box()
    b.a = b.b = v
    return b.a, b.b


def items_name(v):
    d = {}
    d[0] = d[1] = v
    return d


def names_const():
    x = y = 0
    return x, y


def separate_stores(v):
    b = Box()
    b.a = v
    b.b = v
    return b.a, b.b


CASES = {
    "attrs_none": [()],
    "attrs_name": [(1,), ("s",)],
    "items_name": [(2,), (None,)],
    "names_const": [()],
    "separate_stores": [(3,)],
}
