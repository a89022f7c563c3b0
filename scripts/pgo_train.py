"""Training run for a profile-guided build (scripts/setup.sh): decompile every code object of the
Python files under DIR, compiled by the interpreter running this script, with the framejit
package found first on sys.path (the instrumented build). DIR is torch's own sources, not the
standard library that benches/decompile.py samples.

    PYTHONPATH=PKGDIR PY scripts/pgo_train.py DIR [MAX_FILES]
"""

import os
import sys
import warnings

from framejit import _native


def tree(code):
    yield code
    for k in code.co_consts:
        if hasattr(k, "co_code"):
            yield from tree(k)


def main() -> None:
    warnings.simplefilter("ignore")
    root = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else None
    files = []
    for d, dirs, names in os.walk(root):
        dirs.sort()
        files.extend(os.path.join(d, n) for n in sorted(names) if n.endswith(".py"))
    # (every k-th file when limited: a spread over the whole tree, not one corner of it)
    if limit and len(files) > limit:
        files = files[:: len(files) // limit + 1]
    count = 0
    for path in files:
        try:
            with open(path, "rb") as f:
                module = compile(f.read(), path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, OSError):
            continue
        for code in tree(module):
            try:
                _native.decompile_code(code)
            except Exception:
                pass
            count += 1
    print(f"pgo training: {len(files)} files, {count} code objects")


if __name__ == "__main__":
    main()
