"""Comprehensions over several lines (tests/behaviour/b_comp_lines.py): an `if` clause on a line of
its own is printed on a line of its own (3.12+ lay its jump out differently on one line), and the
sweep's comparison treats 3.14's borrowing of a load after a store as the line fact it is. Each
function runs original against decompiled-and-recompiled, and recompiling gives the original's
instruction sequence. Before 2026-11-22 the 3.12+ ones recompiled to another jump layout."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_comp_lines_behave(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/behaviour_run.py", "--module", "b_comp_lines")
    counts = rep["functions"]["counts"]
    assert counts["equal"] == rep["functions"]["total"] >= 7, rep["functions"]


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_comp_lines_round_trip(minor: int) -> None:
    got = run_json(interpreter(minor), "tests/support/roundtrip_module.py", "b_comp_lines")
    off = {name: how for name, how in got.items() if how != "same"}
    assert not off, off
    assert len(got) >= 7, got
