"""`with` bodies left by `break` / `continue` / `return` (the compiler copies the exit call
`__exit__(None, None, None)` onto each way out), under every interpreter 3.9-3.14:

- tests/support/with_exits_cases.py: each case decompiled, compiled again and run against the
  original on several inputs (context managers log every enter and exit, one suppresses), its
  instruction sequences compared;
- the behaviour suite's functions that were refused for this before (tests/behaviour/b_*.py),
  original against decompiled-and-recompiled, and the whole suite modules they are in never
  miscompiled."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json

CASES = "tests/support/with_exits_cases.py"
RUNNER = "tests/support/behaviour_run.py"

SYNC = {
    "continue_in_with",
    "break_in_with",
    "break_and_continue_in_with",
    "continue_through_two_withs",
    "break_in_while_with",
    "with_last_in_loop",
    "return_in_with_in_loop",
    "return_through_two_withs",
    "return_in_with_in_try",
    "with_as_then_return_tuple",
    "suppressed_then_continue",
    "continue_in_with_in_try",
    "loop_in_with_in_loop",
}
ASYNC = {"async_with_continue_return", "async_with_break"}
# cases whose recompiled instruction sequences differ, per version (3.14 tests `while c:` at the
# top: every such loop comes out as `while True: if c: ...; continue` + `break`, same behaviour)
DIFFERENT_CODE = {14: {"break_in_while_with"}}

# behaviour-suite functions that this work decompiles: (module, function) -> first version
BEHAVIOUR = {
    ("b_flow", "continue_in_with_conditional"): 9,
    ("b_with", "with_in_loop_break_continue"): 9,
    ("b_mixes", "with_break_continue_nested"): 9,
    ("b_flow", "return_in_nested_try_and_with"): 9,
    ("b_mixes", "conditional_return_in_with"): 9,
    ("b_async", "co_async_with_return_in_loop"): 11,
    ("b_with", "with_as"): 9,
}


@pytest.fixture(scope="module", params=LIVE_MINORS)
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, CASES, timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    expected = SYNC | (ASYNC if minor >= 11 else set())
    assert {r["case"] for r in results} == expected
    bad = [r for r in results if r.get("error") or not r.get("same_results")]
    assert not bad, f"3.{minor}: " + "\n".join(
        f"{r['case']}: {r.get('error') or r.get('results')}\n{r.get('source')}" for r in bad
    )


def test_cases_same_code(report) -> None:
    minor, results = report
    differing = {r["case"]: r.get("differing") for r in results if not r.get("same_code")}
    unexpected = differing.keys() - DIFFERENT_CODE.get(minor, set())
    assert not unexpected, {k: differing[k] for k in unexpected}


@pytest.mark.parametrize("minor", LIVE_MINORS)
@pytest.mark.parametrize("module", sorted({m for m, _ in BEHAVIOUR}))
def test_behaviour_functions(minor: int, module: str) -> None:
    rep = run_json(interpreter(minor), RUNNER, "--module", module, timeout=300)
    for mode in ("functions", "modules"):
        counts = rep[mode]["counts"]
        assert counts["different"] == counts["syntax"] == counts["error"] == 0, (mode, rep[mode].get("details"))
    not_equal = {d["function"]: d.get("detail") for d in rep["functions"]["details"] if d["cls"] != "equal"}
    wanted = {f for (m, f), first in BEHAVIOUR.items() if m == module and minor >= first}
    missing = {f: not_equal[f] for f in wanted if f in not_equal}
    assert not missing, missing
