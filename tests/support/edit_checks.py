"""Edits through framejit.bytecode whose assembled code is executed and checked. Runs under any
interpreter 3.9-3.14 (PYTHONPATH at framejit's python/); prints a JSON object {check: "ok" | error}.

Each check builds code the way a user of the API would (no version-specific opcode sequences beyond
what the check is about), runs it, and compares its behaviour with what the edit means.
"""

from __future__ import annotations

import dis
import json
import sys
import traceback
import types

from framejit.bytecode import (
    Bytecode,
    BytecodeError,
    ControlFlowGraph,
    Instr,
    Label,
    TryBegin,
    TryEnd,
)

V = sys.version_info[:2]
EXTENDED_ARG = dis.opmap["EXTENDED_ARG"]


def make(bc: Bytecode, like: types.FunctionType) -> types.FunctionType:
    code = bc.to_code()
    assert isinstance(code, types.CodeType)
    return types.FunctionType(code, like.__globals__, like.__name__, like.__defaults__, like.__closure__)


def prefixes(code: types.CodeType) -> int:
    return sum(1 for i in range(0, len(code.co_code), 2) if code.co_code[i] == EXTENDED_ARG)


def index_after(bc: Bytecode, name: str, arg: object = None) -> int:
    for i, it in enumerate(bc):
        if isinstance(it, Instr) and it.name == name and (arg is None or it.arg == arg):
            return i + 1
    raise AssertionError(f"no {name} {arg!r} in {list(bc)}")


def loop(n):
    t = 0
    for i in range(n):
        t += i
    return t


def branch(x):
    if x:
        x = x * 3
    return x + 1


def check_backward_jump_needs_extended_arg() -> None:
    for count in (300, 70_000):  # one prefix, then two
        bc = Bytecode.from_code(loop.__code__)
        at = index_after(bc, "STORE_FAST", "i")
        bc[at:at] = [Instr("NOP", lineno=bc[at].lineno) for _ in range(count)]
        f = make(bc, loop)
        assert f(10) == 45 and f(0) == 0, (f(10), f(0))
        assert prefixes(f.__code__) >= (1 if count < 1000 else 2), prefixes(f.__code__)


def check_forward_jump_needs_extended_arg() -> None:
    for count in (300, 70_000):
        bc = Bytecode.from_code(branch.__code__)
        at = index_after(bc, "STORE_FAST", "x")
        bc[at - 1 : at - 1] = [Instr("NOP") for _ in range(count)]
        f = make(bc, branch)
        assert (f(0), f(2)) == (1, 7), (f(0), f(2))
        assert prefixes(f.__code__) >= 1


def check_jump_shrinks_back() -> None:
    """Removing the padding again gives back the original bytes (no EXTENDED_ARG left over)."""
    bc = Bytecode.from_code(loop.__code__)
    at = index_after(bc, "STORE_FAST", "i")
    bc[at:at] = [Instr("NOP") for _ in range(300)]
    del bc[at : at + 300]
    assert bc.to_code().co_code == loop.__code__.co_code


def scale(value):
    factor = 2
    return value * factor


def check_change_and_add_constants() -> None:
    bc = Bytecode.from_code(scale.__code__)
    for it in bc:
        if isinstance(it, Instr) and it.name in ("LOAD_CONST", "LOAD_SMALL_INT") and it.arg == 2:
            it.name, it.arg = "LOAD_CONST", 3.5
    f = make(bc, scale)
    assert f(2) == 7.0 and 3.5 in f.__code__.co_consts
    # a constant of another type that compares equal must stay distinct
    bc = Bytecode.from_code(scale.__code__)
    for it in bc:
        if isinstance(it, Instr) and it.name in ("LOAD_CONST", "LOAD_SMALL_INT") and it.arg == 2:
            it.name, it.arg = "LOAD_CONST", True
    f = make(bc, scale)
    assert f("ab") == "ab" and type(f(1)) is int


def check_rename_locals() -> None:
    bc = Bytecode.from_code(scale.__code__)
    for it in bc:
        if isinstance(it, Instr) and isinstance(it.arg, str) and it.arg == "factor":
            it.arg = "multiplier"
        if isinstance(it, Instr) and isinstance(it.arg, tuple) and "factor" in it.arg:  # 3.13+ pairs
            it.arg = tuple("multiplier" if a == "factor" else a for a in it.arg)
    bc.varnames[0] = "amount"  # the argument
    for it in bc:
        if isinstance(it, Instr) and it.arg == "value":
            it.arg = "amount"
        if isinstance(it, Instr) and isinstance(it.arg, tuple) and "value" in it.arg:
            it.arg = tuple("amount" if a == "value" else a for a in it.arg)
    f = make(bc, scale)
    assert f(amount=4) == 8
    assert "multiplier" in f.__code__.co_varnames and f.__code__.co_varnames[0] == "amount"


def divide(a, b):
    return a / b


def check_add_exception_range() -> None:
    """Wrap the division in a new handler that returns "caught"."""
    bc = Bytecode.from_code(divide.__code__)
    handler = Label()
    body_start = index_after(bc, "LOAD_FAST", "a") - 1 if V < (3, 13) else next(
        i for i, it in enumerate(bc) if isinstance(it, Instr) and it.name.startswith("LOAD_FAST")
    )
    ret = next(i for i, it in enumerate(bc) if isinstance(it, Instr) and it.name == "RETURN_VALUE")
    if V >= (3, 11):
        tb = TryBegin(handler, push_lasti=False, stack_depth=0)
        bc.insert(ret, TryEnd(tb))
        bc.insert(body_start, tb)
        bc.extend([handler, Instr("POP_TOP"), Instr("LOAD_CONST", "caught"), Instr("RETURN_VALUE")])
    else:
        # 3.9/3.10: SETUP_FINALLY pushes a block; the handler gets the exception as 3 values over the
        # 3 of the previous exception state, which POP_EXCEPT restores
        bc.insert(ret, Instr("POP_BLOCK"))
        bc.insert(body_start, Instr("SETUP_FINALLY", handler))
        bc.extend(
            [handler, Instr("POP_TOP"), Instr("POP_TOP"), Instr("POP_TOP"), Instr("POP_EXCEPT"),
             Instr("LOAD_CONST", "caught"), Instr("RETURN_VALUE")]
        )
    f = make(bc, divide)
    assert f(4, 2) == 2.0 and f(1, 0) == "caught", (f(4, 2), f(1, 0))
    if V >= (3, 11):
        assert f.__code__.co_exceptiontable, "no exception table written"
    assert f("x", 1) == "caught"  # the handler catches every exception of the range
    assert divide(4, 2) == 2.0  # the original is untouched


def check_python_items_round_trip() -> None:
    """Looking at the items (Python objects) and assembling from them gives the original bytes."""
    import json.decoder as m

    code = compile(open(m.__file__, "rb").read(), m.__file__, "exec")
    todo = [code]
    n = 0
    while todo:
        c = todo.pop()
        todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
        bc = Bytecode.from_code(c)
        list(bc)  # materialize
        out = bc.to_code()
        assert out.co_code == c.co_code, c.co_name
        if V >= (3, 11):
            assert out.co_exceptiontable == c.co_exceptiontable, c.co_name
            assert list(out.co_positions()) == list(c.co_positions()), c.co_name
        assert out.co_stacksize == c.co_stacksize, c.co_name
        n += 1
    assert n > 10


def check_control_flow_graph() -> None:
    for fn, args in ((loop, (7,)), (branch, (0,)), (branch, (5,)), (divide, (9, 3))):
        cfg = ControlFlowGraph.from_bytecode(Bytecode.from_code(fn.__code__))
        assert len(cfg) >= (1 if fn is divide else 2), cfg.blocks
        f = make(cfg.to_bytecode(), fn)
        assert f(*args) == fn(*args)


def check_errors_name_the_place() -> None:
    bc = Bytecode.from_code(loop.__code__)
    bc.append(Instr("JUMP_FORWARD" if V >= (3, 11) else "JUMP_ABSOLUTE", Label()))  # never placed
    try:
        bc.to_code()
    except BytecodeError as e:
        assert "label" in str(e) and "loop" in str(e), str(e)
        assert e.index == len(bc) - 1, e.index
    else:
        raise AssertionError("assembled a jump to a label that is not in the list")
    bc = Bytecode.from_code(loop.__code__)
    bc.insert(0, Instr("POP_TOP"))
    try:
        bc.to_code()
    except BytecodeError as e:
        assert "underflow" in str(e) and e.opname == "POP_TOP" and e.offset is not None, str(e)
    else:
        raise AssertionError("assembled a POP_TOP on an empty stack")
    bc = Bytecode.from_code(loop.__code__)
    bc.append(Instr("NOT_AN_OPCODE"))
    try:
        bc.to_code()
    except BytecodeError as e:
        assert "NOT_AN_OPCODE" in str(e)
    else:
        raise AssertionError("assembled an unknown opcode")


def main() -> None:
    results = {}
    for name, fn in sorted(globals().items()):
        if name.startswith("check_") and callable(fn):
            try:
                fn()
                results[name] = "ok"
            except Exception:
                results[name] = traceback.format_exc(limit=4)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
