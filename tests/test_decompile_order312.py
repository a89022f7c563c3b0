"""Block layout as the reading's evidence, 3.11-3.14 (cases in tests/support/order312_cases.py):
the code after a try body whose except clauses all leave is the statement's `else:` part or the
code after the statement as its handlers lie before or after the statement's own; the way out of
a `while True:` loop that is a block of more than four instructions inside the loop's layout was
written in the body. Each case is decompiled under the interpreter, compiled again and run against
the original on several inputs; where it decompiles, its instruction sequences are the original's
(on main 3.12 and 3.13 laid the blocks out in another order: same instructions, other layout)."""

from __future__ import annotations

import pytest

from conftest import assert_cases_behave, assert_cases_same_code, interpreter, run_json

ALL = {
    "clause_returns_then_try",
    "clause_returns_then_with",
    "clause_raises_then_with",
    "clause_returns_then_comprehension",
    "else_part_holds_try",
    "inside_outer_try",
    "loop_clause_continues_then_try",
    "while_true_return_in_body",
    "module_clause_raises_then_with",
    "loop_clause_only_continue_then_try",
    "inner_loop_ends_with_if_break",
}
# refused (DecompileError) on a version: never wrong source
REFUSED = {
    11: set(),
    12: set(),
    13: {"inside_outer_try"},
    14: {"inside_outer_try"},
}

# decompiled to other instructions with the same behaviour (checked by the first test): 3.14 tests
# a `while` at its top and lays its exits out otherwise; exit_in_body.rs is 3.12 / 3.13 only
# (on 3.14 it made _pyrepl's HistoricalReader.isearch_next refuse)
OTHER_LAYOUT = {11: set(), 12: set(), 13: set(), 14: {"while_true_return_in_body"}}


@pytest.fixture(scope="module", params=[11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/order312_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert_cases_behave(minor, results, ALL, REFUSED[minor])


def test_cases_same_code(report) -> None:
    minor, results = report
    assert_cases_same_code(results, ALL, REFUSED[minor], OTHER_LAYOUT[minor])
