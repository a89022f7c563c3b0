"""``python -m framejit``: command-line tools.

    python -m framejit dis TARGET       disassemble a .py, a .pyc of any version 3.8-3.14, or module:qualname
    python -m framejit decompile TARGET [-o OUT]   bytecode back to source (same targets, or a directory)
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import sys
import types
from typing import Any, Optional, Sequence, Union

from framejit._native import DecompileError
from framejit.bytecode import BytecodeError, CodeModel

Code = Union[types.CodeType, CodeModel]


class TargetError(Exception):
    """A TARGET that names nothing framejit can disassemble."""


def _code_of(obj: Any, what: str) -> list[Code]:
    """The code objects of a function, method, class (its functions), code object or module."""
    obj = inspect.unwrap(obj) if callable(obj) else obj
    if isinstance(obj, (types.CodeType, CodeModel)):
        return [obj]
    for attr in ("__func__", "fget"):
        if hasattr(obj, attr):
            obj = getattr(obj, attr)
    if hasattr(obj, "__code__"):
        return [obj.__code__]
    if isinstance(obj, type):
        codes = []
        for v in vars(obj).values():
            if isinstance(v, (staticmethod, classmethod)):
                v = v.__func__
            if hasattr(v, "__code__"):
                codes.append(v.__code__)
        if codes:
            return codes
    if isinstance(obj, types.ModuleType):
        path = getattr(obj, "__file__", None)
        if path and path.endswith(".py"):
            return [_compile_file(path)]
    raise TargetError(f"{what} is a {type(obj).__name__}, which has no bytecode to show")


def _compile_file(path: str) -> types.CodeType:
    with open(path, "rb") as f:
        source = f.read()
    return compile(source, path, "exec", dont_inherit=True)


def resolve(target: str) -> list[Code]:
    """Code objects for TARGET: a .py or .pyc path, or ``module`` / ``module:qualname``."""
    if target.endswith(".pyc") or (os.path.exists(target) and not target.endswith(".py") and _is_pyc(target)):
        from framejit.pyc import load_pyc

        return [load_pyc(target).code]
    if target.endswith(".py") or os.path.isfile(target):
        if not os.path.exists(target):
            raise TargetError(f"{target}: no such file")
        try:
            return [_compile_file(target)]
        except SyntaxError as e:
            raise TargetError(f"{target}: does not compile on Python {sys.version.split()[0]}: {e}") from None
    modname, _, qualname = target.partition(":")
    try:
        obj: Any = importlib.import_module(modname)
    except ImportError as e:
        raise TargetError(f"{target}: cannot import {modname!r}: {e}") from None
    if not qualname:
        return _code_of(obj, modname)
    for part in qualname.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise TargetError(f"{target}: {modname} has no {qualname!r} ({part!r} is missing)") from None
    return _code_of(obj, target)


def _is_pyc(path: str) -> bool:
    with open(path, "rb") as f:
        head = f.read(4)
    return len(head) == 4 and head[2:4] == b"\r\n"


def cmd_dis(args: argparse.Namespace) -> int:
    from framejit.disasm import format_code

    codes = resolve(args.target)
    for i, code in enumerate(codes):
        if i:
            sys.stdout.write("\n")
        format_code(code, sys.stdout, recursive=not args.no_recursive, header=len(codes) > 1, labels=args.labels)
    return 0


def _decompile_one(code: Code) -> str:
    from framejit.decompiler import decompile

    return decompile(code)


def cmd_decompile(args: argparse.Namespace) -> int:
    target, out = args.target, args.output
    if os.path.isdir(target):
        # a tree of .pyc files (any version) mirrored as .py under OUT
        if not out:
            raise TargetError("decompiling a directory needs -o OUT_DIR")
        from framejit.pyc import load_pyc

        done = failed = 0
        for d, _, names in os.walk(target):
            for n in sorted(names):
                if not n.endswith(".pyc"):
                    continue
                src = os.path.join(d, n)
                rel = os.path.relpath(src, target)
                dst = os.path.join(out, rel[:-1] if rel.endswith(".pyc") else rel + ".py")
                try:
                    text = _decompile_one(load_pyc(src).code)
                except Exception as e:  # one file failing does not stop the tree
                    failed += 1
                    print(f"framejit decompile: {src}: {e}", file=sys.stderr)
                    continue
                os.makedirs(os.path.dirname(dst) or ".", exist_ok=True)
                with open(dst, "w", encoding="utf-8") as f:
                    f.write(text)
                done += 1
        print(f"framejit decompile: {done} file(s) written to {out}, {failed} could not be decompiled", file=sys.stderr)
        return 0 if failed == 0 else 1
    texts = [_decompile_one(c) for c in resolve(target)]
    text = "\n\n".join(texts)
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m framejit",
        description="framejit: CPython bytecode (3.8-3.14) you can read, from any host interpreter.",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    d = sub.add_parser(
        "dis",
        help="disassemble a .py, a .pyc of any version 3.8-3.14, or module:qualname",
        description=(
            "Disassemble like `python -m dis`, recursing into nested code objects. TARGET is a .py file "
            "(compiled by this interpreter), a .pyc of any version 3.8-3.14 (read without that "
            "interpreter), or module[:qualname] (e.g. json.encoder:JSONEncoder.encode)."
        ),
    )
    d.add_argument("target", metavar="TARGET")
    d.add_argument("--no-recursive", action="store_true", help="do not descend into nested code objects")
    d.add_argument(
        "--labels",
        action="store_true",
        help="name jump targets and exception handlers L1, L2, ... (as 3.13's dis does) instead of offsets",
    )
    d.set_defaults(func=cmd_dis)
    dc = sub.add_parser(
        "decompile",
        help="bytecode back to Python source: a .pyc of any version 3.8-3.14, a .py, module:qualname, or a directory",
        description=(
            "Decompile TARGET to Python source. TARGET is a .pyc of any version 3.8-3.14 (read without that "
            "interpreter), a .py (compiled by this interpreter), module[:qualname], or a directory of .pyc files "
            "(mirrored as .py files under -o). Constructs the decompiler does not handle yet are reported as "
            "errors naming the code object and opcode, never written as wrong code."
        ),
    )
    dc.add_argument("target", metavar="TARGET")
    dc.add_argument("-o", "--output", metavar="OUT", help="write here (a file, or a directory for a directory TARGET)")
    dc.set_defaults(func=cmd_decompile)
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except BrokenPipeError:
        # the reader went away (`| head`): stop quietly, and keep Python from complaining at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (TargetError, BytecodeError, DecompileError, OSError) as e:
        print(f"framejit {args.command}: {e}", file=sys.stderr)
        return 1
