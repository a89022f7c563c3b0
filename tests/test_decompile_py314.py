"""What CPython 3.14 compiles in new ways (tests/support/decompile_py314_cases.py): inlined
all()/any()/tuple() of a generator expression, module and class annotations as __annotate__
functions, `async with` through LOAD_SPECIAL, template strings. Each case module is decompiled under
the interpreter, recompiled, run against the original on several inputs, and its instruction
sequences compared; on 3.13 the same sources (but template strings) must come back as well. A fast
path of an inlined call that is not the compiler's expansion is refused."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json


@pytest.fixture(scope="module", params=[13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/decompile_py314_cases.py")


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert len(results) >= (9 if minor >= 14 else 7)
    bad = [r for r in results if not r["ok"]]
    assert not bad, f"3.{minor}: " + "\n".join(
        f"{r['case']}: {r.get('error') or r.get('differing') or r.get('results')}\n{r.get('source')}" for r in bad
    )


def test_inlined_calls_come_back_as_calls(report) -> None:
    minor, results = report
    src = {r["case"]: r for r in results}["inlined_builtins"]["source"]
    assert "any(x == 2 for x in xs)" in src and "tuple(x * 2 for x in xs if x)" in src, src


def test_annotations_come_back(report) -> None:
    minor, results = report
    by_case = {r["case"]: r for r in results}
    src = by_case["class_annotations"]["source"]
    assert "a: int" in src and "b: list[str] = xs" in src and "d: 'str' = 'd'" in src, src
    assert src.index("'''doc'''") < src.index("a: int") if "'''doc'''" in src else src.index("doc") < src.index("a: int")
    src = by_case["module_annotations"]["source"]
    assert "x: int = 1" in src and "z: float = 2.0" in src and "never: str" in src, src
