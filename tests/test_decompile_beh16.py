"""3.11+ `break` from an except clause out of a `while` loop nested last in an outer loop's body
(branch beh16): the inner loop's exit is a lone JUMP_BACKWARD to the outer header, and the
compiler threads the clause's `break` (through the finally body's copy) straight there.

Also 3.11+ `return CONSTANT` out of nested `async with` bodies, through the outer statements'
awaited exit calls (await loops the way out runs before the return).

tests/behaviour/b_beh16.py holds the functions; each must decompile (main's build before this
branch refused seven of them on 3.12+, six on 3.11: "a try body that ends in two places", "a way
out of a with body that goes on to no return, break or continue", "a with statement whose code
after it differs on the suppressed path") and behave as the original on every interpreter, the
`break` staying in the except clause.
"""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json

RUNNER = "tests/support/behaviour_run.py"
FUNCTIONS = 8


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_beh16_functions_decompile_and_behave(minor: int) -> None:
    report = run_json(interpreter(minor), RUNNER, "--module", "b_beh16", "--show-source")
    counts = report["functions"]["counts"]
    assert counts["equal"] == FUNCTIONS, report["functions"]["details"]
    assert report["functions"]["total"] == FUNCTIONS
    for d in report["functions"]["details"]:
        if d["function"] == "for_if_while_clause_break_rebinds":
            # the break stays in the except clause: the finally body's store to `last` runs
            # before the code after the loops reads it
            assert "except ZeroDivisionError:\n" in d["source"]
            clause = d["source"].split("except ZeroDivisionError:\n", 1)[1]
            assert clause.split("\n")[1].strip() == "break", d["source"]
