"""What CPython 3.14 compiles in new ways: inlined all()/any()/tuple() of a generator expression,
module and class annotations as compiler-made __annotate__ functions (conditional ones through
__conditional_annotations__), `async with` through LOAD_SPECIAL, template strings. Each case is a
module: decompile its code object, run the original's and the decompiled-and-recompiled module's
`run` on several inputs, compare the results and every code object's instruction sequence
(decompile_py312_cases.check). Also: a fast path of an inlined call that is not the compiler's is
refused, not dropped. Prints JSON."""

from __future__ import annotations

import dis
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

from framejit import DecompileError, decompile  # noqa: E402

CASES = {
    "inlined_builtins": '''
def run(xs):
    a = all(x > 1 for x in xs)
    if any(x == 2 for x in xs):
        a = (a, 'two')
    return a, tuple(x * 2 for x in xs if x), all(x for x in xs) or any(x for x in xs)
''',
    "inlined_return": '''
def run(xs):
    return all(x < 9 for x in xs)
''',
    "inlined_shadowed": '''
def all(it):
    return 'mine', list(it)
def run(xs):
    return all(x + 1 for x in xs), any(-x for x in xs)
''',
    "class_annotations": '''
def run(xs):
    class C:
        """doc"""
        a: int
        b: list[str] = xs
        if xs:
            c: float
            d: "str" = 'd'
        e: bytes
        def m(self, q: C) -> int:
            r: int = 1
            return r
    return sorted(C.__annotations__.items(), key=repr), C.b, C().m(None)
''',
    "class_annotations_closure": '''
def run(xs):
    T = type(xs)
    class C:
        item: T
        n: int = len(xs)
    return sorted(C.__annotations__.items(), key=repr), C.n
''',
    "module_annotations": '''
import sys
x: int = 1
y: list[str]
if sys:
    z: float = 2.0
for _ in ():
    never: str
def run(xs):
    g = globals()
    return sorted(g["__annotate__"](1).items(), key=repr) if "__annotate__" in g else sorted(g["__annotations__"])
''',
    "async_with": '''
import asyncio
class M:
    def __init__(self, log):
        self.log = log
    async def __aenter__(self):
        self.log.append('in')
        return len(self.log)
    async def __aexit__(self, *exc):
        self.log.append('out')
async def body(xs):
    log = []
    async with M(log) as n:
        log.append(n)
        if xs:
            return log
    async with M(log):
        log.append(sum(xs))
    return log
def run(xs):
    return asyncio.run(body(xs))
''',
}

TSTRING_CASES = {
    "tstrings": '''
def parts(t):
    return [p if isinstance(p, str) else (p.value, p.expression, p.conversion, p.format_spec) for p in t]
def run(xs):
    n = len(xs)
    return parts(t"n={n}"), parts(t"{n!r:>{n}}{xs=}{ n + 1 }"), parts(t""), [parts(t"<{x}>") for x in xs]
''',
}


def wrong_fast_path() -> dict:
    """`all(genexp)` whose inlined fast path answers True where the builtin answers False: not the
    compiler's expansion of the call, so it must not be dropped (the decompiler refuses)."""
    code = compile("def f(xs):\n    return all(x for x in xs)\n", "<wrong>", "exec").co_consts[0]
    false = code.co_consts.index(False)
    true = code.co_consts.index(True)
    raw = bytearray(code.co_code)
    seen_for = False
    for ins in dis.get_instructions(code):
        seen_for = seen_for or ins.opname == "FOR_ITER"
        if seen_for and ins.opname == "LOAD_CONST" and ins.arg == false:
            raw[ins.offset + 1] = true
            break
    else:
        return {"case": "wrong_fast_path", "ok": False, "error": "no fast path found"}
    bad = code.replace(co_code=bytes(raw))
    try:
        text = decompile(bad)
    except DecompileError as e:
        return {"case": "wrong_fast_path", "ok": True, "error": str(e)}
    return {"case": "wrong_fast_path", "ok": False, "source": text}


def main() -> None:
    cases = dict(CASES)
    if sys.version_info >= (3, 14):
        cases.update(TSTRING_CASES)
    results = [check(k, v) for k, v in cases.items()]
    if sys.version_info >= (3, 14):
        results.append(wrong_fast_path())
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
