"""The runner shared by the check scripts whose cases may have to be compiled by an interpreter that
cannot import framejit (3.8): a script holds its cases as SOURCE (functions named f_*, each taking
(x, log)) and its inputs, and hands them to main(), which gives it these modes:

    python3.X SCRIPT pyc OUT.pyc             write the cases as a .pyc
    python SCRIPT decompile X.pyc OUT.json   (with framejit) decompile the .pyc's f_* functions
    python3.X SCRIPT compare OUT.json        compile the sources again, compare instructions, run both
    python SCRIPT                            (with framejit) decompile, compile and run here

Each function runs on every input for it, original against recompiled; results, exceptions (type,
message, cause) and the side-effect log must be equal. Prints JSON: the interpreter's version and
one row per function (its source, or the refusal; same_instructions; runs, raised, mismatches).
"""

from __future__ import annotations

import json
import os
import sys
import types
from typing import Callable, List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

if "framejit" not in sys.modules and sys.version_info < (3, 9):
    # 3.8 cannot import framejit: only decompile_sweep's comparison helpers are used there
    sys.modules["framejit"] = types.SimpleNamespace(DecompileError=Exception, decompile=None)
from decompile_sweep import normalized, recompiled  # noqa: E402

# The helper the scripts' cases share (SOURCE = RISKY + their functions): it logs its call and
# raises KeyError for x == 1, OSError for x == 2, so the cases' handlers run.
RISKY = '''
def risky(x, log):
    log.append(("risky", x))
    if x == 1:
        raise KeyError(x)
    if x == 2:
        raise OSError(2, "two")
    return x * 10
'''


def run_case(fn, arg):
    """What one call gives: its result or exception, and the log it wrote (a list input is copied,
    so the original and the recompiled function each get their own)."""
    log: list = []
    try:
        result = fn(list(arg) if isinstance(arg, list) else arg, log)
        out = ("ok", repr(result))
    except BaseException as e:  # noqa: BLE001 - the exception is the result
        out = ("raised", type(e).__name__, str(e), type(e.__cause__).__name__ if e.__cause__ else None)
    return out, repr(log)


def check(ns: dict, sources: dict, inputs_for: Callable[[str], List]) -> list:
    """Rows for the f_* functions of `ns` given their decompiled sources (or refusals)."""
    rows = []
    for name, fn in ns.items():
        if not name.startswith("f_"):
            continue
        row: dict = {"name": name}
        source = sources.get(name)
        if not isinstance(source, str):
            row["error"] = (source or {}).get("error", "missing")
            rows.append(row)
            continue
        row["source"] = source
        again = recompiled(fn.__code__, source)
        row["same_instructions"] = again is not None and normalized(again) == normalized(fn.__code__)
        if again is None:
            row["error"] = "no code object"
            rows.append(row)
            continue
        fn2 = types.FunctionType(again, ns, name)
        inputs = inputs_for(name)
        row["runs"], row["raised"], row["mismatches"] = len(inputs), 0, []
        for arg in inputs:
            a, b = run_case(fn, arg), run_case(fn2, arg)
            row["raised"] += a[0][0] == "raised"
            if a != b:
                row["mismatches"].append({"input": repr(arg), "original": a, "decompiled": b})
        rows.append(row)
    return rows


def decompile_all(codes) -> dict:
    """name -> source, or {"error": message}, for the f_* code objects among `codes`."""
    from framejit import DecompileError, decompile

    out: dict = {}
    for c in codes:
        if c.co_name.startswith("f_"):
            try:
                out[c.co_name] = decompile(c)
            except DecompileError as e:
                out[c.co_name] = {"error": str(e)}
    return out


def main(source: str, module_name: str, inputs_for: Callable[[str], List], doc: str) -> None:
    """The script's command line (see this module's docstring); `doc` and these modes are printed
    on a bad mode."""

    def cases() -> dict:
        ns: dict = {"__name__": module_name}
        exec(compile(source, module_name, "exec"), ns)
        return ns

    mode = sys.argv[1] if len(sys.argv) > 1 else "live"
    if mode == "pyc":
        import py_compile
        import tempfile

        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, module_name + ".py")
            with open(src, "w") as fh:
                fh.write(source)
            py_compile.compile(src, cfile=sys.argv[2], doraise=True)
        print(json.dumps({"pyc": sys.argv[2]}))
        return
    if mode == "decompile":
        from framejit.pyc import CodeModel, load_pyc

        consts = load_pyc(sys.argv[2]).code.co_consts
        out = decompile_all(c for c in consts if isinstance(c, CodeModel))
        with open(sys.argv[3], "w") as fh:
            json.dump(out, fh)
        print(json.dumps({"functions": len(out)}))
        return
    if mode == "compare":
        with open(sys.argv[2]) as fh:
            sources = json.load(fh)
    elif mode == "live":
        sources = decompile_all(fn.__code__ for name, fn in cases().items() if name.startswith("f_"))
    else:
        sys.exit(doc + "\n" + (__doc__ or ""))
    rows = check(cases(), sources, inputs_for)
    print(json.dumps({"version": "%d.%d" % sys.version_info[:2], "rows": rows}))
