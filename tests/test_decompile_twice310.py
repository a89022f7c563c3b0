"""≤3.10 shapes that came out twice (branch twice310): tests/support/twice310_cases.py holds the
cases, tests/behaviour/b_twice310.py more of them for the behaviour suite.

3.8 cannot import framejit: its cases are compiled under 3.8 into a .pyc, decompiled here, and
compiled, compared and run under 3.8 again; 3.9+ run the script directly. On 3.8-3.10 the cases in
READ must decompile to the same instructions and behave the same (results, exceptions, the log);
on every version a case that decompiles must behave the same.
"""

from __future__ import annotations

import sys

import pytest

from conftest import case_rows, case_rows_38

sys.path.insert(0, "tests/support")
from twice310_cases import READ  # noqa: E402

SCRIPT = "tests/support/twice310_cases.py"




# (3.8 / 3.9 read `if c: pass  else: raise` as `if not c: raise`, the same behaviour, other
# instructions, as main did: the case guards the 3.10 clause-join rule)
SAME_ON_310_ONLY = {"f_nested_try_as_clause"}


def _check(rows: dict, legacy: bool, minor: int = 10) -> None:
    assert len(rows) >= len(READ)
    for name, r in rows.items():
        if name in READ and legacy:
            assert "error" not in r, (name, r["error"])
            if minor == 10 or name not in SAME_ON_310_ONLY:
                assert r["same_instructions"], (name, r["source"])
        if "error" not in r:
            assert r["mismatches"] == [], (name, r["source"], r["mismatches"])
    # (the inputs reach the clauses: risky() raises for some of them)
    assert sum(r.get("raised", 0) for r in rows.values()) >= 10


def test_py38(tmp_path) -> None:
    _check(case_rows_38(SCRIPT, tmp_path), True, 8)


@pytest.mark.parametrize("minor", [9, 10])
def test_legacy(minor: int) -> None:
    rows = case_rows(SCRIPT, minor)
    _check(rows, True, minor)
    # the code after the statement comes out once, after it (not in a clause and again after)
    src = rows["f_clause_reraise_then_raise"]["source"]
    assert src.count("raise Skip(") == 1, src
    assert src.rstrip().endswith("raise Skip(log.copy(), x)"), src
    # the chained comparison stays a part of the `or`, the copied `return n` read once
    src = rows["f_or_chain"]["source"]
    assert "if x == 9 or 2 <= x < 5:" in src and src.count("return n") == 1, src


@pytest.mark.parametrize("minor", [11, 12, 13, 14])
def test_later_versions_never_miscompile(minor: int) -> None:
    _check(case_rows(SCRIPT, minor), False)
