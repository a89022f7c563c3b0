#!/usr/bin/env bash
# The main job, for now: disassemble a sample across versions, edit it, and round-trip it through Rust.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh >/dev/null
exec .venv/bin/python examples/demo.py "$@"
