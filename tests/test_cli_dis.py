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

OPNAME = re.compile(r"^[A-Z][A-Z_0-9]{2,}$")


def instructions(text: str) -> list[tuple]:
    """(offset, opname, arg, jump target) of every instruction line of a dis-style listing (code-object
    reprs carry addresses, so argument details other than jump targets are left out)."""
    out = []
    for line in text.splitlines():
        head, _, detail = line.partition("(")
        tokens = head.split()
        for k, tok in enumerate(tokens):
            if OPNAME.match(tok) and k > 0 and tokens[k - 1].isdigit():
                arg = tokens[k + 1] if k + 1 < len(tokens) and tokens[k + 1].lstrip("-").isdigit() else None
                target = detail.rstrip(")") if detail.startswith("to ") else None
                out.append((int(tokens[k - 1]), tok, arg, target))
                break
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


def test_listing_matches_dis_on_the_whole_stdlib() -> None:
    """Every instruction of every stdlib code object: offset, opname, arg and jump target as dis has them."""
    import dis
    import os
    import types
    import warnings

    from framejit.disasm import listing

    warnings.simplefilter("ignore")
    checked = mismatched = 0
    first = None
    for d, dirs, names in os.walk(STDLIB):
        dirs[:] = sorted(x for x in dirs if x not in ("site-packages", "__pycache__"))
        for n in sorted(names):
            if not n.endswith(".py"):
                continue
            try:
                code = compile(open(os.path.join(d, n), "rb").read(), n, "exec", dont_inherit=True)
            except (SyntaxError, ValueError, OSError):
                continue
            todo = [code]
            while todo:
                c = todo.pop()
                todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
                want = [
                    (i.offset, i.opname, i.arg, i.argval if i.opcode in dis.hasjrel + dis.hasjabs else None)
                    for i in dis.get_instructions(c)
                ]
                got = [(ln.offset, ln.opname, ln.arg, ln.target) for ln in listing(c)]
                checked += 1
                if want != got:
                    mismatched += 1
                    first = first or (n, c.co_name, [x for x in zip(want, got) if x[0] != x[1]][:2])
    assert checked > 10_000 and mismatched == 0, (checked, mismatched, first)


def test_labels_option_names_every_target() -> None:
    out = run("-m", "framejit", "dis", "--labels", str(STDLIB / "json" / "decoder.py")).stdout
    used = set(re.findall(r"\(to (L\d+)\)", out))
    defined = set(re.findall(r"^\s+(L\d+):$", out, re.M))
    assert used and used <= defined, used - defined
