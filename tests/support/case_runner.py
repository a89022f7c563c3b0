"""The per-case loop the construct check scripts share (finally_exits_checks, except_star_checks,
legacy_shapes_checks): each case function is decompiled, compiled again in a fresh namespace, its
normalized instructions compared with the original's, and both run on every input."""

from __future__ import annotations

import textwrap
from typing import Callable, Iterable

from decompile_sweep import normalized
from framejit import DecompileError, decompile


def case_functions(cases: str, ns: dict) -> list:
    """Exec the cases' source into `ns`; the names of the functions it defines, in order."""
    exec(compile(textwrap.dedent(cases), "<cases>", "exec"), ns)
    return [n for n, v in ns.items() if callable(v) and getattr(v, "__code__", None) is not None
            and v.__code__.co_filename == "<cases>"]


def run_case(name: str, ns: dict, namespace: Callable[[], dict], inputs: Iterable,
             call: Callable, before_call: Callable[[dict, dict], None] = lambda a, b: None) -> dict:
    """One case: decompiled, compiled again in `namespace()`, compared instruction by instruction,
    and called on every input with `call` (`before_call(ns, ns2)` resets state the cases write)."""
    fn = ns[name]
    res: dict = {"decompiled": False, "compiled": False, "identical": False, "behaviour": None}
    try:
        src = decompile(fn)
    except DecompileError as e:
        res["error"] = str(e)
        return res
    res["decompiled"] = True
    res["source"] = src
    ns2 = namespace()
    try:
        exec(compile(src, "<decompiled>", "exec"), ns2)
    except SyntaxError as e:
        res["error"] = f"syntax: {e}"
        return res
    res["compiled"] = True
    fn2 = ns2[name]
    a, b = normalized(fn.__code__), normalized(fn2.__code__)
    res["identical"] = a == b
    if a != b:
        k = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        res["first_difference"] = [k, repr(a[k:k + 3]), repr(b[k:k + 3])]
    diffs = []
    for arg in inputs:
        before_call(ns, ns2)
        x = call(fn, arg)
        y = call(fn2, arg)
        if x != y:
            diffs.append({"input": repr(arg), "original": x, "decompiled": y})
    res["behaviour"] = "equal" if not diffs else "different"
    if diffs:
        res["diffs"] = diffs[:3]
    return res
