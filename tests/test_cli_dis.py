"""Acceptance: `python -m framejit dis` shows the same instructions, arguments and jump targets as
`python -m dis` (compared line by line on this interpreter), for files, module:qualname and errors."""

from __future__ import annotations

import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import ROOT

LINE = re.compile(r"^\s*(\d+)?\s+(>>)?\s*(\d+) ([A-Z_0-9]+)(?:\s+(-?\d+))?(?:\s+\((.*)\))?$")


def instructions(text: str) -> list[tuple]:
    """(offset, opname, arg, jump target) of every instruction line; code-object reprs carry addresses."""
    out = []
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            _, _, offset, opname, arg, argrepr = m.groups()
            target = argrepr if argrepr and argrepr.startswith("to ") else None
            out.append((int(offset), opname, arg, target))
    return out


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


STDLIB = Path(sysconfig.get_paths()["stdlib"])
FILES = ["json/decoder.py", "textwrap.py", "asyncio/tasks.py", "dataclasses.py", "re/_parser.py", "argparse.py"]


@pytest.mark.parametrize("rel", FILES)
def test_same_instructions_as_dis(rel: str) -> None:
    path = STDLIB / rel
    if not path.exists():
        pytest.skip(f"{rel} not in this stdlib")
    ours = run("-m", "framejit", "dis", str(path))
    theirs = run("-m", "dis", str(path))
    assert ours.returncode == 0, ours.stderr
    a, b = instructions(ours.stdout), instructions(theirs.stdout)
    assert len(b) > 100
    assert a == b


def test_module_qualname_and_nested_code() -> None:
    ours = run("-m", "framejit", "dis", "json.encoder:JSONEncoder.encode")
    assert ours.returncode == 0, ours.stderr
    import dis
    import io
    import json.encoder

    buf = io.StringIO()
    dis.dis(json.encoder.JSONEncoder.encode, file=buf)
    assert instructions(ours.stdout) == instructions(buf.getvalue())
    nested = run("-m", "framejit", "dis", str(STDLIB / "textwrap.py"))
    assert nested.stdout.count("Disassembly of <code object") >= 10


def test_exception_table_shown() -> None:
    if sys.version_info < (3, 11):
        pytest.skip("no exception table before 3.11")
    path = STDLIB / "json" / "decoder.py"
    ours = run("-m", "framejit", "dis", str(path)).stdout
    theirs = run("-m", "dis", str(path)).stdout
    table = lambda t: [l.strip() for l in t.splitlines() if re.match(r"^\s+\d+ to \d+ -> \d+ \[\d+\]", l)]
    assert table(ours) == table(theirs) and table(ours)


@pytest.mark.parametrize(
    "target, message",
    [
        ("no_such_module_xyz:f", "cannot import 'no_such_module_xyz'"),
        ("json:nope", "json has no 'nope'"),
        ("/nonexistent/file.py", "no such file"),
    ],
)
def test_errors_are_clear(target: str, message: str) -> None:
    p = run("-m", "framejit", "dis", target)
    assert p.returncode == 1 and message in p.stderr and "Traceback" not in p.stderr, p.stderr


def test_help() -> None:
    p = run("-m", "framejit", "dis", "--help")
    assert p.returncode == 0 and "module[:qualname]" in p.stdout and ".pyc" in p.stdout
