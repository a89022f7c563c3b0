"""What CPython 3.12-3.14 compile differently: inlined comprehensions (PEP 709, nested, with
conditions, shadowing an outer name, in class bodies and at module level), super() (LOAD_SUPER_ATTR),
star calls and unary + (CALL_INTRINSIC_1), class bodies reading free variables (LOAD_LOCALS), 3.14
annotations as __annotate__ functions. Each case module is decompiled under that interpreter,
recompiled, run against the original on several inputs, and its instruction sequences compared."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

MINORS = [12, 13, 14]


@pytest.fixture(scope="module", params=MINORS)
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/decompile_py312_cases.py")


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert len(results) >= 19
    bad = [r for r in results if not r["ok"]]
    assert not bad, f"3.{minor}: " + "\n".join(
        f"{r['case']}: {r.get('error') or r.get('differing') or r.get('results')}\n{r.get('source')}" for r in bad
    )


def test_comprehensions_come_back_inline(report) -> None:
    """The comprehensions are rebuilt as expressions, not loops."""
    minor, results = report
    by_case = {r["case"]: r for r in results}
    src = by_case["nested_comprehensions"]["source"]
    assert "{k: [y for y in range(k) if y] for k in xs}" in src, src
    assert "{s for t in d.values() for s in t}" in src, src
    src = by_case["shadowing"]["source"]
    assert "x = 'outer'" in src and "sum([x for x in xs])" in src, src
    src = by_case["super_calls"]["source"]
    assert "super().m(x)" in src and "super(Child, self).m(x + 1)" in src, src
