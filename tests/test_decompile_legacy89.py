"""3.8 / 3.9 exits as written (branch legacy89): tests/support/legacy89_checks.py holds the cases.

3.8 cannot import framejit: its cases are compiled under 3.8 into a .pyc, decompiled here, and
compiled, compared and run under 3.8 again. 3.9 and later run the script directly. On 3.8 / 3.9
every case must decompile, compile back to the original's instructions, and behave the same
(results, exceptions, side-effect log); on 3.10+ (other layouts, not this branch's rules) a case
may be refused, but one that decompiles must behave the same.
"""

from __future__ import annotations

import sys

import pytest

from conftest import case_rows, case_rows_38

SCRIPT = "tests/support/legacy89_checks.py"




def _check_exact(rows: dict) -> None:
    assert len(rows) >= 18
    refused = {n: r["error"] for n, r in rows.items() if "error" in r}
    assert not refused, refused
    for name, r in rows.items():
        assert r["mismatches"] == [], (name, r["source"], r["mismatches"])
        assert r["same_instructions"], (name, r["source"])
    # (the inputs reach the raising paths: risky() raises for 1 and 2, some cases let it out)
    assert sum(r["raised"] for r in rows.values()) >= 6


def test_py38_exits_as_written(tmp_path) -> None:
    rows = case_rows_38(SCRIPT, tmp_path)
    _check_exact(rows)
    src = rows["f_try_body_returns_none"]["source"]
    # the try body's own `return` and the clause's, not dropped as copies of the closing one
    assert "        log.append('body')\n        return None\n    except KeyError:\n        return None" in src


def test_py39_exits_as_written() -> None:
    rows = case_rows(SCRIPT, 9)
    _check_exact(rows)
    # a constant return after the body's last POP_BLOCK stays in the body, not an `else:`
    src = rows["f_try_body_returns_const"]["source"]
    assert "        risky(x, log)\n        return False\n    except KeyError:" in src
    assert "else:" not in src
    # the dead jump past an `else:` kept behind the label of an if/else whose arms return
    src = rows["f_nested_if_returns_else"]["source"]
    assert "        else:\n            return v\n    else:\n        return -x" in src


@pytest.mark.parametrize("minor", [10, 11, 12, 13, 14])
def test_later_versions_never_miscompile(minor: int) -> None:
    rows = case_rows(SCRIPT, minor)
    assert len(rows) >= 18
    for name, r in rows.items():
        if "error" not in r:
            assert r["mismatches"] == [], (name, r["source"], r["mismatches"])
