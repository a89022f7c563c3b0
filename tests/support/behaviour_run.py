"""Behaviour suite runner (issue 3 acceptance): every function of tests/behaviour/**/b_*.py, original
against decompiled-and-recompiled, on every input of its module's CASES, under this interpreter.

Run with PYTHONPATH=python:  python tests/support/behaviour_run.py [--module NAME] [--function NAME]
                                                                    [--show-source]
Prints JSON:
  "functions": per-function mode (framejit.decompiler.decompile_with_constants(fn), exec'd in a copy of
     the module's globals plus the returned constants) - counts per class and details of every
     non-equal function;
  "modules": whole-module mode (the module's code object decompiled, exec'd in a fresh namespace, its
     functions run against those of the original module exec'd the same way, and its simple globals and
     classes compared) - counts per class and details.
Classes: "equal"; "refused" (DecompileError); "syntax" (the output does not compile); "different" (it
compiles but behaves differently: a silent miscompilation); "error" (the decompiler raised something
other than DecompileError, or crashed).

Compared per call: repr of the result (generators listed, coroutines run with asyncio.run, async
generators collected; an exception part-way is part of the result), or exception type and message,
everything printed to stdout, and the arguments afterwards (mutation). Compared per function: the
signature, defaults, keyword defaults, annotations, docstring, whether it is a generator/coroutine,
type parameters. Memory addresses in reprs are masked. A call that runs over 5 s is a "timeout" outcome.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import inspect
import io
import json
import re
import signal
import sys
import traceback
import types
from pathlib import Path

from framejit import DecompileError
from framejit.decompiler import decompile_with_constants

SUITE = Path(__file__).resolve().parent.parent / "behaviour"
CALL_SECONDS = 5
ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
CLASSES = ("equal", "refused", "syntax", "different", "error")


def min_minor(module_name: str) -> int:
    """b_match_py310 -> 10: the first 3.x whose syntax the module needs (0: any)."""
    m = re.search(r"_py3(\d+)$", module_name)
    return int(m.group(1)) if m else 0


def suite_modules() -> list:
    """Dotted names of the suite's modules runnable on this interpreter, in a fixed order."""
    out = []
    for path in sorted(SUITE.rglob("b_*.py")):
        name = ".".join(path.relative_to(SUITE).with_suffix("").parts)
        if min_minor(name) <= sys.version_info[1]:
            out.append(name)
    return out


class Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise Timeout()


def _masked(text: str) -> str:
    return ADDRESS.sub(" at 0x?", text)


def _safe_repr(v) -> str:
    try:
        return _masked(repr(v))
    except Exception as e:  # a repr that raises is itself behaviour
        return "<repr raised %s: %s>" % (type(e).__name__, e)


async def _collect_async(agen):
    items = []
    try:
        async for v in agen:
            items.append(v)
    except Exception as e:
        return items, (type(e).__name__, str(e))
    return items, None


def _drain(value):
    """A generator's items (and the exception that ended it), a coroutine's result, or the value."""
    if isinstance(value, types.GeneratorType):
        items = []
        try:
            for v in value:
                items.append(v)
        except Exception as e:
            return ("generator", _safe_repr(items), type(e).__name__, _masked(str(e)))
        return ("generator", _safe_repr(items))
    if isinstance(value, types.CoroutineType):
        return ("coroutine", _safe_repr(asyncio.run(value)))
    if isinstance(value, types.AsyncGeneratorType):
        items, exc = asyncio.run(_collect_async(value))
        return ("async generator", _safe_repr(items), exc)
    return ("value", _safe_repr(value))


def outcome(fn, case) -> tuple:
    """What calling fn with one case does: result or exception, printed output, arguments after."""
    if isinstance(case, dict):
        args, kwargs = tuple(case.get("args", ())), dict(case.get("kw", {}))
    else:
        args, kwargs = tuple(case), {}
    args, kwargs = copy.deepcopy((args, kwargs))
    out = io.StringIO()
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, CALL_SECONDS)
    try:
        with contextlib.redirect_stdout(out):
            try:
                result = ("ok",) + _drain(fn(*args, **kwargs))
            except Exception as e:  # same exception type and message = same behaviour
                result = ("raised", type(e).__name__, _masked(str(e)))
    except Timeout:
        result = ("timeout",)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return result, _masked(out.getvalue()), _safe_repr(args), _safe_repr(kwargs)


def metadata(fn) -> dict:
    """What a function's definition determines, beyond what it does when called."""
    try:
        sig = str(inspect.signature(fn))
    except (TypeError, ValueError) as e:
        sig = "<%s>" % type(e).__name__
    code = fn.__code__
    return {
        "signature": _masked(sig),
        "defaults": _safe_repr(fn.__defaults__),
        "kwdefaults": _safe_repr(fn.__kwdefaults__),
        "annotations": _safe_repr(getattr(fn, "__annotations__", None)),
        "doc": fn.__doc__,
        "name": fn.__name__,
        "kind": code.co_flags & (0x20 | 0x80 | 0x100 | 0x200),  # generator/coroutine/iterable coroutine/async gen
        "type_params": _safe_repr([p.__name__ for p in getattr(fn, "__type_params__", ())]),
    }


def compare_function(original, again, cases, cases_again=None) -> list:
    """Differences between two functions' metadata and outcomes, as readable strings. `cases_again`:
    the same inputs built by the decompiled module (its own classes and enum members)."""
    diffs = []
    m1, m2 = metadata(original), metadata(again)
    for key in m1:
        if m1[key] != m2[key]:
            diffs.append("%s: original %r, decompiled %r" % (key, m1[key], m2[key]))
    for k, case in enumerate(cases):
        case2 = cases_again[k] if cases_again is not None and k < len(cases_again) else case
        o1, o2 = outcome(original, case), outcome(again, case2)
        if o1 != o2:
            diffs.append("input %s: original %r, decompiled %r" % (_safe_repr(case), o1, o2))
    return diffs


def run_function(module, name: str, cases, show_source: bool) -> dict:
    fn = getattr(module, name)
    record = {"module": module.__name__, "function": name}
    try:
        source, constants = decompile_with_constants(fn)
    except DecompileError as e:
        return dict(record, cls="refused", detail=str(e))
    except BaseException as e:  # a panic or a bridge error: never acceptable
        return dict(record, cls="error", detail="%s: %s" % (type(e).__name__, e))
    if show_source:
        record["source"] = source
    try:
        code = compile(source, "<decompiled %s.%s>" % (module.__name__, name), "exec", dont_inherit=True)
    except SyntaxError as e:
        return dict(record, cls="syntax", detail="%s: %s" % (type(e).__name__, e), source=source)
    namespace = dict(vars(module))
    namespace.update(constants)
    namespace.pop(name, None)
    try:
        exec(code, namespace)
    except Exception as e:
        return dict(record, cls="different", detail="exec raised %s: %s" % (type(e).__name__, e), source=source)
    again = namespace.get(name)
    if not isinstance(again, types.FunctionType):
        return dict(record, cls="different", detail="the decompiled source defines no function %r" % name, source=source)
    diffs = compare_function(fn, again, cases)
    if diffs:
        return dict(record, cls="different", detail=diffs[:6], source=source)
    return dict(record, cls="equal")


def _fresh_namespace(module) -> dict:
    return {"__name__": module.__name__, "__file__": module.__file__, "__package__": module.__package__,
            "__builtins__": __builtins__}


def _globals_summary(ns: dict) -> dict:
    """Module globals that are data, and classes' own attribute names and data values."""
    out = {}
    simple = (int, float, complex, str, bytes, bool, type(None), tuple, list, dict, set, frozenset)
    for k, v in sorted(ns.items()):
        if k.startswith("__"):
            continue
        if isinstance(v, simple):
            out[k] = _safe_repr(v)
        elif isinstance(v, type):
            own = {a: (_safe_repr(b) if isinstance(b, simple) else type(b).__name__) for a, b in sorted(vars(v).items())
                   if a not in ("__dict__", "__weakref__", "__firstlineno__", "__static_attributes__")}
            out[k] = ("class", [c.__name__ for c in v.__mro__], own)
        else:
            out[k] = type(v).__name__
    return out


def run_module(module, show_source: bool) -> dict:
    """The whole module decompiled from its code object, exec'd, and compared with the original."""
    record = {"module": module.__name__}
    path = Path(module.__file__)
    original_code = compile(path.read_text(), str(path), "exec", dont_inherit=True)
    try:
        source, constants = decompile_with_constants(original_code)
    except DecompileError as e:
        return dict(record, cls="refused", detail=str(e))
    except BaseException as e:
        return dict(record, cls="error", detail="%s: %s" % (type(e).__name__, e))
    if show_source:
        record["source"] = source
    try:
        code = compile(source, str(path), "exec", dont_inherit=True)
    except SyntaxError as e:
        return dict(record, cls="syntax", detail="%s: %s" % (type(e).__name__, e), source=source)
    original = _fresh_namespace(module)
    exec(original_code, original)
    again = _fresh_namespace(module)
    again.update(constants)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(code, again)
    except Exception as e:
        return dict(record, cls="different", detail="exec raised %s: %s" % (type(e).__name__, e), source=source)
    for k in constants:
        again.pop(k, None)
    diffs = []
    g1, g2 = _globals_summary(original), _globals_summary(again)
    for k in sorted(set(g1) | set(g2)):
        if g1.get(k) != g2.get(k):
            diffs.append("global %s: original %r, decompiled %r" % (k, g1.get(k), g2.get(k)))
    for name, cases in original.get("CASES", {}).items():
        f1, f2 = original.get(name), again.get(name)
        if not isinstance(f2, types.FunctionType):
            diffs.append("function %s missing" % name)
            continue
        # whole-module mode: each module builds its inputs from its own classes (a decompiled
        # module's Color.RED is not the original's)
        cases2 = again.get("CASES", {}).get(name)
        diffs.extend("%s: %s" % (name, d) for d in compare_function(f1, f2, cases, cases2))
    if diffs:
        return dict(record, cls="different", detail=diffs[:8], source=source)
    return dict(record, cls="equal")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--module", help="only this suite module (dotted name)")
    ap.add_argument("--function", help="only this function")
    ap.add_argument("--show-source", action="store_true", help="include the decompiled source of everything")
    opts = ap.parse_args()
    sys.path.insert(0, str(SUITE))
    counts = {c: 0 for c in CLASSES}
    mcounts = {c: 0 for c in CLASSES}
    details, mdetails, per_module = [], [], {}
    total_cases = 0
    for modname in suite_modules():
        if opts.module and modname != opts.module:
            continue
        module = __import__(modname, fromlist=["CASES"])
        cases = module.CASES
        mine = {c: 0 for c in CLASSES}
        for name in cases:
            if opts.function and name != opts.function:
                continue
            assert isinstance(getattr(module, name), types.FunctionType), (modname, name)
            total_cases += len(cases[name])
            try:
                r = run_function(module, name, cases[name], opts.show_source)
            except Exception:
                r = {"module": modname, "function": name, "cls": "error", "detail": traceback.format_exc()[-2000:]}
            counts[r["cls"]] += 1
            mine[r["cls"]] += 1
            if r["cls"] != "equal" or opts.show_source:
                details.append(r)
        per_module[modname] = mine
        if not opts.function:
            try:
                m = run_module(module, opts.show_source)
            except Exception:
                m = {"module": modname, "cls": "error", "detail": traceback.format_exc()[-2000:]}
            mcounts[m["cls"]] += 1
            if m["cls"] != "equal" or opts.show_source:
                mdetails.append(m)
    report = {
        "version": sys.version.split()[0],
        "functions": {"total": sum(counts.values()), "inputs": total_cases, "counts": counts, "per_module": per_module,
                      "details": details},
        "modules": {"total": sum(mcounts.values()), "counts": mcounts, "details": mdetails},
    }
    print(json.dumps(report, indent=1, default=repr))


if __name__ == "__main__":
    main()
