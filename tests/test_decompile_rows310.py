"""3.10 rows (branch rows310): tests/support/rows310_cases.py holds the cases,
tests/behaviour/b_rows310.py more of them for the behaviour suite.

On 3.10 the cases in READ must decompile to the same instructions and behave the same (results,
exceptions, the log); on every version 3.9-3.14 a case that decompiles must behave the same.
"""

from __future__ import annotations

import sys

import pytest

from conftest import case_rows

sys.path.insert(0, "tests/support")
from rows310_cases import READ  # noqa: E402

SCRIPT = "tests/support/rows310_cases.py"


def _check(rows: dict, same: bool) -> None:
    assert set(READ) <= set(rows)
    for name, r in rows.items():
        if name in READ and same:
            assert "error" not in r, (name, r["error"])
            assert r["same_instructions"], (name, r["source"])
        if "error" not in r:
            assert r["mismatches"] == [], (name, r["source"], r["mismatches"])
            assert r["runs"] > 0, name


def test_310() -> None:
    rows = case_rows(SCRIPT, 10)
    _check(rows, True)
    # the `break` stays a `break`, the code after the loop once after it
    src = rows["f_true_or_break"]["source"]
    assert "break" in src and src.count("return i") == 1, src
    assert src.rstrip().endswith("    return i"), src
    src = rows["f_while_cond_or_break"]["source"]
    assert "break" in src and src.count("return out") == 1, src
    # a `return` written in the body (no `break` line's NOP before it) stays one
    src = rows["f_true_or_return_in_body"]["source"]
    assert "return i * 10" in src and "break" not in src, src
    # the code after the try statement, copied after the finally body's copy, is read once after
    # the statement (not as a `return` in the body, which returned the value from before)
    src = rows["f_finally_then_return_copied"]["source"]
    assert "                return v" not in src and "        return v" in src, src
    for name in ("f_finally_return_in_body", "f_finally_both_returns"):
        assert "error" not in rows[name], rows[name]["error"]


@pytest.mark.parametrize("minor", [9, 11, 12, 13, 14])
def test_other_versions_never_miscompile(minor: int) -> None:
    _check(case_rows(SCRIPT, minor), False)
