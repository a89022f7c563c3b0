"""Bytecode a program generated (the shapes torch.compile's transformed code and resume functions
have, which no compiler emits), hand-assembled for CPython 3.11 in tests/support/generated_cases.py:
values kept on the stack across statements and branches, a list copied (COPY) and then extended in
place, LIST_EXTEND onto a list a local holds, a cell (LOAD_CLOSURE) and a code object used as
values, a prologue jumping over dead code, a prologue jumping into two nested for loops at the
inner loop's latch (refused before 2026-11-23; the outer loop's partial iteration is now peeled). Each case is run as assembled and as decompiled and
compiled again on several inputs (fresh copies each); results or exception types must be equal.

Before spill mode (2026-11-21) five of the first eight were refused, and three came out silently
wrong: `cell_as_value` as `return [(k,)][0]` (the value of `k` where the bytecode returns its cell),
`return_discards_a_call` without the call, `pop_top_over_a_call` with the two calls swapped.
"""

from __future__ import annotations

import json

import pytest

from conftest import ROOT, interpreter, run_python

SCRIPT = str(ROOT / "tests" / "support" / "generated_cases.py")
CASES = [
    "kept_across_if_with_stores",
    "impure_value_kept_across_branch",
    "copied_list_extended",
    "extend_a_local_list",
    "cell_as_value",
    "code_object_as_value",
    "prologue_jumps_over_dead_code",
    "kept_under_rebinding_stores",
    "return_discards_a_call",
    "pop_top_over_a_call",
    "resume_into_nested_loops",
]
# In-place operators whose result is not stored back into the operand: refused (they came out as
# `a + b`, which leaves a list operand unchanged), or equal if ever decompiled.
REFUSED_OR_EQUAL = [
    "inplace_stored_elsewhere",
    "inplace_used_as_value",
    "inplace_popped",
]


@pytest.fixture(scope="module")
def results() -> dict:
    exe = interpreter(11)
    p = run_python(exe, SCRIPT, timeout=120)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout)


@pytest.mark.parametrize("case", CASES)
def test_generated_shape(results: dict, case: str) -> None:
    r = results[case]
    assert "refused" not in r, f"{case} refused: {r.get('refused')}"
    assert r["runs"], case
    for want, got in r["runs"]:
        assert want == got, f"{case}: assembled gives {want}, decompiled gives {got}\n{r['source']}"


@pytest.mark.parametrize("case", REFUSED_OR_EQUAL)
def test_generated_shape_never_wrong(results: dict, case: str) -> None:
    r = results[case]
    if "refused" in r:
        assert "in-place" in r["refused"], r["refused"]
        return
    for want, got in r["runs"]:
        assert want == got, f"{case}: assembled gives {want}, decompiled gives {got}\n{r['source']}"


def test_every_case_is_listed(results: dict) -> None:
    assert sorted(results) == sorted(CASES + REFUSED_OR_EQUAL)


def _lambda_with_statements(x, scale=3):
    y = x * scale
    if y > 10:
        return y - 10
    return -y


def test_lambda_code_with_statements_reads_as_a_def() -> None:
    """A lambda's code object with statements (torch.compile converts a lambda's frame into such
    code) decompiles on its own as `def lambda_` that behaves as the code object does; one with a
    single returned expression stays a lambda."""
    import types

    import framejit

    code = _lambda_with_statements.__code__.replace(co_name="<lambda>", co_qualname="<lambda>")
    source = framejit.decompile(code)
    assert source.startswith("def lambda_(x, scale):"), source
    namespace: dict = {}
    exec(compile(source, "<decompiled>", "exec"), namespace)
    again = namespace["lambda_"]
    original = types.FunctionType(code, globals())
    for args in [(1, 3), (5, 3), (2, 7), (-4, 2)]:  # (a code object has no defaults)
        assert again(*args) == original(*args), (args, source)
    assert framejit.decompile((lambda t: t + 1).__code__) == "lambda t: t + 1\n"
