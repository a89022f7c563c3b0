"""Conditional expressions whose test combines parts with `and` / `or` / `not`
(tests/behaviour/b_ifexp_compound.py): each part is a block that jumps to one of the two arms. They
were refused, or in spill mode came out as an `if` statement assigning a temporary, before
2026-11-21. Each case runs original against decompiled-and-recompiled on every input."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

# equal functions of 10 (3.11: a chained comparison inside the test; 3.14: `a and b or c`, refused)
AT_LEAST = {9: 10, 10: 10, 11: 9, 12: 10, 13: 10, 14: 9}


@pytest.mark.parametrize("minor", sorted(AT_LEAST))
def test_compound_ifexp_decompiles_and_behaves(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/behaviour_run.py", "--module", "b_ifexp_compound")
    fns = rep["functions"]
    assert fns["counts"]["different"] == 0 and fns["counts"]["syntax"] == 0, fns
    assert fns["counts"]["error"] == 0, fns
    assert fns["counts"]["equal"] >= AT_LEAST[minor], fns
