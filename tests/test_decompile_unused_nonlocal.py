"""A free variable that a function's code never touches is there only because the source declared it
`nonlocal`: the declaration is written back, so the enclosing function keeps it as a cell (before
2026-11-22 it was dropped, and the enclosing function stored the variable as a plain local:
test_coroutines' test_with_10..12, `nonlocal CNT` in an `async def` that never uses CNT)."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_unused_nonlocal_declarations_round_trip(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/unused_nonlocal_checks.py")
    for name, r in rep.items():
        assert r["same_code"], (name, r["source"])
        assert r["results"][0] == r["results"][1], (name, r["results"], r["source"])
    assert "nonlocal n\n" in rep["declared_unused"]["source"]
    assert "nonlocal" not in rep["passed_through"]["source"]
    assert "nonlocal b\n" in rep["mixed_in_class"]["source"]
