"""Calls whose arguments the source unpacks from a display (`f(*(1, 2))`, `f(*[a, b])`,
`f(**{'k': 1})`, `{**{'a': 1}}`) against calls the compiler packs itself (`f(a, *b)`, `f(x, **k)`,
3.10+ calls with more than 30 arguments), run under one interpreter (see
tests/test_decompile_call_shapes.py): each case is compiled, decompiled, compiled again and run;
prints JSON {case: {"source": ..., "same_code": bool, "results": [original, again]}}."""

from __future__ import annotations

import json
import types

from source_round_trip import round_trip

MANY = ", ".join(str(i) for i in range(40))
MANY_NAMES = ", ".join(f"a{i % 2}" for i in range(40))
SOME_KW = ", ".join(f"k{i}={i}" for i in range(6))
CASES = {
    "star_const_tuple": "f(*(1, 2, 3))",
    "star_list_display": "f(*[a0, a1])",
    "star_tuple_display": "f(*(a0, a1))",
    "star_const_list": "f(*[1, 2, 3])",
    "star_set_display": "f(*{a0})",
    "star_name": "f(*seq)",
    "packed_star": "f(a0, *seq)",
    "packed_two_stars": "f(*seq, *seq)",
    "dstar_display": "f(**{'extra': 1})",
    "dstar_display_not_a_name": "f(**{'2': 2})",
    "positional_then_dstar_display": "f(a0, **{'extra': 1})",
    "dstar_name": "f(**kw)",
    "dstar_then_keyword": "f(**kw, z=1)",
    "consts_then_dstar": "f(1, 2, 3, **kw)",
    "star_consts_and_keyword": "f(*(1, 2, 3), z=1)",
    "method_star_tuple": "o.m(*(1, 2))",
    "many_consts": f"f({MANY})",
    "many_names": f"f({MANY_NAMES})",
    "consts_and_keywords_past_the_limit": f"f({', '.join(str(i) for i in range(20))}, {SOME_KW})",
    "dict_dstar_display": "{**{'a': 1}}",
    "dict_dstar_then_key": "{**kw, 'k': 1}",
    "dict_key_then_dstar": "{'k': 1, **kw}",
}
# class statements: __build_class__ called with unpacking (CALL_FUNCTION_EX)
CLASS_CASES = {
    "class_star_bases": "class C(*bases):\n    z = 1\nx = [k.__name__ for k in C.__mro__], C.z",
    "class_dstar": "class C(**meta):\n    z = 2\nx = type(C).__name__, C.z",
    "class_base_star_keyword": "class C(B, *bases, metaclass=M):\n    pass\nx = type(C).__name__, [k.__name__ for k in C.__mro__]",
    "class_decorated_dstar": "@deco\nclass C(B, **meta):\n    pass\nx = C.tag, type(C).__name__",
}
PRELUDE = '''
def f(*a, **k):
    return a, sorted(k.items())

class O:
    def m(self, *a):
        return a

o = O()
a0, a1, seq, kw = 5, 6, (7, 8), {"y": 9}

class B:
    pass

class B2:
    pass

class M(type):
    pass

bases = (B2,)
meta = {"metaclass": M}

def deco(c):
    c.tag = "decorated"
    return c
'''


def result(code: types.CodeType):
    ns: dict = {}
    exec(compile(PRELUDE, "prelude", "exec"), ns)
    try:
        exec(code, ns)
        return repr(ns["x"])
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"


def main() -> None:
    cases = {name: f"x = {expr}\n" for name, expr in CASES.items()}
    cases.update({name: src + "\n" for name, src in CLASS_CASES.items()})
    print(json.dumps({name: round_trip(name, src, result) for name, src in cases.items()}))


if __name__ == "__main__":
    main()
