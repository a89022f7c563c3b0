"""Integer constants read by the bridge (C long range formatted in Rust, larger ones by str()):
tests/support/bridge_int_checks.py under every interpreter."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_int_constants_round_trip(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/bridge_int_checks.py")
    assert rep["checked"] == 46, rep
    assert rep["wrong"] == [], rep
