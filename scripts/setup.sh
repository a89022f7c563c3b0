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

# framejit's extension: a profile-guided (PGO) release build where it can be made, else the plain
# release build. PGO: an instrumented build decompiles every code object of torch's own Python
# sources (in .venv; not the standard library that benches/decompile.py samples) under the venv's
# interpreter, and a spread of 400 of those files under each other interpreter 3.9-3.14 present
# (so that no version's paths are left cold), then the release build is optimised with that
# profile (about 5-10% less CPU time per decompiled function). It needs llvm-profdata from rustup's
# llvm-tools component; where that is missing or any step fails, the plain build is made instead.
# The PGO build is redone only when the Rust sources, Cargo files, the toolchain or the training
# script change (stamp target/pgo/stamp). FRAMEJIT_PGO=0 skips PGO.
maturin_develop() {
  VIRTUAL_ENV="$root/.venv" PATH="$root/.venv/bin:$PATH" .venv/bin/maturin develop --release -q 2>&1 \
    | grep -v -E '^(📦|🔗|🐍|💻|📡|🛠|✏️|📖|🔨|Finished|Compiling|Running|Built|Installed)' || true
}

pgo_inputs() {
  { rustc -vV; find crates -type f \( -name '*.rs' -o -name Cargo.toml \) -not -path '*/target/*' \
      | LC_ALL=C sort | xargs sha256sum; sha256sum Cargo.toml Cargo.lock scripts/pgo_train.py 2>/dev/null; } \
    | sha256sum | cut -d' ' -f1
}

installed_so() {
  local f
  for f in python/framejit/_native*.so; do
    [ -f "$f" ] && { echo "$f"; return 0; }
  done
  return 0
}

pgo_build() {
  local host profdata dir="$root/target/pgo" torch so py minor
  host=$(rustc -vV 2>/dev/null | sed -n 's/^host: //p')
  [ -n "$host" ] || return 1
  profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
  if [ ! -x "$profdata" ] && command -v rustup >/dev/null; then
    echo "setup: adding rustup's llvm-tools component (for llvm-profdata)"
    rustup component add llvm-tools >/dev/null 2>&1 || true
  fi
  [ -x "$profdata" ] || { echo "setup: no llvm-profdata: plain release build"; return 1; }
  torch=$(.venv/bin/python -c "import importlib.util as u; print(u.find_spec('torch').submodule_search_locations[0])" 2>/dev/null) \
    || return 1
  [ -d "$torch" ] || return 1
  echo "setup: PGO 1/3: instrumented build"
  rm -rf "$dir/raw" "$dir/pkg" "$dir/merged.profdata"
  RUSTFLAGS="${RUSTFLAGS:-} -Cprofile-generate=$dir/raw" \
    cargo build -q --release -p framejit-py --target-dir "$dir/gen" || return 1
  mkdir -p "$dir/pkg" && cp -r python/framejit "$dir/pkg/" || return 1
  rm -f "$dir"/pkg/framejit/_native*.so
  cp "$dir/gen/release/lib_native.so" "$dir/pkg/framejit/_native.abi3.so" || return 1
  echo "setup: PGO 2/3: training (decompiling torch's sources)"
  PYTHONHASHSEED=0 PYTHONPATH="$dir/pkg" .venv/bin/python scripts/pgo_train.py "$torch" || return 1
  for minor in 9 10 11 12 13 14; do
    py=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.$minor.*/bin/python 2>/dev/null | sort -V | tail -1)
    [ -n "$py" ] || py=/opt/python3.$minor/bin/python3.$minor
    [ -x "$py" ] && [ "$("$py" -c 'import sys; print(sys.version_info[:2] != (3, 11))')" = True ] || continue
    PYTHONHASHSEED=0 PYTHONPATH="$dir/pkg" "$py" scripts/pgo_train.py "$torch" 400 || true
  done
  "$profdata" merge -o "$dir/merged.profdata" "$dir/raw" || return 1
  echo "setup: PGO 3/3: optimised build"
  RUSTFLAGS="${RUSTFLAGS:-} -Cprofile-use=$dir/merged.profdata" \
    maturin_develop
  so=$(installed_so)
  [ -n "$so" ] && .venv/bin/python -c "import framejit._native" || return 1
  echo "$(pgo_inputs) $(sha256sum "$so" | cut -d' ' -f1)" > "$dir/stamp"
}

so=$(installed_so)
if [ "${FRAMEJIT_PGO:-1}" != 0 ] && [ -n "$so" ] \
  && [ "$(cat target/pgo/stamp 2>/dev/null)" = "$(pgo_inputs) $(sha256sum "$so" | cut -d' ' -f1)" ]; then
  echo "setup: framejit's PGO build is up to date"
elif [ "${FRAMEJIT_PGO:-1}" != 0 ] && pgo_build; then
  :
else
  echo "setup: building framejit (maturin develop --release)"
  rm -f target/pgo/stamp
  maturin_develop
fi
.venv/bin/python -c "import framejit._native" || { echo "setup: framejit._native does not import" >&2; exit 1; }

# CPython 3.14 (with its headers) for the cross-version tests; pyenv on these machines stops at 3.13.
if [ -x ../shared/tools/python314.sh ] && [ ! -x /opt/python3.14/bin/python3.14 ]; then
  echo "setup: installing CPython 3.14"
  bash ../shared/tools/python314.sh >/dev/null 2>&1 || echo "setup: CPython 3.14 could not be installed; its tests will skip"
fi
