"""`match` statements (3.10+): every function of tests/support/match_cases.py (literal, dotted-name,
singleton, capture and wildcard, sequence with and without star, mapping with **rest, class with
positional and keyword sub-patterns, or- and as-patterns, guards, nested patterns, several cases with
and without a final `case _:`) is decompiled under each interpreter 3.10-3.14, compiled again, run
against the original on every subject (results and exceptions, TypeError included, compared), and its
normalized instruction sequence compared with the original's."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

MINORS = [10, 11, 12, 13, 14]


@pytest.mark.parametrize("minor", MINORS)
def test_match_functions(minor: int) -> None:
    exe = interpreter(minor)
    report = run_json(exe, "tests/support/match_checks.py")
    assert len(report) >= 25
    refused = {name: r["error"] for name, r in report.items() if "error" in r}
    assert not refused, refused
    wrong = {name: r["mismatches"] for name, r in report.items() if not r["results_equal"]}
    assert not wrong, wrong
    different = {name: r["first_diff"] for name, r in report.items() if not r["code_equal"]}
    assert not different, different
    # the subjects include ones no case matches and ones that raise TypeError in a class pattern
    assert report["m_class_typeerror"]["raised"] > 0
    assert report["m_not_a_class"]["raised"] > 0
    assert any("match" in r["source"] for r in report.values())


@pytest.mark.parametrize("minor", MINORS)
def test_every_pattern_kind_printed(minor: int) -> None:
    exe = interpreter(minor)
    report = run_json(exe, "tests/support/match_checks.py")
    src = {name: r["source"] for name, r in report.items()}
    assert "case Color.Shade.DARK:" in src["m_dotted"]
    assert "case None:" in src["m_singletons"] and "case True:" in src["m_singletons"]
    assert "case [first, *rest]:" in src["m_seq_star"]
    assert "case [a, *mid, b]:" in src["m_seq_star_middle"]
    assert "**rest}" in src["m_mapping"]
    assert "case Point(x=0, y=yy):" in src["m_class_kw"]
    assert "case Point(a, b):" in src["m_class_pos"]
    assert "case 1 | 2 | 3:" in src["m_or"]
    assert "case 1 | 2:" in src["m_or_last"]
    assert " as pair:" in src["m_as"]
    assert "if a < b and b < 10:" in src["m_guard"]
    assert "case _ if isinstance(x, str):" in src["m_guard"]
    assert "case _:" in src["m_guard"]
