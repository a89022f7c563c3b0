"""3.8 / 3.9 exits as written (branch exits17): tests/support/exits17_cases.py holds the cases.

3.8 cannot import framejit: its cases are compiled under 3.8 into a .pyc, decompiled here, and
compiled, compared and run under 3.8 again. 3.9 and later run the script directly. On 3.8 / 3.9
every case must decompile, compile back to the original's instructions, and behave the same
(results, exceptions, side-effect log); on 3.10+ (other layouts, not this branch's rules) a case
may be refused, but one that decompiles must behave the same.
"""

from __future__ import annotations

import pytest

from conftest import case_rows, case_rows_38

SCRIPT = "tests/support/exits17_cases.py"


def _check_exact(rows: dict, other_code: frozenset = frozenset()) -> None:
    assert len(rows) >= 18
    refused = {n: r["error"] for n, r in rows.items() if "error" in r}
    assert not refused, refused
    for name, r in rows.items():
        assert r["mismatches"] == [], (name, r["source"], r["mismatches"])
        assert r["same_instructions"] or name in other_code, (name, r["source"])
    # (the inputs reach the raising paths)
    assert sum(r["raised"] for r in rows.values()) >= 6


def _check_sources(rows: dict) -> None:
    # the nested generator's clause keeps its `return` (only the outer function's instructions
    # are compared)
    src = rows["f_generator_clause_return"]["source"]
    assert "        except IndexError:\n            return None\n" in src
    # the `else:` of a body that never completes is kept
    assert "    else:\n        log.append('never')\n" in rows["f_raising_body_else"]["source"]


def test_py38_exits_as_written(tmp_path) -> None:
    rows = case_rows_38(SCRIPT, tmp_path)
    # (3.8's `with` as lowered, legacy38.rs: a `return None` ending the body still reads as the
    # code after the statement, which behaves the same; and the dead `else:` of a body that
    # never completes is still dropped, dead code; and a try body's own `break` reads as
    # `else: break`, the lowering having dropped the dead POP_BLOCK and jump back after it that
    # tell the two apart on 3.9: not this branch's 3.9 rules)
    other = {
        "f_with_return_none_at_end",
        "f_raising_body_else",
        "f_raising_body_else_named",
        "f_while_true_try_break_then_code",
        "f_while_true_try_break_ends_function",
    }
    _check_exact(rows, frozenset(other))


def test_py39_exits_as_written() -> None:
    rows = case_rows(SCRIPT, 9)
    _check_exact(rows)
    _check_sources(rows)


@pytest.mark.parametrize("minor", [10, 11, 12, 13, 14])
def test_later_versions_never_miscompile(minor: int) -> None:
    rows = case_rows(SCRIPT, minor)
    assert len(rows) >= 18
    for name, r in rows.items():
        if "error" not in r:
            assert r["mismatches"] == [], (name, r["source"], r["mismatches"])
