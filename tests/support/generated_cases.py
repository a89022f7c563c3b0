"""Hand-assembled CPython 3.11 bytecode of the shapes program-generated code has and compilers do not
emit (torch.compile's transformed code and resume functions): values kept on the stack across
statements and branches, lists copied and then changed in place, cells and code objects passed as
values, a prologue that jumps over dead code. Each case is run as assembled and as decompiled and
compiled again, on several inputs; results (or exception types) must be equal.

Prints JSON: {case: {"source": ..., "runs": [[want, got], ...]} or {"refused": message}}.
Run under CPython 3.11: PYTHONPATH=python python3.11 tests/support/generated_cases.py
"""

from __future__ import annotations

import copy
import json
import opcode
import sys
import types

import framejit
from framejit.decompiler import decompile_with_constants

assert sys.version_info[:2] == (3, 11), "the cases are 3.11 bytecode"

JUMPS = {"JUMP_FORWARD", "POP_JUMP_FORWARD_IF_FALSE", "POP_JUMP_FORWARD_IF_TRUE", "FOR_ITER"}
BACKWARD = {"JUMP_BACKWARD"}


def asm(ops: list) -> bytes:
    """Bytes of `ops`: (name, arg) pairs and ("LABEL", name) marks; jumps take a label."""

    def size(name: str) -> int:
        return 2 + 2 * opcode._inline_cache_entries[opcode.opmap[name]]

    labels, at = {}, 0
    for name, arg in ops:
        if name == "LABEL":
            labels[arg] = at
        else:
            at += size(name)
    out, at = bytearray(), 0
    for name, arg in ops:
        if name == "LABEL":
            continue
        at += size(name)
        if name in JUMPS:
            arg = (labels[arg] - at) // 2
        elif name in BACKWARD:
            arg = (at - labels[arg]) // 2
        out += bytes([opcode.opmap[name], arg]) + b"\x00\x00" * opcode._inline_cache_entries[opcode.opmap[name]]
    return bytes(out)


def make(template, ops, consts=(None,), names=()):
    code = template.__code__.replace(
        co_code=asm(ops),
        co_consts=tuple(consts),
        co_names=tuple(names),
        co_linetable=b"",
        co_exceptiontable=b"",
        co_stacksize=16,
    )
    return types.FunctionType(code, {"__builtins__": __builtins__}, template.__name__, template.__defaults__, template.__closure__)


def t3(a, b, c):
    pass


def t_list(a, c):
    pass


def t2(a, b):
    pass


def t5(s0, s1, x, i, j):
    pass


def t_cell(k):
    def g():
        return k

    return g


def outcome(fn, args):
    try:
        return ["ok", fn(*copy.deepcopy(args))]
    except Exception as e:  # noqa: BLE001
        return ["raised", type(e).__name__]


def cell_values(v):
    """Cells compare by what they hold."""
    if isinstance(v, tuple):
        return tuple(cell_values(x) for x in v)
    if type(v).__name__ == "cell":
        return ("cell", v.cell_contents)
    return v


CASES = {}

# A value loaded before an `if` whose arms store a name and push a value; both used after the merge:
# a + (10 if c else 20) + (1 if c else b), with `a` read before the arm rebinds it.
CASES["kept_across_if_with_stores"] = (
    t3,
    [
        ("RESUME", 0),
        ("LOAD_FAST", 0),
        ("LOAD_FAST", 2),
        ("POP_JUMP_FORWARD_IF_FALSE", "else"),
        ("LOAD_CONST", 1),
        ("STORE_FAST", 1),
        ("LOAD_CONST", 2),
        ("STORE_FAST", 0),
        ("LOAD_CONST", 3),
        ("JUMP_FORWARD", "merge"),
        ("LABEL", "else"),
        ("LOAD_CONST", 4),
        ("LABEL", "merge"),
        ("BINARY_OP", 0),
        ("LOAD_FAST", 1),
        ("BINARY_OP", 0),
        ("LOAD_FAST", 0),
        ("BUILD_TUPLE", 2),
        ("RETURN_VALUE", 0),
    ],
    (None, 1, 1000, 10, 20),
    (),
    [(5, 7, True), (5, 7, False), (0, -3, 1), ("x", "y", 0), (5, "y", 0)],
)

# A call's result (a.pop()) kept under a branch whose arm changes `a`: the pop must run first.
CASES["impure_value_kept_across_branch"] = (
    t_list,
    [
        ("RESUME", 0),
        ("LOAD_FAST", 0),
        ("LOAD_METHOD", 0),
        ("PRECALL", 0),
        ("CALL", 0),
        ("LOAD_FAST", 1),
        ("POP_JUMP_FORWARD_IF_FALSE", "merge"),
        ("LOAD_FAST", 0),
        ("LOAD_METHOD", 1),
        ("LOAD_CONST", 1),
        ("PRECALL", 1),
        ("CALL", 1),
        ("POP_TOP", 0),
        ("LABEL", "merge"),
        ("LOAD_GLOBAL", 5),
        ("LOAD_FAST", 0),
        ("PRECALL", 1),
        ("CALL", 1),
        ("BUILD_TUPLE", 2),
        ("RETURN_VALUE", 0),
    ],
    (None, 99),
    ("pop", "append", "len"),
    [([1, 2, 3], True), ([1, 2, 3], False), ([], True), ([4], 0)],
)

# BUILD_LIST; COPY: one list on the stack twice; the copy is extended, the original returned.
CASES["copied_list_extended"] = (
    t2,
    [
        ("RESUME", 0),
        ("BUILD_LIST", 0),
        ("COPY", 1),
        ("LOAD_FAST", 0),
        ("LIST_EXTEND", 1),
        ("POP_TOP", 0),
        ("LOAD_FAST", 1),
        ("LIST_APPEND", 1),
        ("RETURN_VALUE", 0),
    ],
    (None,),
    (),
    [([1, 2], 3), ((), None), ("ab", "c"), (5, 1)],
)

# LIST_EXTEND onto a list a local holds (not a display being built).
CASES["extend_a_local_list"] = (
    t2,
    [
        ("RESUME", 0),
        ("LOAD_FAST", 0),
        ("LOAD_FAST", 1),
        ("LIST_EXTEND", 1),
        ("LOAD_CONST", 1),
        ("BINARY_SUBSCR", 0),
        ("RETURN_VALUE", 0),
    ],
    (None, slice(None, 2)),
    (),
    [([1], [2, 3]), ([], []), ([0], "xy"), ([1], 5)],
)

# A cell passed on as a value (LOAD_CLOSURE outside MAKE_FUNCTION), as a resume function's closure.
CASES["cell_as_value"] = (
    t_cell,
    [
        ("MAKE_CELL", 0),
        ("RESUME", 0),
        ("LOAD_CLOSURE", 0),
        ("BUILD_TUPLE", 1),
        ("BUILD_LIST", 1),
        ("LOAD_CONST", 1),
        ("BINARY_SUBSCR", 0),
        ("RETURN_VALUE", 0),
    ],
    (None, 0),
    (),
    [(1,), ("k",), (None,)],
)

# A code object used as a value (torch passes one to its function maker).
CASES["code_object_as_value"] = (
    t2,
    [
        ("RESUME", 0),
        ("LOAD_CONST", 1),
        ("LOAD_ATTR", 0),
        ("LOAD_FAST", 0),
        ("BUILD_TUPLE", 2),
        ("RETURN_VALUE", 0),
    ],
    (None, t3.__code__),
    ("co_name",),
    [(1, 2), ("a", None)],
)

# A prologue that loads a value and jumps over dead code into the middle of the original code.
CASES["prologue_jumps_over_dead_code"] = (
    t2,
    [
        ("RESUME", 0),
        ("LOAD_FAST", 0),
        ("LOAD_CONST", 1),
        ("STORE_FAST", 1),
        ("JUMP_FORWARD", "middle"),
        ("LOAD_FAST", 1),
        ("LOAD_CONST", 2),
        ("BINARY_OP", 0),
        ("LABEL", "middle"),
        ("LOAD_FAST", 1),
        ("BINARY_OP", 5),
        ("RETURN_VALUE", 0),
    ],
    (None, 3, 100),
    (),
    [(2, 0), ("ab", 1), (None, 1)],
)

# Values kept under stores that rebind what they read, then a tuple built of them.
CASES["kept_under_rebinding_stores"] = (
    t2,
    [
        ("RESUME", 0),
        ("LOAD_FAST", 0),
        ("LOAD_FAST", 1),
        ("LOAD_FAST", 0),
        ("LOAD_FAST", 1),
        ("BINARY_OP", 0),
        ("STORE_FAST", 0),
        ("LOAD_CONST", 1),
        ("STORE_FAST", 1),
        ("LOAD_FAST", 0),
        ("LOAD_FAST", 1),
        ("BUILD_TUPLE", 4),
        ("RETURN_VALUE", 0),
    ],
    (None, 0),
    (),
    [(1, 2), ("a", "b"), (1, "b")],
)

# A call's result left under the returned value: the call still runs (it was silently dropped).
CASES["return_discards_a_call"] = (
    t2,
    [
        ("RESUME", 0),
        ("LOAD_FAST", 0),
        ("LOAD_METHOD", 0),
        ("PRECALL", 0),
        ("CALL", 0),
        ("LOAD_FAST", 0),
        ("BUILD_TUPLE", 1),
        ("RETURN_VALUE", 0),
    ],
    (None,),
    ("pop",),
    [([1, 2, 3], 0), ([], 0), ([7], 0)],
)

# Two calls; the second's result popped as a statement, the first's returned: the first runs first
# (it came out as `a.pop(); return a.pop()`, which returns the second).
CASES["pop_top_over_a_call"] = (
    t2,
    [
        ("RESUME", 0),
        ("LOAD_FAST", 0),
        ("LOAD_METHOD", 0),
        ("PRECALL", 0),
        ("CALL", 0),
        ("LOAD_FAST", 0),
        ("LOAD_METHOD", 0),
        ("PRECALL", 0),
        ("CALL", 0),
        ("POP_TOP", 0),
        ("RETURN_VALUE", 0),
    ],
    (None,),
    ("pop",),
    [([1, 2, 3], 0), ([1], 0), ([5, 6], 0)],
)


# In-place operators whose result is not stored back into their left operand. `a + b` in their place
# would not call `__iadd__`: for lists, the operand would stay unchanged. They must be refused
# (or come out with the in-place call kept); `a + b` is a silent difference.
CASES["inplace_stored_elsewhere"] = (
    t2,
    [
        ("RESUME", 0),
        ("LOAD_FAST", 0),
        ("LOAD_FAST", 1),
        ("BINARY_OP", 13),
        ("STORE_FAST", 1),
        ("LOAD_FAST", 0),
        ("LOAD_FAST", 1),
        ("BUILD_TUPLE", 2),
        ("RETURN_VALUE", 0),
    ],
    (None,),
    (),
    [([1], [2]), ([], [3, 4]), (1, 2)],
)

CASES["inplace_used_as_value"] = (
    t2,
    [
        ("RESUME", 0),
        ("LOAD_FAST", 0),
        ("LOAD_FAST", 0),
        ("LOAD_FAST", 1),
        ("BINARY_OP", 13),
        ("BUILD_TUPLE", 2),
        ("RETURN_VALUE", 0),
    ],
    (None,),
    (),
    [([1], [2]), ([5], []), (1, 2)],
)

CASES["inplace_popped"] = (
    t2,
    [
        ("RESUME", 0),
        ("LOAD_FAST", 0),
        ("LOAD_FAST", 1),
        ("BINARY_OP", 13),
        ("POP_TOP", 0),
        ("LOAD_FAST", 0),
        ("RETURN_VALUE", 0),
    ],
    (None,),
    (),
    [([1], [2]), ([], [3]), (1, 2)],
)

# A resume function as torch.compile generates it for a graph break inside two nested for loops:
# the prologue pushes the saved iterators (outer s0, inner s1) and jumps to the inner loop's latch;
# the original code before it is dead. (Peeled: the inner loop on s1, then the outer loop on s0.)
CASES["resume_into_nested_loops"] = (
    t5,
    [
        ("RESUME", 0),
        ("LOAD_FAST", 0),
        ("LOAD_FAST", 1),
        ("JUMP_FORWARD", "latch"),
        ("LOAD_GLOBAL", 1),
        ("LOAD_CONST", 1),
        ("PRECALL", 1),
        ("CALL", 1),
        ("GET_ITER", 0),
        ("LABEL", "outer"),
        ("FOR_ITER", "outer_exit"),
        ("STORE_FAST", 3),
        ("LOAD_GLOBAL", 1),
        ("LOAD_CONST", 2),
        ("PRECALL", 1),
        ("CALL", 1),
        ("GET_ITER", 0),
        ("LABEL", "inner"),
        ("FOR_ITER", "inner_exit"),
        ("STORE_FAST", 4),
        ("LOAD_FAST", 2),
        ("LOAD_FAST", 3),
        ("LOAD_FAST", 4),
        ("BINARY_OP", 5),
        ("BINARY_OP", 0),
        ("STORE_FAST", 2),
        ("LOAD_FAST", 2),
        ("LOAD_CONST", 3),
        ("COMPARE_OP", 4),
        ("POP_JUMP_FORWARD_IF_FALSE", "latch"),
        ("LOAD_FAST", 2),
        ("LOAD_FAST", 3),
        ("LOAD_FAST", 4),
        ("BUILD_TUPLE", 3),
        ("SWAP", 2),
        ("POP_TOP", 0),
        ("SWAP", 2),
        ("POP_TOP", 0),
        ("RETURN_VALUE", 0),
        ("LABEL", "latch"),
        ("JUMP_BACKWARD", "inner"),
        ("LABEL", "inner_exit"),
        ("JUMP_BACKWARD", "outer"),
        ("LABEL", "outer_exit"),
        ("LOAD_FAST", 2),
        ("LOAD_CONST", 4),
        ("LOAD_CONST", 4),
        ("BUILD_TUPLE", 3),
        ("RETURN_VALUE", 0),
    ],
    (None, 3, 2, 20, -1),
    ("range",),
    [
        (iter([1, 2]), iter([1]), 0, 0, 0),
        (iter([]), iter([]), 0, 1, 1),
        (iter(range(3)), iter([7]), 10, 2, 0),
        (iter([3, 9]), iter([]), 1, 0, 0),
        (iter([1]), iter([2, 3]), 19, 1, 0),
        (iter([5, 9]), iter([]), 10, 0, 0),
        (iter([1]), iter([]), "s", 1, 0),
    ],
)


def main() -> None:
    out = {}
    for name, (template, ops, consts, names, inputs) in CASES.items():
        fn = make(template, ops, consts, names)
        try:
            source, table = decompile_with_constants(fn.__code__)
        except framejit.DecompileError as e:
            out[name] = {"refused": str(e)}
            continue
        ns = {"__builtins__": __builtins__, **table}
        exec(compile(source, f"<decompiled {name}>", "exec"), ns)
        again = ns[template.__name__]
        if template.__closure__:
            again = types.FunctionType(again.__code__, ns, again.__name__, None, template.__closure__)
        runs = []
        for args in inputs:
            want, got = outcome(fn, args), outcome(again, args)
            runs.append([repr(cell_values(want[1]) if want[0] == "ok" else want), repr(cell_values(got[1]) if got[0] == "ok" else got)])
        out[name] = {"source": source, "runs": runs}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
