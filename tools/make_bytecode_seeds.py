"""Write seeds for the bytecode_roundtrip fuzz target from this interpreter's own code objects.

    python tools/make_bytecode_seeds.py fuzz/corpus/bytecode_roundtrip [N]

A seed is: version index (minor - 8), len(co_code) and len(line table) as little-endian u16, then
co_code, the line table (co_lnotab before 3.10) and co_exceptiontable (3.11+)."""

import hashlib
import json.decoder
import os
import struct
import sys
import types


def main():
    out, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 12
    code = compile(open(json.decoder.__file__, "rb").read(), "json/decoder.py", "exec")
    todo, seen = [code], []
    while todo:
        c = todo.pop()
        seen.append(c)
        todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    for c in seen[:n]:
        lt = c.co_linetable if sys.version_info >= (3, 10) else c.co_lnotab
        exc = getattr(c, "co_exceptiontable", b"")
        if len(c.co_code) > 0xFFFF or len(lt) > 0xFFFF:
            continue
        data = bytes([sys.version_info[1] - 8]) + struct.pack("<HH", len(c.co_code), len(lt)) + c.co_code + lt + exc
        name = "3.%d-%s" % (sys.version_info[1], hashlib.sha1(data).hexdigest()[:12])
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


main()
