"""PEP 695 type parameters and `type` aliases (3.12+; defaults 3.13+): each case is a module;
decompile its code object, compile the output, run the original's and the recompiled module's `run`
on several inputs (which report __type_params__, evaluated bounds, constraints, defaults, alias
values, and call the functions), and compare the results and every code object's instruction
sequence (the type-parameter scopes and the lazily evaluated bound/default/value functions among
them). Also: shapes that must be refused. Prints JSON."""

from __future__ import annotations

import json
import os
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_sweep import normalized  # noqa: E402

from framejit import DecompileError, decompile  # noqa: E402

# name -> (first minor version, source)
CASES = {
    "generic_function": (12, '''
def first[T](xs: list[T]) -> T:
    return xs[0]

def run(x):
    p = first.__type_params__
    return first([x, 2]), [type(t).__name__ for t in p], [t.__name__ for t in p], first.__annotations__["return"] is p[0]
'''),
    "bounds_constraints_kinds": (12, '''
def f[T: int, U: (str, bytes), *Ts, **P](a: T, b: U, *rest: *Ts) -> tuple[T, U]:
    return a, b, rest

def run(x):
    p = f.__type_params__
    return (f(x, "s", 1, 2), [type(t).__name__ for t in p], p[0].__bound__, p[1].__constraints__,
            p[1].__bound__, [t.__name__ for t in p], f.__annotations__["rest"] == f.__annotations__["rest"])
'''),
    "defaults_and_kwdefaults": (12, '''
def g[T](a: T = 1, b=[2], *, k: T = 3, j=None) -> T:
    return a, b, k, j

def run(x):
    return g(x), g(x, k=x), g.__defaults__, g.__kwdefaults__, g.__type_params__[0].__name__
'''),
    "decorated": (12, '''
def tag(f):
    f.tagged = True
    return f

def wrap(f):
    return lambda *a: ("wrapped", f(*a))

@wrap
@tag
def h[T](a: T) -> T:
    return a

@tag
class K[T]:
    pass

def run(x):
    return h(x), K.tagged, K.__type_params__[0].__name__
'''),
    "generic_class": (12, '''
class Base:
    def hello(self):
        return "base"

class Meta(type):
    def __new__(m, name, bases, ns, **kw):
        ns["kw"] = kw
        return super().__new__(m, name, bases, ns)

class Box[T, *Ts, **P](Base, metaclass=Meta, flag=1):
    """A box."""
    size: int = 3

    def __init__(self, item: T):
        self.item = item

    def get(self) -> T:
        return self.item, super().hello()

    def map[S](self, f: "Callable[[T], S]") -> "Box[S]":
        return Box(f(self.item))

    def typed[S: (int, str)](self, v: S) -> tuple[T, S]:
        return self.item, v

def run(x):
    b = Box(x)
    p = Box.__type_params__
    m = Box.typed.__type_params__
    return (b.get(), b.map(lambda v: [v]).item, b.typed("s"), [t.__name__ for t in p], Box.kw,
            Box.__doc__, Box.__mro__[1].__name__, [t.__name__ for t in m], m[0].__constraints__,
            Box.typed.__annotations__["return"] == tuple[p[0], m[0]], Box.__orig_bases__[-1].__origin__.__name__)
'''),
    "type_aliases": (12, '''
type Pair = tuple[int, int]
type Lazy[T] = list[T] | None
type Later = Undefined
type Multi[K, *Vs, **P] = dict[K, tuple[*Vs]]

def run(x):
    try:
        later = Later.__value__
    except NameError as e:
        later = "lazy: " + str(e)
    return (Pair.__name__, repr(Pair.__value__), Lazy.__type_params__[0].__name__, repr(Lazy.__value__),
            later, [type(t).__name__ for t in Multi.__type_params__], x)
'''),
    "in_function_and_class_scope": (12, '''
def make(scale):
    def outer[T](v: T) -> T:
        def inner():
            return v * scale
        return inner()

    type Local[T] = dict[str, T]

    class Inner[U]:
        type Member = list[U]
        attr = scale

        def m[V](self, a: V, b: U) -> Member:
            return a, b, self.attr

    return outer, Local, Inner

def run(x):
    outer, Local, Inner = make(x)
    return (outer(3), Local.__name__, repr(Local.__value__), repr(Inner.Member.__value__),
            Inner().m(1, 2), [t.__name__ for t in Inner.m.__type_params__])
'''),
    "bound_lazy_and_class_scope": (12, '''
class Scope:
    Alias = int

    def f[T: Alias](self, v: T) -> Alias:
        return v

    type In = Alias

def g[T: UndefinedBound]():
    return 1

def run(x):
    p = Scope.f.__type_params__[0]
    try:
        gb = g.__type_params__[0].__bound__
    except NameError as e:
        gb = "lazy bound: " + str(e)
    return Scope().f(x), p.__bound__, Scope.f.__annotations__["return"], Scope.In.__value__, g(), gb
'''),
    "async_and_private": (12, '''
class P:
    def __hidden[T](self, v: T) -> T:
        return ("hidden", v)

    def call(self, v):
        return self.__hidden(v)

async def co[T](v: T) -> T:
    return v

def run(x):
    c = co(x)
    try:
        c.send(None)
    except StopIteration as e:
        r = e.value
    return P().call(x), r, [t.__name__ for t in co.__type_params__]
'''),
    "type_param_defaults": (13, '''
def f[T = int, U: str = "s", V: (int, str) = str, *Ts = *tuple[int, ...], **P = [int, str]](a: T) -> T:
    return a

class C[T = list[int], *Ts = *tuple[()]]:
    pass

type A[K = str, **P = ...] = dict[K, int]

def run(x):
    fp = f.__type_params__
    return (f(x), [t.__default__ for t in fp], fp[1].__bound__, fp[2].__constraints__,
            [repr(t.__default__) for t in C.__type_params__], [repr(t.__default__) for t in A.__type_params__],
            [t.has_default() for t in fp])
'''),
}

# name -> (first minor version, source): shapes refused (DecompileError), never miscompiled
REFUSED = {
    # a conditional expression in a generic class's bases: control flow in the type-parameter scope
    "conditional_base": (12, '''
class C[T](int if FLAG else str):
    pass
'''),
}

INPUTS = [1, "a", [2]]


def code_objects(code: types.CodeType, prefix: str = ""):
    yield prefix + code.co_name, code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from code_objects(c, prefix + code.co_name + ".")


def outcome(ns: dict, arg):
    try:
        return ("ok", repr(ns["run"](arg)))
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
        "ok": same_results and same_code and all(r[0][0] == "ok" for r in results),
        "same_results": same_results,
        "same_code": same_code,
        "code_objects": len(seq1),
        "differing": differing,
        "results": [list(map(list, r)) for r in results],
        "source": text,
    }


def refused(name: str, source: str) -> dict:
    code = compile(source, f"<{name}>", "exec", dont_inherit=True)
    try:
        text = decompile(code)
    except DecompileError as e:
        return {"case": name, "ok": True, "error": str(e)}
    return {"case": name, "ok": False, "source": text}


def main() -> None:
    minor = sys.version_info[1]
    out = {
        "cases": [check(k, src) for k, (m, src) in CASES.items() if minor >= m],
        "refused": [refused(k, src) for k, (m, src) in REFUSED.items() if minor >= m],
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
