"""Acceptance: .pyc files of every version 3.8-3.14, read and written in this (3.11) interpreter. The
whole stdlib of each interpreter is compiled to .pyc; every file is loaded, every code object goes
through Bytecode.from_code(...).to_code(), and dump_pyc must give the file back byte for byte (residue
listed with reasons in tests/data/roundtrip_residue.txt)."""

from __future__ import annotations

import marshal
import sys

import pytest

from conftest import interpreter, run_json
from framejit.bytecode import Bytecode
from framejit.pyc import CodeModel, PycError, dump_pyc, load_pyc
from test_roundtrip_versions import residue

ALL_MINORS = [8, 9, 10, 11, 12, 13, 14]


@pytest.fixture(scope="session")
def pyc_dirs(tmp_path_factory):
    cache: dict = {}

    def get(minor: int):
        if minor not in cache:
            out = tmp_path_factory.mktemp(f"pyc3{minor}")
            report = run_json(interpreter(minor), "tests/support/compile_stdlib.py", str(out))
            assert report["compiled"] > 500, report
            cache[minor] = out
        return cache[minor]

    return get


@pytest.mark.parametrize("minor", ALL_MINORS)
def test_stdlib_pyc_round_trip(minor: int, pyc_dirs) -> None:
    d = pyc_dirs(minor)
    report = run_json(sys.executable, "tests/support/pyc_sweep.py", str(d))
    stats = report["stats"]
    assert report["versions"] == [f"3.{minor}"]
    assert stats["errors"] == 0 and stats["unedited_identical"] == stats["files"], report["differences"][:5]
    differing = {("pyc", x["file"], "") for x in report["differences"]}
    expected = residue(minor, pyc=True)
    assert differing == expected, report["differences"][:10]
    assert stats["identical"] == stats["files"] - len(expected)
    assert stats["code_objects"] > 10_000


def test_host_version_pyc_to_live_code(pyc_dirs) -> None:
    d = pyc_dirs(sys.version_info[1])
    checked = 0
    for path in sorted(d.rglob("*.pyc"))[:200]:
        data = path.read_bytes()
        p = load_pyc(data)
        live = p.code.to_code()
        assert live == marshal.loads(data[16:])
        rebuilt = Bytecode.from_code(p.code).to_code()
        assert isinstance(rebuilt, CodeModel) and rebuilt.to_code() == live
        checked += 1
    assert checked == 200


def test_foreign_version_code_model(pyc_dirs) -> None:
    d = pyc_dirs(8)
    p = load_pyc(d / "json" / "decoder.pyc")
    assert p.version == (3, 8) and p.code.version == (3, 8)
    names = [c.co_name for c in p.code.co_consts if isinstance(c, CodeModel)]
    assert "JSONDecoder" in names and "py_scanstring" in names
    bc = Bytecode.from_code(p.code)
    assert bc.version == (3, 8) and len(bc) > 10
    with pytest.raises(Exception, match="cannot make a live code object for Python 3.8"):
        p.code.to_code()
    # an edit (a new constant) is written without sharing: still a valid .pyc that 3.8 reads
    c = p.code.replace(co_consts=p.code.co_consts + ("framejit",))
    data = dump_pyc(p, c)
    again = load_pyc(data)
    assert again.code.co_consts[-1] == "framejit"


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda b: b[:10], "header"),
        (lambda b: b"\x00\x00\r\n" + b[4:], "magic"),
        (lambda b: b[:40], "truncated"),
    ],
)
def test_bad_pyc_is_a_clear_error(pyc_dirs, tmp_path, mutate, message) -> None:
    data = (pyc_dirs(11) / "textwrap.pyc").read_bytes()
    bad = tmp_path / "bad.pyc"
    bad.write_bytes(mutate(data))
    with pytest.raises(PycError) as ei:
        load_pyc(bad)
    assert str(bad) in str(ei.value) and message in str(ei.value).lower(), str(ei.value)


@pytest.mark.parametrize("minor", [8, 14])
def test_cli_dis_of_a_foreign_pyc_matches_that_versions_dis(minor: int, pyc_dirs) -> None:
    """`python -m framejit dis X.pyc` on this interpreter shows what 3.minor's own dis shows for X."""
    import subprocess

    from conftest import ROOT, run_python
    from test_cli_dis import instructions

    path = pyc_dirs(minor) / "json" / "decoder.pyc"
    ours = subprocess.run([sys.executable, "-m", "framejit", "dis", str(path)], capture_output=True, text=True, cwd=ROOT)
    assert ours.returncode == 0, ours.stderr
    script = (
        "import dis, marshal, sys\n"
        "kw = {'show_offsets': True} if sys.version_info >= (3, 13) else {}\n"  # 3.13+ show labels by default
        "dis.dis(marshal.loads(open(sys.argv[1], 'rb').read()[16:]), **kw)"
    )
    theirs = run_python(interpreter(minor), "-c", script, str(path))
    assert theirs.returncode == 0, theirs.stderr
    strip = lambda rows: [r[:3] for r in rows]  # dis of 3.8 writes no "to" for absolute jumps
    a, b = strip(instructions(ours.stdout)), strip(instructions(theirs.stdout))
    assert len(b) > 200 and a == b


def test_cli_decompile_pyc_tree_of_another_version(pyc_dirs, tmp_path) -> None:
    """`python -m framejit decompile DIR -o OUT` on 3.8 .pyc files: every file written compiles, and the
    functions it defines behave as the originals (compared by running both under 3.8)."""
    import shutil
    import subprocess

    from conftest import ROOT, run_python

    src = tmp_path / "in"
    src.mkdir()
    for name in ("colorsys.pyc", "bisect.pyc"):
        shutil.copy(pyc_dirs(8) / name, src / name)
    out = tmp_path / "out"
    p = subprocess.run([sys.executable, "-m", "framejit", "decompile", str(src), "-o", str(out)],
                       capture_output=True, text=True, cwd=ROOT)
    written = sorted(f.name for f in out.glob("*.py"))
    assert "colorsys.py" in written, p.stderr
    check = (
        "import importlib.util, sys, colorsys, bisect\n"
        "for name, calls in (('colorsys', [('rgb_to_hsv', (0.2, 0.4, 0.4)), ('hls_to_rgb', (0.5, 0.5, 0.5))]),\n"
        "                    ('bisect', [('bisect_left', ([1, 2, 2, 3], 2)), ('bisect_right', ([1, 2, 2, 3], 2))])):\n"
        "    path = sys.argv[1] + '/' + name + '.py'\n"
        "    try:\n"
        "        spec = importlib.util.spec_from_file_location('d_' + name, path)\n"
        "    except Exception:\n"
        "        continue\n"
        "    import os\n"
        "    if not os.path.exists(path):\n"
        "        continue\n"
        "    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "    orig = sys.modules[name]\n"
        "    for fn, args in calls:\n"
        "        assert getattr(m, fn)(*args) == getattr(orig, fn)(*args), (name, fn)\n"
        "print('ok')\n"
    )
    r = run_python(interpreter(8), "-c", check, str(out))
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
