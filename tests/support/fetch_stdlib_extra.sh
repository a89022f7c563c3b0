#!/bin/sh
# The parts of a Debian-packaged Python's stdlib that its core packages leave out (the test suite,
# idlelib, tkinter, turtledemo), unpacked into /opt/framejit-stdlib-extra/pythonX.Y, where
# tests/support/decompile_sweep.py looks for them. The /opt/python3.14 used here is Debian's
# python3.14 3.14.10-1 (unstable) unpacked without those packages, so its sweep saw ~19,600 code
# objects where pyenv's full 3.13 has ~80,000. Uses a private apt state (nothing on the system changes).
#     sh tests/support/fetch_stdlib_extra.sh [3.14] [unstable]
set -eu
V="${1:-3.14}"
SUITE="${2:-unstable}"
DEST="/opt/framejit-stdlib-extra/python$V"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/parts" "$TMP/lists/partial" "$TMP/cache/archives/partial" "$TMP/debs" "$TMP/x"
cat > "$TMP/parts/suite.sources" <<SRC
Types: deb
URIs: http://deb.debian.org/debian
Suites: $SUITE
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
set -- -o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$TMP/parts" \
    -o "Dir::State::Lists=$TMP/lists" -o "Dir::Cache=$TMP/cache"
apt-get "$@" update
cd "$TMP/debs"
apt-get "$@" download "libpython$V-testsuite" "idle-python$V" "python$V-tk" "python$V-examples"
for f in *.deb; do dpkg -x "$f" "$TMP/x"; done
mkdir -p "$DEST"
for d in test idlelib tkinter turtledemo; do
    if [ -d "$TMP/x/usr/lib/python$V/$d" ]; then
        rm -rf "${DEST:?}/$d"
        cp -a "$TMP/x/usr/lib/python$V/$d" "$DEST/"
    fi
done
echo "$DEST: $(find "$DEST" -name '*.py' | wc -l) .py files"
