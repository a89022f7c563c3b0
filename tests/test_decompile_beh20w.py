"""Branch beh20w (cases in tests/support/beh20w_cases.py): 3.10 `break` out of with bodies in
`while` loops whose way out copies the code after the loop, with bodies that never complete
followed by a conditional jump, and sibling shapes, 3.9-3.14. Each case is decompiled under the
interpreter, compiled again and run against the original on several inputs (managers that record
their exits and suppress): equal results, and the same instructions."""

from __future__ import annotations

import pytest

from conftest import assert_cases_behave, assert_cases_same_code, interpreter, run_json

ALL = {
    "while_cond_break_call",
    "while_cond_break_raise",
    "while_cond_if_break_call",
    "while_true_break_call",
    "while_true_break_raise",
    "while_true_if_break_call",
    "while_true_nested_break_call",
    "while_true_break_jumps",
    "async_while_cond_break_call",
    "async_while_true_if_break_call",
    "async_while_true_nested_break_call",
    "while_cond_return_in_body",
    "while_true_const_return_in_body",
    "for_if_break_call",
    "never_completes_then_if",
    "while_cond_never_completes",
    "completes_by_arms_then_call",
    "loop_exits_then_locals",
    "break_and_end_same_copy",
}

# 3.9: an `if` after a with statement whose body never completes, laid out after the handler's
# POP_EXCEPT (not this branch's version); 3.11-3.14: `break` out of nested `async with` bodies in
# a `while True:` loop; 3.12-3.14: a constant `return` in a with body in a `while True:` loop
# with no other way out ("a block would come out twice")
# ... and everywhere but 3.10 a `break` out of a with body whose copy of the loop's exit is the
# code after the statement too (the loop never goes round: the suppressed path returns)
R = "break_and_end_same_copy"
REFUSED = {
    9: {"never_completes_then_if", R},
    11: {"async_while_true_nested_break_call", R},
    12: {"async_while_true_nested_break_call", "while_true_const_return_in_body", R},
    13: {"async_while_true_nested_break_call", "while_true_const_return_in_body", R},
    14: {"async_while_true_nested_break_call", "while_true_const_return_in_body", R},
}

# 3.10: the same case read as the with statement without the loop (it never goes round): the
# same behaviour, other instructions; 3.12-3.14: a loop in a with body left by its test and by
# `break`, the same behaviour, other instructions (not this branch's versions)
OTHER_CODE = {
    10: {R},
    12: {"loop_exits_then_locals"},
    13: {"loop_exits_then_locals"},
    14: {"loop_exits_then_locals"},
}


@pytest.fixture(scope="module", params=[9, 10, 11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/beh20w_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert_cases_behave(minor, results, ALL, REFUSED.get(minor, set()))


def test_cases_same_code(report) -> None:
    minor, results = report
    assert_cases_same_code(results, ALL, REFUSED.get(minor, set()), OTHER_CODE.get(minor, set()))
