"""Loop exits of session 13 (tests/support/loop_exit_shapes_checks.py runs each case under one
interpreter: decompiled, compiled again, instructions compared, both run on the inputs):

- ≤3.9 read a `return` written in a loop inside a try body (reached by falling through from the
  body) as the code after the loop and dropped the loop's real `break`: the loop went round again (a
  silent miscompilation). 3.12+ still read the code after the try statement, which only the
  `break` leads to, inside the try body (a known defect, KNOWN_DEFECTS of test_decompile_behaviour:
  b_lead13.break_or_return_in_try; the inputs here raise nothing there).
- a `break` out of an inner `for` whose jump the compiler threads on to the outer loop's header,
  behind a test of its own (`if b[m] is None: return ...` then `break`), with and without `else:`;
- 3.12+: `return name` after an except clause's POP_EXCEPT is the code after the statement copied
  there, where the statement's `else:` raises.
Every case that decompiles must behave the same; those listed here must come back identical."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json

ALL = set(LIVE_MINORS)
IDENTICAL = {
    "break_or_return_in_try": {9, 10, 11},
    "threaded_break_behind_test": ALL,
    "threaded_break_for_else": ALL,
    "copied_return_after_raising_else": ALL - {10},
}


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_loop_exit_shapes(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/loop_exit_shapes_checks.py")
    assert set(rep) == set(IDENTICAL)
    for name, r in rep.items():
        if minor in IDENTICAL[name]:
            assert r["source"] is not None, (name, r["error"])
            assert r["same_code"], (name, r["source"])
        for original, again in r["results"]:
            assert original == again, (name, r["source"], original, again)
