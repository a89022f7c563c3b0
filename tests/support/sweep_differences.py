"""Why a stdlib code object is not identical after decompiling and recompiling: one line per code
object, for the lists the sweeps write (`decompile_sweep.py --list`, `decompile_sweep_pyc.py compare
--list`) and the files checked in under docs/decompile-differences/.

A line is `status<TAB>file<TAB>first line<TAB>qualified name<TAB>code objects<TAB>reason`:
- status `refused`: the decompiler raised DecompileError; the reason is its message (nested code
  objects refused inside the one listed say `in NAME: ...`);
- status `syntax`: the decompiled source does not compile; the reason is the SyntaxError;
- status `different`: the source compiles but its instructions differ (3.11+: or the exception
  table covers them otherwise); the reason is a class found by comparing the two normalized
  instruction sequences (see `classify`), then the first differing pair (original -> recompiled,
  jumps by target index);
- status `missing`: the recompiled parent has no code object where the original had one.
`code objects` is how many code objects the line stands for: a refused or non-compiling function
takes its comprehensions, generator expressions and lambdas with it (the sweeps count them so).
The file names the stdlib path relative to the interpreter's library directory.
"""

from __future__ import annotations

import collections
import os
import sys
import sysconfig
import types

# Conditions whose sense the compiler picks from how the source spells them: the same instructions
# up to these pairs means the decompiler wrote a condition the other way round
SENSE = {
    "POP_JUMP_IF_TRUE": "POP_JUMP_IF_<bool>",
    "POP_JUMP_IF_FALSE": "POP_JUMP_IF_<bool>",
    "POP_JUMP_FORWARD_IF_TRUE": "POP_JUMP_IF_<bool>",
    "POP_JUMP_FORWARD_IF_FALSE": "POP_JUMP_IF_<bool>",
    "POP_JUMP_BACKWARD_IF_TRUE": "POP_JUMP_IF_<bool>",
    "POP_JUMP_BACKWARD_IF_FALSE": "POP_JUMP_IF_<bool>",
    "JUMP_IF_TRUE_OR_POP": "JUMP_IF_<bool>_OR_POP",
    "JUMP_IF_FALSE_OR_POP": "JUMP_IF_<bool>_OR_POP",
    "POP_JUMP_IF_NONE": "POP_JUMP_IF_<none>",
    "POP_JUMP_IF_NOT_NONE": "POP_JUMP_IF_<none>",
    "POP_JUMP_FORWARD_IF_NONE": "POP_JUMP_IF_<none>",
    "POP_JUMP_FORWARD_IF_NOT_NONE": "POP_JUMP_IF_<none>",
    "POP_JUMP_BACKWARD_IF_NONE": "POP_JUMP_IF_<none>",
    "POP_JUMP_BACKWARD_IF_NOT_NONE": "POP_JUMP_IF_<none>",
}
SENSE_ARG = ("CONTAINS_OP", "IS_OP")  # the argument says `in` / `not in`, `is` / `is not`
DROPPED_IN_SENSE = ("UNARY_NOT", "TO_BOOL")  # `not` written out or folded into the jump

# Instructions that leave a code object or jump: a difference in these alone is an exit (a
# `return`, `break`, `continue`, the end of an arm) the compiler copied or shared and the
# decompiled source did not
EXITS = ("RETURN_VALUE", "RETURN_CONST", "JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_ABSOLUTE", "JUMP",
         "JUMP_NO_INTERRUPT", "JUMP_BACKWARD_NO_INTERRUPT", "POP_BLOCK", "NOP")

# The name of the item a normalized list ends with on 3.11+ (decompile_sweep.handlers): per
# instruction, the handler the exception table sends it to
HANDLERS = "EXCEPTION_TABLE"

CLASSES = {
    "exception-ranges": "the same instructions, covered by other exception handlers (a try or with body's extent differs)",
    "jump-targets": "same instructions in the same order; jumps land elsewhere",
    "block-order": "same instructions laid out in another block order",
    "condition-sense": "a condition written the other way round (in/not in, is/is not, jump if true/false)",
    "branches": "the same operations with other jumps (an arm's order, a condition's form, a jump threaded or not)",
    "exits": "a return the compiler copied or shared that the source does not (jumps may differ too)",
    "instructions": "other instructions",
}


def _strip(instr: tuple) -> tuple:
    opname, arg = instr
    return (opname, ("->",)) if arg and arg[0] == "->" else instr


def _sense(instr: tuple) -> tuple:
    opname, arg = _strip(instr)
    if opname in SENSE:
        return (SENSE[opname], arg)
    if opname in SENSE_ARG:
        return (opname, ("sense",))
    return (opname, arg)


def first_difference(x: list, y: list) -> str:
    ix, iy = _instructions(x), _instructions(y)
    if ix == iy and x != y:
        # the same instructions: the first one covered by another handler
        cx = x[-1][1][1] if len(x) > len(ix) else (None,) * len(ix)
        cy = y[-1][1][1] if len(y) > len(iy) else (None,) * len(iy)
        j = next((j for j, (p, q) in enumerate(zip(cx, cy)) if p != q), 0)
        return f"at {j}: {_show(ix[j]) if j < len(ix) else '<end>'} handled by {_handler(cx[j])} -> {_handler(cy[j])}"
    x, y = ix, iy
    j = next((j for j, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
    left = _show(x[j]) if j < len(x) else "<end>"
    right = _show(y[j]) if j < len(y) else "<end>"
    return f"at {j}: {left} -> {right}"


def _handler(entry) -> str:
    return "none" if entry is None else f"->{entry[0]}"


def _show(instr: tuple) -> str:
    opname, arg = instr
    if arg and arg[0] == "->":
        return f"{opname} ->{arg[1]}"
    return f"{opname} {arg[-1]}" if arg else opname


def _instructions(x: list) -> list:
    """The instructions of a normalized list, without its exception-table item (3.11+)."""
    return x[:-1] if x and x[-1][0] == HANDLERS else x


def classify(x: list, y: list) -> str:
    """The class (a key of CLASSES) of the difference between two normalized instruction lists
    (decompile_sweep.normalized: (opname, argument) pairs, jumps as ('->', target index))."""
    x, y = _instructions(x), _instructions(y)
    if x == y:
        return "exception-ranges"
    a, b = [_strip(i) for i in x], [_strip(i) for i in y]
    if a == b:
        return "jump-targets"
    if collections.Counter(a) == collections.Counter(b):
        return "block-order"
    sa = collections.Counter(_sense(i) for i in x if i[0] not in DROPPED_IN_SENSE)
    sb = collections.Counter(_sense(i) for i in y if i[0] not in DROPPED_IN_SENSE)
    if sa == sb:
        return "condition-sense"
    ca, cb = collections.Counter(a), collections.Counter(b)
    extra = (ca - cb) + (cb - ca)
    if all(arg == ("->",) or op == "NOP" for op, arg in extra):
        return "branches"
    if all(arg == ("->",) or op in EXITS or (op == "LOAD_CONST" and arg == ("NoneType", "None"))
           for op, arg in extra):
        return "exits"
    return "instructions"


def reason(x: list, y: list | None) -> tuple:
    """(status, reason) for a code object whose recompiled counterpart `y` differs (None: missing)."""
    if y is None:
        return "missing", "the recompiled source has no code object here"
    cls = classify(x, y)
    extra = ""
    if cls == "instructions":
        extra = f" ({surplus(x, y)})"
    return "different", f"{cls}: {CLASSES[cls]}{extra}; {first_difference(x, y)}"


def surplus(x: list, y: list) -> str:
    """Which opcodes one side has more of: `original +A +B×2, recompiled +C`."""
    a, b = collections.Counter(op for op, _ in x), collections.Counter(op for op, _ in y)

    def show(c: collections.Counter) -> str:
        items = sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))
        return " ".join(f"+{op}" + (f"x{n}" if n > 1 else "") for op, n in items[:4]) + (" ..." if len(items) > 4 else "")

    parts = [f"{side} {show(c)}" for side, c in (("original", a - b), ("recompiled", b - a)) if c]
    return ", ".join(parts) or "same opcodes, other arguments"


def library_relative(path: str) -> str:
    """A stdlib file's path below the interpreter's library directory (so lists of two machines or
    install prefixes compare)."""
    for root in (sysconfig.get_path("stdlib"), sysconfig.get_path("platstdlib")):
        if root and path.startswith(root.rstrip(os.sep) + os.sep):
            return path[len(root.rstrip(os.sep)) + 1:]
    marker = f"{os.sep}python{sys.version_info[0]}.{sys.version_info[1]}{os.sep}"
    return path.split(marker, 1)[-1] if marker in path else path


class Listing:
    """The list file a sweep writes: a header of `#` lines (interpreter, totals, counts per status
    and class), then one line per code object that is not identical."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.lines: list = []

    def add(self, status: str, code: types.CodeType, count: int, why: str) -> None:
        if self.path is None:
            return
        name = getattr(code, "co_qualname", code.co_name)
        self.lines.append((status, library_relative(code.co_filename), code.co_firstlineno, name, count,
                           " ".join(why.split())[:240]))

    def write(self, stats: dict) -> None:
        if self.path is None:
            return
        by = collections.Counter()
        for status, *_, count, why in self.lines:
            by[status if status != "different" else "different: " + why.split(":", 1)[0]] += count
        total = stats.get("code_objects", 0)
        same = stats.get("identical", 0)
        with open(self.path, "w", encoding="utf-8") as fh:
            print("# Python " + " ".join(sys.version.split()), file=fh)
            print(f"# code objects {total}, identical {same} ({100 * same / max(total, 1):.2f}%), "
                  f"listed below {sum(n for *_, n, _ in self.lines)}", file=fh)
            for key, n in sorted(by.items(), key=lambda kv: -kv[1]):
                print(f"# {key}: {n}", file=fh)
            print("# status\tfile\tline\tqualified name\tcode objects\treason", file=fh)
            for line in sorted(self.lines, key=lambda t: (t[1], t[2], t[3])):
                print(*line, sep="\t", file=fh)
