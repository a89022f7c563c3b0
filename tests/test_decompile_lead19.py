"""Lead, session 19 (cases in tests/support/lead19_cases.py): comprehensions whose last condition
is a constant false; `return` from an except clause in a with body, 3.9-3.14. Each case is decompiled under the interpreter, compiled again and
run against the original on several inputs: equal results, and the same instructions."""

from __future__ import annotations

import pytest

from conftest import assert_cases_behave, assert_cases_same_code, interpreter, run_json

ALL = {
    "listcomp_if_false",
    "all_comps_if_false",
    "nested_genexp_if_false",
    "tuple_target_if_false",
    "two_loops_if_false",
    "clause_return_in_with",
    "clause_return_name_in_with_loop",
    "alike_lambdas_apart",
    "alike_comprehensions_apart",
    "alike_lambdas_together",
    "return_then_raise_in_finally_body",
    "return_then_raise_in_clause_as",
    "return_const_then_raise_in_clause",
    "return_in_endless_loop_in_try",
    "nested_finally_if_in_finally",
    "nested_finally_if_else_in_finally",
    "nested_finally_ends_try_body",
    "try_except_ends_finally_body",
    "try_except_else_ends_finally_body",
    "for_const_return_in_with",
    "for_break_ends_with",
}

# 3.9: the `else:` part of the try in the with body is read after the statement (the clause
# returns, so the same behaviour; other instructions)
# 3.12-3.14: `return x` out of `while True:` in a try/finally body read as `break` and the
# return after the loop (the same behaviour; other instructions; not read otherwise yet)
OTHER_CODE = {
    9: {"clause_return_in_with"},
    12: {"return_in_endless_loop_in_try"},
    13: {"return_in_endless_loop_in_try"},
    14: {"return_in_endless_loop_in_try"},
}

# (3.12+ `for_const_return_in_with`: read since branch beh20n, session 20)
REFUSED: dict = {}


@pytest.fixture(scope="module", params=[9, 10, 11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/lead19_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert_cases_behave(minor, results, ALL, REFUSED.get(minor, set()))


def test_cases_same_code(report) -> None:
    minor, results = report
    assert_cases_same_code(results, ALL, REFUSED.get(minor, set()), OTHER_CODE.get(minor, set()))
