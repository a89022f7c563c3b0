"""framejit: capture PyTorch programs at the bytecode level, and open the box."""

from framejit import _native
from framejit._native import BytecodeError

__version__: str = _native.__version__

__all__ = ["BytecodeError", "__version__"]
