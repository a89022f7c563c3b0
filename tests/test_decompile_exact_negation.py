"""`is` / `in` tests negated exactly (tests/behaviour/b_exact_negation.py): asserts and `if`s whose
test the compiler's jumps give the other way round. Each runs original against decompiled-and-
recompiled, and recompiling gives the original's instruction sequence. Before 2026-11-22 the
asserts came out as `assert not x not in s` (3.14: about 125 stdlib code objects)."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_exact_negation_behaves(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/behaviour_run.py", "--module", "b_exact_negation")
    counts = rep["functions"]["counts"]
    assert counts["equal"] == rep["functions"]["total"] >= 4, rep["functions"]


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_exact_negation_round_trip(minor: int) -> None:
    got = run_json(interpreter(minor), "tests/support/roundtrip_module.py", "b_exact_negation")
    off = {name: how for name, how in got.items() if how != "same"}
    assert not off, off
