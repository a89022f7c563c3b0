"""The functions of tests/behaviour/b_legacy_copies.py (code 3.10 copies after an except clause's or a
with handler's POP_EXCEPT), each decompiled and compiled again in its module's globals: whether it
decompiled, and whether the recompiled function's normalized instructions equal the original's.
(Behaviour on inputs is the behaviour suite's: tests/support/behaviour_run.py.)

Run with PYTHONPATH=python:  python tests/support/legacy_copies_checks.py
Prints one JSON object: per function, decompiled / identical / the error."""

from __future__ import annotations

import json
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "behaviour"))

import b_legacy_copies as mod  # noqa: E402
from decompile_sweep import normalized  # noqa: E402

from framejit import DecompileError, decompile  # noqa: E402


def main() -> None:
    out = {}
    for name in mod.CASES:
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
        out[name] = r
    print(json.dumps({"version": sys.version, "cases": out}, indent=1))


if __name__ == "__main__":
    main()
