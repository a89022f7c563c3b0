"""Module docstrings and the 3.14 set of conditional annotations, run under one interpreter (see
tests/test_decompile_module_docstring.py): each module source is compiled, decompiled, compiled
again; prints JSON {case: {"source": ..., "same_code": bool, "doc": [original, again]}}."""

from __future__ import annotations

import json
import sys

from framejit import decompile
from source_round_trip import codes

CASES = {
    # a docstring compiles to `__doc__ = '...'`: written back as a docstring, a `from __future__`
    # import may follow it
    "doc_then_future": '"""The module."""\nfrom __future__ import annotations\nx: int = 1\n',
    "doc_only": '"""Just this."""\n',
    # an assignment to __doc__ that is not first stays one
    "doc_assigned_later": 'x = 1\n__doc__ = "late"\n',
    # a name a function declares `global` is stored with STORE_GLOBAL by the module too, even where
    # the function only reads it (its own code then shows no declaration): the module declares it,
    # after the docstring and future imports (run with separate globals and locals, the two differ)
    "global_in_function": (
        '"""Doc."""\nfrom __future__ import annotations\n_cache = {}\n'
        "def get(k):\n    global _cache\n    return _cache.get(k)\n"
    ),
    # an f-string without fields as a statement: ≤3.11 load and drop it; no docstring (written
    # back as a plain string it became the function's and the class's __doc__ until session 15)
    "fstring_statements": (
        "def g():\n    f'Not a {{docstring}}'\n"
        "def h(x):\n    if x:\n        f'kept'\n    return x\n"
        "class K:\n    f'not the doc'\n    y = 1\n"
    ),
    "module_global": "global q\nq = 1\nr = q + 1\ndel q\nq = [q for q in 'ab']\n",
}
if sys.version_info >= (3, 14):
    # annotations inside compound statements make the body create __conditional_annotations__
    # first (under `from __future__ import annotations` too): the compiler's, not the source's
    CASES["conditional_future"] = (
        '"""Doc."""\nfrom __future__ import annotations\nimport sys\nif sys:\n    X: int = 3\n'
        'Y: str = "a"\nclass C:\n    if sys:\n        a: int = 1\n    b: int\n'
    )
    CASES["conditional_lazy"] = (
        'import sys\nif sys:\n    X: int = 3\nY: str = "a"\n'
        'class D:\n    "Doc D."\n    if sys:\n        a: int = 1\n'
    )


def main() -> None:
    report = {}
    for name, src in CASES.items():
        original = compile(src, name, "exec", dont_inherit=True)
        text = decompile(original)
        again = compile(text, name, "exec", dont_inherit=True)
        ns1: dict = {}
        ns2: dict = {}
        exec(original, ns1)
        exec(again, ns2)
        # the global cases run again with a locals mapping apart from the globals, where
        # STORE_GLOBAL and STORE_NAME differ
        split: list = [({}, {}), ({}, {})]
        if "global" in name:
            exec(original, *split[0])
            exec(again, *split[1])
        report[name] = {
            "source": text,
            "same_code": codes(original) == codes(again),
            "doc": [ns1.get("__doc__"), ns2.get("__doc__")],
            # (the docstrings of what the module defines)
            "docs": [{k: getattr(v, "__doc__", None) for k, v in ns.items() if callable(v) and k != "__builtins__"}
                     for ns in (ns1, ns2)],
            "split": [sorted(k for k in d if k != "__builtins__") for pair in split for d in pair],
        }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
