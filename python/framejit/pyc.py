"""``.pyc`` files of any CPython version 3.8-3.14, read and written without that interpreter.

``load_pyc`` gives a :class:`PycFile` whose ``code`` is a :class:`CodeModel`: a version-tagged code
object with the ``co_*`` attributes of a real one (nested code objects in ``co_consts`` are
``CodeModel`` too). ``Bytecode.from_code`` takes it like a live code object; ``to_code()`` gives a live
code object when this interpreter runs that version. ``dump_pyc`` writes it back: byte-identical when
nothing changed, and when only bytecode, tables and stack size changed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional, Union

from framejit import _native
from framejit._native import CodeModel, PycError

__all__ = ["CodeModel", "PycError", "PycFile", "load_pyc", "dump_pyc"]


@dataclass
class PycFile:
    """A parsed ``.pyc``: header fields and the module's code object."""

    version: tuple[int, int]
    magic: int
    flags: int
    code: CodeModel
    mtime: Optional[int] = None
    source_size: Optional[int] = None
    source_hash: Optional[bytes] = None
    trailing: bytes = field(default=b"", repr=False)
    path: Optional[str] = None


def load_pyc(source: Union[str, os.PathLike, bytes]) -> PycFile:
    """Read a ``.pyc`` (a path, or its bytes). Raises :class:`PycError` naming the file and byte offset."""
    path = None
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    else:
        path = os.fspath(source)
        with open(path, "rb") as f:
            data = f.read()
    try:
        minor, magic, flags, mtime, size, hsh, code, trailing = _native.load_pyc(data)
    except PycError as e:
        raise PycError(f"{path}: {e}" if path else str(e)) from None
    return PycFile((3, minor), magic, flags, code, mtime, size, hsh, trailing, path)


def dump_pyc(pyc: PycFile, code: Optional[CodeModel] = None, path: Union[str, os.PathLike, None] = None) -> bytes:
    """The bytes of ``pyc`` with its code (or ``code``, e.g. a ``Bytecode(...).to_code()`` result);
    written to ``path`` too when given."""
    code = pyc.code if code is None else code
    if not isinstance(code, CodeModel):
        raise TypeError(f"dump_pyc needs a CodeModel, not {type(code).__name__}")
    if code.version != pyc.version:
        raise ValueError(f"a Python {code.version} code object in a Python {pyc.version} .pyc")
    data = _native.dump_pyc(code, pyc.magic, pyc.flags, pyc.mtime, pyc.source_size, pyc.source_hash, pyc.trailing)
    if path is not None:
        with open(path, "wb") as f:
            f.write(data)
    return data
