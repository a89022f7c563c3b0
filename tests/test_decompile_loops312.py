"""3.12+ loop-body layouts (tests/support/loops312_cases.py, structure/loop_shapes.rs): `if a and
b: B` ending a loop body over copies of the jump back, one `continue` shared by an `or`, `if c:
break` whose break is the copied loop exit, `if`/`elif` ending the body. Each case is decompiled
under the interpreter, compiled again and run against the original on several inputs, and its
instruction sequences compared."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

ALL = {
    "and_ends_body",
    "two_continues",
    "shared_continue",
    "while_true_break_copy",
    "elif_ends_body",
    "while_and",
    "while_and_copied_exits",
    "else_first_ends_body",
    "explicit_continue_after_if",
}


@pytest.fixture(scope="module", params=[12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/loops312_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert {r["case"] for r in results} == ALL
    bad = [r for r in results if r.get("error") or not r.get("same_results")]
    assert not bad, f"3.{minor}: " + "\n".join(
        f"{r['case']}: {r.get('error') or r.get('results')}\n{r.get('source')}" for r in bad
    )


def test_cases_same_code(report) -> None:
    minor, results = report
    differing = {r["case"]: (r.get("differing"), r.get("source")) for r in results if not r.get("same_code")}
    assert not differing, f"3.{minor}: {differing}"
