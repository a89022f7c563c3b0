"""The decompile sweep for a version whose interpreter cannot import framejit (3.8): its stdlib as .pyc
files (tests/support/compile_stdlib.py), decompiled here, compiled and compared there.

    python decompile_sweep_pyc.py decompile PYC_DIR WORK_DIR [--limit N] [--standalone]   (with framejit)
    python3.8 decompile_sweep_pyc.py compare WORK_DIR [--diffs] [--list PATH]  (the .pyc's own interpreter)

The first half decompiles every code object of every .pyc on its own and writes the sources and a
manifest (file, index of the code object in a pre-order walk, or the refusal) to WORK_DIR. The second
half loads the .pyc with marshal, finds each code object again, compiles the source and compares
instruction sequences with decompile_sweep.normalized. It prints the same JSON summary as
decompile_sweep.py.

Default, as decompile_sweep.py's default: "in context". Functions, class bodies and modules are
decompiled; comprehensions, generator expressions and lambdas are not decompiled on their own but
compared through the code object whose source holds them (they count with it: refused, not
compiling or compared one by one). The source is compiled inside a skeleton of the original's
enclosing scopes (decompile_sweep.in_context, built from the original code objects: cells for free
variables, a class for `__class__`, the module's import-bound names), the recompiled counterpart is
located by name and compared instruction by instruction, each inline code object with its
counterpart at the same place. --standalone: every code object compiled on its own (the old mode).
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


# the code objects whose source is part of their parent's (decompile_sweep.INLINE; 3.8 has no
# type-parameter scopes or generated __annotate__ functions)
INLINE = ("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>", "<lambda>")


def decompile_half(pyc_dir: str, work: str, limit: int, standalone: bool) -> None:
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
            if not standalone and c.co_name in INLINE:
                continue  # compared through its parent's source
            entry = {"pyc": path, "index": k, "name": c.co_name}
            try:
                source = decompile(c)
            except DecompileError as e:
                entry["error"] = reason(str(e))
                entry["message"] = str(e).split("): ", 1)[-1][:240]
            else:
                src = os.path.join(work, f"{f}_{k}.py")
                with open(src, "w", encoding="utf-8") as fh:
                    fh.write(source)
                entry["source"] = src
            manifest.append(entry)
    with open(os.path.join(work, "manifest.json"), "w") as fh:
        json.dump({"mode": "standalone" if standalone else "context", "entries": manifest}, fh)
    print(json.dumps({"code_objects": len(manifest), "work": work}))


def compare_half(work: str, diffs_wanted: bool, list_path: str | None) -> None:
    # decompile_sweep imports framejit, which this interpreter cannot load: only its comparison helpers
    # are used, so a stand-in module is enough
    sys.modules.setdefault("framejit", types.SimpleNamespace(DecompileError=Exception, decompile=None))
    sys.path.insert(0, HERE)
    from decompile_sweep import first_difference, module_imports, normalized, recompiled, tree
    from sweep_differences import Listing

    listing = Listing(list_path)

    warnings.simplefilter("ignore")
    with open(os.path.join(work, "manifest.json")) as fh:
        manifest = json.load(fh)
    context = manifest.get("mode") == "context"
    manifest = manifest["entries"]
    stats = collections.Counter()
    reasons = collections.Counter()
    diffs = collections.Counter()
    cache: dict = {}
    t0 = time.process_time()
    for e in manifest:
        if e["index"] >= 0 and e["pyc"] not in cache:
            with open(e["pyc"], "rb") as fh:
                codes = tree(marshal.loads(fh.read()[16:]))
            cache = {e["pyc"]: (codes, module_imports(codes[0]))}
        if context and e["index"] >= 0:
            compare_in_context(e, *cache[e["pyc"]], stats, reasons, diffs if diffs_wanted else None, listing)
            continue
        stats["code_objects"] += 1
        if "error" in e:
            stats["decompile_error"] += 1
            reasons["decompile: " + e["error"]] += 1
            continue
        stats["decompiled"] += 1
        original = cache[e["pyc"]][0][e["index"]]
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
                diffs[first_difference(a, b)] += 1
    stats["cpu_seconds"] = round(time.process_time() - t0, 2)
    listing.write(stats)
    print(json.dumps({"version": sys.version, "stats": stats, "reasons": reasons.most_common(25),
                      "diffs": diffs.most_common(25)}))


def compare_in_context(e: dict, codes: list, imported: set, stats, reasons, diffs, listing) -> None:
    """decompile_sweep.context_mode for one manifest entry: the code object and its inline children
    (comprehensions, lambdas) count together; the source is compiled in a skeleton of the original's
    scopes, and each code object is identical only when its recompiled counterpart (found by name,
    inline children by position) has the same normalized instructions."""
    from decompile_sweep import in_context, inline_children, judge

    original = codes[e["index"]]
    group = [original] + inline_children(original)
    stats["code_objects"] += len(group)
    if "error" in e:
        stats["decompile_error"] += len(group)
        reasons["decompile: " + e["error"]] += len(group)
        listing.add("refused", original, len(group), e.get("message", e["error"]))
        return
    with open(e["source"], encoding="utf-8") as fh:
        source = fh.read()
    module = original.co_name == "<module>"
    try:
        parent = next((c for c in codes if any(k is original for k in c.co_consts)), None)
        tree_ = in_context(original, source, set() if module else imported, parent)
        again_module = compile(tree_, original.co_filename, "exec", flags=original.co_flags & FUTURE_FLAGS,
                               dont_inherit=True)
    except SyntaxError as err:
        stats["syntax_error"] += len(group)
        reasons["syntax: " + reason(str(err))] += len(group)
        listing.add("syntax", original, len(group), str(err))
        return
    judge(original, group, again_module, stats, listing, diffs)


FUTURE_FLAGS = __import__("__future__").annotations.compiler_flag


def main() -> None:
    if len(sys.argv) >= 4 and sys.argv[1] == "decompile":
        limit = int(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else 0
        decompile_half(sys.argv[2], sys.argv[3], limit, "--standalone" in sys.argv)
    elif len(sys.argv) >= 3 and sys.argv[1] == "compare":
        compare_half(sys.argv[2], "--diffs" in sys.argv,
                     sys.argv[sys.argv.index("--list") + 1] if "--list" in sys.argv else None)
    else:
        sys.exit(__doc__)


main()
