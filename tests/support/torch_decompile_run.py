"""Decompile what torch.compile generates, run the recompiled code in its place, compare outputs.

For every program of tests/support/torch_programs.py: torch._dynamo.reset(), a bytecode hook
(torch._dynamo.convert_frame.register_bytecode_hook) that receives (original code, Dynamo's
transformed code) for every frame Dynamo converts, the resume functions
(torch_dynamo_resume_in_...) included. The hook

  1. decompiles the transformed code with framejit.decompiler.decompile_with_constants (and, for a
     resume function, the resume function Dynamo generated too, which is decompiled only),
  2. compiles the source again and takes the code object of the same name,
     (with --run-generated-resume, a resume function as Dynamo generated it is recompiled and
     returned instead, so the frame runs the generated code itself, eagerly, through its
     decompiled source),
  3. returns that code object, so that torch runs it instead of its own, when its co_varnames,
     co_freevars, co_cellvars, argument counts and flags equal the transformed code's (otherwise
     torch's is kept and the code object is recorded as "incompatible").

Objects with no literal spelling (Dynamo puts functions, the compiled graph, guards' objects ... in
co_consts) come back from decompile_with_constants as names ``__framejit_const_<i>`` plus a table.
The recompiled code loads them with LOAD_GLOBAL where the original used LOAD_CONST: the runner
renames them per code object (``__fj<k>_const_<i>``) and installs them in ``builtins``, which every
frame's global lookup falls back to whatever module the frame belongs to. So constants are
compared by behaviour, not instruction for instruction.

Then the compiled program (torch.compile(fn, backend="eager")) runs on every input set and its
outputs (and captured stdout) are compared with eager execution. Prints JSON.

Usage: PYTHONPATH=python python tests/support/torch_decompile_run.py [--only NAME ...] [--sources]
"""

from __future__ import annotations

import __future__
import argparse
import ast
import builtins
import contextlib
import copy
import io
import json
import os
import re
import sys
import traceback
import types
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
import torch._dynamo  # noqa: E402
from torch._dynamo.convert_frame import register_bytecode_hook  # noqa: E402

from framejit import DecompileError  # noqa: E402
from framejit.decompiler import decompile_with_constants  # noqa: E402

import torch_programs  # noqa: E402

FUTURE_FLAGS = 0
for _f in __future__.all_feature_names:
    FUTURE_FLAGS |= getattr(__future__, _f).compiler_flag
CO_NESTED = 0x10  # informational only: set on any function compiled inside another
COMPARED = ("co_argcount", "co_posonlyargcount", "co_kwonlyargcount", "co_varnames", "co_freevars", "co_cellvars")
_serial = [0]


def _kind(code: types.CodeType) -> str:
    return "resume" if code.co_name.startswith("torch_dynamo_resume_in_") else "transformed"


def _decompile(code: types.CodeType):
    """(source, constants) or a record of why not."""
    try:
        source, consts = decompile_with_constants(code)
    except DecompileError as e:
        return None, None, {"status": "decompile_error", "error": str(e)}
    except Exception as e:  # noqa: BLE001 - a crash of the decompiler is a finding, not a harness error
        return None, None, {"status": "decompiler_crash", "error": f"{type(e).__name__}: {e}"}
    return source, consts, None


def _find_code(code: types.CodeType, name: str):
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            if c.co_name == name:
                return c
            found = _find_code(c, name)
            if found is not None:
                return found
    return None


def _def_name(code: types.CodeType) -> str:
    """The name of the `def` the decompiler writes for `code` (a lambda's with statements: `lambda_`)."""
    return "lambda_" if code.co_name == "<lambda>" else code.co_name


def _compile_find(new: types.CodeType, src: str):
    flags = new.co_flags & FUTURE_FLAGS
    module = compile(src, new.co_filename, "exec", flags=flags, dont_inherit=True)
    # (a lambda's transformed code has statements: the decompiler writes it as `def lambda_`)
    return _find_code(module, new.co_name) or _find_code(module, _def_name(new))


def _pad_locals(src: str, new: types.CodeType):
    """`src` with a dead first statement in the function naming Dynamo's locals in their order, so
    that the recompiled frame has Dynamo's layout (the frame evaluator copies locals by index)."""
    tree = ast.parse(src)
    fn = next(
        (
            n
            for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name in (new.co_name, _def_name(new))
        ),
        None,
    )
    if fn is None:
        return None
    # (after the function's nonlocal / global declarations, which must come before any use)
    first = next((s for s in fn.body if not isinstance(s, (ast.Nonlocal, ast.Global))), fn.body[-1])
    lines = src.splitlines(keepends=True)
    indent = " " * first.col_offset
    body = []
    if new.co_varnames:
        body.append(" = ".join(new.co_varnames) + " = None")
    if new.co_freevars:
        body.append("(" + ", ".join(new.co_freevars) + ",)")  # a read makes each a free variable
    pad = f"{indent}if False:  # framejit harness: frame layout\n" + "".join(f"{indent}    {b}\n" for b in body)
    return "".join(lines[: first.lineno - 1]) + pad + "".join(lines[first.lineno - 1 :])


def _is_temp(name: str) -> bool:
    return re.fullmatch(r"_tmp\d+", name) is not None


def _layout(code: types.CodeType) -> tuple:
    """co_varnames without the decompiler's temporaries at the end."""
    names = list(code.co_varnames)
    while names and _is_temp(names[-1]):
        names.pop()
    return tuple(names)


def _recompile(new: types.CodeType, source: str, consts: dict):
    """The recompiled code object, its record entries, and the renamed constant table."""
    _serial[0] += 1
    prefix = f"__fj{_serial[0]}_const_"
    renamed = {k.replace("__framejit_const_", prefix): v for k, v in consts.items()}
    src = re.sub(r"\b__framejit_const_(\d+)\b", lambda m: prefix + m.group(1), source)
    if new.co_freevars:
        # a closure's code: define it inside a function whose locals are those cells
        cells = "".join(f"    {n} = None\n" for n in new.co_freevars)
        body = "".join("    " + line + "\n" for line in src.splitlines())
        src = f"def __fj_outer():\n{cells}{body}    return {new.co_name}\n"
    try:
        rc = _compile_find(new, src)
    except SyntaxError as e:
        return None, {"status": "syntax_error", "error": f"{e.msg} (line {e.lineno})"}, renamed
    if rc is None:
        return None, {"status": "not_found", "error": f"no code object named {new.co_name} in the recompiled source"}, renamed
    extra = {}
    temps = [n for n in rc.co_varnames if _is_temp(n) and n not in new.co_varnames]
    if (rc.co_varnames, rc.co_freevars) != (new.co_varnames, new.co_freevars) and set(rc.co_varnames) - set(
        temps
    ) <= set(new.co_varnames):
        # Dynamo keeps the original function's locals and cells (some unused in the transformed
        # code) first, and its frame evaluator copies them by index: recreate that layout
        padded = _pad_locals(src, new)
        try:
            rc2 = _compile_find(new, padded) if padded is not None else None
        except SyntaxError:
            rc2 = None
        if rc2 is not None and (_layout(rc2), rc2.co_freevars) == (new.co_varnames, new.co_freevars):
            unused = [n for n in new.co_varnames + new.co_freevars if n not in rc.co_varnames + rc.co_freevars]
            rc, extra = rc2, {"padded_locals": unused}
    if temps:
        # the decompiler's temporaries (`_tmp1 = x[0]; del x; return _tmp1`) come after Dynamo's
        # locals: the frame evaluator fills the first ones by index, the temporaries start unbound
        extra["temporaries"] = temps
    diffs = [
        a
        for a in COMPARED
        if (_layout(rc) if a == "co_varnames" else getattr(rc, a)) != getattr(new, a)
    ]
    if (rc.co_flags & ~CO_NESTED) != (new.co_flags & ~CO_NESTED):
        diffs.append("co_flags")
    if diffs:
        detail = {a: [repr(getattr(new, a)), repr(getattr(rc, a))] for a in diffs}
        return None, {"status": "incompatible", "differs": detail}, renamed
    return rc, {"status": "substituted", **extra}, renamed


def make_hook(records: list, show_sources: bool, run_generated: bool = False):
    def hook(old: types.CodeType, new: types.CodeType):
        rec = {"name": new.co_name, "kind": _kind(old), "consts": 0}
        records.append(rec)
        if rec["kind"] == "resume":
            # the resume function as Dynamo generated it (before it was itself converted)
            source, consts, err = _decompile(old)
            rec["resume_source"] = err or {"status": "decompiled"}
            if err is None and run_generated:
                # run it (recompiled) in place of Dynamo's conversion of it: the frame then runs
                # the generated resume function's own code, eagerly
                rc, result, renamed = _recompile(old, source, consts)
                rec["resume_source"] = result
                if rc is not None:
                    for k, v in renamed.items():
                        setattr(builtins, k, v)
                    rec["decompiled"] = True
                    rec["consts"] = len(consts)
                    rec["status"] = "substituted"
                    if show_sources:
                        rec["source"] = source
                    return rc.replace(co_filename=new.co_filename, co_firstlineno=new.co_firstlineno)
        source, consts, err = _decompile(new)
        if err is not None:
            rec.update(err)
            return None
        rec["decompiled"] = True
        rec["consts"] = len(consts)
        if show_sources:
            rec["source"] = source
        rc, result, renamed = _recompile(new, source, consts)
        rec.update(result)
        if rc is None:
            return None
        for k, v in renamed.items():
            setattr(builtins, k, v)
        rc = rc.replace(co_filename=new.co_filename, co_firstlineno=new.co_firstlineno)
        return rc

    return hook


def same(a, b) -> bool:
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
            return False
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        return bool(torch.equal(a, b) or torch.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True))
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return type(a) is type(b) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def call(prog, fn, args, kwargs):
    prog.reset()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            result = ("ok", fn(*copy.deepcopy(args), **copy.deepcopy(kwargs)))
        except Exception as e:  # noqa: BLE001
            result = ("raised", f"{type(e).__name__}: {e}")
    return result, out.getvalue()


def run_program(prog, show_sources: bool, run_generated: bool = False) -> dict:
    torch._dynamo.reset()
    records: list = []
    handle = register_bytecode_hook(make_hook(records, show_sources, run_generated))
    runs = []
    try:
        compiled = torch.compile(prog.fn, backend="eager")
        for args, kwargs in prog.inputs:
            eager, eager_out = call(prog, prog.fn, args, kwargs)
            comp, comp_out = call(prog, compiled, args, kwargs)
            equal = eager[0] == comp[0] and (same(eager[1], comp[1]) if eager[0] == "ok" else eager[1] == comp[1])
            run = {"equal": bool(equal and eager_out == comp_out)}
            if not run["equal"]:
                run["eager"] = repr(eager)[:300] + " stdout=" + repr(eager_out)[:200]
                run["compiled"] = repr(comp)[:300] + " stdout=" + repr(comp_out)[:200]
            runs.append(run)
    except Exception:  # noqa: BLE001
        runs.append({"equal": False, "harness_error": traceback.format_exc()[-1500:]})
    finally:
        handle.remove()
    subst = sum(r.get("status") == "substituted" for r in records)
    return {
        "name": prog.name,
        "code_objects": len(records),
        "transformed": sum(r["kind"] == "transformed" for r in records),
        "resume": sum(r["kind"] == "resume" for r in records),
        "decompiled": sum(bool(r.get("decompiled")) for r in records),
        "substituted": subst,
        "runs": len(runs),
        "runs_equal": sum(r["equal"] for r in runs),
        "runs_with_substitution_equal": sum(r["equal"] for r in runs) if subst else 0,
        "records": records,
        "mismatches": [r for r in runs if not r["equal"]],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--sources", action="store_true", help="include each decompiled source")
    ap.add_argument(
        "--no-overhead-marker",
        action="store_true",
        help="torch._dynamo.config.record_runtime_overhead = False: no profiler-marker prologue in transformed code",
    )
    ap.add_argument(
        "--run-generated-resume",
        action="store_true",
        help="run each resume function as Dynamo generated it (decompiled, recompiled) in place of its conversion",
    )
    opts = ap.parse_args()
    torch._dynamo.config.cache_size_limit = 64
    if opts.no_overhead_marker:
        torch._dynamo.config.record_runtime_overhead = False
    progs = [p for p in torch_programs.PROGRAMS if not opts.only or p.name in opts.only]
    results = [run_program(p, opts.sources, opts.run_generated_resume) for p in progs]
    recs = [r for res in results for r in res["records"]]
    reasons = Counter()
    for r in recs:
        if r.get("status") in ("decompile_error", "decompiler_crash", "syntax_error", "not_found"):
            reasons[re.sub(r"0x[0-9a-f]+", "0x?", r["error"])] += 1
        elif r.get("status") == "incompatible":
            reasons["incompatible: " + ",".join(sorted(r["differs"]))] += 1
    resume_src = Counter(
        r["resume_source"].get("error", r["resume_source"]["status"]) for r in recs if "resume_source" in r
    )
    totals = {
        "python": sys.version.split()[0],
        "torch": torch.__version__,
        "record_runtime_overhead": bool(getattr(torch._dynamo.config, "record_runtime_overhead", False)),
        "programs": len(results),
        "code_objects": len(recs),
        "transformed": sum(r["kind"] == "transformed" for r in recs),
        "resume": sum(r["kind"] == "resume" for r in recs),
        "decompiled": sum(bool(r.get("decompiled")) for r in recs),
        "substituted": sum(r.get("status") == "substituted" for r in recs),
        "substituted_with_padded_locals": sum(r.get("status") == "substituted" and "padded_locals" in r for r in recs),
        "substituted_with_consts_as_globals": sum(r.get("status") == "substituted" and r["consts"] > 0 for r in recs),
        "runs": sum(res["runs"] for res in results),
        "runs_equal": sum(res["runs_equal"] for res in results),
        "mismatches": sum(len(res["mismatches"]) for res in results),
        "not_substituted_reasons": reasons.most_common(),
        "generated_resume_functions": dict(resume_src),
    }
    print(json.dumps({"totals": totals, "programs": results}, indent=1, default=repr))


if __name__ == "__main__":
    main()
