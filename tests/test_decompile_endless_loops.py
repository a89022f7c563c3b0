"""Loops that never end after a branch or a try statement whose other way leaves, 3.9-3.14 (cases
in tests/support/endless_loop_cases.py; flow.rs `endless_loop_exits`, except_exit.rs `leaving`).
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
}

# other instructions, the same behaviour (checked on every input): an except clause's `continue`
# ending the body of a `while True:` whose body starts with `try:` jumps to the `while` line's
# NOP, falling off the clause to the `try` line's; 3.9-3.13 read the `continue` as the end of the
# body (`pass`), which recompiles to the second jump (3.14 reads it: `nop_header`)
CONTINUE_TO_WHILE_NOP = {"try_then_endless_loop_of_try", "clause_continue_in_try_in_endless_loop"}
OTHER_CODE = {
    9: CONTINUE_TO_WHILE_NOP,
    10: CONTINUE_TO_WHILE_NOP | {"nested_try_continue_in_endless_loop"},
    11: CONTINUE_TO_WHILE_NOP,
    12: CONTINUE_TO_WHILE_NOP,
    13: CONTINUE_TO_WHILE_NOP,
}


@pytest.fixture(scope="module", params=[9, 10, 11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/endless_loop_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert_cases_behave(minor, results, ALL, set())


def test_cases_same_code(report) -> None:
    minor, results = report
    assert_cases_same_code(results, ALL, set(), OTHER_CODE.get(minor, set()))
