"""In this (host) interpreter: for every .pyc under DIR (any version 3.8-3.14), load it, rebuild every
code object through framejit.bytecode (Bytecode.from_code(c).to_code(), bottom-up), dump it, and
compare with the file byte for byte. Prints a JSON summary.

    python pyc_sweep.py DIR
"""

import json
import os
import sys

from framejit.bytecode import Bytecode, BytecodeError
from framejit.pyc import CodeModel, PycError, dump_pyc, load_pyc


def rebuild(c, counter):
    consts = tuple(rebuild(k, counter) if isinstance(k, CodeModel) else k for k in c.co_consts)
    if any(a is not b for a, b in zip(consts, c.co_consts)):
        c = c.replace(co_consts=consts)
    counter[0] += 1
    bc = Bytecode.from_code(c)
    lt = c.co_lnotab if c.version < (3, 10) else c.co_linetable
    if bc.assemble(keep_source_linetable=False)[1] != lt:
        counter[1] += 1  # the encoder alone does not reproduce this table (3.8/3.9 peephole leftovers)
    return bc.to_code()


def main():
    root = sys.argv[1]
    stats = {"files": 0, "code_objects": 0, "identical": 0, "unedited_identical": 0, "errors": 0,
             "linetable_fresh_encoding_diff": 0}
    diffs = []
    versions = set()
    for d, _, names in os.walk(root):
        for n in sorted(names):
            if not n.endswith(".pyc"):
                continue
            path = os.path.join(d, n)
            data = open(path, "rb").read()
            stats["files"] += 1
            try:
                p = load_pyc(data)
                versions.add("%d.%d" % p.version)
                stats["unedited_identical"] += dump_pyc(p) == data
                counter = [0, 0]
                out = dump_pyc(p, rebuild(p.code, counter))
                stats["code_objects"] += counter[0]
                stats["linetable_fresh_encoding_diff"] += counter[1]
            except (BytecodeError, PycError) as e:
                stats["errors"] += 1
                diffs.append({"file": os.path.relpath(path, root), "error": str(e)[:300]})
                continue
            if out == data:
                stats["identical"] += 1
            else:
                diffs.append({"file": os.path.relpath(path, root), "error": "bytes differ"})
    print(json.dumps({"versions": sorted(versions), "stats": stats, "differences": diffs}))


main()
