"""`while True:` loops, 3.9-3.14 (cases in tests/support/endless_loop_cases.py): loops that never
end after a branch or a try statement whose other way leaves (flow.rs `endless_loop_exits`),
`continue` in except clauses (except_exit.rs `leaving`, nop_header.rs), ways out laid out in the
body (loop_exits.rs `return_in_body`, `return_not_copied`).
Each case is decompiled under the interpreter, compiled again and run against the original on
several inputs: equal results everywhere (the first two were silent miscompilations: the loop was
read into the try body, whose bare `except:` then caught what the loop let out). Where noted,
the recompiled instructions differ without a change of behaviour."""

from __future__ import annotations

import pytest

from conftest import assert_cases_behave, assert_cases_same_code, interpreter, run_json

ALL = {
    "assert_try_then_endless_loop",
    "try_then_endless_loop_of_try",
    "raise_arm_then_endless_loop",
    "assert_then_endless_loop",
    "clause_continue_in_try_in_endless_loop",
    "nested_try_continue_in_endless_loop",
    "clause_continue_then_more",
    "long_return_none_in_body",
    "long_raise_in_body",
    "return_beside_break",
    "as_clause_continue",
    "with_continue",
    "for_clause_continue",
    "raise_arms_then_breaks",
    "loop_left_by_clause_return",
    "one_block_body_return",
}

# (each case also recompiles to the original's instructions: an except clause's `continue` that
# ends the body of a `while True:` whose body starts with `try:` jumps to the `while` line's NOP,
# where falling off the clause goes past it, so 3.10-3.13 keep it written, `nop_header`; 3.9 has
# no NOP: its written `continue` is told by the dead POP_EXCEPT and jump the compiler leaves after
# it)
# 3.9 and 3.14 lay the ways out of a `while True:` body out otherwise than 3.10 / 3.11 (the
# long `raise` read as the code after the loop there; 3.14's `if` whose arm continues read with
# an `else:`: not read yet)
# (`raise_arms_then_breaks`: read with its `elif` arms nested otherwise, everywhere)
ARMS = {"raise_arms_then_breaks"}
OTHER_CODE = {
    9: {"long_raise_in_body"} | ARMS,
    10: ARMS,
    11: ARMS,
    12: ARMS,
    13: ARMS,
    14: {"long_return_none_in_body", "long_raise_in_body", "as_clause_continue"} | ARMS,
}
# (3.10's `as` clause whose `continue` leaves through the unbinding was refused here until
# session 19: read since branch rows310c, the clauses' way on being where the try statement ends)
REFUSED: dict = {}


@pytest.fixture(scope="module", params=[9, 10, 11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/endless_loop_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert_cases_behave(minor, results, ALL, REFUSED.get(minor, set()))


def test_cases_same_code(report) -> None:
    minor, results = report
    assert_cases_same_code(results, ALL, REFUSED.get(minor, set()), OTHER_CODE.get(minor, set()))
