"""3.8 layouts told apart by 3.8's dead code (branch rows38): tests/support/rows38_cases.py holds
the cases.

3.8 cannot import framejit: its cases are compiled under 3.8 into a .pyc, decompiled here, and
compiled, compared and run under 3.8 again. 3.9 keeps the same dead code and reads it the same
way: the script runs there directly. On 3.8 and 3.9 every case must decompile, compile back to the
original's instructions and behave the same (results, exceptions, side-effect log); on 3.10+
(other layouts, not this branch's rules) a case may be refused or compile otherwise, but one that
decompiles must behave the same.
"""

from __future__ import annotations

import pytest

from conftest import case_rows, case_rows_38

SCRIPT = "tests/support/rows38_cases.py"
CASES = 28


# 3.9 lays these out otherwise (the unbinding of an `except E as name:` name copied onto the clause's
# way out; `**{}` merged by DICT_MERGE): not this branch's 3.8 rules, they must behave the same only
NOT_EXACT_39 = frozenset({"f_except_as_raise_else", "f_except_as_break_else", "f_call_one_mapping"})


def _check(rows: dict, exact: bool, not_exact: frozenset = frozenset()) -> None:
    assert len(rows) >= CASES
    refused = {n: r["error"] for n, r in rows.items() if "error" in r and n not in not_exact}
    if exact:
        assert not refused, refused
    for name, r in rows.items():
        if "error" in r:
            continue
        assert r["mismatches"] == [], (name, r["source"], r["mismatches"])
        if exact and name not in not_exact:
            assert r["same_instructions"], (name, r["source"])
    # (the inputs reach the raising paths)
    assert sum(r.get("raised", 0) for r in rows.values()) >= 10


def _sources_as_written(rows: dict, py38: bool) -> None:
    src = {n: r["source"] for n, r in rows.items()}
    # the dead way out of a clause that left names the end of the `else:` part
    assert "        except OSError:\n            break\n        else:\n            if v > 40:" in (
        src["f_except_break_else"])
    assert "else:" not in src["f_except_break_no_else"]
    assert "    else:\n        v = v + 1\n    log.append(v)" in src["f_except_raise_else"]
    assert "else:" not in src["f_except_raise_no_else"]
    # `continue` ending a clause at the end of a loop body is no `pass`
    assert "continue" in src["f_except_continue_ends_body"]
    assert "continue" not in src["f_except_pass_ends_body"]
    # the dead `else:` part of a body that always raises is kept
    assert "    else:\n        log.append('no exception')" in src["f_body_raises_else"]
    assert "else:" not in src["f_body_raises_no_else"]
    # the dead jump past an `else:` after a try statement that never completes
    assert "    else:\n        return -2" in src["f_if_try_returns_else"]
    assert "else:" not in src["f_if_try_returns_no_else"]
    assert "    else:\n        return x" in src["f_if_finally_raises_else"]
    assert "else:" not in src["f_if_finally_raises_no_else"]
    # a `break` ending a try body, not the statement's `else:`
    assert "            break\n        except OSError:" in src["f_break_in_try_body"]
    assert "        else:\n            break" in src["f_break_in_try_else"]
    # the try statement's own `else:`, not the `if`'s before it
    assert "        raise LookupError(x)\n    try:" in src["f_raise_then_try_else"]
    assert "        finally:\n            pass\n        try:\n            pass\n        finally:" in (
        src["f_empty_finally_in_loop"])
    assert "else:" not in src["f_except_as_return_no_else"]
    if py38:
        # (3.9 drops the clause's way out after its `return`: both readings compile alike there)
        assert "        return 'key', value.args\n    else:\n        raise ValueError" in (
            src["f_except_as_return_else"])
        assert "    else:\n        v += 1\n    return v" in src["f_except_as_raise_else"]
        assert "        else:\n            v += 1\n        x -= 1" in src["f_except_as_break_else"]
        assert "dict(**{})" in src["f_call_one_mapping"]
        assert "max(0, x, **{})" in src["f_call_one_mapping"]
        assert "max(*[x, 3], **{})" in src["f_call_one_mapping"]
    assert "        else:\n            log.append('ok')" in src["f_bare_except_else_in_loop"]
    assert "    else:\n        hit = 'else'" in src["f_bare_except_body_raises_else"]


def test_py38_rows(tmp_path) -> None:
    rows = case_rows_38(SCRIPT, tmp_path)
    _check(rows, exact=True)
    _sources_as_written(rows, py38=True)


def test_py39_rows() -> None:
    rows = case_rows(SCRIPT, 9)
    _check(rows, exact=True, not_exact=NOT_EXACT_39)
    _sources_as_written(rows, py38=False)


@pytest.mark.parametrize("minor", [10, 11, 12, 13, 14])
def test_later_versions_behave(minor: int) -> None:
    _check(case_rows(SCRIPT, minor), exact=False)
