"""Loop exits of session 13 (tests/support/loop_exit_shapes_checks.py runs each case under one
interpreter: decompiled, compiled again, instructions compared, both run on the inputs):

- ≤3.9 read a `return` written in a loop inside a try body (reached by falling through from the
  body) as the code after the loop and dropped the loop's real `break`: the loop went round again (a
  silent miscompilation). 3.12+ read the code after the try statement, which only the `break`
  leads to, inside the try body, where the handler caught its exceptions (session 14: the `break`'s
  jump out of the try's range and the exception table's coverage say which way out is the code
  after the loop; the cases with `fail` raise there). With the `return` first, without the try,
  inside try/finally, and a try statement inside the loop.
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
    "break_or_return_in_try": ALL,
    "return_then_break_in_try": ALL,
    "break_then_return_in_try": ALL,
    "return_then_break": ALL,
    "return_then_break_in_try_finally": ALL,
    # (3.9 / 3.10 refuse it; 3.12 / 3.13 write a `continue` at the end of the try body)
    "try_in_loop_return_then_break": {11, 14},
    "threaded_break_behind_test": ALL,
    "threaded_break_for_else": ALL,
    "copied_return_after_raising_else": ALL - {10},
    "break_first_in_try_in_loop": ALL,
    # (3.11 / 3.14 refuse it, "a block would come out twice"; 3.10 writes other jumps)
    "every_exit_in_try_body": {9, 12, 13},
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
