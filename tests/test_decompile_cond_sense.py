"""The sense of `in` / `is` tests (tests/behaviour/b_cond_sense.py): `if not a in b:`, `not x or
y is not z`, `not (a in b or a in c)`, `while not x in s`, `assert not x in s` and a kept
`not (a < b)`. Through 3.13 the compiler folds a `not` on an `in` / `is` comparison into its
operator; 3.14 keeps the operator and turns the jump around, so a negated test is written
`not a in b` there (structure/cond_sense.rs). Each function runs original against decompiled-and-
recompiled (NaN and an object with odd comparisons among the inputs) and recompiles to the
original's instruction sequence on every version."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_cond_sense_behaves(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/behaviour_run.py", "--module", "b_cond_sense")
    counts = rep["functions"]["counts"]
    assert counts["equal"] == rep["functions"]["total"] >= 10, rep["functions"]


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_cond_sense_round_trip(minor: int) -> None:
    got = run_json(interpreter(minor), "tests/support/roundtrip_module.py", "b_cond_sense")
    off = {name: how for name, how in got.items() if how != "same"}
    assert not off, off
