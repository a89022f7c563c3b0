"""The committed opcode tables equal what tools/gen_opcodes.py generates under each interpreter.

Runs `gen_opcodes.py --check` under every supported CPython found on this machine; a missing
interpreter is skipped. No framejit import needed.
"""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENERATOR = os.path.join(ROOT, "tools", "gen_opcodes.py")


def _pyenv_root():
    root = os.environ.get("PYENV_ROOT")
    if root:
        return root
    try:
        out = subprocess.run(["pyenv", "root"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return os.path.expanduser("~/.pyenv")
    return out.stdout.strip() or os.path.expanduser("~/.pyenv")


PYENV = _pyenv_root()
INTERPRETERS = {
    "3.8": os.path.join(PYENV, "versions", "3.8.18", "bin", "python"),
    "3.9": os.path.join(PYENV, "versions", "3.9.18", "bin", "python"),
    "3.10": os.path.join(PYENV, "versions", "3.10.13", "bin", "python"),
    "3.11": os.path.join(PYENV, "versions", "3.11.7", "bin", "python"),
    "3.12": os.path.join(PYENV, "versions", "3.12.1", "bin", "python"),
    "3.13": os.path.join(PYENV, "versions", "3.13.0", "bin", "python"),
    "3.14": "/opt/python3.14/bin/python3.14",
}


@pytest.mark.parametrize("version", sorted(INTERPRETERS, key=lambda v: tuple(map(int, v.split(".")))))
def test_generated_table_is_current(version):
    python = INTERPRETERS[version]
    if not os.access(python, os.X_OK):
        pytest.skip("no CPython %s at %s" % (version, python))
    proc = subprocess.run(
        [python, GENERATOR, "--check"], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert proc.returncode == 0, "gen_opcodes.py --check under %s failed:\n%s%s" % (
        version, proc.stdout[-20000:], proc.stderr[-5000:])


def test_check_reports_a_stale_table(tmp_path):
    """--check fails (with a diff) when the committed table differs."""
    python = sys.executable
    minor = sys.version_info[1]
    if sys.version_info[0] != 3 or not 8 <= minor <= 14:
        pytest.skip("pytest runs under an unsupported Python")
    path = os.path.join(ROOT, "crates", "bytecode", "src", "opcodes", "v3_%d.rs" % minor)
    if not os.path.exists(path):
        pytest.skip("no table for 3.%d" % minor)
    # Work on a copy of the tree's layout so the real table is never touched.
    tools = tmp_path / "tools"
    tools.mkdir()
    with open(GENERATOR, encoding="utf-8") as f:
        (tools / "gen_opcodes.py").write_text(f.read(), encoding="utf-8")
    out_dir = tmp_path / "crates" / "bytecode" / "src" / "opcodes"
    out_dir.mkdir(parents=True)
    with open(path, encoding="utf-8") as f:
        (out_dir / ("v3_%d.rs" % minor)).write_text(f.read() + "// stale\n", encoding="utf-8")
    proc = subprocess.run(
        [python, str(tools / "gen_opcodes.py"), "--check"], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 1
    assert "-// stale" in proc.stdout


def test_generated_ids_are_current():
    """The opcode ids (opcodes/ids.rs) are what `--ids` writes from OPCODE_NAMES."""
    proc = subprocess.run(
        [sys.executable, GENERATOR, "--ids", "--check"], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stdout[-20000:] + proc.stderr[-5000:]


def test_ids_check_reports_stale_ids(tmp_path):
    """--ids --check fails (with a diff) when the committed ids differ."""
    tools = tmp_path / "tools"
    tools.mkdir()
    with open(GENERATOR, encoding="utf-8") as f:
        (tools / "gen_opcodes.py").write_text(f.read(), encoding="utf-8")
    out_dir = tmp_path / "crates" / "bytecode" / "src" / "opcodes"
    out_dir.mkdir(parents=True)
    with open(os.path.join(ROOT, "crates", "bytecode", "src", "opcodes", "ids.rs"), encoding="utf-8") as f:
        (out_dir / "ids.rs").write_text(f.read().replace("pub const NOP: u16", "pub const NOP_: u16"), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, str(tools / "gen_opcodes.py"), "--ids", "--check"], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 1
    assert "-pub const NOP_: u16" in proc.stdout
