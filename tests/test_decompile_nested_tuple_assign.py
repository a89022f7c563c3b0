"""A tuple assignment whose first target unpacks (`(a, b), (c, d) = x, a`) swaps its values so that
the first is unpacked first, and leaves the others on the stack meanwhile. Read as one statement per
target, a later value was evaluated after the earlier stores: `c, d = a` read the new `a` (a silent
miscompilation on every version before 2026-11-22). Now the statement is refused where a waiting
value reads a stored name or has effects; the rest comes out as before and behaves the same."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json

# not yet read as one tuple assignment: refused, never wrong
REFUSED = {"second_reads_stored", "plain_second_reads_stored", "second_has_effects"}


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_nested_tuple_assignments_never_change_behaviour(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/nested_tuple_assign_checks.py")
    for name, r in rep.items():
        if r["source"] is None:
            assert name in REFUSED, (name, r["error"])
            continue
        assert r["results"], name
        for original, again in r["results"]:
            assert original == again, (name, r["source"], original, again)
    assert rep["independent"]["source"] is not None
    assert rep["plain_first_then_nested"]["source"] is not None
