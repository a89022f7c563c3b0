#!/usr/bin/env bash
# Set up everything the project needs on a fresh machine, idempotently and cache-friendly:
#   .venv/ (CPython 3.11) with requirements/dev.txt, framejit built into it (maturin develop --release),
#   and the other interpreters the cross-version tests use (pyenv's 3.8-3.13, 3.14 from shared/tools).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

py=${FRAMEJIT_PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv with $($py --version)"
  "$py" -m venv .venv
fi
stamp=.venv/.requirements.sha256
want=$(sha256sum requirements/dev.txt | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "setup: installing pinned requirements (torch is large: the first time takes a while)"
  .venv/bin/pip install -q --disable-pip-version-check -r requirements/dev.txt
  echo "$want" > "$stamp"
fi

echo "setup: building framejit (maturin develop --release)"
VIRTUAL_ENV="$root/.venv" PATH="$root/.venv/bin:$PATH" .venv/bin/maturin develop --release -q 2>&1 \
  | grep -v -E '^(📦|🔗|🐍|💻|📡|🛠|✏️|📖|🔨|Finished|Compiling|Running|Built|Installed)' || true
.venv/bin/python -c "import framejit._native" || { echo "setup: framejit._native does not import" >&2; exit 1; }

# CPython 3.14 (with its headers) for the cross-version tests; pyenv on these machines stops at 3.13.
if [ -x ../shared/tools/python314.sh ] && [ ! -x /opt/python3.14/bin/python3.14 ]; then
  echo "setup: installing CPython 3.14"
  bash ../shared/tools/python314.sh >/dev/null 2>&1 || echo "setup: CPython 3.14 could not be installed; its tests will skip"
fi
