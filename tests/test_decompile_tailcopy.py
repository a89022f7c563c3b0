"""A `break` or an except clause's end whose way on the compiler copied a small exit block into
(tests/behaviour/b_tailcopy.py, crates/decompile/src/structure/loop_tail_copy.rs and
clause_end_copy.rs): 3.11+ read the copy after the construct's unwinding pop as a `return` inside
the construct before 2026-11-22 (recompiled with LOAD; SWAP 2; POP_TOP / POP_EXCEPT). Each function
runs original against decompiled-and-recompiled on every input on every interpreter, and on 3.11+
recompiling gives the original's instruction sequence."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

# functions whose recompiled instructions may differ on a version, with why
KNOWN = {
    # the inner loop's break runs the outer loop's break (a second pop) and its copy of the code
    # after the outer loop: read as a `return` inside the inner loop (the same behaviour)
    12: {"nested_for_break_tails"},
}
# ≤3.10 are read by legacy_blocks.rs (block-stack bytecode), another branch's work: behaviour only;
# 3.10 refuses the `except ... as e:` clause whose arms end it ("an exit from a try body without the
# finally body's copy"), 3.9 the try statement ending a clause ("code after a try statement copied
# into an except clause")
REFUSED = {9: {"clause_try_else_copies"}, 10: {"clause_arm_ends_named_clause"}}


@pytest.mark.parametrize("minor", (9, 10, 11, 12, 13, 14))
def test_tailcopy_behave(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/behaviour_run.py", "--module", "b_tailcopy")
    counts = rep["functions"]["counts"]
    assert counts["different"] == counts["syntax"] == counts["error"] == 0, rep["functions"]
    assert counts["refused"] <= len(REFUSED.get(minor, ())), rep["functions"]
    assert counts["equal"] >= rep["functions"]["total"] - len(REFUSED.get(minor, ())), rep["functions"]


@pytest.mark.parametrize("minor", (11, 12, 13, 14))
def test_tailcopy_round_trip(minor: int) -> None:
    got = run_json(interpreter(minor), "tests/support/roundtrip_module.py", "b_tailcopy")
    off = {name: how for name, how in got.items() if how != "same" and name not in KNOWN.get(minor, ())}
    assert not off, off
