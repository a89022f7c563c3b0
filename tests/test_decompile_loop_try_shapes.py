"""Loop and try shapes taught in session 11 (tests/behaviour/b_loop_try_shapes.py): a `return` in a
top-tested `while` that ends a `for` body (<=3.9, 3.14), `if c: break` in a try body inside a `for`
(3.11), `continue` in an except clause of a `while c:` compiled as a guard (3.10-3.13). Run original
against decompiled-and-recompiled on every input, on every interpreter."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

MINORS = [9, 10, 11, 12, 13, 14]


@pytest.mark.parametrize("minor", MINORS)
def test_loop_try_shapes_decompile_and_behave(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/behaviour_run.py", "--module", "b_loop_try_shapes")
    fns = rep["functions"]
    assert fns["counts"]["different"] == 0 and fns["counts"]["syntax"] == 0, fns
    # every case decompiles on every version
    assert fns["counts"]["equal"] == fns["total"] >= 7, fns
    assert rep["modules"]["counts"]["equal"] == 1, rep["modules"]
