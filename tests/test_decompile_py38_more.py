"""CPython 3.8 (read from .pyc files; 3.8 cannot import framejit): jump layouts read back as the
source was written, and the 3.8 sweep comparing in context.

tests/support/py38_more_checks.py compiles its cases under 3.8, this interpreter decompiles them,
and 3.8 compiles the sources again, compares the normalized instruction sequences
(decompile_sweep.normalized) and runs original against recompiled on inputs that raise and that do
not, comparing results, exceptions and side-effect logs. The sweep test runs
tests/support/decompile_sweep_pyc.py over a small module of nested code (closures with
`nonlocal`, comprehensions, lambdas, a method using `__class__`).
"""

from __future__ import annotations

import json
import os
import sys

import pytest

from conftest import ROOT, interpreter, run_json, run_python

# Recompiled differently, behaving the same: `if c: continue  else: E` at the end of a loop body
# comes out as `if not c: E` (the continue is the body's end)
SAME_BEHAVIOUR_ONLY = {"f_loop_continue_else"}


@pytest.fixture(scope="module")
def rows(tmp_path_factory) -> dict:
    exe38 = interpreter(8)
    d = tmp_path_factory.mktemp("py38_more")
    pyc, sources = d / "cases.pyc", d / "sources.json"
    run_json(exe38, "tests/support/py38_more_checks.py", "pyc", str(pyc))
    run_json(sys.executable, "tests/support/py38_more_checks.py", "decompile", str(pyc), str(sources))
    report = run_json(exe38, "tests/support/py38_more_checks.py", "compare", str(sources))
    assert report["version"] == "3.8"
    return {r["name"]: r for r in report["rows"]}


def test_cases_behave_and_compile_as_the_original(rows) -> None:
    assert len(rows) >= 13
    refused = {n: r["error"] for n, r in rows.items() if "error" in r}
    assert not refused, refused
    raised = 0
    for name, r in rows.items():
        assert r["mismatches"] == [], (name, r["source"], r["mismatches"])
        raised += r["raised"]
        if name not in SAME_BEHAVIOUR_ONLY:
            assert r["same_instructions"], (name, r["source"])
    assert raised >= 12


def test_if_raise_with_and_without_else(rows) -> None:
    src = {n: r["source"] for n, r in rows.items()}
    # no dead jump after the raise: the code after the `if` is no `else:`
    assert "            raise KeyError(x)\n        log.append('small')" in src["f_raise_no_else"]
    # the dead jump past the else: an `else:`, ending where that jump goes
    assert "    else:\n        log.append('else')\n    return x + 1" in src["f_raise_else"]
    assert "        else:\n            x = x * 2\n        log.append(x)" in src["f_raise_else_nested"]
    assert "        else:\n            out.append(i)" in src["f_loop_raise_else"]


def test_if_ending_a_loop_body(rows) -> None:
    src = rows["f_loop_if_return"]["source"]
    assert "if i not in (0, 1, 2, 3):\n            return False" in src and "continue" not in src
    assert "continue" not in rows["f_loop_if_raise"]["source"]
    # a top-tested while loop: its test's exit is the loop's, not the `return` inside the body
    src = rows["f_while_if_return"]["source"]
    assert "    while n < x:\n        n += 1\n        if n == 5:\n            return 'five'\n    return n" in src


def test_except_clauses_that_may_reraise(rows) -> None:
    assert "    except KeyError:\n        if x == 1:\n            raise\n    log.append('after')" in (
        rows["f_except_may_raise"]["source"])
    assert "except OSError as why:" in rows["f_except_as_may_raise"]["source"]


NESTED = '''
import os

def outer(n):
    total = 0
    def add(k):
        nonlocal total
        total += k
        return [i * k for i in range(n) if i % 2]
    squares = {i: i * i for i in range(n)}
    key = lambda v: -v
    for k in sorted(squares, key=key):
        add(k)
    return total, os.sep

class Base:
    def f(self):
        return 1

class Child(Base):
    def f(self):
        return super().f() + sum(x for x in range(3))
'''


def test_pyc_sweep_compares_in_context(tmp_path) -> None:
    exe38 = interpreter(8)
    pycs, work = tmp_path / "pycs", tmp_path / "work"
    pycs.mkdir()
    src = tmp_path / "nested.py"
    src.write_text(NESTED)
    p = run_python(exe38, "-c", f"import py_compile; py_compile.compile({str(src)!r}, cfile={str(pycs / 'nested.pyc')!r}, doraise=True)")
    assert p.returncode == 0, p.stderr
    sweep = os.path.join(ROOT, "tests", "support", "decompile_sweep_pyc.py")
    run_json(sys.executable, sweep, "decompile", str(pycs), str(work))
    report = run_json(exe38, sweep, "compare", str(work), "--diffs")
    stats = report["stats"]
    # module, outer, add, <listcomp>, <dictcomp>, <lambda>, Base, f, Child, f, <genexpr>
    assert stats["code_objects"] == 11, report
    # comprehensions and lambdas through their parent's source (not refused on their own), the
    # nested function's `nonlocal` compiled inside a skeleton of `outer` (not a syntax error)
    assert stats["identical"] == 11, report
    assert stats.get("decompile_error", 0) == 0 and stats.get("syntax_error", 0) == 0, report
    # standalone, the old mode: comprehensions refused, `nonlocal` does not compile
    work2 = tmp_path / "work2"
    run_json(sys.executable, sweep, "decompile", str(pycs), str(work2), "--standalone")
    old = run_json(exe38, sweep, "compare", str(work2))["stats"]
    assert old["code_objects"] == 11 and old.get("decompile_error", 0) >= 3 and old.get("syntax_nonlocal") == 1, old


def test_pyc_sweep_counts_a_different_counterpart(tmp_path) -> None:
    """Honest: an inline code object whose recompiled counterpart differs is counted different."""
    exe38 = interpreter(8)
    pycs, work = tmp_path / "pycs", tmp_path / "work"
    pycs.mkdir()
    src = tmp_path / "m.py"
    src.write_text("def g(n):\n    return [i + 1 for i in range(n)]\n")
    p = run_python(exe38, "-c", f"import py_compile; py_compile.compile({str(src)!r}, cfile={str(pycs / 'm.pyc')!r}, doraise=True)")
    assert p.returncode == 0, p.stderr
    sweep = os.path.join(ROOT, "tests", "support", "decompile_sweep_pyc.py")
    run_json(sys.executable, sweep, "decompile", str(pycs), str(work))
    manifest = json.loads((work / "manifest.json").read_text())
    entry = next(e for e in manifest["entries"] if e["name"] == "g")
    # tamper with the decompiled source: the comprehension now adds 2
    with open(entry["source"], "w") as fh:
        fh.write("def g(n):\n    return [i + 2 for i in range(n)]\n")
    stats = run_json(exe38, sweep, "compare", str(work))["stats"]
    assert stats["code_objects"] == 3 and stats["identical"] == 2 and stats["different"] == 1, stats
