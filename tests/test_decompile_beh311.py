"""`break` out of a with body in a `while` loop, 3.11-3.14 (cases in tests/support/beh311_cases.py):
a `while True:` whose only way out is such a `break`, a with body whose last way out is a `break`
with the code after the loop copied after the exit call (3.12+). Each case is decompiled under the
interpreter, compiled again and run against the original on several inputs, and its instruction
sequences compared with the original's. Main refused every one of them. Also 3.11:
a `while True:` left only by an except clause's `break` through a `finally:` body."""

from __future__ import annotations

import pytest

from conftest import assert_cases_behave, assert_cases_same_code, interpreter, run_json

ALL = {
    "while_true_break_call",
    "while_true_break_raise",
    "while_true_break_two_withs",
    "while_cond_break_call",
    "while_true_in_for",
    "while_true_break_else_round",
    "while_true_clause_break_finally",
    "while_true_clause_break_finally_in_for",
    "while_true_two_breaks",
    "while_true_break_and_return",
}
# refused (DecompileError) on a version: never wrong source (3.12+ lay the clause's `break` out
# with the finally body's copy and the code after the loop in one block: read since branch
# beh20n, session 20, `clause_break_split.rs`, with the `break` after an inner try/except in the
# finally body: the same behaviour, other instructions; inside a `for` loop not read yet)
CLAUSE = {"while_true_clause_break_finally_in_for"}
# (3.12 copies the code after the loop into both `break`s: the split takes one such block only)
REFUSED = {11: set(), 12: CLAUSE | {"while_true_two_breaks"}, 13: CLAUSE, 14: CLAUSE}
OTHER_CODE_312 = {"while_true_clause_break_finally"}


@pytest.fixture(scope="module", params=[11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/beh311_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert_cases_behave(minor, results, ALL, REFUSED[minor])


def test_cases_same_code(report) -> None:
    minor, results = report
    other = OTHER_CODE_312 if minor >= 12 else set()
    assert_cases_same_code(results, ALL, REFUSED[minor], other)
