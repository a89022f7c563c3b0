"""CPython 3.8's own block opcodes, read from a .pyc (3.8 cannot import framejit): `finally` bodies run
as subroutines (BEGIN_FINALLY / CALL_FINALLY / END_FINALLY), `with` exits (WITH_CLEANUP_START /
WITH_CLEANUP_FINISH / POP_FINALLY), `except ... as name` (its unbinding is such a finally), and the
unpacking opcodes (BUILD_TUPLE_UNPACK_WITH_CALL, BUILD_MAP_UNPACK_WITH_CALL, BUILD_*_UNPACK).

tests/support/py38_checks.py compiles its cases under 3.8, this interpreter decompiles them, and 3.8
compiles the sources again, compares the instruction sequences (decompile_sweep.normalized) and runs
original against recompiled on inputs that raise (KeyError, a swallowed exception, ...) and that do
not, comparing results, exceptions and side-effect logs.
"""

from __future__ import annotations

import sys

import pytest

from conftest import interpreter, run_json

# Refused (DecompileError), not miscompiled; 3.9 and 3.10 refuse the same shape: `break` out of a
# with body inside a for loop (the iterator is popped after the exit call)
REFUSED = {"f_with_loop_break"}
# Recompiled differently, behaving the same (3.9 writes the same source for the same function): a
# `break` in an `except ... as e:` clause comes out twice (the second one dead); `if c: continue` at
# the top of a loop body comes out as `if not c:` around the rest, and a while loop's `else` without
# a `break` as code after the loop
SAME_BEHAVIOUR_ONLY = {"f_except_as_loop", "f_while_else"}


@pytest.fixture(scope="module")
def rows(tmp_path_factory) -> dict:
    exe38 = interpreter(8)
    d = tmp_path_factory.mktemp("py38")
    pyc, sources = d / "cases.pyc", d / "sources.json"
    run_json(exe38, "tests/support/py38_checks.py", "pyc", str(pyc))
    run_json(sys.executable, "tests/support/py38_checks.py", "decompile", str(pyc), str(sources))
    report = run_json(exe38, "tests/support/py38_checks.py", "compare", str(sources))
    assert report["version"] == "3.8"
    return {r["name"]: r for r in report["rows"]}


def test_cases_behave_as_the_original(rows) -> None:
    assert len(rows) >= 23
    refused = {n for n, r in rows.items() if "error" in r}
    assert refused <= REFUSED, {n: rows[n]["error"] for n in refused - REFUSED}
    raised = 0
    for name, r in rows.items():
        if "error" in r:
            continue
        assert r["mismatches"] == [], (name, r["source"], r["mismatches"])
        raised += r["raised"]
        if name not in SAME_BEHAVIOUR_ONLY:
            assert r["same_instructions"], (name, r["source"])
    # exceptions leaving the functions (through finally bodies and with exits) are compared too
    assert raised >= 30


def test_finally_bodies_come_out_once(rows) -> None:
    src = {n: r.get("source", "") for n, r in rows.items()}
    for name in ("f_finally", "f_return_in_finally_body", "f_finally_loop_break", "f_finally_if"):
        assert "finally:" in src[name], src[name]
    # the copies the compiler runs before return / break are not printed as code of the body
    assert src["f_finally_loop_break"].count("log.append(('fin', i))") == 1
    assert src["f_return_in_finally_body"].count("log.append('fin')") == 1
    assert "finally:" in src["f_except_finally"] and "except KeyError as e:" in src["f_except_finally"]
    assert src["f_finally_in_finally"].count("finally:") == 2
    assert src["f_finally_nested"].count("finally:") == 2


def test_with_and_except_as(rows) -> None:
    src = {n: r.get("source", "") for n, r in rows.items()}
    assert "with CM(log, 'a') as t:" in src["f_with"]
    assert "with CM(log, 's', True):" in src["f_with_swallow"]
    assert "return 'swallowed'" in src["f_with_return"]
    assert "with CM(log, 'f'):" in src["f_with_in_finally"]
    assert "except (KeyError, Boom) as e:" in src["f_except_as"] and "del e" not in src["f_except_as"]
    assert "except KeyError as e:\n        return e.args" in src["f_except_as_return"]


def test_while_loops_keep_their_test(rows) -> None:
    # 3.8 tests a while loop at its top: `while True: if c: ... continue; break` is `while c:`
    src = {n: r.get("source", "") for n, r in rows.items()}
    assert "while n < x:" in src["f_while_else"] and "while True" not in src["f_while_else"]
    assert "while n < x:" in src["f_while_try"] and "while True" not in src["f_while_try"]


def test_try_else_at_the_end(rows) -> None:
    # every clause leaves and the else returns: the unreachable `return None` the compiler leaves
    # after such a statement tells the else apart from code after the statement
    assert "    else:\n        log.append(v)\n        return v" in rows["f_try_else_return"]["source"]
    assert "    else:\n        if risky(x, log) > 30:" in rows["f_if_else_return"]["source"]


def test_unpacking_calls_and_displays(rows) -> None:
    src = rows["f_unpack"]["source"]
    assert "(*a, *b)" in src and "[*a, 3, *b]" in src and "{**k, 'q': 1}" in src
    assert "max(*a, *b)" in src
    # keys that are not names stay a dict (no `2=x` keyword)
    assert "dict(**{'2': x, '\"': 1})" in src
