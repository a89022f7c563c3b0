"""Loops whose `if` arms leave by `continue` / `break` (3.11+: copies of the jump back to the header,
`continue` to a `while` guard's test, compound bottom tests, 3.12+ copies of the loop's exit after an
except clause's POP_EXCEPT, a try as the last statement of an arm). The cases are
tests/behaviour/b_loops_exits.py, run original against decompiled-and-recompiled on every input."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

# (3.9, 3.10 and 3.14 refuse some of these; none may behave differently: the behaviour suite checks)
MINORS = [11, 12, 13]


@pytest.mark.parametrize("minor", MINORS)
def test_loop_exits_decompile_and_behave(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/behaviour_run.py", "--module", "b_loops_exits")
    fns = rep["functions"]
    assert fns["counts"]["different"] == 0 and fns["counts"]["syntax"] == 0, fns
    # every case decompiles on these versions
    assert fns["counts"]["equal"] == fns["total"] >= 10, fns
    assert rep["modules"]["counts"]["equal"] == 1, rep["modules"]
