"""framejit demo (for now, the bytecode core): disassemble a small model's forward across versions,
edit it, and round-trip it through the Rust assembler.

    ./scripts/demo.sh
"""

from __future__ import annotations

import io
import sys
import time
import types

from framejit.bytecode import Bytecode, Instr, opcodes
from framejit.disasm import format_code


def forward(x, weight, bias, scale=2.0):
    """A tiny 'model': an affine map and a clipped activation, in plain Python."""
    out = []
    for w_row, b in zip(weight, bias):
        acc = b
        for w, xi in zip(w_row, x):
            acc += w * xi
        out.append(max(0.0, min(acc * scale, 6.0)))
    return out


def main() -> None:
    x, weight, bias = [1.0, -2.0, 0.5], [[0.1, 0.2, 0.3], [0.5, -0.5, 1.0]], [0.0, 1.0]
    print(f"Python {sys.version.split()[0]}: the bytecode of forward(), as framejit reads it\n")
    buf = io.StringIO()
    format_code(forward.__code__, buf)
    print(buf.getvalue())

    bc = Bytecode.from_code(forward.__code__)
    n = sum(isinstance(i, Instr) for i in bc)
    jumps = sum(isinstance(i, Instr) and opcodes()[i.name].is_jump for i in bc)
    print(f"decoded: {n} instructions, {jumps} jumps to labels, stack size {bc.compute_stacksize()}")

    # Edit: change the clip ceiling 6.0 -> 1.0 by value, and re-assemble.
    for it in bc:
        if isinstance(it, Instr) and it.name == "LOAD_CONST" and it.arg == 6.0:
            it.arg = 1.0
    edited = types.FunctionType(bc.to_code(), forward.__globals__, "forward", forward.__defaults__)
    print(f"original forward: {forward(x, weight, bias)}")
    print(f"edited forward:   {edited(x, weight, bias)}   (ceiling 6.0 -> 1.0 in the bytecode)")

    # Round trip, timed: decode + assemble every code object of a stdlib module.
    import json.decoder

    code = compile(open(json.decoder.__file__, "rb").read(), json.decoder.__file__, "exec")
    todo, codes = [code], []
    while todo:
        c = todo.pop()
        codes.append(c)
        todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    t0 = time.perf_counter()
    same = sum(Bytecode.from_code(c).to_code() == c for c in codes)
    dt = time.perf_counter() - t0
    print(f"round trip of json/decoder.py: {same}/{len(codes)} code objects identical, "
          f"{dt / len(codes) * 1e6:.1f} us each")


if __name__ == "__main__":
    main()
