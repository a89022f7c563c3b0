"""Statements whose code the compiler copies or lays out in ways a naive reading changes
(tests/behaviour/b_copied_exits.py): code after a try statement copied into its except clauses
(3.12+), `break` into a copy of the code after a loop, a `for ... else:` whose code after the
statement exists only in the copy a `break` runs, a returned conditional expression whose return
each arm copies, an `if` ending a loop body (3.12+ jump over the jump back), `while c:` tested at
the top (3.14) or as a guard and a bottom test (3.10-3.13), a lambda's conditional expression,
an `if k in d:` ending a loop body, a `return` out of a `for` inside an `if` (3.12+).
Before 2026-11-21 these decompiled to equivalent code of another layout (a `return` inside the
clause and an `else: return`, `if x in o: continue` for `if x not in o: return`, `while True: if
c:`...) or were refused. Each runs original against decompiled-and-recompiled on every input, and
recompiling gives the original's instruction sequence."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

# functions whose recompiled instructions may differ on a version, with why
KNOWN = {
    # 3.9/3.10 (block-stack bytecode, decompiled by legacy_blocks.rs): these come out as equivalent
    # code of another layout (a return inside the clause kept, `while True: if c:`, a break's copy
    # read as a return); 3.9 writes `(a if v else b) if x else c` in a lambda as jumps not folded yet
    9: {"try_return_in_clause", "while_break", "while_break_middle", "while_else_return",
        "lambda_nested_ifexp"},
    10: {"try_two_clauses", "try_return_in_clause", "try_returns_clause_goes_on", "break_then_return", "for_else_break_copy",
         "break_from_clause", "while_else_return", "break_or_continue_ends_loop"},
    # a while ... else whose break runs a copy of the code after the statement (not followed yet)
    12: {"while_else_return"},
    13: {"while_else_return"},
    # 3.14 prints the two `continue` tests as nested ifs (the same behaviour)
    14: {"continues_then_body"},
}
MINORS = (9, 10, 11, 12, 13, 14)


@pytest.mark.parametrize("minor", MINORS)
def test_copied_exits_behave(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/behaviour_run.py", "--module", "b_copied_exits")
    counts = rep["functions"]["counts"]
    assert counts["different"] == counts["syntax"] == counts["error"] == 0, rep["functions"]
    assert counts["equal"] >= rep["functions"]["total"] - len(KNOWN.get(minor, ())), rep["functions"]


@pytest.mark.parametrize("minor", MINORS)
def test_copied_exits_round_trip(minor: int) -> None:
    got = run_json(interpreter(minor), "tests/support/roundtrip_module.py", "b_copied_exits")
    off = {name: how for name, how in got.items() if how != "same" and name not in KNOWN.get(minor, ())}
    assert not off, off


BREAK_OUT_OF_WITH = r'''
import json, framejit
class CM:
    def __init__(self, log): self.log = log
    def __enter__(self): return self
    def __exit__(self, *a): self.log.append("exit"); return False
def f(xs):
    log = []
    for x in xs:
        with CM(log):
            log.append(x)
            if x:
                break
    return len(log)
try:
    src = framejit.decompile(f)
except framejit.DecompileError as e:
    print(json.dumps({"refused": str(e)}))
else:
    ns = {"CM": CM}
    exec(compile(src, "<decompiled>", "exec"), ns)
    print(json.dumps({"want": f([0, 1, 2]), "got": ns["f"]([0, 1, 2]), "source": src}))
'''


@pytest.mark.parametrize("minor", MINORS)
def test_break_out_of_with_is_never_a_return_inside_it(minor: int) -> None:
    """3.10 copies `return len(log)` after the loop into the break out of the with, after the exit
    call: read as a `return` inside the with it computed len(log) before __exit__ ran (4 against 3).
    Such a copy now reads as `break` (with_exits.rs) on every version."""
    r = run_json(interpreter(minor), "-c", BREAK_OUT_OF_WITH)
    assert "refused" not in r, r
    assert r["want"] == r["got"] == 4, r
