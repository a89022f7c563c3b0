"""Code that 3.10 copies after an except clause's or a with handler's POP_EXCEPT, and into a `for`
loop's `break` (tests/behaviour/b_legacy_copies.py; behaviour on inputs is checked by the behaviour
suite under every version): decompiled, compiled again, instruction sequences compared
(tests/support/legacy_copies_checks.py)."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

SCRIPT = "tests/support/legacy_copies_checks.py"

ALL = {
    "try_return_in_if", "try_else_return", "try_else_return_loop", "with_never_completes",
    "with_never_completes_suppress", "with_then_raise", "with_in_clause", "run_raise",
    "for_break_copied_exit", "for_break_in_try_body", "for_try_break",
}
# 3.11+: a with body that never completes followed by code (3.11 lays that code out after the
# handler's POP_EXCEPT in its block: split off there; 3.12+ jump there) decompiles; compiled
# again here without the module's `import contextlib`, `contextlib.suppress` is a method call
# (LOAD_METHOD, not LOAD_ATTR), so only its decompiling is checked (its behaviour is the suite's)
NEVER_COMPLETES = {"with_never_completes", "with_never_completes_suppress"}


@pytest.mark.parametrize("minor", [9, 10, 11, 12, 13, 14])
def test_legacy_copies(minor: int) -> None:
    cases = run_json(interpreter(minor), SCRIPT, timeout=300)["cases"]
    assert set(cases) == ALL
    for name in sorted(ALL):
        r = cases[name]
        if minor <= 10:
            assert r["decompiled"] and r["identical"], (name, r.get("error"), r.get("source"))
        elif name in NEVER_COMPLETES:
            assert r["decompiled"], (name, r.get("error"))
            if name == "with_never_completes":
                assert r["identical"], (name, r.get("source"))
