"""Decompile every code object of this interpreter's stdlib and write one line per object: file,
index in the module's pre-order tree, qualified name, and a digest of the output text (or of the
error message). Two builds give the same file exactly when their outputs are byte-for-byte the
same; used to check that speed work changes no output.

    PYTHONHASHSEED=0 PYTHONPATH=python PY tools/decompile_outputs.py OUT.txt
(PYTHONHASHSEED=0: frozenset constants print in hash order.)
"""

import hashlib
import os
import sys
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "support"))

import decompile_sweep as sweep  # noqa: E402

from framejit import _native  # noqa: E402


def main() -> None:
    warnings.simplefilter("ignore")
    roots, _ = sweep.stdlib_roots([])
    files, seen = [], set()
    for root in roots:
        for d, dirs, names in os.walk(root):
            dirs[:] = sorted(x for x in dirs if x not in ("site-packages", "__pycache__"))
            for n in sorted(names):
                if n.endswith(".py"):
                    rel = os.path.relpath(os.path.join(d, n), root)
                    if rel not in seen:
                        seen.add(rel)
                        files.append((rel, os.path.join(d, n)))
    count = 0
    with open(sys.argv[1], "w") as out:
        for rel, path in files:
            try:
                module = compile(open(path, "rb").read(), path, "exec", dont_inherit=True)
            except (SyntaxError, ValueError, OSError):
                continue
            for i, code in enumerate(sweep.tree(module)):
                try:
                    text = "ok\0" + _native.decompile_code(code)[0]
                except Exception as e:  # noqa: BLE001
                    text = f"{type(e).__name__}\0{e}"
                digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
                name = getattr(code, "co_qualname", code.co_name)
                out.write(f"{rel}\t{i}\t{name}\t{digest}\n")
                count += 1
    print(f"{count} code objects", file=sys.stderr)


if __name__ == "__main__":
    main()
