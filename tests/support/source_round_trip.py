"""Shared by the *_checks.py scripts that compile a module source, decompile it, compile the output
again and run both: every code object's instruction sequence (decompile_sweep.normalized, nested code
objects in pre-order) and what running each gives."""

from __future__ import annotations

import types
from typing import Callable

from decompile_sweep import normalized
from framejit import decompile


def codes(code: types.CodeType) -> list:
    """The normalized instructions of `code` and of every code object nested in it, in pre-order."""
    out = [normalized(code)]
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out.extend(codes(c))
    return out


def round_trip(name: str, src: str, result: Callable[[types.CodeType], str]) -> dict:
    """{"source": the decompiled text, "same_code": bool, "results": [original's, again's]} for the
    module `src`; `result` runs a module code object and says what it gave."""
    original = compile(src, name, "exec", dont_inherit=True)
    text = decompile(original)
    again = compile(text, name, "exec", dont_inherit=True)
    return {
        "source": text,
        "same_code": codes(original) == codes(again),
        "results": [result(original), result(again)],
    }
