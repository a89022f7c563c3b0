"""Private names in classes (`__x`, stored mangled as `_C__x`), run under one interpreter (see
tests/test_decompile_private_names.py): each module source is compiled, decompiled, compiled again
and both modules run; prints JSON {case: {"source": ..., "same_code": bool, "results": [original, again]}}."""

from __future__ import annotations

import json
import types

from source_round_trip import round_trip

CASES = {
    "attributes_and_methods": '''
class Account:
    __rate = 3

    def __init__(self, owner, *, __limit=10):
        self.__owner = owner
        self.__limit = __limit
        self.__history = []

    def __log(self, what):
        self.__history.append(what)
        return len(self.__history)

    def deposit(self, n: int, __note: str = "") -> int:
        self.__log((n, __note))
        return n * self.__rate

    def report(self):
        return [h for h in self.__history if h[0] > self.__limit // 10], self.__owner

def run():
    a = Account("ann", _Account__limit=20)
    out = [a.deposit(5, "x"), a.deposit(1)]
    out.append(a.report())
    out.append(sorted(k for k in vars(a)))
    out.append(sorted(Account.deposit.__annotations__))
    out.append(sorted(getattr(Account, "__static_attributes__", ())))
    return out
''',
    "nested_private_class": '''
class Outer:
    class __Inner:
        __secret = 7

        def get(self):
            # (mangled with this class's name: Outer's __tag is not visible as __tag here)
            return self.__secret, getattr(Outer, '_Outer__tag')

    __tag = "t"

    def make(self):
        return self.__Inner().get()

def run():
    return [Outer().make(), sorted(n for n in vars(Outer) if "Inner" in n or "tag" in n)]
''',
    "closures_lambdas_imports": '''
class Box:
    def __init__(self):
        __seen = []
        self.__add = lambda v: __seen.append(v) or len(__seen)
        self.__seen = __seen

    def put(self, *__items, **__named):
        import __future__ as __f
        from collections import OrderedDict as __od
        for __v in __items:
            self.__add(__v)
        d = __od((k, v) for k, v in __named.items())
        return [(lambda __z: __z * 2)(len(self.__seen)), list(d), __f.__name__]

def run():
    return Box().put(1, 2, a=3)
''',
    # a name written mangled in the source is the same name
    "written_mangled": '''
class K:
    def __init__(self):
        self._K__v = 1

    def get(self):
        return self.__v

def run():
    return K().get()
''',
}


def result(code: types.CodeType):
    ns: dict = {"__name__": "case"}
    exec(code, ns)
    try:
        return repr(ns["run"]())
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"


def main() -> None:
    print(json.dumps({name: round_trip(name, src, result) for name, src in CASES.items()}))


if __name__ == "__main__":
    main()
