"""Shapes in which a block would come out twice, read as the source had them
(structure/twice_shapes.rs; cases in tests/support/twice_shapes_cases.py): a `return` out of a
`for` inside `while True:`, an except clause's `if c: B  else: raise` before code after the try
(3.12+), `while True:` whose `break`s meet after one of them runs code first. Each case is
decompiled under the interpreter, compiled again and run against the original on several inputs;
its instruction sequences are compared where the output is the same code (`breaks_meeting_in_with`
comes out as the same behaviour spelt `if n: ... continue` / `break`)."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

ALL = {
    "return_from_for_in_while_true",
    "clause_if_else_raise",
    "clause_loop_raise",
    "breaks_meeting_in_with",
}
# refused (DecompileError) on a version: a shape of another kind there, never wrong source
REFUSED = {
    9: {"clause_loop_raise"},
    10: {"clause_if_else_raise"},
    11: {"clause_loop_raise"},
}
SAME_CODE = {
    9: {"return_from_for_in_while_true", "clause_if_else_raise"},
    10: {"return_from_for_in_while_true", "clause_loop_raise"},
    11: {"return_from_for_in_while_true", "clause_if_else_raise"},
    12: ALL - {"breaks_meeting_in_with"},
    13: ALL - {"breaks_meeting_in_with"},
    14: ALL - {"breaks_meeting_in_with"},
}


@pytest.fixture(scope="module", params=[9, 10, 11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/twice_shapes_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert {r["case"] for r in results} == ALL
    refused = {r["case"] for r in results if "DecompileError" in (r.get("error") or "")}
    assert refused <= REFUSED.get(minor, set()), refused
    bad = [r for r in results if r["case"] not in refused
           and (r.get("error") or not r.get("same_results"))]
    assert not bad, f"3.{minor}: " + "\n".join(
        f"{r['case']}: {r.get('error') or r.get('results')}\n{r.get('source')}" for r in bad
    )


def test_cases_same_code(report) -> None:
    minor, results = report
    differing = {r["case"]: r.get("differing") for r in results if not r.get("same_code")}
    expected = SAME_CODE[minor]
    assert not (expected & differing.keys()), {k: differing[k] for k in expected & differing.keys()}
