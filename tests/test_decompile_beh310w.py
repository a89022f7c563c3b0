"""≤3.10 with statements whose body never completes, and ways out of with bodies in loops (branch
beh310w): tests/support/beh310w_checks.py holds the cases, tests/behaviour/b_beh310w.py more of
them for the behaviour suite.

3.8 cannot import framejit: its cases are compiled under 3.8 into a .pyc, decompiled here, and
compiled, compared and run under 3.8 again; 3.9+ run the script directly. On 3.8-3.10 the cases in
READ must decompile and behave the same (results, exceptions, the managers' log of enter / exit /
suppress); on every version a case that decompiles must behave the same (the `while True:` ones
left by `break`, whose code after the loop was read into the with body before, are refused).
"""

from __future__ import annotations

import sys

import pytest

from conftest import case_rows, case_rows_38

sys.path.insert(0, "tests/support")
from beh310w_checks import READ  # noqa: E402

SCRIPT = "tests/support/beh310w_checks.py"




def _check(rows: dict, legacy: bool) -> None:
    assert len(rows) >= 15
    for name, r in rows.items():
        if name in READ and legacy:
            assert "error" not in r, (name, r["error"])
        if "error" not in r:
            assert r["mismatches"] == [], (name, r["source"], r["mismatches"])
    # (the inputs reach the suppressed paths: risky() raises, and some managers let it out)
    assert sum(r.get("raised", 0) for r in rows.values()) >= 10


def test_py38(tmp_path) -> None:
    rows = case_rows_38(SCRIPT, tmp_path)
    _check(rows, True)
    # the body's last return stays in the body; the code after the with is the suppressed path's
    src = rows["f_then_code"]["source"]
    assert "        return 2\n    log.append('suppressed')" in src
    assert rows["f_then_code"]["same_instructions"]


@pytest.mark.parametrize("minor", [9, 10])
def test_legacy(minor: int) -> None:
    rows = case_rows(SCRIPT, minor)
    _check(rows, True)
    for name in ("f_then_code", "f_const_returns", "f_no_enter", "f_nested", "f_loop_continue_last"):
        assert rows[name]["same_instructions"], (name, rows[name]["source"])
    # 3.10: the known defect of session 12 (`return True` of the inner with's body came out after
    # it, where a suppressed exception ran it instead of the outer body's end)
    if minor == 10:
        src = rows["f_nested_loop_returns"]["source"]
        # (inside the inner body: the loop's `break`, then `return True`, the same instructions)
        assert "                break\n            return True\n    return 'after'" in src, src
        assert rows["f_nested_loop_returns"]["same_instructions"]


@pytest.mark.parametrize("minor", [11, 12, 13, 14])
def test_later_versions_never_miscompile(minor: int) -> None:
    _check(case_rows(SCRIPT, minor), False)
