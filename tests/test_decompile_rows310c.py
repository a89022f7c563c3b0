"""Branch rows310c, session 19 (cases in tests/support/rows310c_cases.py): 3.10 try/except
statements whose except clauses all go on to one block that the body's normal way on reaches
(the code after the statement), inside with / try bodies, loops and `if` arms; they came out twice
on 3.10. Each case is decompiled under the interpreter, compiled again and run against the
original on several inputs: equal results, and the same instructions, where it is read; the rest
is refused, never read wrong. Run on 3.9-3.14."""

from __future__ import annotations

import pytest

from conftest import assert_cases_behave, assert_cases_same_code, interpreter, run_json

ALL = {
    "with_clause_if_else_raise",
    "with_clause_if_raise_then_code",
    "for_clause_if_raise",
    "while_clause_if_raise",
    "for_with_clause_else",
    "if_arm_clause_raise_then_code",
    "if_else_arm_clause_raise",
    "finally_body_clause_raise",
    "for_clause_continue_or_raise",
    "else_return_then_if_else",
    "nested_elif_ending_arm",
    "continue_last_in_try_body",
    "clause_try_else_continue",
}
# 3.12+: a clause that `continue`s in an inner `if` or raises, then code after the statement in a
# `for` loop: "a block would come out twice" there (3.12+ structure, not this branch's)
REFUSED = {minor: {"for_clause_continue_or_raise"} for minor in (12, 13, 14)}
# (3.11 / 3.13 / 3.14 `nested_elif_ending_arm`: read since branch beh20n, session 20, which takes
# the region rule to 3.11+)

# 3.9: `continue` last in a try body comes back as the statement's `else: continue`, and the inner
# `else: continue` of clause_try_else_continue otherwise (the same
# behaviour; 3.9 threads both to one jump and tells them apart by dead code: not this branch's)
OTHER_CODE = {9: {"continue_last_in_try_body", "clause_try_else_continue"}}


@pytest.fixture(scope="module", params=[9, 10, 11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/rows310c_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert_cases_behave(minor, results, ALL, REFUSED.get(minor, set()))


def test_cases_same_code(report) -> None:
    minor, results = report
    assert_cases_same_code(results, ALL, REFUSED.get(minor, set()), OTHER_CODE.get(minor, set()))
