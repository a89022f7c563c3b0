"""What CPython 3.12+ compiles differently (inlined comprehensions, super(), intrinsics, class bodies
reading free variables): each case is a module; decompile its code object, run the original and the
decompiled-and-recompiled module's `run` on several inputs, and compare the results and every code
object's instruction sequence. Prints JSON: one entry per case."""

from __future__ import annotations

import json
import os
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_sweep import normalized  # noqa: E402

from framejit import decompile  # noqa: E402

CASES = {
    "listcomp_conditions": '''
def run(xs):
    ys = [x * 2 for x in xs if x > 1 if x != 5]
    return ys, [x for x in xs if not x % 2]
''',
    "nested_loops": '''
def run(xs):
    return [(a, b) for a in xs for b in range(a) if a + b > 2]
''',
    "nested_comprehensions": '''
def run(xs):
    d = {k: [y for y in range(k) if y] for k in xs}
    return d, {s for t in d.values() for s in t}
''',
    "shadowing": '''
def run(xs):
    x = 'outer'
    total = sum([x for x in xs])
    return total, x
''',
    "dict_items": '''
def run(xs):
    d = {str(k): k for k in xs}
    return {v: k for k, v in d.items() if v}
''',
    "comprehension_args": '''
def run(xs):
    return max([x - 3 for x in xs], default=None), len({x for x in xs}), sorted(xs, key=lambda v: -v)
''',
    "comprehension_in_loop": '''
def run(xs):
    out = []
    for n in xs:
        out.append([m for m in range(n) if m % 2])
    return out
''',
    "class_body": '''
class K:
    base = [1, 2, 3]
    doubled = [v * 2 for v in range(4)]
    names = {str(v): v for v in range(3)}

def run(xs):
    return K.doubled, K.names, [K.base[0] + x for x in xs]
''',
    "module_level": '''
TABLE = {n: n * n for n in range(5)}
EVENS = [n for n in range(10) if n % 2 == 0]

def run(xs):
    return [TABLE.get(x) for x in xs], EVENS
''',
    "super_calls": '''
class Base:
    def m(self, x):
        return ('base', x)

    @property
    def p(self):
        return 7

class Child(Base):
    def m(self, x):
        return super().m(x), super().p

    def two(self, x):
        return super(Child, self).m(x + 1)

def run(xs):
    c = Child()
    return [c.m(x) for x in xs], c.two(len(xs))
''',
    "star_calls": '''
def f(*a, **k):
    return a, sorted(k.items())

def run(xs):
    return f(*xs, 1, *xs), f(0, *xs, k=1), f(*xs, **{'z': 2}.copy())
''',
    "unary_plus": '''
def run(xs):
    return [+x for x in xs], -len(xs), +len(xs)
''',
    "class_free_variable": '''
def make(v):
    class Inner:
        value = v
        def get(self):
            return v
    return Inner

def run(xs):
    c = make(len(xs))
    return c.value, c().get()
''',
    "import_star": '''
from os.path import *

def run(xs):
    return join('a', str(len(xs)))
''',
    "generator": '''
def gen(xs):
    for x in xs:
        if x:
            yield x * 2

def run(xs):
    return list(gen(xs))
''',
    "generator_without_yield": '''
def empty(xs):
    while False:
        yield None

def run(xs):
    g = empty(xs)
    return type(g).__name__, list(g)
''',
    "annotations": '''
class Box:
    def put(self, x: int, y: "str" = "a") -> list[int]:
        return [x] * len(y)

def run(xs):
    return Box().put(len(xs)), sorted(Box.put.__annotations__)
''',
    "comprehension_closure": '''
def run(xs):
    fs = [lambda: x for x in xs]
    return [f() for f in fs]
''',
    "subscripts": '''
def run(xs):
    d = {i: v for i, v in enumerate(xs)}
    tail = xs[1:] if xs else None
    return [d[i] for i in range(len(xs)) if d[i] > 1], tail
''',
    "with_statements": '''
log = []

class cm:
    def __init__(self, tag):
        self.tag = tag

    def __enter__(self):
        log.append(("enter", self.tag))
        return self.tag * 2

    def __exit__(self, *exc):
        log.append(("exit", self.tag, exc[0] is None))
        return False

def run(xs):
    del log[:]
    with cm(len(xs)) as v:
        w = [v + x for x in xs]
    with cm(0):
        w.append(0)
    return w, list(log)
''',
    "conditional_expression_tails": '''
def pick(xs, n):
    return n, xs[n:] if n < len(xs) else None

def call(xs):
    y = len(xs[0] if xs else "none")
    return y

def run(xs):
    return pick(xs, 1), pick(xs, 9), call(xs), len([lambda: v for v in xs][-1:])
''',
    "generator_try_at_end": '''
def items(seq):
    i = 0
    try:
        while True:
            v = seq[i]
            yield v * 2
            i += 1
    except IndexError:
        return

def run(xs):
    return list(items(xs)), [y for y in items(xs) if y > 2]
''',
    "short_circuit_values": '''
class Holder:
    def set(self, state):
        self.buffer = state or ""
        return self.buffer

def run(xs):
    first = xs and xs[0]
    return first, Holder().set(xs), len(xs) or None, [x or -1 for x in xs]
''',
    "module_if_else_tail": '''
import sys

def run(xs):
    return MODE, [m for m in xs if m > LIMIT]

if sys.maxsize > 2 ** 40:
    from os.path import *
    MODE = join("a", "b")
    LIMIT = 1
else:
    MODE = "small"
    LIMIT = 3
''',
}

INPUTS = [[], [1, 2, 3], [5, 0, 4, 9], [2, 2, 7, 1, 0]]


def code_objects(code: types.CodeType, prefix: str = ""):
    yield prefix + code.co_name, code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from code_objects(c, prefix + code.co_name + ".")


def outcome(ns: dict, arg):
    try:
        return ("ok", repr(ns["run"](list(arg))))
    except Exception as e:  # the same exception type and text is the same behaviour
        return ("raise", type(e).__name__, str(e))


def check(name: str, source: str) -> dict:
    code = compile(source, f"<{name}>", "exec", dont_inherit=True)
    try:
        text = decompile(code)
    except Exception as e:
        return {"case": name, "ok": False, "error": f"{type(e).__name__}: {e}"}
    try:
        code2 = compile(text, f"<{name}>", "exec", dont_inherit=True)
    except SyntaxError as e:
        return {"case": name, "ok": False, "error": f"does not compile: {e}", "source": text}
    original: dict = {"__name__": name}
    again: dict = {"__name__": name}
    exec(code, original)
    exec(code2, again)
    results = [(outcome(original, a), outcome(again, a)) for a in INPUTS]
    same_results = all(a == b for a, b in results)
    seq1 = {k: normalized(c) for k, c in code_objects(code)}
    seq2 = {k: normalized(c) for k, c in code_objects(code2)}
    same_code = seq1 == seq2
    differing = sorted(k for k in seq1.keys() | seq2.keys() if seq1.get(k) != seq2.get(k))
    return {
        "case": name,
        "ok": same_results and same_code,
        "same_results": same_results,
        "same_code": same_code,
        "differing": differing,
        "results": [list(map(list, r)) for r in results] if not same_results else None,
        "source": text,
    }


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
