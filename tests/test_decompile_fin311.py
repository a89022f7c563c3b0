"""try/finally shapes of branch fin311, 3.11-3.14 (structure/try_raise_exit.rs, finally_tail.rs
join_reraise_arms; cases in tests/support/fin311_cases.py): a `raise` inside a try body inside
`while True:` (read before as the loop's exit: a `break` whose finally copy was missing, refused),
a `finally:` body ending with `if/elif/else` at the end of a function (the implicit `return None`
copied into the arms of the normal path's copy: refused before), and neighbours that must stay
right or refused. Each case is decompiled under the interpreter, compiled again and run against the
original on several inputs; where it decompiles, its instruction sequences are the original's."""

from __future__ import annotations

import pytest

from conftest import assert_cases_behave, assert_cases_same_code, interpreter, run_json

ALL = {
    "raise_in_finally_try_in_while_true",
    "raise_in_except_try_in_while_true",
    "raise_in_nested_try_in_while_true",
    "finally_if_else_at_end",
    "finally_if_elif_else_at_end",
    "finally_nested_if_else_at_end",
    "finally_in_if_arm_raise",
    "except_in_if_arm_raise",
    "clause_break_finally_rebinds",
    "return_in_finally_try_in_while_true",
}
# refused (DecompileError) on a version: never wrong source. On 3.12+ the except clause's `break`
# whose code after the loop 3.12+ copy after the finally body's copy; on 3.14 also a `return` in
# the try body of `while True:` (see docs/decompiler.md, branch fin311). Since session 15
# `raise_in_except_try_in_while_true` (was "a block would come out twice", 3.11-3.14) and, on 3.12 /
# 3.13, `return_in_finally_try_in_while_true` decompile to the original's instructions (the loop's
# exit found at its own level past the try body: `exit_past_level`; tailcopy's readings).
# (3.12-3.14 `clause_break_finally_rebinds`: read since branch beh20n, session 20,
# `clause_break_split.rs`, the `break` after an inner try/except in the finally body: the same
# behaviour, other instructions)
REFUSED = {
    11: set(),
    12: set(),
    13: set(),
    14: {"return_in_finally_try_in_while_true"},
}
OTHER_CODE_312 = {"clause_break_finally_rebinds"}


@pytest.fixture(scope="module", params=[11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/fin311_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert_cases_behave(minor, results, ALL, REFUSED[minor])


def test_cases_same_code(report) -> None:
    minor, results = report
    other = OTHER_CODE_312 if minor >= 12 else set()
    assert_cases_same_code(results, ALL, REFUSED[minor], other)
