"""Type stubs for framejit._native, the PyO3 module over framejit's Rust crates."""

from typing import Any, Optional

__version__: str

class BytecodeError(ValueError):
    """Bytecode that cannot be decoded or assembled."""

    kind: str  # "decode" | "assemble" | "stackdepth"
    code_name: Optional[str]
    filename: Optional[str]
    offset: Optional[int]
    index: Optional[int]
    opname: Optional[str]

class PycError(ValueError):
    """A .pyc or marshal image that cannot be read or written."""

Location = tuple[Optional[int], Optional[int], Optional[int], Optional[int]]
# (0, opname, arg_or_label, is_jump, location) | (1, label) | (2, handler_label, depth, lasti) | (3,)
NativeItem = tuple[Any, ...]

class NativeBytecode:
    @staticmethod
    def from_code(code: Any) -> NativeBytecode: ...
    @staticmethod
    def from_parts(
        minor: int,
        code: bytes,
        linetable: bytes,
        exceptiontable: bytes,
        first_line: int,
        name: Optional[str] = None,
        filename: Optional[str] = None,
    ) -> NativeBytecode: ...
    @staticmethod
    def from_items(
        minor: int, first_line: int, items: list[NativeItem], name: Optional[str] = None, filename: Optional[str] = None
    ) -> NativeBytecode: ...
    @property
    def minor(self) -> int: ...
    @property
    def first_line(self) -> int: ...
    def __len__(self) -> int: ...
    def items(self) -> list[NativeItem]: ...
    def assemble(self, keep_source_linetable: bool = True) -> tuple[bytes, bytes, bytes, int]: ...

class CodeModel:
    """A code object of any version 3.8-3.14 read from a .pyc; has the co_* attributes of a real one."""

    @property
    def version(self) -> tuple[int, int]: ...
    co_argcount: int
    co_posonlyargcount: int
    co_kwonlyargcount: int
    co_nlocals: int
    co_stacksize: int
    co_flags: int
    co_code: bytes
    co_consts: tuple[Any, ...]
    co_names: tuple[str, ...]
    co_varnames: tuple[str, ...]
    co_cellvars: tuple[str, ...]
    co_freevars: tuple[str, ...]
    co_filename: str
    co_name: str
    co_qualname: str
    co_firstlineno: int
    co_lnotab: bytes  # 3.8, 3.9
    co_linetable: bytes  # 3.10+
    co_exceptiontable: bytes  # 3.11+ (b"" before)
    _localsplusnames: Optional[tuple[str, ...]]
    def replace(self, **fields: Any) -> CodeModel: ...
    def to_code(self) -> Any: ...
    def _decode(self) -> NativeBytecode: ...
    def _marshal(self) -> bytes: ...

# (name, code, arg_kind, shift, names, caches, flow, kind, base)
def opcode_table(minor: int) -> list[tuple[str, int, str, int, list[str], int, str, str, Optional[int]]]: ...
def stack_effect(minor: int, name: str, oparg: int = 0, jump: Optional[bool] = None) -> int: ...

# (offset, start, opname, arg, target, line, is_target)
def listing(
    minor: int, code: bytes, linetable: bytes, first_line: int
) -> list[tuple[int, int, str, int, Optional[int], Optional[int], bool]]: ...
def exception_entries(table: bytes) -> list[tuple[int, int, int, int, bool]]: ...
def load_pyc(
    data: bytes,
) -> tuple[int, int, int, Optional[int], Optional[int], Optional[bytes], CodeModel, bytes]: ...
def dump_pyc(
    code: CodeModel,
    magic: int,
    flags: int,
    mtime: Optional[int] = None,
    source_size: Optional[int] = None,
    hash: Optional[bytes] = None,
    trailing: Optional[bytes] = None,
) -> bytes: ...
