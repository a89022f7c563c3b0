"""Decompile every code object of this interpreter's stdlib, compile the output, and compare the
instruction sequence with the original (ignoring line numbers, NOP/RESUME/CACHE/EXTENDED_ARG, jump
encoding, and a class body's qualified name and first line). Prints one JSON object with the counts
and the most common reasons.

Default (the measure of issue 3): each function, class body and module is decompiled on its own and
compiled again inside a skeleton of the scopes it was compiled in (built from the original code
objects: an enclosing function for its free variables, a class for `__class__`, the module's
import-bound names); comprehensions, generator expressions and lambdas are compared through the
code object whose source holds them. --standalone compiles each output on its own (closures and
imports then compile differently); --modules decompiles whole modules.

    python decompile_sweep.py [--limit N] [--diffs] [--list PATH] [--standalone | --modules] [--extra-root DIR]

--list writes each code object that is not identical with the reason (sweep_differences.py).

The files are the stdlib directory's, plus the parts a split distribution leaves out (stdlib_roots).
"""

from __future__ import annotations

import argparse
import ast
import collections
import dis
import json
import os
import re
import sys
import sysconfig
import time
import types
import typing
import warnings

import sweep_differences
from framejit import DecompileError, decompile
from sweep_differences import HANDLERS, Listing

IGNORED = {"NOP", "RESUME", "CACHE", "EXTENDED_ARG"}


# 3.13+ fuse two local loads/stores into one instruction only where both are on the same line
# (flowgraph.c, make_super_instruction): a line-number fact, so compared as the two instructions
# (and 3.14's borrowing of the load after a store, which only an unfused load gets: see normalized)
SUPER = {
    "LOAD_FAST_LOAD_FAST": ("LOAD_FAST", "LOAD_FAST"),
    "STORE_FAST_LOAD_FAST": ("STORE_FAST", "LOAD_FAST"),
    "STORE_FAST_STORE_FAST": ("STORE_FAST", "STORE_FAST"),
    "LOAD_FAST_BORROW_LOAD_FAST_BORROW": ("LOAD_FAST_BORROW", "LOAD_FAST_BORROW"),
}


class _Part(typing.NamedTuple):
    """One of the two instructions a superinstruction stands for."""
    opname: str
    opcode: int
    argval: object
    offset: int


def unfused(instrs: list) -> list:
    out = []
    for i in instrs:
        parts = SUPER.get(i.opname)
        if parts and isinstance(i.argval, tuple) and len(i.argval) == 2:
            # (the second part gets no offset of its own: nothing jumps between the two)
            out.append(_Part(parts[0], -1, i.argval[0], i.offset))
            out.append(_Part(parts[1], -1, i.argval[1], -1))
        else:
            out.append(i)
    return out


LOADS = ("LOAD_FAST", "LOAD_FAST_BORROW")


def mixed_pairs(instrs: list, index: dict) -> set:
    """3.14: the positions of two adjacent local loads, one borrowed and one not, that the compiler
    would have fused had they been on one line. It fuses two loads into LOAD_FAST_LOAD_FAST (or
    its borrowing form, for two borrowed loads) only on one line, and borrows a fused pair only
    where it may borrow both: on one line `f(a, b.c)` loads both plainly, on two lines `b` alone
    is borrowed. A line-number fact: such a pair is compared as two plain loads. Pairs are taken
    as the compiler takes them, left to right; a load another instruction jumps to, or one whose
    slot does not fit the fused form's four bits, is no second half."""
    out: set = set()
    k = 0
    while k + 1 < len(instrs):
        a, b = instrs[k], instrs[k + 1]
        slots = (getattr(a, "arg", None), getattr(b, "arg", None))
        fusable = (a.opname in LOADS and b.opname in LOADS and a.offset >= 0 and b.offset >= 0
                   and None not in slots and max(slots) < 16
                   and not getattr(b, "is_jump_target", False))
        if fusable:
            if a.opname != b.opname:
                out.update((k, k + 1))
            k += 2
        else:
            k += 1
    return out


def normalized(code: types.CodeType) -> list:
    """(opname, argument) per instruction; jumps by the index of their target, code constants by name;
    superinstructions as the instructions they fuse (see SUPER)."""
    instrs = unfused([i for i in dis.get_instructions(code) if i.opname not in IGNORED])
    index = {i.offset: k for k, i in enumerate(instrs) if i.offset >= 0}
    # a class body's own qualified name (the constant it stores as __qualname__): the functions it makes
    # are named below it, and the part naming its enclosing scopes is where it was compiled
    own = None
    if code.co_name != "<module>" and not code.co_flags & 1:
        own = next((str(i.argval) for k, i in enumerate(instrs[:-1])
                    if i.opname == "LOAD_CONST" and instrs[k + 1].argval == "__qualname__"), None)
    out = []
    unborrowed = mixed_pairs(instrs, index)
    for k, i in enumerate(instrs):
        if k in unborrowed:
            # (two local loads on different lines, one borrowed: fused, as on one line, neither is)
            out.append(("LOAD_FAST", (type(i.argval).__name__, const_key(i.argval))))
            continue
        if i.opname == "LOAD_FAST_BORROW" and k > 0 and instrs[k - 1].opname == "STORE_FAST":
            # 3.14 borrows a load after a store only where the two are not fused (STORE_FAST_LOAD_FAST
            # has no borrowing form), that is where they are on different lines: a line-number fact
            out.append(("LOAD_FAST", (type(i.argval).__name__, const_key(i.argval))))
            continue
        if i.opname in ("LOAD_CONST", "LOAD_SMALL_INT") and k + 1 < len(instrs) and instrs[k + 1].argval == "__firstlineno__":
            # 3.13+ class bodies store the class's first line: a line number, which is ignored
            out.append(("LOAD_CONST", ("line",)))
            continue
        if i.opname == "LOAD_CONST" and k + 1 < len(instrs) and instrs[k + 1].argval == "__qualname__":
            # a class body's qualified name says where the class was compiled, not what it does
            out.append((i.opname, ("qualname",)))
            continue
        if (i.opname == "LOAD_CONST" and isinstance(i.argval, str) and k + 1 < len(instrs)
                and instrs[k + 1].opname == "MAKE_FUNCTION"):
            # ≤3.10 passes a function's qualified name to MAKE_FUNCTION: the part naming the
            # enclosing scopes says where the code was compiled (the sweep's skeleton), not what it does
            name = i.argval
            if own is not None and name.startswith(own + "."):
                # (a class nested in a class is compiled in the skeleton without the outer class)
                name = name[len(own) + 1:]
            out.append((i.opname, ("qualname", name.rsplit(".<locals>.", 1)[-1])))
            continue
        if i.opcode in dis.hasjrel or i.opcode in dis.hasjabs or getattr(dis, "hasjump", ()) and i.opcode in dis.hasjump:
            arg = ("->", index.get(i.argval))
        elif isinstance(i.argval, types.CodeType):
            arg = ("code", i.argval.co_name)
        else:
            arg = (type(i.argval).__name__, const_key(i.argval))
        out.append((i.opname, arg))
    cover = handlers(code, instrs, index)
    if cover is not None:
        out.append((HANDLERS, ("handlers", cover)))
    return out


# Instructions no exception leaves: which handler covers them changes nothing (a `break`'s jump
# covered or not as an `else:` part or the code after the statement holds the code it jumps to;
# 3.14 leaves a test's jump and NOT_TAKEN out of a range where it ends). JUMP_BACKWARD is among
# them too: it raises only what a signal handler raises, which lands wherever the interpreter
# checks (calls, jumps back), at no point a program can count on; a `continue` written at the end
# of a try body or after it differs only there. Calls, attribute and item access are not.
CANNOT_RAISE = frozenset({
    "NOP", "NOT_TAKEN", "JUMP_FORWARD", "JUMP_NO_INTERRUPT", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP_BACKWARD",
    "LOAD_CONST", "LOAD_SMALL_INT", "RETURN_CONST", "RETURN_VALUE", "POP_TOP", "COPY", "SWAP",
    "PUSH_NULL", "STORE_FAST", "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE",
    "POP_JUMP_FORWARD_IF_NONE", "POP_JUMP_FORWARD_IF_NOT_NONE", "POP_JUMP_BACKWARD_IF_NONE",
    "POP_JUMP_BACKWARD_IF_NOT_NONE"})
# 3.12+ load a local with LOAD_FAST only where it is bound on every path (else LOAD_FAST_CHECK);
# 3.13+ test only exact bools in POP_JUMP_IF_TRUE / FALSE (TO_BOOL converts, and can raise, first)
CANNOT_RAISE_312 = frozenset({"LOAD_FAST", "LOAD_FAST_BORROW", "LOAD_FAST_AND_CLEAR"})
CANNOT_RAISE_313 = frozenset({"POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE"})


def handlers(code: types.CodeType, instrs: list, index: dict):
    """3.11+ (zero-cost exceptions): per kept instruction, the handler the exception table sends it
    to, as (target index, stack depth, lasti), or None where no handler covers it; None for code
    objects without a table. The same instructions with a try's range elsewhere behave otherwise
    (code after a try statement read inside its body has its exceptions caught)."""
    parse = getattr(dis, "_parse_exception_table", None)
    if parse is None or not getattr(code, "co_exceptiontable", b""):
        return None
    entries = parse(code)
    quiet = CANNOT_RAISE
    if sys.version_info >= (3, 12):
        quiet = quiet | CANNOT_RAISE_312
    if sys.version_info >= (3, 13):
        quiet = quiet | CANNOT_RAISE_313
    cover = []
    offset = -1
    for i in instrs:
        # (the second part of a superinstruction has no offset: it shares the first's)
        if i.offset >= 0:
            offset = i.offset
        if i.opname in quiet:
            cover.append(None)
            continue
        e = next((e for e in entries if e.start <= offset < e.end), None)
        cover.append(None if e is None else (index.get(e.target), e.depth, e.lasti))
    return tuple(cover)


def const_key(value) -> str:
    """A constant's repr, by which equal constants compare equal: a frozenset's items sorted (the
    same set built in another order can iterate, and so print, in another order)."""
    if isinstance(value, frozenset):
        return "frozenset({" + ", ".join(sorted(const_key(v) for v in value)) + "})"
    if isinstance(value, tuple):
        return "(" + "".join(const_key(v) + ", " for v in value) + ")"
    return repr(value)


def recompiled(code: types.CodeType, source: str):
    if code.co_name != "<module>" and not code.co_flags & 1:
        # a class body on its own is its statements: compile them as that class's body
        body = "".join("    " + line + "\n" for line in source.splitlines()) or "    pass\n"
        source = f"class {code.co_name}:\n{body}"
    module = compile(source, code.co_filename, "exec", flags=code.co_flags & FUTURE_FLAGS, dont_inherit=True)
    if code.co_name == "<module>":
        return module
    for c in module.co_consts:
        if isinstance(c, types.CodeType) and c.co_name == code.co_name:
            return c
    return None


INLINE = ("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>", "<lambda>")


def is_inline(code: types.CodeType) -> bool:
    """Code whose source lives inside its parent's: comprehensions, generator expressions, lambdas,
    3.12+ type-parameter scopes, 3.14 annotation functions. It is checked through the parent's
    decompiled source."""
    return (code.co_name in INLINE or code.co_name.startswith("<generic parameters of ")
            or is_generated_annotate(code))


def is_generated_annotate(code: types.CodeType) -> bool:
    """3.14 (PEP 649): the `__annotate__` function the compiler makes of a scope's annotations. It
    raises NotImplementedError through LOAD_COMMON_CONSTANT, which no source spells: its source is
    the annotations of its parent."""
    return code.co_name == "__annotate__" and any(
        i.opname == "LOAD_COMMON_CONSTANT" and i.argrepr == "NotImplementedError" for i in dis.get_instructions(code))


# `from __future__ import annotations` is a compiler flag the code objects carry: output compiled
# again must be compiled under it as the original was (3.14 compiles annotations very differently
# without it; before, `x: int` stores 'int' under it and the class `int` without)
FUTURE_FLAGS = __import__("__future__").annotations.compiler_flag


def inline_children(code: types.CodeType) -> list:
    """The inline code objects whose source is part of `code`'s, in pre-order."""
    out = []
    lazy = lazy_values(code)
    for k in code.co_consts:
        if isinstance(k, types.CodeType) and (is_inline(k) or id(k) in lazy):
            out.append(k)
            out.extend(inline_children(k))
    return out


TYPE_PARAM_INTRINSICS = ("INTRINSIC_TYPEVAR_WITH_BOUND", "INTRINSIC_TYPEVAR_WITH_CONSTRAINTS",
                         "INTRINSIC_SET_TYPEPARAM_DEFAULT")


def lazy_values(code: types.CodeType) -> set:
    """3.12+ (PEP 695): ids of the code objects in `code`'s constants that are lazily evaluated
    type-parameter bounds, constraints, defaults or `type` alias values (annotation scopes, named
    after the parameter or alias, so known by what `code` does with the function made of them: the
    argument of CALL_INTRINSIC_2 TYPEVAR_WITH_BOUND / _WITH_CONSTRAINTS / SET_TYPEPARAM_DEFAULT, or
    the last item of the tuple INTRINSIC_TYPEALIAS takes). Their source is part of `code`'s."""
    if sys.version_info < (3, 12):
        return set()
    instrs = [i for i in dis.get_instructions(code) if i.opname not in IGNORED]
    out = set()
    for k, i in enumerate(instrs):
        if i.opname != "LOAD_CONST" or not isinstance(i.argval, types.CodeType):
            continue
        j = k + 1
        while j < len(instrs) and instrs[j].opname in ("MAKE_FUNCTION", "SET_FUNCTION_ATTRIBUTE"):
            j += 1
        if j == k + 1 or j >= len(instrs):
            continue
        a = instrs[j]
        b = instrs[j + 1] if j + 1 < len(instrs) else None
        if (a.opname == "CALL_INTRINSIC_2" and a.argrepr in TYPE_PARAM_INTRINSICS) or (
                a.opname == "BUILD_TUPLE" and a.arg == 3 and b is not None
                and b.opname == "CALL_INTRINSIC_1" and b.argrepr == "INTRINSIC_TYPEALIAS"):
            out.add(id(i.argval))
    return out


def in_context(code: types.CodeType, source: str, imported: set, parent=None) -> ast.Module:
    """The decompiled source of `code` placed in a skeleton of the scopes it was compiled in, so that
    compiling it makes the same choices CPython made in the original module: free variables are cells of
    an enclosing function, `__class__` comes from an enclosing class, and module-level names bound by an
    import are imports (3.11+ calls their attributes without LOAD_METHOD). The skeleton is built from the
    original code objects, never from the original source. Built as an AST, so that multi-line string
    literals are not re-indented."""
    body = ast.parse(source).body
    free = [v for v in code.co_freevars if v != "__class__"]
    if code.co_name != "<module>" and not code.co_flags & 1:
        params = {}
        if ".type_params" in code.co_freevars and parent is not None:
            # a generic class's body (3.12+): compiled inside the class statement's type parameters,
            # the cells of its type-parameter scope (`parent`)
            names = [n for n in parent.co_varnames + parent.co_cellvars if not n.startswith(".")]
            params = {"type_params": [ast.TypeVar(n) for n in names]}
            free = [v for v in free if v not in names and v != ".type_params"]
        body = [ast.ClassDef(code.co_name, [], [], body or [ast.Pass()], [], **(params or TYPE_PARAMS))]
    in_class = parent is not None and parent.co_name != "<module>" and not parent.co_flags & 1
    if "__class__" in code.co_freevars or (free and in_class and code.co_flags & 1):
        # (a method's name is bound in its class, not in the function around it: the skeleton's
        # function must not make it a local that the method's body would then read as a cell)
        body = [ast.ClassDef("__framejit_ctx_class", [], [], body, [], **TYPE_PARAMS)]
    if free:
        cells = ast.Assign([ast.Name(v, ast.Store()) for v in free], ast.Constant(None), lineno=1)
        args = ast.arguments([], [], None, [], [], None, [])
        body = [ast.FunctionDef("__framejit_ctx_function", args, [cells] + body, [], None, **TYPE_PARAMS)]
    imports = [ast.Import([ast.alias("sys", n)]) for n in sorted(imported)]
    return ast.fix_missing_locations(ast.Module(imports + body, []))


TYPE_PARAMS = {"type_params": []} if sys.version_info >= (3, 12) else {}


def module_imports(module: types.CodeType) -> set:
    """Names the sweep's skeleton binds at module level (by an import): those the module's own code binds
    by `import` / `from .. import` (STORE_NAME right after), and `super` where the module's code names it
    (3.12+ compiles `super().f` to LOAD_SUPER_ATTR only where the module scope does not know `super`)."""
    out = set()
    instrs = [i for i in dis.get_instructions(module) if i.opname not in IGNORED]
    for k, a in enumerate(instrs):
        b = instrs[k + 1] if k + 1 < len(instrs) else None
        if a.argval == "super" and a.opname.endswith(("_NAME", "_GLOBAL")) and a.opname != "IMPORT_NAME":
            out.add("super")
        if a.opname in ("IMPORT_NAME", "IMPORT_FROM") and b is not None and b.opname in ("STORE_NAME", "STORE_GLOBAL"):
            out.add(b.argval)
        # `import a.b as c`: through IMPORT_FROM (3.11-) or LOAD_ATTR chains (3.12+) to the store of c.
        # (`from a import b` binds b, not a: its IMPORT_NAME has a from-list)
        if a.opname == "IMPORT_NAME" and k > 0 and instrs[k - 1].argval is None:
            j = k + 1
            while j < len(instrs) and instrs[j].opname in ("IMPORT_FROM", "LOAD_ATTR"):
                j += 1
            if j < len(instrs) and instrs[j].opname in ("STORE_NAME", "STORE_GLOBAL"):
                out.add(instrs[j].argval)
    return out


def find_named(tree_of: list, name: str):
    for c in tree_of:
        if c.co_name == name:
            return c
    return None


# --list PATH (or FRAMEJIT_SWEEP_LIST=PATH): one line per code object that is not identical, with the
# reason (sweep_differences.py)
LISTING = Listing(None)


def context_mode(files: list, stats: collections.Counter, reasons: collections.Counter, diffs) -> None:
    """Each code object decompiled on its own (a function, a class body, a module), recompiled in a
    skeleton of its original scopes; inline code (comprehensions, lambdas) compared through its parent."""
    for path in files:
        try:
            module = compile(open(path, "rb").read(), path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, OSError):
            continue
        imported = module_imports(module)
        parents = {id(k): c for c in tree(module) for k in c.co_consts if isinstance(k, types.CodeType)}
        lazy = set().union(*(lazy_values(c) for c in tree(module)))
        for c in tree(module):
            if is_inline(c) or id(c) in lazy:
                continue
            group = [c] + inline_children(c)
            stats["code_objects"] += len(group)
            try:
                source = decompile(c)
            except DecompileError as e:
                stats["decompile_error"] += len(group)
                reasons["decompile: " + reason(str(e))] += len(group)
                LISTING.add("refused", c, len(group), str(e).split("): ", 1)[-1])
                continue
            try:
                again_module = compile(in_context(c, source, imported if c.co_name != "<module>" else set(),
                                                  parents.get(id(c))),
                                       c.co_filename, "exec", flags=c.co_flags & FUTURE_FLAGS, dont_inherit=True)
            except SyntaxError as e:
                stats["syntax_error"] += len(group)
                reasons["syntax: " + reason(str(e))] += len(group)
                LISTING.add("syntax", c, len(group), str(e))
                continue
            judge(c, group, again_module, stats, LISTING, diffs)


def first_difference(x: list, y: list) -> str:
    """The first instruction where two normalized sequences part, as `original -> recompiled`."""
    j = next((j for j, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
    return f"{x[j][0] if j < len(x) else '<end>'} -> {y[j][0] if j < len(y) else '<end>'}"


def judge(c: types.CodeType, group: list, again_module: types.CodeType, stats: collections.Counter,
          listing: Listing, diffs) -> None:
    """Count `c` and its inline children (`group`) as identical or not against their counterparts in
    `again_module`, the decompiled source compiled again (found by name, inline children by position),
    listing each that is not with the reason."""
    if c.co_name == "<module>":
        again = again_module
    else:
        again = find_named([k for k in tree(again_module) if not k.co_name.startswith("__framejit_ctx")], c.co_name)
    if again is None:
        stats["not_found"] += len(group)
        listing.add("missing", c, len(group), "the recompiled module has no code object of this name")
        return
    again_group = [again] + inline_children(again)
    for k, a in enumerate(group):
        b = again_group[k] if k < len(again_group) else None
        x = normalized(a)
        y = normalized(b) if b is not None and b.co_name == a.co_name else None
        if x == y:
            stats["identical"] += 1
            continue
        stats["different"] += 1
        status, why = sweep_differences.reason(x, y)
        listing.add(status, a, 1, why)
        if diffs is not None:
            diffs["<inline code missing>" if y is None else first_difference(x, y)] += 1


def reason(msg: str) -> str:
    """The message without the code object's name and file, numbers folded."""
    msg = msg.split("): ", 1)[-1] if "): " in msg else msg
    return re.sub(r"\d+", "N", msg)[:100]


def tree(code: types.CodeType) -> list:
    """Every code object under `code`, in a fixed pre-order."""
    out = [code]
    for k in code.co_consts:
        if isinstance(k, types.CodeType):
            out.extend(tree(k))
    return out


def module_mode(files: list, stats: collections.Counter, reasons: collections.Counter) -> None:
    """Decompile whole modules (nested code in context), recompile, compare code objects pairwise."""
    for path in files:
        try:
            module = compile(open(path, "rb").read(), path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, OSError):
            continue
        originals = tree(module)
        stats["code_objects"] += len(originals)
        try:
            source = decompile(module)
        except DecompileError as e:
            stats["in_failed_modules"] += len(originals)
            reasons["decompile: " + reason(str(e))] += 1
            continue
        try:
            again = tree(compile(source, path, "exec", dont_inherit=True))
        except SyntaxError as e:
            stats["in_failed_modules"] += len(originals)
            reasons["syntax: " + reason(str(e))] += 1
            continue
        stats["modules_decompiled"] += 1
        for a, b in zip(originals, again):
            if a.co_name == b.co_name and normalized(a) == normalized(b):
                stats["identical"] += 1
            else:
                stats["different"] += 1
        stats["missing"] += max(0, len(originals) - len(again))


EXTRA_DEFAULT = "/opt/framejit-stdlib-extra/python{}.{}"


def stdlib_roots(extra: list) -> tuple:
    """The stdlib directory, and directories holding the parts of the stdlib that the install lacks.
    Debian splits its Python into packages: the 3.14 here (/opt/python3.14, from Debian's
    libpython3.14-stdlib) has no test/, idlelib/, tkinter/ or turtledemo/ (libpython3.14-testsuite,
    idle-python3.14, python3.14-tk, python3.14-examples), three quarters of the code objects a full
    install such as pyenv's 3.13 has. Extra directories: --extra-root, else $FRAMEJIT_STDLIB_EXTRA
    (os.pathsep-separated), else /opt/framejit-stdlib-extra/pythonX.Y where it exists (filled by
    tests/support/fetch_stdlib_extra.sh). A file the stdlib directory has is not taken again from an
    extra one. Returns (roots, a warning when the test suite is still missing)."""
    root = sysconfig.get_paths()["stdlib"]
    if not extra:
        extra = [d for d in os.environ.get("FRAMEJIT_STDLIB_EXTRA", "").split(os.pathsep) if d]
    if not extra and os.path.isdir(EXTRA_DEFAULT.format(*sys.version_info[:2])):
        extra = [EXTRA_DEFAULT.format(*sys.version_info[:2])]
    roots = [root] + [d for d in extra if os.path.isdir(d)]
    warning = None
    if not any(os.path.exists(os.path.join(r, "test", "test_grammar.py")) for r in roots):
        warning = (f"{root} has no test suite (a split distribution?): this sweep covers only part of the "
                   "stdlib; see tests/support/fetch_stdlib_extra.sh and --extra-root")
    return roots, warning


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--modules", action="store_true", help="decompile whole modules, nested code in context")
    ap.add_argument("--standalone", action="store_true",
                    help="compile each decompiled code object on its own, outside its original scopes")
    ap.add_argument("--diffs", action="store_true", help="count the first differing opcode pair of each difference")
    ap.add_argument("--list", metavar="PATH", default=os.environ.get("FRAMEJIT_SWEEP_LIST"),
                    help="write every code object that is not identical, with the reason, to PATH "
                         "(in-context mode; default: $FRAMEJIT_SWEEP_LIST)")
    ap.add_argument("--extra-root", action="append", default=[],
                    help="a directory holding stdlib parts the install lacks (see stdlib_roots)")
    args = ap.parse_args()
    LISTING.path = args.list
    roots, warning = stdlib_roots(args.extra_root)
    files, seen = [], set()
    for root in roots:
        for d, dirs, names in os.walk(root):
            dirs[:] = sorted(x for x in dirs if x not in ("site-packages", "__pycache__"))
            for n in sorted(names):
                rel = os.path.relpath(os.path.join(d, n), root)
                if n.endswith(".py") and rel not in seen:
                    seen.add(rel)
                    files.append(os.path.join(d, n))
    if args.limit:
        files = files[: args.limit]
    files_walked = list(files)
    warnings.simplefilter("ignore")
    stats = collections.Counter()
    reasons = collections.Counter()
    diffs = collections.Counter()
    t0 = time.process_time()
    if args.modules:
        module_mode(files, stats, reasons)
        files = []
    elif not args.standalone:
        context_mode(files, stats, reasons, diffs if args.diffs else None)
        files = []
    for path in files:
        try:
            module = compile(open(path, "rb").read(), path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, OSError):
            continue
        todo = [module]
        while todo:
            c = todo.pop()
            todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
            stats["code_objects"] += 1
            try:
                source = decompile(c)
            except DecompileError as e:
                stats["decompile_error"] += 1
                reasons["decompile: " + reason(str(e))] += 1
                continue
            stats["decompiled"] += 1
            try:
                again = recompiled(c, source)
            except SyntaxError as e:
                stats["syntax_error"] += 1
                reasons["syntax: " + reason(str(e))] += 1
                continue
            if again is None:
                stats["not_found"] += 1
                continue
            stats["compiles"] += 1
            a, b = normalized(c), normalized(again)
            if a == b:
                stats["identical"] += 1
            else:
                stats["different"] += 1
                if args.diffs:
                    k = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                    x = a[k][0] if k < len(a) else "<end>"
                    y = b[k][0] if k < len(b) else "<end>"
                    diffs[f"{x} -> {y}"] += 1
    stats["cpu_seconds"] = round(time.process_time() - t0, 2)
    stats["files"] = len(files_walked)
    LISTING.write(stats)
    report = {"version": sys.version, "roots": roots}
    if warning:
        report["warning"] = warning
        print("decompile_sweep: " + warning, file=sys.stderr)
    print(json.dumps({**report, "stats": stats, "reasons": reasons.most_common(25), "diffs": diffs.most_common(30)}))


if __name__ == "__main__":
    main()
