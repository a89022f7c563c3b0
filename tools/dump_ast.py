#!/usr/bin/env python3
"""Dump Python syntax trees as JSON for framejit-decompile's printer round-trip test, and check
the printed sources against them. Standard library only; runs on CPython 3.8-3.14.

    dump_ast.py dump OUTDIR [FILE_OR_DIR ...]
        Parses every .py file under the given paths (default: this interpreter's standard
        library) and writes OUTDIR/NNNNN.json (the tree), OUTDIR/NNNNN.dump (ast.dump of it)
        and OUTDIR/index.json ({"version": sys.version, "files": {"NNNNN": source path}}).
    dump_ast.py check DUMPDIR PRINTEDDIR
        For every PRINTEDDIR/NNNNN.py, parses it and compares ast.dump with DUMPDIR/NNNNN.dump.
        Prints one line per mismatch and a summary; exits 1 if any file differs.

JSON encoding: a node is {"_t": class name, field: value, ...} (fields only, no positions);
lists are lists; None is null; identifiers and other plain strings are strings; ints are numbers.
A constant value is {"_c": kind, ...}: none, bool ("v"), ellipsis, int ("v": decimal string),
float ("v": repr), complex ("real", "imag": repr), str ("v": string, or "cp": code points when it
holds lone surrogates), bytes ("hex"), tuple/frozenset ("v": list of constants).
3.8's Index/ExtSlice wrappers are unwrapped to the 3.9+ shape.
"""
import ast
import json
import os
import sys
import sysconfig

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)


def enc_const(v):
    if v is None:
        return {"_c": "none"}
    if v is Ellipsis:
        return {"_c": "ellipsis"}
    if isinstance(v, bool):
        return {"_c": "bool", "v": v}
    if isinstance(v, int):
        return {"_c": "int", "v": str(v)}
    if isinstance(v, float):
        return {"_c": "float", "v": repr(v)}
    if isinstance(v, complex):
        return {"_c": "complex", "real": repr(v.real), "imag": repr(v.imag)}
    if isinstance(v, str):
        try:
            v.encode("utf-8")
            return {"_c": "str", "v": v}
        except UnicodeEncodeError:
            return {"_c": "str", "cp": [ord(c) for c in v]}
    if isinstance(v, bytes):
        return {"_c": "bytes", "hex": v.hex()}
    if isinstance(v, tuple):
        return {"_c": "tuple", "v": [enc_const(x) for x in v]}
    if isinstance(v, frozenset):
        return {"_c": "frozenset", "v": [enc_const(x) for x in v]}
    raise TypeError("unexpected constant %r" % (v,))


def enc(node):
    if isinstance(node, list):
        return [enc(x) for x in node]
    if node is None or isinstance(node, (str, int)):
        return node
    if not isinstance(node, ast.AST):
        raise TypeError("unexpected field value %r" % (node,))
    name = type(node).__name__
    if name == "Index":  # 3.8
        return enc(node.value)
    if name == "ExtSlice":  # 3.8
        return {"_t": "Tuple", "elts": enc(node.dims), "ctx": {"_t": "Load"}}
    out = {"_t": name}
    for field in node._fields:
        value = getattr(node, field, None)
        if name in ("Constant", "MatchSingleton") and field == "value":
            out[field] = enc_const(value)
        else:
            out[field] = enc(value)
    return out


def normalized_dump(tree):
    # A 3.14 Interpolation keeps its expression's source text, which no printer reproduces.
    for node in ast.walk(tree):
        if type(node).__name__ == "Interpolation":
            node.str = ""
    return ast.dump(tree)


def stdlib_files(paths):
    if not paths:
        paths = [sysconfig.get_paths()["stdlib"]]
    for root in paths:
        if os.path.isfile(root):
            yield root
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d not in ("site-packages", "__pycache__"))
            for f in sorted(filenames):
                if f.endswith(".py"):
                    yield os.path.join(dirpath, f)


def dump(outdir, paths):
    os.makedirs(outdir, exist_ok=True)
    files = {}
    skipped = 0
    for i, path in enumerate(stdlib_files(paths)):
        try:
            with open(path, "rb") as f:
                tree = ast.parse(f.read(), path)
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            skipped += 1
            continue
        key = "%05d" % i
        try:
            data = json.dumps(enc(tree))
        except RecursionError:
            skipped += 1
            continue
        with open(os.path.join(outdir, key + ".json"), "w") as f:
            f.write(data)
        with open(os.path.join(outdir, key + ".dump"), "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(normalized_dump(tree))
        files[key] = path
    with open(os.path.join(outdir, "index.json"), "w") as f:
        json.dump({"version": sys.version, "files": files, "skipped": skipped}, f, indent=0)
    print("%s: %d files dumped, %d did not parse" % (sys.version.split()[0], len(files), skipped))


def check(dumpdir, printeddir):
    with open(os.path.join(dumpdir, "index.json")) as f:
        index = json.load(f)
    bad = 0
    total = 0
    for name in sorted(os.listdir(printeddir)):
        if not name.endswith(".py"):
            continue
        key = name[:-3]
        total += 1
        with open(os.path.join(dumpdir, key + ".dump"), encoding="utf-8", errors="surrogatepass") as f:
            want = f.read()
        with open(os.path.join(printeddir, name), encoding="utf-8", errors="surrogatepass") as f:
            src = f.read()
        try:
            got = normalized_dump(ast.parse(src))
        except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
            bad += 1
            print("FAIL %s %s: does not parse: %s" % (key, index["files"].get(key), e))
            continue
        if got != want:
            bad += 1
            n = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            print("FAIL %s %s: differs at %d:\n  got  %s\n  want %s"
                  % (key, index["files"].get(key), n, got[max(0, n - 150):n + 100], want[max(0, n - 150):n + 100]))
    print("%s: %d/%d round-trip" % (sys.version.split()[0], total - bad, total))
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "dump":
        dump(argv[1], argv[2:])
        return 0
    if len(argv) == 3 and argv[0] == "check":
        return check(argv[1], argv[2])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
