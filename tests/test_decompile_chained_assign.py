"""Chained assignments of a name or constant through attribute and item targets
(tests/behaviour/b_chained_assign.py): the copy of the value was not tracked (a name or constant
reads the same each time), so `self.a = self.b = None` came out as two assignments loading None
twice; separate assignments must stay separate. Run against the original and round-tripped to the
same instructions on every version."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json


@pytest.mark.parametrize("minor", (9, 10, 11, 12, 13, 14))
def test_chained_assign_round_trip(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/behaviour_run.py", "--module", "b_chained_assign")
    counts = rep["functions"]["counts"]
    assert counts["equal"] == rep["functions"]["total"] == 5, rep["functions"]
    got = run_json(interpreter(minor), "tests/support/roundtrip_module.py", "b_chained_assign")
    assert all(how == "same" for how in got.values()), got
