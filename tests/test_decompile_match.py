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


def test_mutated_match_bytecode_gives_errors_not_crashes() -> None:
    """Match code with instructions swapped for others of the same size: DecompileError (or the
    decoder's BytecodeError) or source, never a panic or another exception (this interpreter's
    version)."""
    import random
    import sys
    import types

    sys.path.insert(0, "tests/support")
    import match_cases

    from framejit import DecompileError, decompile
    from framejit.bytecode import BytecodeError

    if sys.version_info < (3, 10):
        pytest.skip("match needs 3.10+")
    rng = random.Random(1234)
    replacements = [b"\x01\x00", b"\x09\x00"]  # POP_TOP / NOP on every version 3.10+
    names = ["COPY", "DUP_TOP", "SWAP", "POP_TOP", "NOP", "UNPACK_SEQUENCE", "ROT_TWO"]
    import dis

    ops = [dis.opmap[n] for n in names if n in dis.opmap]
    tried = 0
    for name in match_cases.FUNCTIONS:
        code = getattr(match_cases, name).__code__
        raw = bytearray(code.co_code)
        for _ in range(20):
            mutated = bytearray(raw)
            k = rng.randrange(0, len(raw) // 2) * 2
            if rng.random() < 0.5:
                mutated[k : k + 2] = rng.choice(replacements)
            else:
                mutated[k] = rng.choice(ops)
                mutated[k + 1] = rng.randrange(0, 4)
            fn = types.FunctionType(code.replace(co_code=bytes(mutated)), {})
            tried += 1
            try:
                decompile(fn)
            except (DecompileError, BytecodeError):
                pass
    assert tried > 500


@pytest.mark.parametrize("minor", MINORS)
def test_cpython_patma_suite(minor: int) -> None:
    """CPython's own pattern matching tests, decompiled, behave as the originals (TestTracing
    compares traced line numbers, which decompiled code does not keep)."""
    exe = interpreter(minor)
    report = run_json(exe, "tests/support/match_patma.py")
    if report["missing"]:
        pytest.skip("no test.test_patma in this installation")
    assert report["same"] >= 200, report
    wrong = [d for d in report["different"] if d[0] != "TestTracing"]
    assert not wrong, wrong
