"""Free variables a function never uses (`nonlocal x` with no use of x), run under one interpreter
(see tests/test_decompile_unused_nonlocal.py): each module source is compiled, decompiled, compiled
again and both run; prints JSON {case: {"source": ..., "same_code": bool, "results": [original, again]}}."""

from __future__ import annotations

import json
import types

from source_round_trip import round_trip

CASES = {
    # the declaration alone makes `n` a cell of outer and a free variable of inner
    "declared_unused": '''
def outer():
    n = 0
    def inner():
        nonlocal n
        return 1
    return inner

def run():
    f = outer()
    return [f(), f.__code__.co_freevars, outer.__code__.co_cellvars]
''',
    # passed on to a closure: a free variable of `middle` only through LOAD_CLOSURE, not declared there
    "passed_through": '''
def outer():
    n = 5
    def middle():
        def inner():
            return n
        return inner
    return middle

def run():
    m = outer()
    return [m()(), m.__code__.co_freevars, m.__code__.co_varnames]
''',
    # used and unused side by side, in a method of a local class
    "mixed_in_class": '''
def make():
    a = 1
    b = 2
    class K:
        def get(self):
            nonlocal b
            return a
    return K

def run():
    K = make()
    return [K().get(), K.get.__code__.co_freevars]
''',
}


def result(code: types.CodeType):
    ns: dict = {"__name__": "case"}
    exec(code, ns)
    return repr(ns["run"]())


def main() -> None:
    print(json.dumps({name: round_trip(name, src, result) for name, src in CASES.items()}))


if __name__ == "__main__":
    main()
