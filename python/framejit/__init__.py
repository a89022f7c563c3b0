"""framejit: capture PyTorch programs at the bytecode level, and open the box."""

from framejit import _native
from framejit._native import BytecodeError, DecompileError
from framejit.decompiler import decompile, decompile_with_constants

__version__: str = _native.__version__

__all__ = ["BytecodeError", "DecompileError", "__version__", "decompile", "decompile_with_constants"]
