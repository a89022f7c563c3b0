"""Bytecode back to Python source (the decompiler of issue 3; in progress, see docs/decompiler.md).

``decompile(obj)`` takes a function, method, code object, ``CodeModel`` (a code object of any version
read from a ``.pyc``), a ``.pyc`` path or its bytes. Objects with no literal spelling in ``co_consts``
(as ``torch.compile`` generates) appear as ``__framejit_const_<i>``; ``decompile_with_constants`` gives
the mapping back to the objects.
"""

from __future__ import annotations

import os
import re
import types
from typing import Any, Union

from framejit import _native
from framejit._native import CodeModel, DecompileError

__all__ = ["DecompileError", "decompile", "decompile_with_constants"]


def _code_of(obj: Any) -> Union[types.CodeType, CodeModel]:
    if isinstance(obj, (types.CodeType, CodeModel)):
        return obj
    if isinstance(obj, (bytes, bytearray, memoryview)) or (isinstance(obj, (str, os.PathLike)) and os.fspath(obj).endswith(".pyc")):
        from framejit.pyc import load_pyc

        return load_pyc(obj).code
    for attr in ("__func__", "fget"):
        obj = getattr(obj, attr, obj)
    code = getattr(obj, "__code__", None)
    if isinstance(code, types.CodeType):
        return code
    if hasattr(obj, "co_code"):  # anything with a code object's attributes
        return obj
    raise TypeError(f"cannot decompile a {type(obj).__name__}: give a function, a code object or a .pyc")


def _decompile(obj: Any) -> tuple[str, list]:
    if isinstance(obj, types.CodeType):  # (the common case: no attribute look-ups that fail)
        return _native.decompile_code(obj)
    fn = obj
    for attr in ("__func__", "fget"):
        fn = getattr(fn, attr, fn)
    extra = {}
    if isinstance(fn, types.FunctionType):
        extra = dict(defaults=fn.__defaults__, kwdefaults=fn.__kwdefaults__, annotations=fn.__annotations__)
    return _native.decompile_code(_code_of(obj), **extra)


def decompile_with_constants(obj: Any) -> tuple[str, dict[str, Any]]:
    """Source for ``obj``, and the objects its ``__framejit_const_<i>`` names stand for. Given a
    function, its signature is complete (defaults, keyword-only defaults and annotations live on the
    function object, not its code)."""
    source, objects = _decompile(obj)
    if not objects or "__framejit_const_" not in source:
        return source, {}
    # (nested code objects are given names too, in case code uses one as a value: keep the used)
    table = {f"__framejit_const_{i}": o for i, o in enumerate(objects)}
    return source, {k: v for k, v in table.items() if re.search(rf"\b{k}\b", source)}


def decompile(obj: Any) -> str:
    """Source for ``obj``. Raises :class:`DecompileError` naming the code object, file and opcode."""
    if type(obj) is types.CodeType:  # (the common case, without a further Python call)
        return _native.decompile_code(obj)[0]
    return _decompile(obj)[0]
