"""`async for`, `async with` and async comprehensions, above all in 3.9 / 3.10's block-stack bytecode
(SETUP_FINALLY around GET_ANEXT, END_ASYNC_FOR, SETUP_ASYNC_WITH) and 3.12+'s inlined async
comprehensions. Each case of tests/support/decompile_async_legacy_checks.py is decompiled under each
interpreter, recompiled, driven step by step against the original and compared instruction by
instruction. A refused case is acceptable where not listed below; one that behaves differently
never is."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json

ALL = range(9, 15)

# cases that decompile to the same behaviour and the same instructions, by version
EXACT = {
    "afor_plain": ALL,
    "afor_continue": ALL,
    "afor_else": ALL,
    "afor_return": ALL,
    "afor_nested": ALL,
    "afor_in_for": ALL,
    "afor_tuple_target": ALL,
    "agen_afor": ALL,
    "afor_raises": range(9, 12),
    # 3.9: `if c: break` comes out `if c: break else: ...` (other jumps)
    "afor_break": range(10, 15),
    "afor_else_break": [11],
    "awith_as": ALL,
    "awith_plain": ALL,
    "awith_two": ALL,
    "awith_suppress": ALL,
    "awith_return_const": range(9, 14),
    "awith_return_name": ALL,
    "awith_afor": ALL,
    "awith_raises": [9, 11],
    "acomp_list": ALL,
    "acomp_cond": ALL,
    "acomp_set_dict": ALL,
    "acomp_nested": ALL,
    "agenexpr": ALL,
}

# cases that decompile and behave the same (the instructions may differ: 3.10+ copy the code
# after a loop or try into each way out, which comes out copied)
BEHAVES = {
    "afor_break": [9],
    "afor_else_break": [9, 10, 12, 13, 14],
    "afor_raises": range(12, 15),
    "awith_raises": [10, 12, 13, 14],
}


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_async_legacy_cases(minor: int) -> None:
    exe = interpreter(minor)
    report = run_json(exe, "tests/support/decompile_async_legacy_checks.py")
    assert set(EXACT) | set(BEHAVES) <= set(report)
    for name, entry in report.items():
        if entry["decompiled"]:
            assert "syntax_error" not in entry, (minor, name, entry)
            assert entry["same_behaviour"], (minor, name, entry)
        if minor in EXACT.get(name, ()) or minor in BEHAVES.get(name, ()):
            assert entry["decompiled"], (minor, name, entry.get("refused"))
            assert entry["same_behaviour"], (minor, name, entry)
        if minor in EXACT.get(name, ()):
            assert entry["same_instructions"], (minor, name, entry.get("source"))


# 3.10 copies a small `return v` after a loop into each `break`; inside `async with` that is the
# statements `return v` in the body would make (v computed after the awaited exit call instead of
# before it): refused, never printed as a `return` inside the body.
BREAK_COPY = '''
class ACM:
    def __init__(self, log):
        self.log = log
    async def __aenter__(self):
        return self
    async def __aexit__(self, *a):
        self.log.append("exit")

async def f(xs):
    log = []
    for x in xs:
        async with ACM(log):
            if x < 0:
                break
            log.append(x)
    return len(log)
'''

CHECK_BREAK_COPY = r'''
import json, sys, asyncio
import framejit
ns = {}
exec(compile(sys.argv[1], "<case>", "exec"), ns)
try:
    src = framejit.decompile(ns["f"])
except framejit.DecompileError as e:
    print(json.dumps({"refused": str(e)}))
    sys.exit()
again = dict(ns)
exec(compile(src, "<decompiled>", "exec"), again)
print(json.dumps({"source": src, "original": asyncio.run(ns["f"]([1, -1])),
                  "decompiled": asyncio.run(again["f"]([1, -1]))}))
'''


@pytest.mark.parametrize("minor", [9, 10])
def test_break_out_of_async_with_is_not_a_return(minor: int) -> None:
    exe = interpreter(minor)
    out = run_json(exe, "-c", CHECK_BREAK_COPY, BREAK_COPY)
    if "refused" not in out:
        assert out["original"] == out["decompiled"], out


# 3.8, read from a .pyc (framejit does not import there): decompiled here, compiled and run there.
CHECK_38 = r'''
import dis, json, sys, types
sys.path.insert(0, "tests/support")
source, decompiled = sys.argv[1], json.loads(sys.argv[2])
checks = open("tests/support/decompile_async_checks.py").read()
exec(checks[checks.index("def drive(obj)"):checks.index("def main()")])
cases = open("tests/support/decompile_async_legacy_checks.py").read()
CASES = eval(cases[cases.index("CASES = {") + 8:cases.index("}\n\n\ndef main") + 1])

def norm(c):
    out = []
    for i in dis.get_instructions(c):
        if i.opname == "NOP":
            continue
        a = "J" if i.opcode in dis.hasjabs + dis.hasjrel else i.argval
        out.append((i.opname, norm(a) if isinstance(a, types.CodeType) else repr(a)))
    return out

original = {}
exec(compile(source, "<cases>", "exec"), original)
report = {}
for name, src in decompiled.items():
    again = dict(original)
    code = compile(src, "<decompiled>", "exec")
    exec(code, again)
    fn = [c for c in code.co_consts if isinstance(c, types.CodeType)][0]
    report[name] = {
        "same_behaviour": all(run(original[name], a) == run(again[name], a) for a in CASES[name]),
        "same_instructions": norm(fn) == norm(original[name].__code__),
    }
print(json.dumps(report))
'''


def test_async_legacy_cases_38(tmp_path) -> None:
    import json

    from framejit import DecompileError, decompile
    from framejit.pyc import CodeModel, load_pyc

    from conftest import ROOT, find_interpreter

    exe = find_interpreter(8)
    if exe is None:
        pytest.skip("no Python 3.8 on this machine")
    text = (ROOT / "tests/support/decompile_async_legacy_checks.py").read_text()
    source = text[text.index("SOURCE = '''") + 12 :]
    source = source[: source.index("'''")]
    src_file, pyc = tmp_path / "cases.py", tmp_path / "cases.pyc"
    src_file.write_text(source)
    make_pyc = f"import py_compile; py_compile.compile({str(src_file)!r}, cfile={str(pyc)!r}); print('{{}}')"
    run_json(exe, "-c", make_pyc)
    decompiled = {}
    for k in load_pyc(str(pyc)).code.co_consts:
        if isinstance(k, CodeModel) and not k.co_name[0].isupper():
            try:
                decompiled[k.co_name] = decompile(k)
            except DecompileError:
                pass
    # every case decompiles on 3.8 (as on 3.9)
    assert set(decompiled) == set(EXACT) | set(BEHAVES), set(EXACT) - set(decompiled)
    report = run_json(exe, "-c", CHECK_38, source, json.dumps(decompiled))
    for name, entry in report.items():
        assert entry["same_behaviour"], (name, decompiled[name])
        if 9 in EXACT.get(name, ()):
            assert entry["same_instructions"], (name, decompiled[name])
