"""The bridge's two ways of reading a code object's attributes (straight through types.CodeType's
descriptors for a live code object on 3.10+, getattr for anything else) give the same output:
tests/support/bridge_attrs_checks.py under every interpreter."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_descriptor_reads_match_getattr(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/bridge_attrs_checks.py", timeout=900)
    assert rep["compared"] > 250, rep
    assert rep["mismatches"] == [], rep
