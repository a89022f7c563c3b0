"""The assignment idiom in comprehensions (`for y in [v]`, which 3.9+ compile as a store) and pairs of
values stored without a tuple (tests/behaviour/b_comp_assign.py). Refused as "a comprehension body of
a shape this decompiler does not know" before 2026-11-21. The first attempt at it printed
`for q in [g(x)] for p in [f(x)]` for `for p, q in [(f(x), g(x))]` on 3.13+ (3.13's STORE_FAST_LOAD_FAST
moved the statement's base above f(x), so the pair was not read as one assignment): the call log
each case returns catches that order."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_comprehension_assignment_idiom(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/behaviour_run.py", "--module", "b_comp_assign")
    fns = rep["functions"]
    assert fns["counts"]["equal"] == fns["total"] == 7, fns
