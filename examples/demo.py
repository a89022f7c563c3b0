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
    from framejit import decompile

    source = decompile(forward)
    print("forward() decompiled from its bytecode:\n\n" + source)
    namespace: dict = {}
    exec(compile(source, "<decompiled>", "exec"), namespace)
    print(f"decompiled forward, run: {namespace['forward'](x, weight, bias)}")
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
    cross_version()


def cross_version() -> None:
    """A .pyc of another version, read without that interpreter (compiled here by pyenv's 3.8 if present)."""
    import glob
    import os
    import subprocess
    import tempfile

    from framejit.pyc import dump_pyc, load_pyc

    pythons = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.8.*/bin/python")))
    if not pythons:
        print("\n(no Python 3.8 here to make a .pyc with; skipping the cross-version part)")
        return
    src = os.path.abspath(__file__)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "demo.cpython-38.pyc")
        subprocess.run([pythons[-1], "-c", f"import py_compile; py_compile.compile({src!r}, cfile={out!r})"], check=True)
        pyc = load_pyc(out)
        fwd = next(c for c in pyc.code.co_consts if getattr(c, "co_name", "") == "forward")
        print(f"\n{os.path.basename(out)}: Python {pyc.version[0]}.{pyc.version[1]} bytecode, read on "
              f"Python {sys.version_info[0]}.{sys.version_info[1]}; forward() as 3.8 compiled it:\n")
        buf = io.StringIO()
        format_code(fwd, buf)
        print("\n".join(buf.getvalue().splitlines()[:12]) + "\n   ...")

        def rebuild(c):
            consts = tuple(rebuild(k) if hasattr(k, "co_code") else k for k in c.co_consts)
            if any(a is not b for a, b in zip(consts, c.co_consts)):
                c = c.replace(co_consts=consts)
            return Bytecode.from_code(c).to_code()

        same = dump_pyc(pyc, rebuild(pyc.code)) == open(out, "rb").read()
        print(f"every code object decoded and re-assembled, .pyc written back: byte-identical = {same}")

        # and back to source, from 3.8's bytecode, on this interpreter
        from framejit import DecompileError, decompile

        try:
            # the whole module, so that forward() gets its defaults (MAKE_FUNCTION is the module's)
            lines = decompile(pyc.code).splitlines()
            start = next(k for k, line in enumerate(lines) if line.startswith("def forward("))
            end = next((k for k in range(start + 1, len(lines)) if lines[k] and not lines[k][0].isspace()), len(lines))
            print("\nforward() decompiled from the 3.8 .pyc:\n\n" + "\n".join(lines[start:end]).rstrip())
        except (DecompileError, StopIteration) as e:
            # (the defaults are the module's, so the function's own code object shows none)
            print(f"\n(the 3.8 module as a whole is refused: {e})\nforward()'s code object decompiled "
                  "from the 3.8 .pyc:\n\n" + decompile(fwd))


if __name__ == "__main__":
    main()
