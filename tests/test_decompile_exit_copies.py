"""Exits the compiler copies into the ways that reach them, read back as the statements they came
from: `if c: break` (also `if a or b:` / `if a and b:`) in `while True:` with the loop's exit copied
into the `break`; `if not a or not b: continue` sharing one `continue` block (3.11); a `with`
statement ending a function, its exit and `return None` copied into each end of its body (≤3.10);
`return`s in a `while True:` body that are not the code after the loop (3.10, 3.11).
tests/support/exit_copies_checks.py decompiles each case, compiles the source again, compares the
normalized instruction sequences, and runs original and recompiled function on several inputs."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

SCRIPT = "tests/support/exit_copies_checks.py"

# (3.9 jumps to the code after `while True:` from its `break`, over a `JUMP_ABSOLUTE` the decompiler
# reads as the rest of the body: those come out as `if not c: <rest>; continue` then `break`, and
# the `return`s of a `while True:` body as a `break` and the code after the loop)
NOT_IDENTICAL = {9: {"while_true_break", "while_true_break_elif", "while_true_break_and",
                     "while_true_break_or_call", "while_true_break_in_with", "while_true_returns",
                     "while_true_return_in_elif", "while_true_break_or_return"}}


@pytest.mark.parametrize("minor", [9, 10, 11, 12, 13, 14])
def test_exit_copies_round_trip(minor: int) -> None:
    cases = run_json(interpreter(minor), SCRIPT, timeout=300)["cases"]
    assert len(cases) >= 15
    for name, r in cases.items():
        assert r["decompiled"] and r["compiled"], (name, r.get("error"))
        assert r["behaviour"] == "equal", (name, r.get("diffs"), r.get("source"))
        if name not in NOT_IDENTICAL.get(minor, set()):
            assert r["identical"], (name, r.get("first_difference"), r.get("source"))
