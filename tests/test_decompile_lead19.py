"""Lead, session 19 (cases in tests/support/lead19_cases.py): comprehensions whose last condition
is a constant false, 3.9-3.14. Each case is decompiled under the interpreter, compiled again and
run against the original on several inputs: equal results, and the same instructions."""

from __future__ import annotations

import pytest

from conftest import assert_cases_behave, assert_cases_same_code, interpreter, run_json

ALL = {
    "listcomp_if_false",
    "all_comps_if_false",
    "nested_genexp_if_false",
    "tuple_target_if_false",
    "two_loops_if_false",
}


@pytest.fixture(scope="module", params=[9, 10, 11, 12, 13, 14])
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/lead19_cases.py", timeout=300)


def test_cases_decompile_and_behave(report) -> None:
    minor, results = report
    assert_cases_behave(minor, results, ALL, set())


def test_cases_same_code(report) -> None:
    minor, results = report
    assert_cases_same_code(results, ALL, set(), set())
