"""Constant tests the compiler drops, read back on 3.14 (branch borrow17, session 17;
tests/support/borrow17_cases.py, structure/dead_if.rs): a dead `if` (`if 0:`, `if not __debug__:`,
`if 0 and x:`), `if __debug__ and x:`, `while True and x:` and `y = 1 if __debug__ else 0` leave an
empty block that 3.14's borrowing analysis never walks past, so the code after keeps its local
loads plain (LOAD_FAST); the decompiler writes `if False: pass` / `True and x` there. Each case is
decompiled under every interpreter, compiled again and run against the original on several inputs;
on 3.14 its instruction sequences (borrowed loads included) are compared too."""

from __future__ import annotations

import pytest

from conftest import assert_cases_behave, assert_cases_same_code, interpreter, run_json

ALL = {
    "not_debug_between",
    "not_debug_first",
    "zero_else",
    "zero_and_elif",
    "dead_if_in_arm",
    "dead_if_in_loop",
    "debug_and_nested",
    "true_and_while",
    "debug_ifexp_value",
    "debug_ifexp_argument",
    "dead_if_in_finally",
    "pass_between",
    "loop_ends_with_raise",
    "loop_in_with_returns",
    "loop_break_then_raise",
}

# (3.14: the finally body's exceptional copy, which the analysis never walks, is the one written;
# the dead `if` read in the normal path's copy is dropped to compare the two, and the recompiled
# normal copy borrows where the original's did not)
# (and a `return` in the middle of a `while True:` body inside a with statement, the fall-through
# arm of its test, is still read as `break` and the `return` after the loop: only ways out that
# conditional jumps enter are told by their borrowing, `walked_exit.rs`)
OTHER_CODE_314 = {"dead_if_in_finally", "loop_in_with_returns"}


@pytest.fixture(scope="module", params=[9, 10, 11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/borrow17_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert_cases_behave(minor, results, ALL, set())


def test_cases_same_code(report) -> None:
    minor, results = report
    if minor != 14:
        pytest.skip("the borrowing analysis, and the readings from it, are 3.14's")
    assert_cases_same_code(results, ALL, set(), OTHER_CODE_314)


def test_dead_if_sources() -> None:
    """What is written where the constant tests stood (3.14), and not written after `pass`."""
    results = {r["case"]: r for r in run_json(interpreter(14), "tests/support/borrow17_cases.py")}
    for case in ("not_debug_between", "not_debug_first", "zero_else", "zero_and_elif",
                 "dead_if_in_arm", "dead_if_in_loop", "debug_ifexp_value"):
        assert "if False:\n" in results[case]["source"], (case, results[case]["source"])
    assert " if True else None" in results["debug_ifexp_argument"]["source"]
    for case in ("debug_and_nested", "true_and_while"):
        assert "True and " in results[case]["source"], (case, results[case]["source"])
    # (the raise inside the loop's last `if`, not after the loop)
    assert "\n            raise ValueError" in results["loop_ends_with_raise"]["source"]
    assert "\n    raise ValueError" in results["loop_break_then_raise"]["source"]
    assert "if False" not in results["pass_between"]["source"]
    assert "True and" not in results["pass_between"]["source"]


@pytest.mark.parametrize("minor", [9, 10, 11, 12, 13, 14])
def test_behaviour_module(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/behaviour_run.py", "--module", "b_borrow17")
    fns = rep["functions"]
    assert fns["total"] >= 6 and fns["counts"]["equal"] == fns["total"], fns
