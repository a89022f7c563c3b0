"""Shared test helpers: the interpreters of every supported version found on this machine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYTHON_DIR = ROOT / "python"


def _pyenv_root() -> Optional[Path]:
    env = os.environ.get("PYENV_ROOT")
    if env:
        return Path(env)
    home = Path.home() / ".pyenv"
    return home if home.exists() else None


def find_interpreter(minor: int) -> Optional[str]:
    """An interpreter for 3.minor: pyenv's, /opt/python3.14 for 3.14, or this one."""
    if sys.version_info[:2] == (3, minor):
        return sys.executable
    root = _pyenv_root()
    if root is not None and (root / "versions").exists():
        for d in sorted((root / "versions").iterdir(), reverse=True):
            if d.name.startswith(f"3.{minor}.") and (d / "bin" / "python").exists():
                return str(d / "bin" / "python")
    opt = Path(f"/opt/python3.{minor}/bin/python3.{minor}")
    if opt.exists():
        return str(opt)
    return None


def interpreter(minor: int) -> str:
    exe = find_interpreter(minor)
    if exe is None:
        pytest.skip(f"no Python 3.{minor} on this machine")
    return exe


def run_python(exe: str, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)


def run_json(exe: str, *args: str, timeout: float = 600) -> dict:
    p = run_python(exe, "-W", "ignore", *args, timeout=timeout)
    assert p.returncode == 0, f"{exe} {' '.join(args)} failed:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return json.loads(p.stdout)


LIVE_MINORS = [9, 10, 11, 12, 13, 14]
