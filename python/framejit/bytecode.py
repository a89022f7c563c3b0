"""Editable CPython bytecode, 3.8 to 3.14, from any host interpreter.

The model follows the ``bytecode`` package: a :class:`Bytecode` is an editable list of :class:`Instr`,
:class:`Label`, :class:`TryBegin` and :class:`TryEnd`; jumps take a :class:`Label`; constants, names and
locals are given by value. Decoding and assembling run in Rust (``framejit._native``); the Python items
are only made when the list is first looked at, so ``Bytecode.from_code(c).to_code()`` never leaves Rust
for the instructions themselves.

Arguments by kind of opcode (see :func:`opcode_info`):

- constants: the value; names: the name; locals: the name; cells and free variables: :class:`CellVar` /
  :class:`FreeVar`;
- names with flag bits (``LOAD_GLOBAL`` 3.11+, ``LOAD_ATTR`` 3.12+, ``LOAD_SUPER_ATTR`` 3.12+): a tuple of
  the flag bits as booleans, lowest bit first, then the name, e.g. ``(True, "print")``;
- two locals in one instruction (3.13+ ``LOAD_FAST_LOAD_FAST`` and kin): a tuple of two names;
- operators and other fixed lists (``COMPARE_OP``, ``BINARY_OP``, intrinsics): the encoded number;
- jumps: a :class:`Label`; everything else: an ``int``.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterable, Iterator, MutableSequence
from typing import Any, NamedTuple, Optional, Union, overload

from framejit import _native
from framejit._native import BytecodeError, CodeModel

__all__ = [
    "BytecodeError",
    "Bytecode",
    "CellVar",
    "CodeModel",
    "ControlFlowGraph",
    "BasicBlock",
    "FreeVar",
    "Instr",
    "Label",
    "Location",
    "OpInfo",
    "TryBegin",
    "TryEnd",
    "UNSET",
    "opcode_info",
    "opcodes",
    "host_version",
]

Version = tuple  # (3, minor)


def host_version() -> tuple[int, int]:
    return (sys.version_info[0], sys.version_info[1])


class _Unset:
    _instance: Optional["_Unset"] = None

    def __new__(cls) -> "_Unset":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET: Any = _Unset()


class Location(NamedTuple):
    """Source position of an instruction; 3.8-3.10 have only ``line``."""

    line: Optional[int] = None
    end_line: Optional[int] = None
    col: Optional[int] = None
    end_col: Optional[int] = None


_NO_LOCATION = Location()


class OpInfo(NamedTuple):
    name: str
    code: int
    arg_kind: str  # none int const name local localpair free named jabs jfwd jback
    shift: int
    names: list
    caches: int
    flow: str  # next branch jump exit
    kind: str  # real specialized pseudo instrumented
    base: Optional[int]

    @property
    def is_jump(self) -> bool:
        return self.arg_kind in ("jabs", "jfwd", "jback")

    @property
    def has_arg(self) -> bool:
        return self.arg_kind != "none"


_TABLES: dict = {}


def opcodes(version: tuple[int, int] = None) -> dict[str, OpInfo]:  # type: ignore[assignment]
    """Every opcode of ``version`` (default: this interpreter's) by name."""
    minor = (version or host_version())[1]
    t = _TABLES.get(minor)
    if t is None:
        t = {row[0]: OpInfo(*row) for row in _native.opcode_table(minor)}
        _TABLES[minor] = t
    return t


def opcode_info(name: str, version: tuple[int, int] = None) -> OpInfo:  # type: ignore[assignment]
    try:
        return opcodes(version)[name]
    except KeyError:
        v = version or host_version()
        raise ValueError(f"{name} is no opcode of Python {v[0]}.{v[1]}") from None


class Label:
    """A jump target; place it in the instruction list where the target is."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<Label {id(self) & 0xFFFFFF:06x}>"


class _Var:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.name == other.name  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self), self.name))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class CellVar(_Var):
    """A cell variable of this code object (``co_cellvars``)."""


class FreeVar(_Var):
    """A free variable of this code object (``co_freevars``)."""


class Instr:
    """One instruction: opcode name, argument by value (see the module docs), location."""

    __slots__ = ("name", "arg", "location")

    def __init__(
        self,
        name: str,
        arg: Any = UNSET,
        *,
        lineno: Optional[int] = None,
        location: Optional[Location] = None,
    ) -> None:
        self.name = name
        self.arg = arg
        if location is None:
            location = Location(lineno) if lineno is not None else _NO_LOCATION
        self.location = location

    @property
    def lineno(self) -> Optional[int]:
        return self.location.line

    @lineno.setter
    def lineno(self, value: Optional[int]) -> None:
        self.location = Location(value)

    def is_jump(self, version: tuple[int, int] = None) -> bool:  # type: ignore[assignment]
        return opcode_info(self.name, version).is_jump

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Instr):
            return NotImplemented
        return (self.name, _arg_key(self.arg), self.location) == (other.name, _arg_key(other.arg), other.location)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        if self.arg is UNSET:
            return f"<{self.name} line={self.location.line}>"
        return f"<{self.name} arg={self.arg!r} line={self.location.line}>"


def _arg_key(arg: Any) -> Any:
    # Constants compare by type too: 1, 1.0 and True are different arguments.
    if isinstance(arg, Label):
        return ("label", id(arg))
    return (type(arg), arg)


class TryBegin:
    """Start of an exception-table range (3.11+): an exception raised by the instructions up to the
    matching :class:`TryEnd` jumps to ``target`` with the stack cut to ``stack_depth``, then the
    offset of the raising instruction if ``push_lasti``, then the exception."""

    __slots__ = ("target", "push_lasti", "stack_depth")

    def __init__(self, target: Label, push_lasti: bool, stack_depth: int) -> None:
        self.target = target
        self.push_lasti = push_lasti
        self.stack_depth = stack_depth

    def __repr__(self) -> str:
        return f"<TryBegin target={self.target!r} push_lasti={self.push_lasti} depth={self.stack_depth}>"


class TryEnd:
    """End of the range opened by ``entry``."""

    __slots__ = ("entry",)

    def __init__(self, entry: TryBegin) -> None:
        self.entry = entry

    def __repr__(self) -> str:
        return "<TryEnd>"


Item = Union[Instr, Label, TryBegin, TryEnd]


def _localsplus(varnames: tuple, cellvars: tuple, freevars: tuple) -> list:
    """3.11+ order of fast locals: arguments and locals, the cells that are not arguments, the free variables."""
    seen = set(varnames)
    return list(varnames) + [c for c in cellvars if c not in seen] + list(freevars)


class Bytecode(MutableSequence):
    """A code object's instructions as an editable list, with the code object's other fields as
    attributes (``consts``, ``names``, ``varnames``, ``cellvars``, ``freevars``, ``name``, ...).

    ``version`` is the Python version the bytecode is for: the host's for live code objects, the
    file's for code read from a ``.pyc`` (see :class:`CodeModel`)."""

    def __init__(self, items: Iterable[Item] = (), *, version: tuple[int, int] = None) -> None:  # type: ignore[assignment]
        self.version: tuple[int, int] = tuple(version or host_version())  # type: ignore[assignment]
        self._native: Optional[_native.NativeBytecode] = None
        self._items: Optional[list] = list(items)
        self._code: Any = None
        self.first_lineno = 1
        self.consts: list = []
        self.names: list = []
        self.varnames: list = []
        self.cellvars: list = []
        self.freevars: list = []
        self.name = "<module>"
        self.qualname = "<module>"
        self.filename = "<string>"
        self.argcount = 0
        self.posonlyargcount = 0
        self.kwonlyargcount = 0
        self.flags = 0

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_code(cls, code: Union[types.CodeType, "CodeModel"]) -> "Bytecode":
        """Decode a live code object (this interpreter's version) or a :class:`CodeModel` (any version)."""
        self = cls.__new__(cls)
        if isinstance(code, CodeModel):
            self.version = code.version
            self._native = code._decode()
        elif isinstance(code, types.CodeType):
            self.version = host_version()
            self._native = _native.NativeBytecode.from_code(code)
        else:
            raise TypeError(f"expected a code object or CodeModel, got {type(code).__name__}")
        self._items = None
        self._code = code
        self.first_lineno = code.co_firstlineno
        self.consts = list(code.co_consts)
        self.names = list(code.co_names)
        self.varnames = list(code.co_varnames)
        self.cellvars = list(code.co_cellvars)
        self.freevars = list(code.co_freevars)
        self.name = code.co_name
        self.qualname = getattr(code, "co_qualname", code.co_name)
        self.filename = code.co_filename
        self.argcount = code.co_argcount
        self.posonlyargcount = code.co_posonlyargcount
        self.kwonlyargcount = code.co_kwonlyargcount
        self.flags = code.co_flags
        return self

    # -- the list -----------------------------------------------------------------------------
    def _list(self) -> list:
        if self._items is None:
            self._items = self._materialize()
            self._native = None
        return self._items

    @overload
    def __getitem__(self, i: int) -> Item: ...
    @overload
    def __getitem__(self, i: slice) -> list: ...
    def __getitem__(self, i):  # type: ignore[no-untyped-def]
        return self._list()[i]

    def __setitem__(self, i, value) -> None:  # type: ignore[no-untyped-def]
        self._list()[i] = value

    def __delitem__(self, i) -> None:  # type: ignore[no-untyped-def]
        del self._list()[i]

    def __len__(self) -> int:
        if self._items is None and self._native is not None:
            return len(self._native)
        return len(self._list())

    def __iter__(self) -> Iterator[Item]:
        return iter(self._list())

    def insert(self, index: int, value: Item) -> None:
        self._list().insert(index, value)

    def __repr__(self) -> str:
        return f"<Bytecode {self.qualname} ({len(self)} items, Python {self.version[0]}.{self.version[1]})>"

    # -- native items <-> Python items --------------------------------------------------------
    def _fast_names(self) -> list:
        if self.version >= (3, 11):
            if isinstance(self._code, CodeModel) and self._code._localsplusnames is not None:
                return list(self._code._localsplusnames)
            return _localsplus(tuple(self.varnames), tuple(self.cellvars), tuple(self.freevars))
        return list(self.varnames)

    def _materialize(self) -> list:
        assert self._native is not None
        ops = opcodes(self.version)
        consts, names = self.consts, self.names
        fast = self._fast_names()
        cells = set(self.cellvars)
        deref = list(self.cellvars) + list(self.freevars)
        labels: dict = {}

        def label(n: int) -> Label:
            lab = labels.get(n)
            if lab is None:
                lab = labels[n] = Label()
            return lab

        def var(name: str) -> _Var:
            return CellVar(name) if name in cells else FreeVar(name)

        out: list = []
        open_try: Optional[TryBegin] = None
        for row in self._native.items():
            tag = row[0]
            if tag == 0:
                _, name, raw, is_jump, loc = row
                info = ops[name]
                kind = info.arg_kind
                try:
                    if is_jump:
                        arg: Any = label(raw)
                    elif kind == "const":
                        arg = consts[raw]
                    elif kind == "name":
                        s = info.shift
                        n = names[raw >> s]
                        arg = tuple(bool(raw >> b & 1) for b in range(s)) + (n,) if s else n
                    elif kind == "local":
                        arg = fast[raw]
                    elif kind == "localpair":
                        arg = (fast[raw >> 4], fast[raw & 15])
                    elif kind == "free":
                        arg = var(fast[raw] if self.version >= (3, 11) else deref[raw])
                    elif kind == "none":
                        arg = UNSET if raw == 0 else raw
                    else:
                        arg = raw
                except IndexError:
                    raise BytecodeError(
                        f"{self.qualname} ({self.filename}): {name} argument {raw} is out of range "
                        f"of its table"
                    ) from None
                out.append(Instr(name, arg, location=_NO_LOCATION if loc == (None,) * 4 else Location(*loc)))
            elif tag == 1:
                out.append(label(row[1]))
            elif tag == 2:
                open_try = TryBegin(label(row[1]), bool(row[3]), row[2])
                out.append(open_try)
            else:
                out.append(TryEnd(open_try))  # type: ignore[arg-type]
                open_try = None
        return out

    def _to_native(self) -> "_native.NativeBytecode":
        """Python items → native items, growing the consts/names/locals tables as the arguments need."""
        if self._items is None and self._native is not None:
            return self._native
        ops = opcodes(self.version)
        minor = self.version[1]
        consts = self.consts
        const_ids = {id(c): i for i, c in enumerate(consts)}
        names = self.names
        name_idx = {n: i for i, n in enumerate(names)}
        varnames = self.varnames
        cellvars = self.cellvars
        freevars = self.freevars
        labels: dict = {}
        rows: list = []
        items = self._items or []
        modern = self.version >= (3, 11)

        def const_index(v: Any) -> int:
            i = const_ids.get(id(v))
            if i is not None and consts[i] is v:
                return i
            for i, c in enumerate(consts):
                if type(c) is type(v) and _same_const(c, v):
                    const_ids[id(v)] = i
                    return i
            consts.append(v)
            const_ids[id(v)] = len(consts) - 1
            return len(consts) - 1

        def name_index(n: str) -> int:
            i = name_idx.get(n)
            if i is None:
                names.append(n)
                i = name_idx[n] = len(names) - 1
            return i

        def label_id(lab: Label) -> int:
            i = labels.get(id(lab))
            if i is None:
                i = labels[id(lab)] = len(labels)
            return i

        # Locals first (they decide the 3.11+ localsplus layout), then cells and frees.
        for it in items:
            if isinstance(it, Instr) and isinstance(it.arg, (str, tuple)):
                kind = ops[it.name].arg_kind if it.name in ops else None
                if kind == "local" and it.arg not in varnames:
                    varnames.append(it.arg)
                elif kind == "localpair":
                    for n in it.arg:
                        if n not in varnames:
                            varnames.append(n)
            elif isinstance(it, Instr) and isinstance(it.arg, CellVar) and it.arg.name not in cellvars:
                cellvars.append(it.arg.name)
            elif isinstance(it, Instr) and isinstance(it.arg, FreeVar) and it.arg.name not in freevars:
                freevars.append(it.arg.name)
        if modern:
            fast = _localsplus(tuple(varnames), tuple(cellvars), tuple(freevars))
            if isinstance(self._code, CodeModel) and self._code._localsplusnames is not None:
                # keep a foreign code object's own layout where it still holds
                orig = list(self._code._localsplusnames)
                if set(orig) == set(fast) and len(orig) == len(fast):
                    fast = orig
            fast_idx = {n: i for i, n in enumerate(fast)}
            local_idx = fast_idx
        else:
            local_idx = {n: i for i, n in enumerate(varnames)}
            deref = list(cellvars) + list(freevars)

        for pos, it in enumerate(items):
            if isinstance(it, Instr):
                info = ops.get(it.name)
                if info is None:
                    raise BytecodeError(
                        f"{self.qualname}: item {pos}: {it.name} is no opcode of Python 3.{minor}"
                    )
                kind = info.arg_kind
                arg = it.arg
                try:
                    if info.is_jump:
                        if not isinstance(arg, Label):
                            raise TypeError(f"{it.name} takes a Label, not {arg!r}")
                        rows.append((0, it.name, label_id(arg), True, tuple(it.location)))
                        continue
                    if kind == "const":
                        raw = const_index(arg)
                    elif kind == "name":
                        s = info.shift
                        if s:
                            if not isinstance(arg, tuple):
                                raise TypeError(f"{it.name} takes a tuple of {s} flag(s) and a name, not {arg!r}")
                            *bits, n = arg
                            if len(bits) != s:
                                raise TypeError(f"{it.name} takes {s} flag(s) and a name, not {arg!r}")
                            raw = name_index(n) << s
                            for b, flag in enumerate(bits):
                                raw |= int(bool(flag)) << b
                        else:
                            if not isinstance(arg, str):
                                raise TypeError(f"{it.name} takes a name, not {arg!r}")
                            raw = name_index(arg)
                        if s and not isinstance(n, str):
                            raise TypeError(f"{it.name} takes a name, not {arg!r}")
                    elif kind == "local":
                        if not isinstance(arg, str):
                            raise TypeError(f"{it.name} takes a local variable name, not {arg!r}")
                        raw = local_idx[arg]
                    elif kind == "localpair":
                        if not (isinstance(arg, tuple) and len(arg) == 2 and all(isinstance(a, str) for a in arg)):
                            raise TypeError(f"{it.name} takes a pair of local variable names, not {arg!r}")
                        a, b = arg
                        raw = local_idx[a] << 4 | local_idx[b]
                        if local_idx[a] > 15 or local_idx[b] > 15:
                            raise ValueError(f"{it.name} packs two locals below 16; {arg!r} are at {local_idx[a]}, {local_idx[b]}")
                    elif kind == "free":
                        if not isinstance(arg, _Var):
                            raise TypeError(f"{it.name} takes a CellVar or FreeVar, not {arg!r}")
                        raw = fast_idx[arg.name] if modern else deref.index(arg.name) if isinstance(
                            arg, CellVar
                        ) else len(cellvars) + freevars.index(arg.name)
                    elif arg is UNSET:
                        raw = 0
                    elif isinstance(arg, bool) or not isinstance(arg, int):
                        raise TypeError(f"{it.name} takes an int, not {arg!r}")
                    else:
                        raw = arg
                except (TypeError, ValueError, KeyError) as e:
                    raise BytecodeError(f"{self.qualname}: item {pos} ({it.name}): {e}") from None
                if not 0 <= raw < 1 << 32:
                    raise BytecodeError(f"{self.qualname}: item {pos} ({it.name}): argument {raw} out of range")
                rows.append((0, it.name, raw, False, tuple(it.location)))
            elif isinstance(it, Label):
                rows.append((1, label_id(it)))
            elif isinstance(it, TryBegin):
                rows.append((2, label_id(it.target), it.stack_depth, bool(it.push_lasti)))
            elif isinstance(it, TryEnd):
                rows.append((3,))
            else:
                raise TypeError(f"{self.qualname}: item {pos}: not an Instr, Label, TryBegin or TryEnd: {it!r}")
        return _native.NativeBytecode.from_items(minor, self.first_lineno, rows, self.qualname, self.filename)

    # -- output -------------------------------------------------------------------------------
    def assemble(self, keep_source_linetable: bool = True) -> tuple[bytes, bytes, bytes, int]:
        """``(co_code, line table, co_exceptiontable, co_stacksize)``.

        3.8/3.9's peephole optimizer leaves line-table entries for code it deleted, which no encoder can
        reproduce: by default a decoded table is kept when the fresh encoding describes exactly the
        same lines. ``keep_source_linetable=False`` always gives the fresh encoding."""
        return self._to_native().assemble(keep_source_linetable)

    def compute_stacksize(self) -> int:
        return self.assemble()[3]

    def to_code(self) -> Union[types.CodeType, "CodeModel"]:
        """A code object: a live one for this interpreter's version, a :class:`CodeModel` otherwise."""
        code, linetable, exctable, stacksize = self.assemble()
        if self._code is not None:
            # CPython 3.8/3.9 size the stack before their peephole optimizer folds constants, so the
            # original can exceed what the final code needs: never give less than the original had.
            stacksize = max(stacksize, self._code.co_stacksize)
        fields: dict[str, Any] = dict(
            co_code=code,
            co_stacksize=stacksize,
            co_consts=tuple(self.consts),
            co_names=tuple(self.names),
            co_varnames=tuple(self.varnames),
            co_cellvars=tuple(self.cellvars),
            co_freevars=tuple(self.freevars),
            co_name=self.name,
            co_filename=self.filename,
            co_firstlineno=self.first_lineno,
            co_argcount=self.argcount,
            co_posonlyargcount=self.posonlyargcount,
            co_kwonlyargcount=self.kwonlyargcount,
            co_flags=self.flags,
        )
        if self.version >= (3, 11):
            fields["co_qualname"] = self.qualname
            fields["co_exceptiontable"] = exctable
        if self.version >= (3, 10):
            fields["co_linetable"] = linetable
        else:
            fields["co_lnotab"] = linetable
        fields["co_nlocals"] = len(self.varnames)
        base = self._code
        if base is None:
            base = _empty_code(self.version)
        if isinstance(base, CodeModel):
            return base.replace(**_live_fields(base, fields))
        if self.version != host_version():
            raise BytecodeError(
                f"cannot make a live code object for Python {self.version[0]}.{self.version[1]} "
                f"on Python {host_version()[0]}.{host_version()[1]}"
            )
        return base.replace(**_live_fields(base, fields))


def _live_fields(base: types.CodeType, fields: dict) -> dict:
    """Drop the fields equal to the base's: ``replace`` then reuses them (and keeps them identical)."""
    out = {}
    for k, v in fields.items():
        cur = getattr(base, k, None)
        if k in ("co_consts",):
            if len(cur) == len(v) and all(a is b for a, b in zip(cur, v)):
                continue
        elif cur == v and type(cur) is type(v):
            continue
        out[k] = v
    return out


def _same_const(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(a, complex):
        return repr(a) == repr(b)
    if isinstance(a, (tuple, frozenset)):
        return a is b
    try:
        return bool(a == b)
    except Exception:
        return False


def _empty_code(version: tuple[int, int]) -> Any:
    if version == host_version():
        return compile("", "<string>", "exec")
    raise BytecodeError(f"a new Bytecode for Python {version[0]}.{version[1]} needs a CodeModel to build on")


# -- control flow graph --------------------------------------------------------------------------
class BasicBlock(list):
    """Instructions (and TryBegin/TryEnd markers) executed in a row; ``next_block`` is the fall-through."""

    def __init__(self, items: Iterable[Any] = ()) -> None:
        super().__init__(items)
        self.next_block: Optional[BasicBlock] = None

    def get_jump(self) -> Optional["BasicBlock"]:
        last = self[-1] if self else None
        if isinstance(last, Instr) and isinstance(last.arg, BasicBlock):
            return last.arg
        return None

    def __repr__(self) -> str:
        return f"<BasicBlock {len(self)} items>"

    __hash__ = object.__hash__  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        return self is other


class ControlFlowGraph:
    """The instruction list as basic blocks; jumps (and TryBegin targets) point at blocks."""

    def __init__(self, version: tuple[int, int] = None) -> None:  # type: ignore[assignment]
        self.version = tuple(version or host_version())
        self.blocks: list[BasicBlock] = []
        self._bytecode: Optional[Bytecode] = None

    @classmethod
    def from_bytecode(cls, bc: Bytecode) -> "ControlFlowGraph":
        cfg = cls(bc.version)
        cfg._bytecode = bc
        ops = opcodes(bc.version)
        items = list(bc)
        # A block starts at a label, and after any jump or exit.
        block_of: dict = {}
        cur = BasicBlock()
        cfg.blocks.append(cur)
        pending: list = []
        for it in items:
            if isinstance(it, Label):
                if cur:
                    nxt = BasicBlock()
                    cur.next_block = nxt
                    cfg.blocks.append(nxt)
                    cur = nxt
                block_of[id(it)] = cur
                continue
            if isinstance(it, Instr):
                info = ops.get(it.name)
                cur.append(Instr(it.name, it.arg, location=it.location))
                if info is not None and (info.is_jump or info.flow in ("exit", "jump")):
                    if isinstance(it.arg, Label):
                        pending.append(cur[-1])
                    nxt = BasicBlock()
                    if info.flow not in ("exit", "jump"):
                        cur.next_block = nxt
                    cfg.blocks.append(nxt)
                    cur = nxt
            elif isinstance(it, TryBegin):
                tb = TryBegin(it.target, it.push_lasti, it.stack_depth)
                cur.append(tb)
                pending.append(tb)
            else:
                cur.append(it)
        for obj in pending:
            if isinstance(obj, Instr):
                obj.arg = block_of[id(obj.arg)]
            else:
                obj.target = block_of[id(obj.target)]
        # TryEnd refers to its TryBegin
        last_tb = None
        for b in cfg.blocks:
            for k, it in enumerate(b):
                if isinstance(it, TryBegin):
                    last_tb = it
                elif isinstance(it, TryEnd):
                    b[k] = TryEnd(last_tb)  # type: ignore[arg-type]
        if not cfg.blocks[-1] and len(cfg.blocks) > 1 and not any(
            b.next_block is cfg.blocks[-1] or b.get_jump() is cfg.blocks[-1] for b in cfg.blocks
        ):
            cfg.blocks.pop()
        return cfg

    def __iter__(self) -> Iterator[BasicBlock]:
        return iter(self.blocks)

    def __len__(self) -> int:
        return len(self.blocks)

    def __getitem__(self, i: int) -> BasicBlock:
        return self.blocks[i]

    def to_bytecode(self) -> Bytecode:
        """Blocks back to a flat list, in block order, a label before every block something jumps to."""
        labels = {id(b): Label() for b in self.blocks}
        out: list = []
        for b in self.blocks:
            out.append(labels[id(b)])
            for it in b:
                if isinstance(it, Instr) and isinstance(it.arg, BasicBlock):
                    out.append(Instr(it.name, labels[id(it.arg)], location=it.location))
                elif isinstance(it, TryBegin) and isinstance(it.target, BasicBlock):
                    out.append(TryBegin(labels[id(it.target)], it.push_lasti, it.stack_depth))
                else:
                    out.append(it)
        # drop labels nothing refers to
        used = {id(i.arg) for i in out if isinstance(i, Instr) and isinstance(i.arg, Label)}
        used |= {id(i.target) for i in out if isinstance(i, TryBegin)}
        out = [i for i in out if not isinstance(i, Label) or id(i) in used]
        src = self._bytecode
        bc = Bytecode(out, version=self.version)  # type: ignore[arg-type]
        if src is not None:
            for k, v in vars(src).items():
                if k not in ("_items", "_native"):
                    setattr(bc, k, list(v) if isinstance(v, list) else v)
        return bc

