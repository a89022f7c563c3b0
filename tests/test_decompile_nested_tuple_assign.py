"""A tuple assignment whose first target unpacks (`(a, b), (c, d) = x, a`) swaps its values so that
the first is unpacked first, and leaves the others on the stack meanwhile. Read as one statement per
target, a later value was evaluated after the earlier stores: `c, d = a` read the new `a` (a silent
miscompilation on every version before 2026-11-22). Now the unpackings join the tuple assignment the
swapped values make (`Sim::group_store`), which comes back as written; where that cannot be done
and a waiting value reads a stored name or has effects, the statement is refused."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json

WRITTEN = {
    "second_reads_stored": "(a, b), (c, d) = x, a",
    "plain_second_reads_stored": "(a, b), c = x, a",
    "second_has_effects": "(a, b), c = x, log.append(1)",
    "plain_first_then_nested": "a, (b, c) = x, a",
    "independent": "(a, b), (c, d) = x, y",
    "three_values": "(a, b), c, (d, *e) = x, a, y",
    "attribute_second": "parent, node.parent = node.parent, None",
    "item_second": "item, heap[0] = heap[0], item",
}


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_nested_tuple_assignments_never_change_behaviour(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/nested_tuple_assign_checks.py")
    for name, r in rep.items():
        assert r["source"] is not None, (name, r["error"])
        assert r["results"], name
        for original, again in r["results"]:
            assert original == again, (name, r["source"], original, again)
        assert r["same_code"], (name, r["source"])
        assert WRITTEN[name] in r["source"], (name, r["source"])
