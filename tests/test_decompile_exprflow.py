"""Expression-level control flow and comprehensions of shapes 3.11-3.14 compile in ways of their
own (tests/behaviour/b_exprflow.py), refused before 2026-11-22:

- chained comparisons whose last test is 3.14's POP_JUMP_IF_NOT_NONE (`a is b is None`), whose
  false arm 3.14 copies after the cleanup's POP_TOP (`assert 0 <= a < b`), or whose test an
  inlined comprehension's exception range splits (`[x for x in xs if 0 < x < m]`, 3.12+);
- 3.14's inlined `all()` / `any()` / `tuple()` fast paths over a generator whose iterable has
  control flow of its own (an inlined comprehension, a conditional expression), or whose loop an
  enclosing `with` body's exception range splits;
- `return x` from a try body whose finally body's copy has an `if` (the value waits under it);
- 3.13+ unpacking whose first store of a name stored again is dropped (`for op, _, _ in rows`);
- `if a or b` split by an exception range in a 3.12+ comprehension, and `if (a if c else b):`;
- 3.14 `try: ... except E: return / raise ... else: B`: B is the `else:` part where its first
  local load borrows (LOAD_FAST_BORROW), the code after the statement where it does not.

Each function runs original against decompiled-and-recompiled on every input (none different,
none that does not compile), and recompiling the decompiled source gives the original's
instruction sequence for at least the given number of functions per version."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

# (behaviour equal, round trip same) per minor version; 3.9 / 3.10 refuse the try/finally cases
EXPECTED = {9: (25, 23), 10: (25, 23), 11: (28, 26), 12: (28, 26), 13: (28, 26), 14: (28, 27)}
# must come back with the original's instructions on these versions
SAME = {
    11: ["chain_is_none", "chain_assert", "chain_in_listcomp", "any_over_listcomp",
         "return_through_finally_if", "unpack_dropped_store", "ifexp_condition_in_listcomp"],
    12: ["chain_in_listcomp", "chain_two_in_listcomp", "return_through_finally_if",
         "return_call_through_finally_if", "or_in_setcomp", "ifexp_condition_in_listcomp"],
    13: ["unpack_dropped_store", "unpack_two_dropped", "unpack_dropped_in_genexpr",
         "or_not_in_listcomp", "ifexp_condition_in_listcomp"],
    14: ["chain_is_none", "chain_is_not_none", "chain_assert", "chain_assert_logged",
         "chain_in_listcomp", "any_over_listcomp", "all_over_ifexp", "tuple_over_listcomp",
         "all_in_with_in_loop", "tuple_in_try", "return_through_finally_if",
         "return_attr_through_finally", "unpack_dropped_store", "unpack_dropped_in_genexpr",
         "ifexp_condition_in_listcomp", "or_in_setcomp", "or_in_genexpr",
         "try_else_clauses_leave", "try_after_clauses_leave", "try_else_in_if"],
}


@pytest.mark.parametrize("minor", sorted(EXPECTED))
def test_exprflow_behaves(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/behaviour_run.py", "--module", "b_exprflow")
    counts = rep["functions"]["counts"]
    assert counts["different"] == counts["syntax"] == counts["error"] == 0, rep["functions"]
    assert counts["equal"] >= EXPECTED[minor][0], rep["functions"]


@pytest.mark.parametrize("minor", sorted(EXPECTED))
def test_exprflow_round_trip(minor: int) -> None:
    got = run_json(interpreter(minor), "tests/support/roundtrip_module.py", "b_exprflow")
    same = [name for name, how in got.items() if how == "same"]
    assert len(same) >= EXPECTED[minor][1], got
    missing = [name for name in SAME.get(minor, []) if got.get(name) != "same"]
    assert not missing, {name: got.get(name) for name in missing}
