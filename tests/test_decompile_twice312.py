"""Shapes, 3.11-3.14, in which a block would come out twice, read as the source had them
(structure/twice_shapes.rs, branch twice312; cases in tests/support/twice312_cases.py): a loop whose
body raises inside an `if` arm that the enclosing statement goes on after (the arm going round the
loop is not an arm ending at the enclosing region's end), one whose arm is the jump to the loop's
exit itself (3.14 top-tested `while`), and a chained comparison after a plain test
(`a and 0 <= x < n`, `a or 0 < x < n`) followed by `elif`, an except clause's `if` / `elif` arms
both going back to the code after the try, laid out before the handler (3.13 / 3.14). Each case is decompiled under the
interpreter, compiled again and run against the original on several inputs, and its instruction
sequences compared with the original's (all come out as the source had them)."""

from __future__ import annotations

import pytest

from conftest import assert_cases_behave, assert_cases_same_code, interpreter, run_json

ALL = {
    "for_raise_in_inner_else",
    "while_raise_in_if_arm",
    "for_raise_arm_returns",
    "chain_after_test_elif",
    "chain_after_test_or",
    "clause_elif_pass_in_if_arm",
    "chain_continue_in_loop",
}


@pytest.fixture(scope="module", params=[11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/twice312_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert_cases_behave(minor, results, ALL, set())


def test_cases_same_code(report) -> None:
    _, results = report
    assert_cases_same_code(results, ALL, set())
