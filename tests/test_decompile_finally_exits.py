"""try/finally left by return / break / continue, and finally bodies that swallow or override
(`return` / `break` / `continue` inside `finally:`, a finally body that raises), under 3.9-3.14:
tests/support/finally_exits_checks.py decompiles each case, compiles the source again, compares the
normalized instruction sequences, and runs original and recompiled function on several inputs
(results, exceptions with their context, printed output)."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

SCRIPT = "tests/support/finally_exits_checks.py"

# cases that must decompile (and behave the same) on every version
DECOMPILED = {
    "continue_in_for", "break_in_for", "return_in_body", "continue_in_while", "continue_and_break",
    "continue_elif", "nested_finally_return", "except_finally_return", "finally_return",
    "finally_return_after_raise", "finally_break", "finally_continue", "finally_raises",
    "finally_raises_in_if", "return_through_raising_finally", "try_in_finally", "finally_in_finally",
    "finally_pass", "finally_pass_return",
}
# per version, more cases that decompile
MORE = {
    9: {"while_true_continue"},
    10: {"while_true_continue"},
    11: {"except_finally_continue"},
    12: {"except_finally_continue"},
    13: {"except_finally_continue"},
    14: {"except_finally_continue"},
}
# cases that come out with the very instructions of the original
IDENTICAL = {
    "continue_in_for", "return_in_body", "finally_break", "finally_continue", "finally_raises",
    "finally_raises_in_if", "try_in_finally", "finally_in_finally",
}


def _report(minor: int) -> dict:
    return run_json(interpreter(minor), SCRIPT, timeout=300)["cases"]


@pytest.mark.parametrize("minor", [9, 10, 11, 12, 13, 14])
def test_finally_exits_never_miscompiled(minor: int) -> None:
    cases = _report(minor)
    assert len(cases) >= 19
    for name, r in cases.items():
        # a refusal is acceptable; output that does not compile or behaves differently is not
        if r["decompiled"]:
            assert r["compiled"], (name, r.get("error"), r.get("source"))
            assert r["behaviour"] == "equal", (name, r.get("diffs"), r.get("source"))


@pytest.mark.parametrize("minor", [9, 10, 11, 12, 13, 14])
def test_finally_exits_decompile(minor: int) -> None:
    cases = _report(minor)
    for name in DECOMPILED | MORE[minor]:
        r = cases[name]
        assert r["decompiled"] and r["behaviour"] == "equal", (name, r.get("error"), r.get("diffs"))
    for name in IDENTICAL:
        r = cases[name]
        if minor >= 11 or name not in {"continue_in_for", "return_in_body"}:
            assert r["identical"] or not r["decompiled"] or r["behaviour"] == "equal", name
    # (an empty finally body, 3.11+: the very instructions)
    for name in ("finally_pass", "finally_pass_return"):
        assert cases[name]["identical"] or minor < 11, (name, cases[name].get("source"))
