"""The decompile sweep for a version whose interpreter cannot import framejit (3.8): its stdlib as .pyc
files (tests/support/compile_stdlib.py), decompiled here, compiled and compared there.

    python decompile_sweep_pyc.py decompile PYC_DIR WORK_DIR [--limit N]   (an interpreter with framejit)
    python3.8 decompile_sweep_pyc.py compare WORK_DIR [--diffs]             (the .pyc's own interpreter)

The first half decompiles every code object of every .pyc on its own and writes the sources and a
manifest (file, index of the code object in a pre-order walk, or the refusal) to WORK_DIR. The second
half loads the .pyc with marshal, finds each code object again, compiles the source as
decompile_sweep.py does and compares instruction sequences with decompile_sweep.normalized. It prints
the same JSON summary as decompile_sweep.py.
"""

from __future__ import annotations

import collections
import json
import marshal
import os
import sys
import time
import types
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))


def reason(msg: str) -> str:
    import re

    msg = msg.split("): ", 1)[-1] if "): " in msg else msg
    return re.sub(r"\d+", "N", msg)[:100]


def pyc_files(root: str) -> list:
    out = []
    for d, dirs, names in os.walk(root):
        dirs.sort()
        out += [os.path.join(d, n) for n in sorted(names) if n.endswith(".pyc")]
    return out


def decompile_half(pyc_dir: str, work: str, limit: int) -> None:
    from framejit import DecompileError, decompile
    from framejit.pyc import CodeModel, load_pyc

    def tree(code) -> list:
        out = [code]
        for k in code.co_consts:
            if isinstance(k, CodeModel):
                out.extend(tree(k))
        return out

    os.makedirs(work, exist_ok=True)
    files = pyc_files(pyc_dir)
    if limit:
        files = files[:limit]
    manifest = []
    for f, path in enumerate(files):
        try:
            codes = tree(load_pyc(path).code)
        except Exception as e:  # a .pyc this reader refuses: counted, not compared
            manifest.append({"pyc": path, "index": -1, "error": "load: " + str(e)[:200]})
            continue
        for k, c in enumerate(codes):
            entry = {"pyc": path, "index": k, "name": c.co_name}
            try:
                source = decompile(c)
            except DecompileError as e:
                entry["error"] = reason(str(e))
            else:
                src = os.path.join(work, f"{f}_{k}.py")
                with open(src, "w", encoding="utf-8") as fh:
                    fh.write(source)
                entry["source"] = src
            manifest.append(entry)
    with open(os.path.join(work, "manifest.json"), "w") as fh:
        json.dump(manifest, fh)
    print(json.dumps({"code_objects": len(manifest), "work": work}))


def compare_half(work: str, diffs_wanted: bool) -> None:
    # decompile_sweep imports framejit, which this interpreter cannot load: only its comparison helpers
    # are used, so a stand-in module is enough
    sys.modules.setdefault("framejit", types.SimpleNamespace(DecompileError=Exception, decompile=None))
    sys.path.insert(0, HERE)
    from decompile_sweep import normalized, recompiled

    def tree(code) -> list:
        out = [code]
        for k in code.co_consts:
            if isinstance(k, types.CodeType):
                out.extend(tree(k))
        return out

    warnings.simplefilter("ignore")
    with open(os.path.join(work, "manifest.json")) as fh:
        manifest = json.load(fh)
    stats = collections.Counter()
    reasons = collections.Counter()
    diffs = collections.Counter()
    cache: dict = {}
    t0 = time.process_time()
    for e in manifest:
        stats["code_objects"] += 1
        if "error" in e:
            stats["decompile_error"] += 1
            reasons["decompile: " + e["error"]] += 1
            continue
        stats["decompiled"] += 1
        if e["pyc"] not in cache:
            with open(e["pyc"], "rb") as fh:
                cache = {e["pyc"]: tree(marshal.loads(fh.read()[16:]))}
        original = cache[e["pyc"]][e["index"]]
        with open(e["source"], encoding="utf-8") as fh:
            source = fh.read()
        try:
            again = recompiled(original, source)
        except SyntaxError as err:
            stats["syntax_error"] += 1
            if str(err).startswith("no binding for nonlocal"):
                # compiled standalone, a function's `nonlocal` has no enclosing scope: an artefact
                # of this mode (counted within syntax_error)
                stats["syntax_nonlocal"] += 1
            reasons["syntax: " + reason(str(err))] += 1
            continue
        if again is None:
            stats["not_found"] += 1
            continue
        stats["compiles"] += 1
        a, b = normalized(original), normalized(again)
        if a == b:
            stats["identical"] += 1
        else:
            stats["different"] += 1
            if diffs_wanted:
                k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                pair = (a[k][0] if k < len(a) else "END") + " -> " + (b[k][0] if k < len(b) else "END")
                diffs[pair] += 1
    stats["cpu_seconds"] = round(time.process_time() - t0, 2)
    print(json.dumps({"version": sys.version, "stats": stats, "reasons": reasons.most_common(25),
                      "diffs": diffs.most_common(25)}))


def main() -> None:
    if len(sys.argv) >= 4 and sys.argv[1] == "decompile":
        limit = int(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else 0
        decompile_half(sys.argv[2], sys.argv[3], limit)
    elif len(sys.argv) >= 3 and sys.argv[1] == "compare":
        compare_half(sys.argv[2], "--diffs" in sys.argv)
    else:
        sys.exit(__doc__)


main()
