"""Behaviour suite: module-level and class-level code. Decompiling the whole module must rebuild these
globals; the functions read them."""

import os
import os.path
import os.path as osp
from collections import namedtuple, OrderedDict as OD
from functools import *  # noqa: F401,F403
from math import (
    floor,
    ceil as ceiling,
)

SQUARES = [i * i for i in range(6)]
TABLE = {k: v for k, v in zip("abc", range(3))}
try:
    import no_such_module_for_behaviour  # noqa: F401
except ImportError:
    HAVE_MISSING = False
else:
    HAVE_MISSING = True

if os.sep == "/":
    SEP_NAME = "slash"
else:
    SEP_NAME = "other"

total = 0
for _i in range(5):
    if _i == 3:
        continue
    total += _i
else:
    total *= 10
del _i

counter = 0
while counter < 3:
    counter += 1

Pair = namedtuple("Pair", "a b")
ORDERED = OD(x=1)
LAMBDA = lambda v: v + total  # noqa: E731
WALRUS = (w := 5) * 2
STAR_A, *STAR_REST = range(4)
CHAINED = 1 < total < 1000
FSTR = f"{total:>6}|{SEP_NAME!r}"


def _decorate(fn):
    fn.tagged = True
    return fn


class Config:
    """Class-level code of every kind."""

    DEFAULTS = {"a": 1}
    names = [n.upper() for n in ("x", "y")]
    if len(names) > 1:
        plural = True
    else:
        plural = False
    for _k in range(2):
        DEFAULTS["k%d" % _k] = _k
    del _k
    try:
        bad = int("x")
    except ValueError:
        bad = None
    alias = DEFAULTS
    size: int = 3
    untyped: "str"

    def __init__(self, **kw):
        self.values = dict(self.DEFAULTS, **kw)

    @_decorate
    def get(self, k):
        return self.values[k]

    @property
    def count(self):
        return len(self.values)

    @classmethod
    def build(cls, **kw):
        return cls(**kw)

    @staticmethod
    def helper(v):
        return v * 2

    class Nested:
        level = 2

        def where(self):
            return __class__.__qualname__


@_decorate
class Tagged(Config, metaclass=type):
    def get(self, k):
        return "tagged " + str(super().get(k))


def _module_helper(v):
    return v * 3


def read_globals(x):
    return SQUARES, TABLE, HAVE_MISSING, SEP_NAME, total, counter, x


def use_imports(x):
    return osp.basename(x), os.path.dirname(x), floor(2.5), ceiling(2.5), ORDERED, reduce(lambda a, b: a + b, [1, 2, 3])  # noqa: F405


def use_namedtuple(a, b):
    p = Pair(a, b)
    return p.a, p.b, p._replace(a=0), tuple(p)


def use_config(k):
    c = Config.build(z=9)
    return c.get(k), c.count, Config.helper(k), Config.plural, Config.names, Config.bad, Config.size


def use_tagged(k):
    return Tagged().get(k), Tagged.tagged, Config.get.tagged, Config.Nested().where()


def use_module_lambda_and_walrus(x):
    return LAMBDA(x), WALRUS, w, STAR_A, STAR_REST, CHAINED, FSTR


def use_helper(x):
    return _module_helper(x)


CASES = {
    "read_globals": [(1,)],
    "use_imports": [("/a/b",), (5,)],
    "use_namedtuple": [(1, 2), ("x", None)],
    "use_config": [("a",), ("k1",), ("z",), ("missing",)],
    "use_tagged": [("a",), ("q",)],
    "use_module_lambda_and_walrus": [(1,), ("s",)],
    "use_helper": [(2,), ("ab",)],
}
