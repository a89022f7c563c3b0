"""≤3.10 try / finally / loop shapes (branch beh310f): tests/support/beh310f_checks.py holds the
cases.

3.8 cannot import framejit: its cases are compiled under 3.8 into a .pyc, decompiled here, and
compiled, compared and run under 3.8 again. 3.9 and later run the script directly. On 3.8-3.10
every case must decompile, compile back to the original's instructions, and behave the same
(results, exceptions, side-effect log); on 3.11+ (other layouts, not this branch's rules) a case
may be refused, but one that decompiles must behave the same.
"""

from __future__ import annotations

import sys

import pytest

from conftest import case_rows, case_rows_38

SCRIPT = "tests/support/beh310f_checks.py"
CASES = 15




def _check_exact(rows: dict, may_refuse: frozenset = frozenset()) -> None:
    assert len(rows) >= CASES
    refused = {n: r["error"] for n, r in rows.items() if "error" in r and n not in may_refuse}
    assert not refused, refused
    for name, r in rows.items():
        if "error" in r:
            continue
        assert r["mismatches"] == [], (name, r["source"], r["mismatches"])
        assert r["same_instructions"], (name, r["source"])
    # (the inputs reach the raising paths: risky() raises for "k" and "t")
    assert sum(r.get("raised", 0) for r in rows.values()) >= 3


# (3.8's lowering lays the `break` threaded past a `while` loop's exit out otherwise: still refused
# there, "a block would come out twice")
THREADED_38 = frozenset({"f_while_in_for_break_in_clause", "f_while_in_for_break_in_clause_else"})


def test_py38_shapes(tmp_path) -> None:
    _check_exact(case_rows_38(SCRIPT, tmp_path), THREADED_38)


def test_py39_shapes() -> None:
    rows = case_rows(SCRIPT, 9)
    _check_exact(rows)
    # the returned value is read before the finally body's store to the same name
    src = rows["f_return_name_changed_in_finally"]["source"]
    assert "    try:\n        return x\n    finally:\n        if x:\n            x = 5" in src


def test_py310_shapes() -> None:
    rows = case_rows(SCRIPT, 10)
    _check_exact(rows)
    # the constant `return` out of the loop stays inside it, not the try's normal end
    src = rows["f_for_else_raises_in_try"]["source"]
    assert "return 'found'" in src and "LookupError('no zero')" in src


@pytest.mark.parametrize("minor", [11, 12, 13, 14])
def test_later_versions_never_miscompile(minor: int) -> None:
    rows = case_rows(SCRIPT, minor)
    assert len(rows) >= CASES
    for name, r in rows.items():
        if "error" not in r:
            assert r["mismatches"] == [], (name, r["source"], r["mismatches"])
