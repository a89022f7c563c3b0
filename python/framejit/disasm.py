"""A ``dis``-style listing of any version's bytecode (live code objects or :class:`CodeModel` from a
``.pyc``), computed by framejit's Rust decoder and the version's own opcode table."""

from __future__ import annotations

import types
from typing import Any, Iterator, NamedTuple, Optional, TextIO, Union

from framejit import _native
from framejit.bytecode import CodeModel, _localsplus, host_version, opcodes

Code = Union[types.CodeType, CodeModel]

_OPNAME_WIDTH = 20
_OPARG_WIDTH = 5


class Line(NamedTuple):
    """One instruction as listed: ``offset`` is the opcode's own byte offset (as ``dis`` gives it)."""

    offset: int
    opname: str
    arg: Optional[int]
    argval: Any
    argrepr: str
    line: Optional[int]
    starts_line: bool
    is_jump_target: bool
    target: Optional[int]


def code_version(code: Code) -> tuple[int, int]:
    return code.version if isinstance(code, CodeModel) else host_version()


def _linetable(code: Code, version: tuple[int, int]) -> bytes:
    return code.co_linetable if version >= (3, 10) else code.co_lnotab  # type: ignore[union-attr]


def listing(code: Code) -> list[Line]:
    """Every instruction of ``code`` (EXTENDED_ARG prefixes included, as ``dis`` shows them)."""
    version = code_version(code)
    ops = opcodes(version)
    raw = code.co_code
    rows = _native.listing(version[1], raw, _linetable(code, version), code.co_firstlineno)
    consts = code.co_consts
    names = code.co_names
    cellvars, freevars, varnames = code.co_cellvars, code.co_freevars, code.co_varnames
    if version >= (3, 11):
        lp = getattr(code, "_localsplusnames", None)
        fast = list(lp) if lp is not None else _localsplus(varnames, cellvars, freevars)
        deref = fast
    else:
        fast = list(varnames)
        deref = list(cellvars) + list(freevars)
    out: list[Line] = []
    prev_line: Optional[int] = None
    for offset, start, opname, arg, target, line, is_target in rows:
        starts = line is not None and line != prev_line
        if line is not None:
            prev_line = line
        # EXTENDED_ARG prefixes, with the argument accumulated so far
        acc = 0
        for pos in range(start, offset, 2):
            acc = acc << 8 | raw[pos + 1]
            out.append(Line(pos, "EXTENDED_ARG", acc, acc, "", line, starts and pos == start, is_target and pos == start, None))
            starts = False
            is_target = False
        info = ops[opname]
        argval: Any = arg
        argrepr = ""
        kind = info.arg_kind
        shown_arg: Optional[int] = arg if info.has_arg else None
        try:
            if info.is_jump:
                argval = target
                argrepr = f"to {target}"
            elif kind == "const":
                argval = consts[arg]
                argrepr = repr(argval)
            elif kind == "name":
                s = info.shift
                argval = names[arg >> s]
                argrepr = argval
                if opname == "LOAD_GLOBAL" and s and arg & 1:
                    argrepr = "NULL + " + argval
                elif opname == "LOAD_ATTR" and s and arg & 1:
                    argrepr = argval + " + NULL|self"
            elif kind == "local":
                argval = argrepr = fast[arg]
            elif kind == "localpair":
                argval = (fast[arg >> 4], fast[arg & 15])
                argrepr = f"{argval[0]}, {argval[1]}"
            elif kind == "free":
                argval = argrepr = deref[arg]
            elif kind == "named":
                idx = arg >> info.shift
                if 0 <= idx < len(info.names):
                    argrepr = info.names[idx]
        except IndexError:
            argrepr = "<out of range>"
        out.append(Line(offset, opname, shown_arg, argval, argrepr, line, starts, is_target, target))
    return out


def exception_entries(code: Code) -> list[tuple[int, int, int, int, bool]]:
    """``(start, end, target, depth, lasti)`` byte offsets of the 3.11+ exception table."""
    version = code_version(code)
    if version < (3, 11):
        return []
    return _native.exception_entries(code.co_exceptiontable)


def nested(code: Code) -> Iterator[Code]:
    for c in code.co_consts:
        if isinstance(c, (types.CodeType, CodeModel)):
            yield c


def describe(code: Code) -> str:
    name = code.co_name
    return f'<code object {name} at {id(code):#x}, file "{code.co_filename}", line {code.co_firstlineno}>'


def format_code(
    code: Code, out: TextIO, *, recursive: bool = True, header: bool = False, labels: bool = False
) -> None:
    """Write a dis-style listing of ``code``. ``labels``: name jump targets and handlers L1, L2, ...
    (in offset order) instead of giving byte offsets."""
    if header:
        out.write(f"Disassembly of {describe(code)}:\n")
    lines = listing(code)
    entries = exception_entries(code)
    handlers = {e[2] for e in entries}
    if handlers:
        lines = [ln._replace(is_jump_target=True) if ln.offset in handlers else ln for ln in lines]
    width = max(4, len(str(lines[-1].offset))) if lines else 4
    names: dict[int, str] = {}
    if labels:
        marks = sorted({ln.offset for ln in lines if ln.is_jump_target} | {e[1] for e in entries} | {e[0] for e in entries})
        names = {off: f"L{i + 1}" for i, off in enumerate(marks)}
        lines = [ln._replace(argrepr=f"to {names[ln.target]}") if ln.target in names else ln for ln in lines]
    first = True
    for ln in lines:
        if ln.starts_line and not first:
            out.write("\n")
        first = False
        if ln.offset in names:
            out.write(f"  {names[ln.offset]}:\n")
        fields = [f"{ln.line:3d}" if ln.starts_line and ln.line is not None else "   ", "   "]
        fields.append(">>" if ln.is_jump_target else "  ")
        fields.append(str(ln.offset).rjust(width))
        fields.append(ln.opname.ljust(_OPNAME_WIDTH))
        if ln.arg is not None:
            fields.append(str(ln.arg).rjust(_OPARG_WIDTH))
            if ln.argrepr:
                fields.append(f"({ln.argrepr})")
        out.write(" ".join(fields).rstrip() + "\n")
    if entries:
        out.write("ExceptionTable:\n")
        for start, end, target, depth, lasti in entries:
            if labels:
                span = f"{names.get(start, start)} to {names.get(end, end)} -> {names.get(target, target)}"
            else:
                span = f"{start} to {end - 2} -> {target}"
            out.write(f"  {span} [{depth}]{' lasti' if lasti else ''}\n")
    if recursive:
        for c in nested(code):
            out.write("\n")
            format_code(c, out, recursive=True, header=True, labels=labels)
