"""Functions of the behaviour modules (tests/behaviour/b_*.py), each decompiled and compiled again in
its module's globals: whether it decompiled, and whether the recompiled function's normalized
instructions equal the original's. (Behaviour on inputs is the behaviour suite's:
tests/support/behaviour_run.py.)

Run with PYTHONPATH=python:  python tests/support/legacy_copy_flow_checks.py MODULE:FUNCTION ...
(MODULE alone: every function listed in the module's CASES). Prints one JSON object: per
MODULE.FUNCTION, decompiled / identical / the error."""

from __future__ import annotations

import importlib
import json
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "behaviour"))

from decompile_sweep import normalized  # noqa: E402

from framejit import DecompileError, decompile  # noqa: E402


def check(mod: types.ModuleType, name: str) -> dict:
    fn = getattr(mod, name)
    r = {"decompiled": False, "identical": False}
    try:
        source = decompile(fn)
        r["decompiled"] = True
        again = compile(source, mod.__file__, "exec", dont_inherit=True)
        code = next(k for k in again.co_consts if isinstance(k, types.CodeType) and k.co_name == name)
        r["identical"] = normalized(code) == normalized(fn.__code__)
        if not r["identical"]:
            r["source"] = source
    except DecompileError as e:
        r["error"] = str(e)
    except SyntaxError as e:
        r["error"] = "syntax: " + str(e)
    return r


def main() -> None:
    out = {}
    for arg in sys.argv[1:]:
        modname, _, fname = arg.partition(":")
        mod = importlib.import_module(modname)
        names = [fname] if fname else list(mod.CASES)
        for name in names:
            out[modname + "." + name] = check(mod, name)
    print(json.dumps({"version": sys.version, "cases": out}, indent=1))


if __name__ == "__main__":
    main()
