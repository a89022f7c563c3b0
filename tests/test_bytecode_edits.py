"""Acceptance: edits (jumps pushed over EXTENDED_ARG thresholds, renamed locals, changed constants, new
exception ranges, CFG round trips) assemble into code that runs and behaves as the edit means, under
every interpreter 3.9-3.14. The checks themselves are in support/edit_checks.py."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json

CHECKS = [
    "check_add_exception_range",
    "check_backward_jump_needs_extended_arg",
    "check_change_and_add_constants",
    "check_control_flow_graph",
    "check_errors_name_the_place",
    "check_forward_jump_needs_extended_arg",
    "check_jump_shrinks_back",
    "check_python_items_round_trip",
    "check_rename_locals",
]


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_edits_run(minor: int) -> None:
    results = run_json(interpreter(minor), "tests/support/edit_checks.py")
    assert sorted(results) == CHECKS
    failed = {k: v for k, v in results.items() if v != "ok"}
    assert not failed, "\n\n".join(f"{k}:\n{v}" for k, v in failed.items())
