"""Ways out of loops inside try statements, 3.11-3.14 (cases in tests/support/try_loop_exits_cases.py):
`for ... else:` inside `try:` whose `break` reaches the code after the try, `break` out of a `for`
loop through a `finally:` body. Each case is decompiled under the interpreter, compiled again and
run against the original on several inputs; where it decompiles, its instruction sequences are the
original's. The refused ones were silent miscompilations on main (a `return` read where the code
after the loop ran after the finally body's copy): refused is allowed there, different never."""

from __future__ import annotations

import pytest

from conftest import assert_cases_behave, assert_cases_same_code, interpreter, run_json

ALL = {
    "for_else_in_try",
    "flag_loop_else_raise_in_try",
    "break_through_finally_rebinds",
    "break_through_finally_len",
    "break_in_except_through_finally",
    "while_clause_break_through_finally",
    "for_else_break_through_finally",
    "while_true_except_break",
    "while_true_except_break_in_try",
    "except_as_if_in_loop",
    "while_except_break_or_return",
    "while_except_break_or_return_call",
    "for_return_const_in_try",
    "for_break_into_implicit_return_in_try",
    "for_return_const_in_with",
    "for_return_in_clause",
    "finally_loop_break",
    "finally_loop_break_after_except",
    "for_else_break_in_clause_nested",
    "for_else_break_in_clause",
    "for_else_break_in_clause_copied",
}
# refused (DecompileError) on a version: never wrong source
# (3.12+ `for_return_const_in_with` and `while_clause_break_through_finally`: read since branch
# beh20n, session 20, to the original's instructions: loop_else.rs `break_into_copy`,
# `clause_break_split.rs`)
LATER = {"for_else_break_through_finally"}
REFUSED = {
    # (3.11 reads it since branch beh311: the clause's `break` goes on where the finally copy jumps;
    # the finally body's loop whose `break`s hold the handler's re-raise and the normal path's
    # copied exit is read since branch beh19, `finally_break_copy.rs`)
    11: set(),
    12: LATER,
    13: LATER,
    14: LATER,
}


# decompiled to other instructions that behave the same (checked on every input): 3.14's layout of
# `while True:` left only by an except clause's `break`, inside an outer try body, is read as
# `try/except/else: ... continue` followed by the code after the loop (known, not yet fixed; the
# same loop outside a try reads since session 16: `handler_break_exit`, `clause_break_stop`)
OTHER_CODE = {14: {"while_true_except_break_in_try"}}


@pytest.fixture(scope="module", params=[11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/try_loop_exits_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert_cases_behave(minor, results, ALL, REFUSED[minor])


def test_cases_same_code(report) -> None:
    minor, results = report
    assert_cases_same_code(results, ALL, REFUSED[minor], OTHER_CODE.get(minor, set()))
