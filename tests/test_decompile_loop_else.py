"""`for` / `while` loops with an `else:` part and `break` (tests/behaviour/b_loop_else.py): `break`
jumps past the `else:` part, which runs only when the loop's test ends it; nested loops whose
`else:` part returns, raises, continues or breaks the enclosing loop, and `break` jumps the compiler
threads on to the enclosing loop; `for` loops whose body never goes round again (no back edge:
it was refused as "FOR_ITER outside a loop header"). Each case runs original against decompiled-and-recompiled on every
input. Before 2026-11-21 most of these were refused ("a value stays on the stack across blocks")
and the decompiler had no way to print a loop's `else:` part."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

# every case decompiles and behaves on these versions
ALL = {9: 14, 11: 14}
# the rest may refuse one: a for-else in a try whose `break` the compiler turned into a copy of the
# `return` after the loop (3.10, 3.12+)
AT_LEAST = {10: 13, 12: 13, 13: 13, 14: 13}


@pytest.mark.parametrize("minor", sorted({**ALL, **AT_LEAST}))
def test_loop_else_decompiles_and_behaves(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/behaviour_run.py", "--module", "b_loop_else")
    fns = rep["functions"]
    assert fns["counts"]["different"] == 0 and fns["counts"]["syntax"] == 0, fns
    assert fns["counts"]["error"] == 0, fns
    if minor in ALL:
        assert fns["counts"]["equal"] == fns["total"] == ALL[minor], fns
    else:
        assert fns["counts"]["equal"] >= AT_LEAST[minor], fns
