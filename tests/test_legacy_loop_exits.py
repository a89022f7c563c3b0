"""≤3.9 loop bodies that end in a statement leaving the loop from inside it (3.8 and 3.9): an `if`
whose body ends by `break` (its arms meet only after the loop: the `if` ends the body), and a
try/except whose clauses fall off the end of the body (their way out threaded to the header: the
normal path up to it is the `else:` part), next to `except E: continue` (the clause's dead way out
after the jump tells them apart; 3.8 keeps that dead code for it); `if c: break` followed by more
of the body; functions whose every way out is a written `return`.

tests/support/legacy_loop_exits_checks.py compiles its cases under 3.8 / 3.9 into a .pyc, this
interpreter decompiles them, and the .pyc's interpreter compiles the sources again, compares the
instruction sequences (decompile_sweep.normalized) and runs original against recompiled on inputs
that raise and that do not, comparing results, exceptions and side-effect logs.
"""

from __future__ import annotations

import sys

import pytest

from conftest import interpreter, run_json

# (3.8 drops the dead END_FINALLY after a bare `except:`: a clause ending in `continue` and one
# falling off the end of the body look the same there; both behave the same)
SAME_BEHAVIOUR_ONLY = {8: {"f_bare_except_else"}, 9: set()}


@pytest.mark.parametrize("minor", [8, 9])
def test_legacy_loop_exits(minor, tmp_path) -> None:
    exe = interpreter(minor)
    pyc, sources = tmp_path / "cases.pyc", tmp_path / "sources.json"
    run_json(exe, "tests/support/legacy_loop_exits_checks.py", "pyc", str(pyc))
    run_json(sys.executable, "tests/support/legacy_loop_exits_checks.py", "decompile", str(pyc),
             str(sources))
    report = run_json(exe, "tests/support/legacy_loop_exits_checks.py", "compare", str(sources))
    assert report["version"] == f"3.{minor}"
    rows = {r["name"]: r for r in report["rows"]}
    assert len(rows) >= 12
    raised = 0
    for name, r in rows.items():
        assert "error" not in r, (name, r)
        assert r["mismatches"] == [], (name, r["source"], r["mismatches"])
        raised += r["raised"]
        if name not in SAME_BEHAVIOUR_ONLY[minor]:
            assert r["same_instructions"], (name, r["source"])
    assert raised > 0
