"""Placeholder: CodeModel lands with the marshal bridge."""
from __future__ import annotations


class CodeModel:
    _localsplusnames = None
