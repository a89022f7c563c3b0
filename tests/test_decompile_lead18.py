"""Lead, session 18 (cases in tests/support/lead18_cases.py): `return x` out of `for` loops in a
try body whose finally body branches, and `if a or b: break` in loops, 3.9-3.14. Each case is decompiled under the interpreter,
compiled again and run against the original on several inputs: equal results, and the same
instructions, where it is read; the rest is refused, never read wrong."""

from __future__ import annotations

import pytest

from conftest import assert_cases_behave, assert_cases_same_code, interpreter, run_json

ALL = {
    "for_return_through_finally_if",
    "nested_for_return_through_finally_if",
    "for_return_through_finally_if_else",
    "or_break_in_nested_if",
    "or_break_first_in_while",
    "two_if_breaks",
    "const_return_through_nested_finally_if",
    "with_returns_in_both_arms",
    "nested_if_else_ending_arm",
    "elif_code_then_break",
    "elif_raise_then_break",
    "chain_and_pass_else_then_more",
}
# a finally body whose copy on the way out has an `if` with an `else:`, with a value waiting under
# it: not read yet on any version ("an exit from a try body without the finally body's copy")
REFUSED = {minor: {"for_return_through_finally_if_else"} for minor in range(9, 15)}
# 3.11+: `return CONSTANT` out of a try/except body inside a try/finally whose body branches: "a
# try body that ends in two places" (not read yet)
for _minor in range(11, 15):
    REFUSED[_minor].add("const_return_through_nested_finally_if")
# `while True:` left only by a `break` after code in an `elif` arm: other code (same behaviour) on
# 3.11 and 3.14, and with a `raise` before the `break` on 3.10 and 3.12 / 3.13 (the loop's exit
# chosen otherwise: not read yet)
ELIF_BREAK = {"elif_code_then_break", "elif_raise_then_break"}
# (and `return CONSTANT` out of a try/except body in a try/finally: read as the `else:` part on
# 3.10, which lays it out as the body's way on; same behaviour)
OTHER_CODE = {
    10: {"const_return_through_nested_finally_if", "elif_raise_then_break"},
    11: ELIF_BREAK,
    12: {"elif_raise_then_break"},
    13: {"elif_raise_then_break"},
    14: ELIF_BREAK,
}


@pytest.fixture(scope="module", params=[9, 10, 11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/lead18_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert_cases_behave(minor, results, ALL, REFUSED.get(minor, set()))


def test_cases_same_code(report) -> None:
    minor, results = report
    assert_cases_same_code(results, ALL, REFUSED.get(minor, set()), OTHER_CODE.get(minor, set()))
