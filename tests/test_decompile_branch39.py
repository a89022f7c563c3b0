"""3.8 / 3.9 `if` and `try` ends as the kept jumps say (branch branch39):
tests/support/branch39_checks.py holds the cases.

3.8 cannot import framejit: its cases are compiled under 3.8 into a .pyc, decompiled here, and
compiled, compared and run under 3.8 again. 3.9 and later run the script directly. On 3.8 / 3.9
every case must decompile, compile back to the original's instructions (3.8: but the cases its
lowering reads differently, see OTHER_CODE_38), and behave the same (results, exceptions,
side-effect log); on 3.10+ (other layouts) a case may be refused, but one that decompiles must
behave the same.
"""

from __future__ import annotations

import pytest

from conftest import case_rows, case_rows_38

SCRIPT = "tests/support/branch39_checks.py"

# 3.8's lowering drops the dead way out of an except clause that left (3.9 keeps it), which names
# the end of a try statement with an `else:` part: read there without the `else:`, the same
# behaviour
OTHER_CODE_38 = {"f_try_else_in_loop_clause_breaks", "f_try_else_in_if_clause_raises"}


def _check_exact(rows: dict, other_code: set) -> None:
    assert len(rows) >= 16
    refused = {n: r["error"] for n, r in rows.items() if "error" in r}
    assert not refused, refused
    for name, r in rows.items():
        assert r["mismatches"] == [], (name, r["source"], r["mismatches"])
        if name not in other_code:
            assert r["same_instructions"], (name, r["source"])
    # (the inputs reach the raising paths)
    assert sum(r["raised"] for r in rows.values()) >= 10


def test_py38_ends_as_laid_out(tmp_path) -> None:
    rows = case_rows_38(SCRIPT, tmp_path)
    _check_exact(rows, OTHER_CODE_38)
    src = rows["f_continue_then_raise"]["source"]
    assert "                continue\n            raise TypeError(k)" in src


def test_py39_ends_as_laid_out() -> None:
    rows = case_rows(SCRIPT, 9)
    _check_exact(rows, set())
    # no `else:` after an arm that raises right before the code after the `if`
    src = rows["f_loop_if_raise_then_code"]["source"]
    assert "else:" not in src
    # the tail after the inner `if n > 8: raise` stays in the outer `else:`
    src = rows["f_else_tail_past_raise_if"]["source"]
    assert "    else:\n        n += 1\n" in src
    # the try's `else:` part named by the clause's dead way out
    src = rows["f_try_else_in_loop_clause_breaks"]["source"]
    assert "            break\n        else:\n" in src
    assert "    else:\n        pass\n" in rows["f_else_pass"]["source"]
    src = rows["f_loop_last_arm_continues"]["source"]
    assert src.rstrip().endswith("continue")


@pytest.mark.parametrize("minor", [10, 11, 12, 13, 14])
def test_later_versions_never_miscompile(minor: int) -> None:
    rows = case_rows(SCRIPT, minor)
    assert len(rows) >= 16
    for name, r in rows.items():
        if "error" not in r:
            assert r["mismatches"] == [], (name, r["source"], r["mismatches"])
