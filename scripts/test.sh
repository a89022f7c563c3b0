#!/usr/bin/env bash
# The whole test suite: Rust (cargo test) and Python (pytest, driving every interpreter 3.8-3.14 present).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
echo "== cargo test"
cargo test -q --workspace --exclude framejit-py 2>&1 | grep -v -E '^\s*$|^running 0 tests|^test result: ok. 0 passed'
echo "== pytest"
.venv/bin/python -m pytest -q -p no:cacheprovider tests "$@"
