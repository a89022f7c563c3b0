"""3.12-3.14 shapes around copied exit blocks and `break` (tests/support/copied_exits_cases.py):
try/except/else followed by `return name` (the clauses' copy of it after POP_EXCEPT), 3.14's
`while c: ...; break`, `if c: break` in the middle of a loop body, a finally body ending in an
`if a and not b:` with a try statement at a function's end. Each case module is decompiled under
the interpreter, recompiled, run against the original on several inputs, and its instruction
sequences compared."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json


@pytest.mark.parametrize("minor", [12, 13, 14])
def test_copied_exit_shapes_round_trip(minor: int) -> None:
    results = run_json(interpreter(minor), "tests/support/copied_exits_cases.py")
    assert len(results) >= 4
    bad = [r for r in results if not r["ok"]]
    assert not bad, f"3.{minor}: " + "\n".join(
        f"{r['case']}: {r.get('error') or r.get('differing') or r.get('results')}\n{r.get('source')}" for r in bad
    )
