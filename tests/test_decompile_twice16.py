"""`while True:` shapes of session 16 (branch twice16; tests/support/twice16_cases.py,
tests/behaviour/b_twice16.py): a written `continue` to the loop's NOP header on 3.11-3.13 (the
only way to its block, after statements, ending an arm of the body's last statement or the body),
and a loop left by a `break` in an except clause and a `break` of the body. Each case is decompiled
under the interpreter, compiled again and run against the original on several inputs; on 3.11-3.13
its instruction sequences are compared too."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

ALL = {
    "continue_then_rest",
    "continue_then_rest_in_finally",
    "continue_then_rest_in_with",
    "continue_after_with_arm",
    "statements_then_continue",
    "elif_continue_else",
    "continue_ends_body",
    "inner_for_then_continue",
    "clause_break_and_body_break",
    "clause_break_and_elif_break",
    "clause_break_and_raise_then_break",
    "clause_code_back_to_stop",
    "clause_code_back_to_stop_else",
    "chain_or_chain",
    "chain_or_name",
}

# (≤3.10 read loops through the block stack, a reading of its own: 3.9 reads these shapes since
# session 18, `exit_in_body::break_code_exit`, 3.10 since branch beh20l, and both recompile them to
# the same instructions)
REFUSED: dict = {}


@pytest.fixture(scope="module", params=[9, 10, 11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/twice16_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert {r["case"] for r in results} == ALL
    refused = {r["case"] for r in results if "DecompileError" in (r.get("error") or "")}
    assert refused == REFUSED.get(minor, set()), refused
    bad = [r for r in results if r["case"] not in refused and (r.get("error") or not r.get("same_results"))]
    assert not bad, f"3.{minor}: " + "\n".join(
        f"{r['case']}: {r.get('error') or r.get('results')}\n{r.get('source')}" for r in bad
    )


def test_cases_same_code(report) -> None:
    minor, results = report
    if minor not in (11, 12, 13):
        pytest.skip("the NOP header's written continue is read on 3.11-3.13")
    differing = {r["case"]: (r.get("differing"), r.get("source")) for r in results if not r.get("same_code")}
    assert not differing, f"3.{minor}: {differing}"


# per version: the b_twice16 functions refused (the readings are 3.11-3.13's, and 3.9's since
# session 18, 3.14's `future_features` since branch beh19, 3.10's `read_chunks` since branch
# beh20l)
BEHAVIOUR_REFUSED = {9: 0, 10: 0, 11: 0, 12: 0, 13: 0, 14: 0}


@pytest.mark.parametrize("minor", [9, 10, 11, 12, 13, 14])
def test_behaviour_module(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/behaviour_run.py", "--module", "b_twice16")
    fns = rep["functions"]
    assert fns["counts"]["different"] == 0 and fns["counts"]["syntax"] == 0, fns
    assert fns["counts"]["error"] == 0, fns
    assert fns["counts"]["refused"] == BEHAVIOUR_REFUSED[minor], fns
    assert fns["total"] >= 5 and fns["counts"]["equal"] == fns["total"] - BEHAVIOUR_REFUSED[minor], fns
