"""Helper beh19, session 19 (cases in tests/support/beh19_cases.py): `break` out of `async with`
bodies in `while` loops (3.11+: the awaited exit call, then the loop's exit or its copy), and a
`return` computed after an except clause's POP_EXCEPT past an enclosing finally body's copy
(3.12+: refused; it was read into the try body, computed before the finally body), and 3.11's
`return CONSTANT` out of a `for` loop through a finally body's copy and finally bodies ending in a
loop left by `break`, and 3.14's `break` NOPs falling into the code after a try statement,
3.9-3.14.
Each case is decompiled under the interpreter, compiled again and run against the original on
several inputs: equal results, and the same instructions, where it is read; the rest is refused,
never read wrong."""

from __future__ import annotations

import pytest

from conftest import assert_cases_behave, assert_cases_same_code, interpreter, run_json

ALL = {
    "async_while_true_break_then_call",
    "async_while_break_then_call",
    "async_while_true_if_break_then_call",
    "async_while_if_break_then_call",
    "async_while_true_break_then_raise",
    "async_while_true_break_then_const",
    "async_with_never_completes_then_code",
    "while_except_break_finally_rebinds",
    "for_const_return_through_finally",
    "for_const_return_through_except_and_finally",
    "for_const_return_through_two_finallys",
    "finally_loop_break",
    "finally_while_break_return_const",
    "finally_for_break_then_code",
    "try_while_else_break_then_call",
    "try_while_future_features",
}
# `while True: try: ... except E: break  else: ... finally: ...` then `return log`: ≤3.10 not read
# yet ("a block would come out twice" / "an exit from a try body without the finally body's
# copy"); 3.12+ copy `return log` after the finally body's copy in the clause, whose loop then has
# no exit of its own: read since branch beh20n (session 20, `clause_break_split.rs`), with the
# clause's `break` after an inner try/except in the finally body (the same behaviour, other
# instructions: OTHER_CODE below)
REFUSED = {minor: {"while_except_break_finally_rebinds"} for minor in (9, 10)}
for _minor in (12, 13, 14):
    REFUSED[_minor] = set()
# (3.10's `async with` in `while` loops left by `break`: read since branch beh20w, session 20)

# `return CONSTANT` out of a `for` loop through two `finally:` bodies' copies: not read yet on any
# version ("the stack went below the statement's base")
for _minor in range(9, 15):
    REFUSED.setdefault(_minor, set()).add("for_const_return_through_two_finallys")
# a `finally:` body ending in a loop left by `break`: not read yet on 3.10 / 3.12+ (a `while` loop
# whose `break`s 3.10 and 3.12+ give a copy of `return CONSTANT`: "a finally block whose
# normal-path copy differs"); 3.9 reads the `for` loop's since branch beh20l (its `break` threaded
# past the loop's exit, `jumped_break.rs`)
for _minor in (10, 12, 13, 14):
    REFUSED[_minor].add("finally_while_break_return_const")
# 3.12+ read `return CONSTANT` out of a `for` loop through a finally body's copy as `break` with
# the loop's `else:` returning the other constant and the first after the statement (the same
# behaviour, other instructions)
OTHER_CODE = {
    minor: {"for_const_return_through_finally", "for_const_return_through_except_and_finally"}
    for minor in (12, 13, 14)
}
OTHER_CODE[9] = set()
# a `while True:` ending a try body, left by `break`s: read with `continue` / `break` ending the
# arms in place of `else: break` (the same behaviour, other instructions) on 3.9 / 3.14
# (`future_features`) and 3.10-3.13 (`else_break_then_call`)
OTHER_CODE[9].add("try_while_future_features")
OTHER_CODE[14].add("try_while_future_features")
for _minor in (10, 11, 12, 13):
    OTHER_CODE.setdefault(_minor, set()).add("try_while_else_break_then_call")
for _minor in (12, 13, 14):
    OTHER_CODE[_minor].add("while_except_break_finally_rebinds")


@pytest.fixture(scope="module", params=[9, 10, 11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/beh19_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert_cases_behave(minor, results, ALL, REFUSED.get(minor, set()))


def test_cases_same_code(report) -> None:
    minor, results = report
    assert_cases_same_code(results, ALL, REFUSED.get(minor, set()), OTHER_CODE.get(minor, set()))
