"""Decompile every code object of this interpreter's stdlib, compile the output, and compare the
instruction sequence with the original (ignoring line numbers, NOP/RESUME/CACHE/EXTENDED_ARG and jump
encoding). Prints one JSON object with the counts and the most common reasons.

    python decompile_sweep.py [--limit N]
"""

from __future__ import annotations

import argparse
import collections
import dis
import json
import os
import re
import sys
import sysconfig
import time
import types
import warnings

from framejit import DecompileError, decompile

IGNORED = {"NOP", "RESUME", "CACHE", "EXTENDED_ARG"}


def normalized(code: types.CodeType) -> list:
    """(opname, argument) per instruction; jumps by the index of their target, code constants by name."""
    instrs = [i for i in dis.get_instructions(code) if i.opname not in IGNORED]
    index = {i.offset: k for k, i in enumerate(instrs)}
    out = []
    for k, i in enumerate(instrs):
        if i.opname in ("LOAD_CONST", "LOAD_SMALL_INT") and k + 1 < len(instrs) and instrs[k + 1].argval == "__firstlineno__":
            # 3.13+ class bodies store the class's first line: a line number, which is ignored
            out.append(("LOAD_CONST", ("line",)))
            continue
        if i.opcode in dis.hasjrel or i.opcode in dis.hasjabs or getattr(dis, "hasjump", ()) and i.opcode in dis.hasjump:
            arg = ("->", index.get(i.argval))
        elif isinstance(i.argval, types.CodeType):
            arg = ("code", i.argval.co_name)
        else:
            arg = (type(i.argval).__name__, repr(i.argval))
        out.append((i.opname, arg))
    return out


def recompiled(code: types.CodeType, source: str):
    if code.co_name != "<module>" and not code.co_flags & 1:
        # a class body on its own is its statements: compile them as that class's body
        body = "".join("    " + line + "\n" for line in source.splitlines()) or "    pass\n"
        source = f"class {code.co_name}:\n{body}"
    module = compile(source, code.co_filename, "exec", dont_inherit=True)
    if code.co_name == "<module>":
        return module
    for c in module.co_consts:
        if isinstance(c, types.CodeType) and c.co_name == code.co_name:
            return c
    return None


def reason(msg: str) -> str:
    """The message without the code object's name and file, numbers folded."""
    msg = msg.split("): ", 1)[-1] if "): " in msg else msg
    return re.sub(r"\d+", "N", msg)[:100]


def tree(code: types.CodeType) -> list:
    """Every code object under `code`, in a fixed pre-order."""
    out = [code]
    for k in code.co_consts:
        if isinstance(k, types.CodeType):
            out.extend(tree(k))
    return out


def module_mode(files: list, stats: collections.Counter, reasons: collections.Counter) -> None:
    """Decompile whole modules (nested code in context), recompile, compare code objects pairwise."""
    for path in files:
        try:
            module = compile(open(path, "rb").read(), path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, OSError):
            continue
        originals = tree(module)
        stats["code_objects"] += len(originals)
        try:
            source = decompile(module)
        except DecompileError as e:
            stats["in_failed_modules"] += len(originals)
            reasons["decompile: " + reason(str(e))] += 1
            continue
        try:
            again = tree(compile(source, path, "exec", dont_inherit=True))
        except SyntaxError as e:
            stats["in_failed_modules"] += len(originals)
            reasons["syntax: " + reason(str(e))] += 1
            continue
        stats["modules_decompiled"] += 1
        for a, b in zip(originals, again):
            if a.co_name == b.co_name and normalized(a) == normalized(b):
                stats["identical"] += 1
            else:
                stats["different"] += 1
        stats["missing"] += max(0, len(originals) - len(again))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--modules", action="store_true", help="decompile whole modules, nested code in context")
    ap.add_argument("--diffs", action="store_true", help="count the first differing opcode pair of each difference")
    args = ap.parse_args()
    root = sysconfig.get_paths()["stdlib"]
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in ("site-packages", "__pycache__"))
        files += [os.path.join(d, n) for n in sorted(names) if n.endswith(".py")]
    if args.limit:
        files = files[: args.limit]
    warnings.simplefilter("ignore")
    stats = collections.Counter()
    reasons = collections.Counter()
    diffs = collections.Counter()
    t0 = time.process_time()
    if args.modules:
        module_mode(files, stats, reasons)
        files = []
    for path in files:
        try:
            module = compile(open(path, "rb").read(), path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, OSError):
            continue
        todo = [module]
        while todo:
            c = todo.pop()
            todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
            stats["code_objects"] += 1
            try:
                source = decompile(c)
            except DecompileError as e:
                stats["decompile_error"] += 1
                reasons["decompile: " + reason(str(e))] += 1
                continue
            stats["decompiled"] += 1
            try:
                again = recompiled(c, source)
            except SyntaxError as e:
                stats["syntax_error"] += 1
                reasons["syntax: " + reason(str(e))] += 1
                continue
            if again is None:
                stats["not_found"] += 1
                continue
            stats["compiles"] += 1
            a, b = normalized(c), normalized(again)
            if a == b:
                stats["identical"] += 1
            else:
                stats["different"] += 1
                if args.diffs:
                    k = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                    x = a[k][0] if k < len(a) else "<end>"
                    y = b[k][0] if k < len(b) else "<end>"
                    diffs[f"{x} -> {y}"] += 1
    stats["cpu_seconds"] = round(time.process_time() - t0, 2)
    print(json.dumps({"version": sys.version, "stats": stats, "reasons": reasons.most_common(25), "diffs": diffs.most_common(30)}))


if __name__ == "__main__":
    main()
