"""Compile this interpreter's stdlib into OUT_DIR as .pyc files (sources untouched); print a JSON summary.

    python compile_stdlib.py OUT_DIR [--limit N]
"""

import json
import os
import py_compile
import sys
import sysconfig
import warnings


def main():
    out = sys.argv[1]
    limit = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--limit" else 0
    root = sysconfig.get_paths()["stdlib"]
    warnings.simplefilter("ignore")
    done = failed = 0
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in ("site-packages", "dist-packages", "__pycache__"))
        for n in sorted(names):
            if not n.endswith(".py"):
                continue
            if limit and done >= limit:
                break
            src = os.path.join(d, n)
            dst = os.path.join(out, os.path.relpath(src, root) + "c")
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            try:
                py_compile.compile(src, cfile=dst, doraise=True)
                done += 1
            except Exception:
                failed += 1
    print(json.dumps({"version": sys.version, "compiled": done, "failed": failed}))


main()
