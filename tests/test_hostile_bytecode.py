"""Bad input: random, truncated and mutated bytecode and tables of every version 3.8-3.14 give
BytecodeError (or decode), never a panic, a crash or another exception. (The Rust fuzz targets and
their corpus cover marshal and .pyc; this drives the decoder and assembler through the Python API.)"""

from __future__ import annotations

import random
import types

import pytest

from framejit import _native
from framejit.bytecode import BytecodeError, opcodes

ALL_MINORS = [8, 9, 10, 11, 12, 13, 14]


def samples() -> list[types.CodeType]:
    import json.decoder

    code = compile(open(json.decoder.__file__, "rb").read(), "x", "exec")
    out, todo = [], [code]
    while todo:
        c = todo.pop()
        out.append(c)
        todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    return out


def attempt(minor: int, code: bytes, linetable: bytes, exctable: bytes) -> str:
    try:
        nb = _native.NativeBytecode.from_parts(minor, code, linetable, exctable, 1, "fuzz", "fuzz.py")
    except BytecodeError as e:
        assert e.kind == "decode" and str(e), e
        return "decode error"
    try:
        nb.items()
        nb.assemble()
    except BytecodeError as e:
        assert e.kind in ("assemble", "stackdepth") and str(e), e
        return "assemble error"
    return "ok"


@pytest.mark.parametrize("minor", ALL_MINORS)
def test_random_instruction_streams(minor: int) -> None:
    rng = random.Random(minor)
    real = [i.code for i in opcodes((3, minor)).values() if i.kind == "real" and i.code < 256]
    outcomes = {}
    for n in range(3000):
        length = rng.randrange(0, 40)
        code = bytes(b for _ in range(length) for b in (rng.choice(real), rng.randrange(256)))
        if n % 7 == 0:
            code = code[:-1]  # odd length
        lt = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 12)))
        et = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 12))) if minor >= 11 else b""
        r = attempt(minor, code, lt, et)
        outcomes[r] = outcomes.get(r, 0) + 1
    assert outcomes.get("decode error", 0) > 0


def test_mutated_real_code() -> None:
    import sys

    minor = sys.version_info[1]
    rng = random.Random(1)
    lt_attr = "co_linetable" if minor >= 10 else "co_lnotab"
    outcomes = {}
    for c in samples():
        parts = [c.co_code, getattr(c, lt_attr), getattr(c, "co_exceptiontable", b"")]
        assert attempt(minor, *parts) == "ok"
        for _ in range(150):
            which = rng.randrange(3)
            b = bytearray(parts[which])
            if not b:
                continue
            op = rng.randrange(3)
            if op == 0:
                b[rng.randrange(len(b))] = rng.randrange(256)
            elif op == 1:
                del b[rng.randrange(len(b)) :]
            else:
                b.insert(rng.randrange(len(b)), rng.randrange(256))
            mutated = list(parts)
            mutated[which] = bytes(b)
            r = attempt(minor, *mutated)
            outcomes[r] = outcomes.get(r, 0) + 1
    assert outcomes.get("decode error", 0) > 100 and outcomes.get("ok", 0) > 100, outcomes


def test_error_names_code_offset_and_opcode() -> None:
    minor = 11
    ops = opcodes((3, minor))
    code = bytes([ops["NOP"].code, 0, ops["JUMP_FORWARD"].code, 200])  # jump past the end
    with pytest.raises(BytecodeError) as ei:
        _native.NativeBytecode.from_parts(minor, code, b"", b"", 1, "myfunc", "my/file.py")
    e = ei.value
    assert (e.code_name, e.filename, e.offset, e.opname) == ("myfunc", "my/file.py", 2, "JUMP_FORWARD")
    assert "myfunc" in str(e) and "my/file.py" in str(e) and "offset 2" in str(e)


@pytest.mark.parametrize(
    "instr, message",
    [
        (("LOAD_FAST", 3), "takes a local variable name, not 3"),
        (("LOAD_GLOBAL", "pr"), "takes a tuple of 1 flag(s) and a name"),
        (("LOAD_NAME", 5), "takes a name, not 5"),
        (("JUMP_FORWARD", 4), "takes a Label"),
        (("NOT_AN_OPCODE", 1), "NOT_AN_OPCODE is no opcode"),
        (("EXTENDED_ARG", 1), "EXTENDED_ARG is written by the assembler"),
    ],
)
def test_wrong_arguments_are_named(instr, message) -> None:
    import sys

    from framejit.bytecode import Bytecode, Instr

    if sys.version_info[:2] != (3, 11):
        pytest.skip("opcode names of 3.11")
    bc = Bytecode([Instr("RESUME", 0), Instr(*instr), Instr("LOAD_CONST", None), Instr("RETURN_VALUE")])
    with pytest.raises(BytecodeError) as ei:
        bc.to_code()
    assert message in str(ei.value) and "item 1" in str(ei.value), str(ei.value)
