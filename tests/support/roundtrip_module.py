"""roundtrip_module.py MODULE: decompile each function named in a behaviour-suite module's CASES
(tests/behaviour/MODULE.py), compile the source again and compare instruction sequences with the
original's (decompile_sweep.normalized). Prints JSON {function: "same" | "differs:\\n<source>" |
"refused: <error>"}."""

from __future__ import annotations

import importlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(os.path.dirname(HERE), "behaviour")]

import decompile_sweep as sweep  # noqa: E402

import framejit  # noqa: E402


def main() -> None:
    module = importlib.import_module(sys.argv[1])
    out = {}
    for name in module.CASES:
        fn = getattr(module, name)
        try:
            src = framejit.decompile(fn)
        except framejit.DecompileError as e:
            out[name] = "refused: " + str(e)
            continue
        ns: dict = {}
        exec(compile(src, "<decompiled>", "exec"), ns)
        same = sweep.normalized(fn.__code__) == sweep.normalized(ns[name].__code__)
        out[name] = "same" if same else "differs:\n" + src
    print(json.dumps(out))


if __name__ == "__main__":
    main()
