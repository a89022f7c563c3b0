"""Benchmark: framejit's decompiler against depyf (PyPI) on the same stdlib functions, in one run.

For an evenly spread sample of the interpreter's stdlib functions (methods and nested functions
included; comprehensions and lambdas are checked through their parent), each tool decompiles the
code object; the source is compiled again inside a skeleton of its original scopes (the harness of
tests/support/decompile_sweep.py) and its instruction sequence compared with the original's
(ignoring line numbers, NOP/RESUME/CACHE/EXTENDED_ARG and jump encoding). depyf runs in a worker
process, one call at a time with a time limit (some calls stall for minutes); a call past the limit
counts as a failure and the worker is restarted.

    .venv/bin/python benches/decompile.py [--count N] [--timeout SECONDS]

Each tool decompiles the sample one function after another in its own process, every call timed
on its own (CPU time), as a sweep of the stdlib does; the outputs are compiled and judged apart from
that. Prints, per tool: identical / compiles but differs / refused or crashed / output that does not
compile / timed out, and CPU time per function (mean and median); the last lines give the ratios.
"""

from __future__ import annotations

import argparse
import json
import marshal
import os
import select
import statistics
import subprocess
import sys
import sysconfig
import time
import types
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "support"))

import decompile_sweep as sweep  # noqa: E402

from framejit import DecompileError, decompile  # noqa: E402

WORKER = r"""
import json, marshal, sys, time, warnings
warnings.simplefilter("ignore")
import depyf
out, sys.stdout = sys.stdout, sys.stderr  # (what depyf prints is not a result)
print("ready", file=out, flush=True)
for line in sys.stdin:
    code = marshal.loads(bytes.fromhex(line.strip()))
    t = time.process_time()
    try:
        src, err = depyf.decompile(code), None
    except BaseException as e:  # noqa: BLE001
        src, err = None, f"{type(e).__name__}: {e}"[:200]
    print(json.dumps({"source": src, "error": err, "cpu": time.process_time() - t}), file=out, flush=True)
"""


class Depyf:
    """depyf in a worker process: one call at a time, each with a time limit."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.proc: subprocess.Popen | None = None

    def _start(self) -> subprocess.Popen:
        if self.proc is None or self.proc.poll() is not None:
            # (importing depyf imports torch: seconds, not counted against a call)
            self.proc = subprocess.Popen(
                [sys.executable, "-c", WORKER],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            assert self.proc.stdout is not None
            if self.proc.stdout.readline().strip() != "ready":
                raise RuntimeError("the depyf worker did not start (is depyf installed?)")
        return self.proc

    def decompile(self, code: types.CodeType) -> dict:
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(marshal.dumps(code).hex() + "\n")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], self.timeout)
        line = proc.stdout.readline() if ready else ""
        if not line:
            proc.kill()
            proc.wait()
            self.proc = None
            return {"source": None, "error": "timeout", "cpu": self.timeout}
        return json.loads(line)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()


def sample(count: int) -> list[tuple[types.CodeType, set]]:
    """Every k-th function of the stdlib (sorted files), with its module's import-bound names."""
    root = sysconfig.get_paths()["stdlib"]
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in ("site-packages", "__pycache__", "test", "tests"))
        files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".py")]
    warnings.simplefilter("ignore")
    funcs = []
    for path in files:
        try:
            module = compile(open(path, "rb").read(), path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, OSError):
            continue
        imported = sweep.module_imports(module)
        for c in sweep.tree(module):
            if c.co_flags & 1 and not sweep.is_inline(c):  # CO_OPTIMIZED: a function
                funcs.append((c, imported))
    step = max(1, len(funcs) // count)
    return funcs[::step][:count]


def judge(code: types.CodeType, source: str | None, imported: set) -> str:
    if source is None:
        return "refused"
    try:
        again_module = compile(sweep.in_context(code, source, imported), code.co_filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return "syntax"
    again = sweep.find_named([k for k in sweep.tree(again_module) if not k.co_name.startswith("__framejit_ctx")], code.co_name)
    if again is None:
        return "syntax"
    group = [code] + sweep.inline_children(code)
    again_group = [again] + sweep.inline_children(again)
    same = len(group) == len(again_group) and all(sweep.normalized(a) == sweep.normalized(b) for a, b in zip(group, again_group))
    return "identical" if same else "different"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=400, help="functions in the sample (default 400)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per depyf call (default 10)")
    opts = ap.parse_args()
    funcs = sample(opts.count)
    kinds = ("identical", "different", "refused", "syntax", "timeout")
    tally = {tool: dict.fromkeys(kinds, 0) for tool in ("framejit", "depyf")}
    cpu: dict = {"framejit": [], "depyf": []}
    # framejit decompiles the sample one function after another, as a sweep does (and as depyf's
    # worker process does its calls), each call timed on its own; the outputs are judged after
    sources = []
    for code, _ in funcs:
        t = time.process_time()
        try:
            ours = decompile(code)
        except DecompileError:
            ours = None
        cpu["framejit"].append(time.process_time() - t)
        sources.append(ours)
    worker = Depyf(opts.timeout)
    try:
        for (code, imported), ours in zip(funcs, sources):
            tally["framejit"][judge(code, ours, imported)] += 1
            r = worker.decompile(code)
            cpu["depyf"].append(r["cpu"])
            tally["depyf"]["timeout" if r["error"] == "timeout" else judge(code, r["source"], imported)] += 1
    finally:
        worker.close()
    n = len(funcs)
    print(f"Python {sys.version.split()[0]}, {n} stdlib functions spread evenly over a sorted walk")
    for tool in ("framejit", "depyf"):
        t = tally[tool]
        parts = ", ".join(f"{k} {t[k]}" for k in kinds)
        mean, median = sum(cpu[tool]) / max(n, 1), statistics.median(cpu[tool] or [0.0])
        print(f"{tool:9s} {parts}; CPU per function: mean {mean * 1e3:.3f} ms, median {median * 1e3:.3f} ms")
    ours, theirs = tally["framejit"]["identical"], tally["depyf"]["identical"]
    print(f"round-trip identical: framejit {ours / max(n, 1):.1%}, depyf {theirs / max(n, 1):.1%}")
    # the mean is dominated by depyf's calls past the time limit; the median is not
    total = {tool: sum(v) for tool, v in cpu.items()}
    print(f"CPU per function (mean), depyf / framejit: {total['depyf'] / max(total['framejit'], 1e-9):.1f}x")
    median = {tool: statistics.median(v or [0.0]) for tool, v in cpu.items()}
    print(f"CPU per function (median), depyf / framejit: {median['depyf'] / max(median['framejit'], 1e-9):.1f}x")


if __name__ == "__main__":
    main()
