"""Control flow whose blocks would come out twice (tests/support/copied_blocks_cases.py): a `try:`
line's NOP after another try statement, a `break` into which the compiler copied the loop's return,
3.14's NOT_TAKEN blocks inside `or` conditions before `continue`, a top-tested while whose exit an
enclosing if shares, an `elif` jumping straight to where the enclosing if goes on, a while
condition of or-ed ands. Each case is decompiled under the interpreter, compiled again and run
against the original on several inputs; its instruction sequences are compared where the output
is the same code (the others are the same behaviour, spelt differently: `while True: if c: ...`)."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

ALL = {
    "try_after_try_in_else",
    "break_copies_return",
    "continue_after_or",
    "continue_after_or_while",
    "while_exit_shared_with_if",
    "elif_jumps_to_if_merge",
    "while_or_of_ands",
    "clause_rejoins_after_if",
    "break_in_while_in_with",
}
# the same instruction sequences once recompiled, per version
BOTH = {"try_after_try_in_else", "elif_jumps_to_if_merge", "clause_rejoins_after_if"}
SAME_CODE = {
    11: BOTH | {"while_exit_shared_with_if", "break_copies_return"},
    12: BOTH | {"while_exit_shared_with_if", "while_or_of_ands"},
    13: BOTH | {"while_exit_shared_with_if", "while_or_of_ands"},
    14: BOTH,
}


@pytest.fixture(scope="module", params=[11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/copied_blocks_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert {r["case"] for r in results} == ALL
    bad = [r for r in results if r.get("error") or not r.get("same_results")]
    assert not bad, f"3.{minor}: " + "\n".join(
        f"{r['case']}: {r.get('error') or r.get('results')}\n{r.get('source')}" for r in bad
    )


def test_cases_same_code(report) -> None:
    minor, results = report
    differing = {r["case"]: r.get("differing") for r in results if not r.get("same_code")}
    expected = SAME_CODE[minor]
    assert not (expected & differing.keys()), {k: differing[k] for k in expected & differing.keys()}
