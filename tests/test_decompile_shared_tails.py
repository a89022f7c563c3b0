"""`and`/`or` values whose arms share their last operand (`a and b or c`: the test of `a` jumps
straight to `c`) and expression branches whose arms never meet because the compiler copied the
statement's exit into each (`return a < b <= c < d`, `x = a < b < c; return x` on 3.12+):
tests/behaviour/b_shared_tails.py. Before 2026-11-21 these were refused on most versions ("a block
would come out twice", "an expression whose arms never meet", "a statement inside an expression").
Each function runs original against decompiled-and-recompiled on every input, and recompiling the
decompiled source gives the original's instruction sequence."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

# 3.14 compiles `if not a < b < c: raise` to a chained-comparison shape of its own (not handled)
EXPECTED = {9: 20, 10: 20, 11: 20, 12: 20, 13: 20, 14: 19}



@pytest.mark.parametrize("minor", sorted(EXPECTED))
def test_shared_tails_behave(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/behaviour_run.py", "--module", "b_shared_tails")
    counts = rep["functions"]["counts"]
    assert counts["different"] == counts["syntax"] == counts["error"] == 0, rep["functions"]
    assert counts["equal"] >= EXPECTED[minor], rep["functions"]


@pytest.mark.parametrize("minor", sorted(EXPECTED))
def test_shared_tails_round_trip(minor: int) -> None:
    got = run_json(interpreter(minor), "tests/support/roundtrip_module.py", "b_shared_tails")
    same = [name for name, how in got.items() if how == "same"]
    assert not [how for how in got.values() if how.startswith("differs")], got
    assert len(same) >= EXPECTED[minor], got
