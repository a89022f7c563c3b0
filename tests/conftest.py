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


def case_rows(script: str, minor: int) -> dict:
    """A case script's report under 3.minor (it prints {"version", "rows"}), rows by name."""
    report = run_json(interpreter(minor), script)
    assert report["version"] == f"3.{minor}"
    return {r["name"]: r for r in report["rows"]}


def case_rows_38(script: str, tmp_path: Path) -> dict:
    """The same through 3.8's .pyc: the script compiles its cases to a .pyc under 3.8
    (`pyc`), this interpreter decompiles them (`decompile`), 3.8 compiles the sources again and
    compares (`compare`)."""
    exe38 = interpreter(8)
    pyc, sources = tmp_path / "cases.pyc", tmp_path / "sources.json"
    run_json(exe38, script, "pyc", str(pyc))
    run_json(sys.executable, script, "decompile", str(pyc), str(sources))
    report = run_json(exe38, script, "compare", str(sources))
    assert report["version"] == "3.8"
    return {r["name"]: r for r in report["rows"]}


def assert_cases_behave(minor: int, results: list, cases: set, refused_allowed: set) -> None:
    """A *_cases.py report (one row per case: "case", "error", "same_results", "results",
    "source"): every case is there, only those in `refused_allowed` are refused (DecompileError),
    and every other one decompiled and behaved as the original."""
    assert {r["case"] for r in results} == cases
    refused = {r["case"] for r in results if "DecompileError" in (r.get("error") or "")}
    assert refused <= refused_allowed, refused
    bad = [r for r in results if r["case"] not in refused
           and (r.get("error") or not r.get("same_results"))]
    assert not bad, f"3.{minor}: " + "\n".join(
        f"{r['case']}: {r.get('error') or r.get('results')}\n{r.get('source')}" for r in bad
    )


def assert_cases_same_code(
    results: list, cases: set, refused: set, other_code: Optional[set] = None
) -> None:
    """The same report: exactly the cases not in `refused` decompiled, and each of them but those
    in `other_code` recompiles to the original's instructions ("same_code", else "differing")."""
    decompiled = {r["case"] for r in results if not r.get("error")}
    assert decompiled == cases - refused, decompiled
    differing = {r["case"]: r.get("differing") for r in results
                 if r["case"] in decompiled - (other_code or set()) and not r.get("same_code")}
    assert not differing, differing
