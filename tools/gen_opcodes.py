#!/usr/bin/env python3
"""Generate framejit's opcode table for the running CPython: crates/bytecode/src/opcodes/v3_<minor>.rs.

Run it once under each supported interpreter (3.8 to 3.14):

    python3.X tools/gen_opcodes.py            # (re)write the table of 3.X
    python3.X tools/gen_opcodes.py --check    # exit 1 with a diff if the committed table differs
    python3 tools/gen_opcodes.py --ids [--check]  # the opcode ids (opcodes/ids.rs), from OPCODE_NAMES

Standard library only. Every fact comes from the running interpreter's `opcode` and `dis` modules, and
every fact that those modules do not state directly is checked against the interpreter's own `dis`:

* argument kinds: a synthetic code object holding the instruction is disassembled and the argval (or
  argrepr) that `dis` computes must equal what the emitted `ArgKind` predicts;
* jumps: the same, with the instruction placed after NOPs and followed by its inline caches; the
  direction and unit are those of the one formula that reproduces `dis`'s jump target;
* stack effects: `dis.stack_effect` is fitted as `constant + sum(coef * feature(oparg))` and the fit is
  checked for every oparg in 0..=1023 and a few large ones, for both `jump` values.

The few facts that `dis` does not give at all are data below: ARG_REFINEMENTS (argument meanings that
the plain `has*` lists do not state; each one is verified as above) and FLOW (which opcodes never fall
through, as CPython's compiler of that version sees it).
"""

import argparse
import difflib
import dis
import itertools
import opcode
import os
import sys

MINOR = sys.version_info[1]
if sys.version_info[0] != 3 or not 8 <= MINOR <= 14:
    sys.exit("gen_opcodes.py: CPython 3.8-3.14 required, not %s" % sys.version.split()[0])

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "crates", "bytecode", "src", "opcodes", "v3_%d.rs" % MINOR)

# --------------------------------------------------------------------------------------------------
# Data that dis does not state.

LAST = 14

# Every opcode name of 3.8-3.14, each once: an opcode's `id` in the tables is its position here, the
# same number in every version (the decompiler matches on it instead of comparing names). Append-only:
# a name a new version brings goes at the end, so the ids already written stay what they are.
OPCODE_NAMES = [
    "POP_TOP", "ROT_TWO", "ROT_THREE", "DUP_TOP", "DUP_TOP_TWO", "ROT_FOUR", "NOP",
    "UNARY_POSITIVE", "UNARY_NEGATIVE", "UNARY_NOT", "UNARY_INVERT", "BINARY_MATRIX_MULTIPLY",
    "INPLACE_MATRIX_MULTIPLY", "BINARY_POWER", "BINARY_MULTIPLY", "BINARY_MODULO", "BINARY_ADD",
    "BINARY_SUBTRACT", "BINARY_SUBSCR", "BINARY_FLOOR_DIVIDE", "BINARY_TRUE_DIVIDE",
    "INPLACE_FLOOR_DIVIDE", "INPLACE_TRUE_DIVIDE", "GET_AITER", "GET_ANEXT", "BEFORE_ASYNC_WITH",
    "BEGIN_FINALLY", "END_ASYNC_FOR", "INPLACE_ADD", "INPLACE_SUBTRACT", "INPLACE_MULTIPLY",
    "INPLACE_MODULO", "STORE_SUBSCR", "DELETE_SUBSCR", "BINARY_LSHIFT", "BINARY_RSHIFT",
    "BINARY_AND", "BINARY_XOR", "BINARY_OR", "INPLACE_POWER", "GET_ITER", "GET_YIELD_FROM_ITER",
    "PRINT_EXPR", "LOAD_BUILD_CLASS", "YIELD_FROM", "GET_AWAITABLE", "INPLACE_LSHIFT",
    "INPLACE_RSHIFT", "INPLACE_AND", "INPLACE_XOR", "INPLACE_OR", "WITH_CLEANUP_START",
    "WITH_CLEANUP_FINISH", "RETURN_VALUE", "IMPORT_STAR", "SETUP_ANNOTATIONS", "YIELD_VALUE",
    "POP_BLOCK", "END_FINALLY", "POP_EXCEPT", "STORE_NAME", "DELETE_NAME", "UNPACK_SEQUENCE",
    "FOR_ITER", "UNPACK_EX", "STORE_ATTR", "DELETE_ATTR", "STORE_GLOBAL", "DELETE_GLOBAL",
    "LOAD_CONST", "LOAD_NAME", "BUILD_TUPLE", "BUILD_LIST", "BUILD_SET", "BUILD_MAP", "LOAD_ATTR",
    "COMPARE_OP", "IMPORT_NAME", "IMPORT_FROM", "JUMP_FORWARD", "JUMP_IF_FALSE_OR_POP",
    "JUMP_IF_TRUE_OR_POP", "JUMP_ABSOLUTE", "POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "LOAD_GLOBAL",
    "SETUP_FINALLY", "LOAD_FAST", "STORE_FAST", "DELETE_FAST", "RAISE_VARARGS", "CALL_FUNCTION",
    "MAKE_FUNCTION", "BUILD_SLICE", "LOAD_CLOSURE", "LOAD_DEREF", "STORE_DEREF", "DELETE_DEREF",
    "CALL_FUNCTION_KW", "CALL_FUNCTION_EX", "SETUP_WITH", "EXTENDED_ARG", "LIST_APPEND", "SET_ADD",
    "MAP_ADD", "LOAD_CLASSDEREF", "BUILD_LIST_UNPACK", "BUILD_MAP_UNPACK",
    "BUILD_MAP_UNPACK_WITH_CALL", "BUILD_TUPLE_UNPACK", "BUILD_SET_UNPACK", "SETUP_ASYNC_WITH",
    "FORMAT_VALUE", "BUILD_CONST_KEY_MAP", "BUILD_STRING", "BUILD_TUPLE_UNPACK_WITH_CALL",
    "LOAD_METHOD", "CALL_METHOD", "CALL_FINALLY", "POP_FINALLY", "RERAISE", "WITH_EXCEPT_START",
    "LOAD_ASSERTION_ERROR", "LIST_TO_TUPLE", "IS_OP", "CONTAINS_OP", "JUMP_IF_NOT_EXC_MATCH",
    "LIST_EXTEND", "SET_UPDATE", "DICT_MERGE", "DICT_UPDATE", "GET_LEN", "MATCH_MAPPING",
    "MATCH_SEQUENCE", "MATCH_KEYS", "COPY_DICT_WITHOUT_KEYS", "ROT_N", "GEN_START", "MATCH_CLASS",
    "CACHE", "PUSH_NULL", "BINARY_OP_ADAPTIVE", "BINARY_OP_ADD_FLOAT", "BINARY_OP_ADD_INT",
    "BINARY_OP_ADD_UNICODE", "BINARY_OP_INPLACE_ADD_UNICODE", "BINARY_OP_MULTIPLY_FLOAT",
    "BINARY_OP_MULTIPLY_INT", "BINARY_OP_SUBTRACT_FLOAT", "BINARY_OP_SUBTRACT_INT",
    "BINARY_SUBSCR_ADAPTIVE", "BINARY_SUBSCR_DICT", "BINARY_SUBSCR_GETITEM",
    "BINARY_SUBSCR_LIST_INT", "BINARY_SUBSCR_TUPLE_INT", "CALL_ADAPTIVE", "CALL_PY_EXACT_ARGS",
    "CALL_PY_WITH_DEFAULTS", "COMPARE_OP_ADAPTIVE", "COMPARE_OP_FLOAT_JUMP", "COMPARE_OP_INT_JUMP",
    "COMPARE_OP_STR_JUMP", "EXTENDED_ARG_QUICK", "PUSH_EXC_INFO", "CHECK_EXC_MATCH",
    "CHECK_EG_MATCH", "JUMP_BACKWARD_QUICK", "LOAD_ATTR_ADAPTIVE", "LOAD_ATTR_INSTANCE_VALUE",
    "LOAD_ATTR_MODULE", "LOAD_ATTR_SLOT", "LOAD_ATTR_WITH_HINT", "LOAD_CONST__LOAD_FAST",
    "LOAD_FAST__LOAD_CONST", "LOAD_FAST__LOAD_FAST", "LOAD_GLOBAL_ADAPTIVE", "LOAD_GLOBAL_BUILTIN",
    "BEFORE_WITH", "LOAD_GLOBAL_MODULE", "LOAD_METHOD_ADAPTIVE", "LOAD_METHOD_CLASS",
    "LOAD_METHOD_MODULE", "LOAD_METHOD_NO_DICT", "LOAD_METHOD_WITH_DICT", "LOAD_METHOD_WITH_VALUES",
    "PRECALL_ADAPTIVE", "PRECALL_BOUND_METHOD", "PRECALL_BUILTIN_CLASS",
    "PRECALL_BUILTIN_FAST_WITH_KEYWORDS", "PRECALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS",
    "PRECALL_NO_KW_BUILTIN_FAST", "RETURN_GENERATOR", "PRECALL_NO_KW_BUILTIN_O",
    "PRECALL_NO_KW_ISINSTANCE", "PRECALL_NO_KW_LEN", "PRECALL_NO_KW_LIST_APPEND",
    "PRECALL_NO_KW_METHOD_DESCRIPTOR_FAST", "PRECALL_NO_KW_METHOD_DESCRIPTOR_NOARGS",
    "ASYNC_GEN_WRAP", "PREP_RERAISE_STAR", "SWAP", "PRECALL_NO_KW_METHOD_DESCRIPTOR_O",
    "POP_JUMP_FORWARD_IF_FALSE", "POP_JUMP_FORWARD_IF_TRUE", "COPY", "PRECALL_NO_KW_STR_1",
    "BINARY_OP", "SEND", "PRECALL_NO_KW_TUPLE_1", "POP_JUMP_FORWARD_IF_NOT_NONE",
    "POP_JUMP_FORWARD_IF_NONE", "JUMP_BACKWARD_NO_INTERRUPT", "MAKE_CELL", "JUMP_BACKWARD",
    "PRECALL_NO_KW_TYPE_1", "PRECALL_PYFUNC", "COPY_FREE_VARS", "RESUME_QUICK", "RESUME",
    "STORE_ATTR_ADAPTIVE", "STORE_ATTR_INSTANCE_VALUE", "STORE_ATTR_SLOT", "STORE_ATTR_WITH_HINT",
    "STORE_FAST__LOAD_FAST", "PRECALL", "STORE_FAST__STORE_FAST", "STORE_SUBSCR_ADAPTIVE",
    "STORE_SUBSCR_DICT", "STORE_SUBSCR_LIST_INT", "CALL", "KW_NAMES",
    "POP_JUMP_BACKWARD_IF_NOT_NONE", "POP_JUMP_BACKWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_FALSE",
    "POP_JUMP_BACKWARD_IF_TRUE", "UNPACK_SEQUENCE_ADAPTIVE", "UNPACK_SEQUENCE_LIST",
    "UNPACK_SEQUENCE_TUPLE", "UNPACK_SEQUENCE_TWO_TUPLE", "INTERPRETER_EXIT", "END_FOR", "END_SEND",
    "RESERVED", "BINARY_SLICE", "STORE_SLICE", "CALL_BOUND_METHOD_EXACT_ARGS", "CALL_BUILTIN_CLASS",
    "CALL_BUILTIN_FAST_WITH_KEYWORDS", "CALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS",
    "CALL_NO_KW_BUILTIN_FAST", "CALL_NO_KW_BUILTIN_O", "CALL_NO_KW_ISINSTANCE", "CALL_NO_KW_LEN",
    "CALL_NO_KW_LIST_APPEND", "CALL_NO_KW_METHOD_DESCRIPTOR_FAST",
    "CALL_NO_KW_METHOD_DESCRIPTOR_NOARGS", "CALL_NO_KW_METHOD_DESCRIPTOR_O", "CALL_NO_KW_STR_1",
    "CALL_NO_KW_TUPLE_1", "CLEANUP_THROW", "CALL_NO_KW_TYPE_1", "COMPARE_OP_FLOAT",
    "COMPARE_OP_INT", "COMPARE_OP_STR", "FOR_ITER_LIST", "FOR_ITER_TUPLE", "FOR_ITER_RANGE",
    "FOR_ITER_GEN", "LOAD_SUPER_ATTR_ATTR", "LOAD_SUPER_ATTR_METHOD", "LOAD_ATTR_CLASS",
    "LOAD_ATTR_GETATTRIBUTE_OVERRIDDEN", "LOAD_ATTR_PROPERTY", "LOAD_ATTR_METHOD_LAZY_DICT",
    "LOAD_ATTR_METHOD_NO_DICT", "LOAD_ATTR_METHOD_WITH_VALUES", "LOAD_LOCALS", "RETURN_CONST",
    "LOAD_FAST_CHECK", "POP_JUMP_IF_NOT_NONE", "POP_JUMP_IF_NONE", "LOAD_SUPER_ATTR",
    "LOAD_FAST_AND_CLEAR", "SEND_GEN", "CALL_INTRINSIC_1", "CALL_INTRINSIC_2",
    "LOAD_FROM_DICT_OR_GLOBALS", "LOAD_FROM_DICT_OR_DEREF", "INSTRUMENTED_LOAD_SUPER_ATTR",
    "INSTRUMENTED_POP_JUMP_IF_NONE", "INSTRUMENTED_POP_JUMP_IF_NOT_NONE", "INSTRUMENTED_RESUME",
    "INSTRUMENTED_CALL", "INSTRUMENTED_RETURN_VALUE", "INSTRUMENTED_YIELD_VALUE",
    "INSTRUMENTED_CALL_FUNCTION_EX", "INSTRUMENTED_JUMP_FORWARD", "INSTRUMENTED_JUMP_BACKWARD",
    "INSTRUMENTED_RETURN_CONST", "INSTRUMENTED_FOR_ITER", "INSTRUMENTED_POP_JUMP_IF_FALSE",
    "INSTRUMENTED_POP_JUMP_IF_TRUE", "INSTRUMENTED_END_FOR", "INSTRUMENTED_END_SEND",
    "INSTRUMENTED_INSTRUCTION", "INSTRUMENTED_LINE", "SETUP_CLEANUP", "JUMP", "JUMP_NO_INTERRUPT",
    "LOAD_SUPER_METHOD", "LOAD_ZERO_SUPER_METHOD", "LOAD_ZERO_SUPER_ATTR", "STORE_FAST_MAYBE_NULL",
    "EXIT_INIT_CHECK", "FORMAT_SIMPLE", "FORMAT_WITH_SPEC", "TO_BOOL", "CALL_KW", "CONVERT_VALUE",
    "ENTER_EXECUTOR", "LOAD_FAST_LOAD_FAST", "SET_FUNCTION_ATTRIBUTE", "STORE_FAST_LOAD_FAST",
    "STORE_FAST_STORE_FAST", "BINARY_SUBSCR_STR_INT", "CALL_ALLOC_AND_ENTER_INIT",
    "CALL_BOUND_METHOD_GENERAL", "CALL_BUILTIN_FAST", "CALL_BUILTIN_O", "CALL_ISINSTANCE",
    "CALL_LEN", "CALL_LIST_APPEND", "CALL_METHOD_DESCRIPTOR_FAST", "CALL_METHOD_DESCRIPTOR_NOARGS",
    "CALL_METHOD_DESCRIPTOR_O", "CALL_NON_PY_GENERAL", "CALL_PY_GENERAL", "CALL_STR_1",
    "CALL_TUPLE_1", "CALL_TYPE_1", "CONTAINS_OP_DICT", "CONTAINS_OP_SET",
    "LOAD_ATTR_NONDESCRIPTOR_NO_DICT", "LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES", "RESUME_CHECK",
    "TO_BOOL_ALWAYS_TRUE", "TO_BOOL_BOOL", "TO_BOOL_INT", "TO_BOOL_LIST", "TO_BOOL_NONE",
    "TO_BOOL_STR", "INSTRUMENTED_CALL_KW", "BUILD_TEMPLATE", "NOT_TAKEN", "POP_ITER",
    "BUILD_INTERPOLATION", "LOAD_COMMON_CONSTANT", "LOAD_FAST_BORROW",
    "LOAD_FAST_BORROW_LOAD_FAST_BORROW", "LOAD_SMALL_INT", "LOAD_SPECIAL", "BINARY_OP_EXTEND",
    "BINARY_OP_SUBSCR_DICT", "BINARY_OP_SUBSCR_GETITEM", "BINARY_OP_SUBSCR_LIST_INT",
    "BINARY_OP_SUBSCR_LIST_SLICE", "BINARY_OP_SUBSCR_STR_INT", "BINARY_OP_SUBSCR_TUPLE_INT",
    "CALL_KW_BOUND_METHOD", "CALL_KW_NON_PY", "CALL_KW_PY", "JUMP_BACKWARD_JIT",
    "JUMP_BACKWARD_NO_JIT", "LOAD_ATTR_CLASS_WITH_METACLASS_CHECK", "LOAD_CONST_IMMORTAL",
    "LOAD_CONST_MORTAL", "INSTRUMENTED_POP_ITER", "INSTRUMENTED_NOT_TAKEN",
    "INSTRUMENTED_END_ASYNC_FOR", "ANNOTATIONS_PLACEHOLDER", "JUMP_IF_FALSE", "JUMP_IF_TRUE",
]

# Argument meanings beyond the plain has* lists: (opname, first minor, last minor, kind).
# kind: ("Name", shift) | ("Named", list key, shift) | ("LocalPair",) | ("Int",).
# ("Int",) marks opcodes whose argument is a plain number although dis decorates its argval
# (FORMAT_VALUE's converter tuple, ...); every other Int opcode must have dis's argval == oparg.
ARG_REFINEMENTS = [
    # 3.11+: the low bit asks for a NULL push before the global.
    ("LOAD_GLOBAL", 11, LAST, ("Name", 1)),
    # 3.12+: the low bit selects the method form (LOAD_METHOD folded in).
    ("LOAD_ATTR", 12, LAST, ("Name", 1)),
    # 3.12+: two low flag bits (call form, two-argument form).
    ("LOAD_SUPER_ATTR", 12, LAST, ("Name", 2)),
    ("COMPARE_OP", 8, 11, ("Named", "cmp_op", 0)),
    # 3.12: low 4 bits are the specialisation mask; 3.13+: bit 4 also asks for a bool result.
    ("COMPARE_OP", 12, 12, ("Named", "cmp_op", 4)),
    ("COMPARE_OP", 13, LAST, ("Named", "cmp_op", 5)),
    ("BINARY_OP", 11, LAST, ("Named", "nb_ops", 0)),
    ("CALL_INTRINSIC_1", 12, LAST, ("Named", "intrinsic_1", 0)),
    ("CALL_INTRINSIC_2", 12, LAST, ("Named", "intrinsic_2", 0)),
    ("CONVERT_VALUE", 13, LAST, ("Named", "converters", 0)),
    ("LOAD_COMMON_CONSTANT", 14, LAST, ("Named", "common_constants", 0)),
    ("LOAD_SPECIAL", 14, LAST, ("Named", "special_method_names", 0)),
    ("LOAD_FAST_LOAD_FAST", 13, LAST, ("LocalPair",)),
    ("STORE_FAST_LOAD_FAST", 13, LAST, ("LocalPair",)),
    ("STORE_FAST_STORE_FAST", 13, LAST, ("LocalPair",)),
    ("LOAD_FAST_BORROW_LOAD_FAST_BORROW", 14, LAST, ("LocalPair",)),
    # dis shows (converter, has_spec) instead of the number.
    ("FORMAT_VALUE", 8, 12, ("Int",)),
    # Runtime only: an index into the code's executors. Not probed: reading co_code of a code object
    # that holds it crashes 3.13 (the deoptimisation looks the executor up).
    ("ENTER_EXECUTOR", 13, LAST, ("Int",)),
]

# Opcodes that never fall through, as the compiler's stack-depth / flow-graph pass of each version
# treats them (3.8-3.10 Python/compile.c stackdepth(); 3.11 compile.c and 3.12+
# Include/internal/pycore_opcode_utils.h IS_UNCONDITIONAL_JUMP_OPCODE / IS_SCOPE_EXIT_OPCODE;
# 3.14 dropped RETURN_CONST). Every other jump is a Branch, everything else Next.
FLOW = [
    (("JUMP_ABSOLUTE", "JUMP_FORWARD"), 8, 10, "Jump"),
    (("JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT"), 11, LAST, "Jump"),
    (("JUMP", "JUMP_NO_INTERRUPT"), 12, LAST, "Jump"),
    (("RETURN_VALUE", "RAISE_VARARGS"), 8, LAST, "Exit"),
    (("RERAISE",), 9, LAST, "Exit"),
    (("RETURN_CONST",), 12, 13, "Exit"),
]

# Stack effects where dis.stack_effect of a version disagrees with what the frame really holds:
# (opname, first minor, last minor, fall-through effect, jump effect).
# RETURN_GENERATOR: the generator frame is resumed with the value sent to it on the stack (the POP_TOP
# after it discards that value); 3.13 corrected dis.stack_effect to +1, 3.11 and 3.12 say 0.
EFFECT_CORRECTIONS = [
    ("RETURN_GENERATOR", 11, 12, 1, 1),
]

# Stack height an instruction reaches above both its start and its end, as the compiler's stack-depth
# pass counts it: (opname, first minor, last minor, peak). 3.13 forms RETURN_CONST from
# LOAD_CONST + RETURN_VALUE after sizing the stack, so the constant's slot still counts (3.12 forms it
# before, and 3.14 has no RETURN_CONST).
PEAKS = [
    ("RETURN_CONST", 13, 13, 1),
]


def peak_of(name):
    for n, first, last, peak in PEAKS:
        if n == name and in_range(first, last):
            return peak
    return 0


def in_range(first, last):
    return first <= MINOR <= last


# --------------------------------------------------------------------------------------------------
# The opcodes of the running interpreter.

ALL_OPMAP = dict(getattr(dis, "_all_opmap", opcode.opmap))
ALL_OPMAP.update(opcode.opmap)
SPECIALIZATIONS = getattr(opcode, "_specializations", {})
HAVE_ARGUMENT = opcode.HAVE_ARGUMENT
EXTENDED_ARG = opcode.EXTENDED_ARG
CACHE = opcode.opmap.get("CACHE") if MINOR >= 11 else None
NOP = opcode.opmap["NOP"]


def spec_base():
    """Specialised opname -> base opname."""
    out = {}
    for base, specs in SPECIALIZATIONS.items():
        for s in specs:
            out[s] = base
    return out


SPEC_BASE = spec_base()
PSEUDO_TARGETS = getattr(opcode, "_pseudo_ops", None)  # 3.12 only


def classify():
    """[(name, code, kind, base name or None)] for every opcode of the version."""
    ops = []
    for name, code in ALL_OPMAP.items():
        if name in SPEC_BASE:
            ops.append((name, code, "Specialized", SPEC_BASE[name]))
        elif code >= 256:
            ops.append((name, code, "Pseudo", None))
        elif name.startswith("INSTRUMENTED_"):
            base = name[len("INSTRUMENTED_"):]
            ops.append((name, code, "Instrumented", base if base in opcode.opmap else None))
        else:
            ops.append((name, code, "Real", None))
    ops.sort(key=lambda o: (o[1], o[0]))
    return ops


def lst(attr):
    return set(getattr(opcode, attr, ()))


HASCONST, HASNAME, HASLOCAL, HASFREE = lst("hasconst"), lst("hasname"), lst("haslocal"), lst("hasfree")
HASCOMPARE, HASJREL, HASJABS = lst("hascompare"), lst("hasjrel"), lst("hasjabs")
HASJUMP = lst("hasjump") | HASJREL | HASJABS
HASEXC = lst("hasexc")
HASARG = getattr(opcode, "hasarg", None)


def has_arg(code):
    if HASARG is not None:
        return code in HASARG
    return code >= HAVE_ARGUMENT


def cache_entries(name, code):
    ice = getattr(opcode, "_inline_cache_entries", None)
    if ice is None:
        return 0
    if isinstance(ice, dict):
        return ice.get(name, 0)
    return ice[code] if code < len(ice) else 0


# --------------------------------------------------------------------------------------------------
# Named lists, taken from the interpreter.


def probe_argreprs(opname):
    """The argrepr dis gives opname for oparg 0, 1, ... until dis fails."""
    out = []
    for arg in range(256):
        try:
            ins = disassemble_one(ALL_OPMAP[opname], arg)
        except (IndexError, KeyError):
            break
        out.append(ins.argrepr)
    return out


def named_list(key):
    if key == "cmp_op":
        return list(opcode.cmp_op)
    if key == "nb_ops":
        return [sym for _, sym in opcode._nb_ops]
    if key == "intrinsic_1":
        return list(opcode._intrinsic_1_descs)
    if key == "intrinsic_2":
        return list(opcode._intrinsic_2_descs)
    if key == "special_method_names":
        return list(opcode._special_method_names)
    if key == "common_constants":
        return [getattr(c, "__name__", repr(c)) for c in opcode._common_constants]
    if key == "converters":
        # dis keeps CONVERT_VALUE's names in its code; ask it.
        return probe_argreprs("CONVERT_VALUE")
    raise KeyError(key)


def named_matches(key, index, ins):
    names = named_list(key)
    if key == "common_constants":
        obj = opcode._common_constants[index]
        return ins.argval == index and ins.argrepr in (names[index], repr(obj))
    return names[index] in (ins.argval, ins.argrepr)


# --------------------------------------------------------------------------------------------------
# Probing dis with synthetic code objects.

PROBE_CONSTS = tuple("c%d" % i for i in range(8))
PROBE_NAMES = tuple("n%d" % i for i in range(8))
PROBE_VARNAMES = tuple("v%d" % i for i in range(16))
PROBE_CELLVARS = ("cell0", "cell1")
PROBE_FREEVARS = ("free0", "free1")
# Index space of hasfree: cells then frees (3.8-3.10); all of localsplus (3.11+).
FREE_SPACE = (PROBE_VARNAMES if MINOR >= 11 else ()) + PROBE_CELLVARS + PROBE_FREEVARS
LOCAL_SPACE = PROBE_VARNAMES

UNKNOWN = getattr(dis, "_Unknown", ())  # the class of dis.UNKNOWN (3.11+)
_TEMPLATE = compile("pass", "<gen_opcodes probe>", "exec")


def probe_code(code_bytes):
    return _TEMPLATE.replace(
        co_code=bytes(code_bytes),
        co_consts=PROBE_CONSTS,
        co_names=PROBE_NAMES,
        co_varnames=PROBE_VARNAMES,
        co_cellvars=PROBE_CELLVARS,
        co_freevars=PROBE_FREEVARS,
        co_nlocals=len(PROBE_VARNAMES),
        co_argcount=0,
        co_posonlyargcount=0,
        co_kwonlyargcount=0,
    )


def encode(op, arg, caches):
    out = []
    ext = []
    a = arg >> 8
    while a:
        ext.append(a & 0xFF)
        a >>= 8
    for e in reversed(ext):
        out += [EXTENDED_ARG, e]
    out += [op, arg & 0xFF]
    out += [CACHE or 0, 0] * caches
    return out


def disassemble_at(op, arg, caches, before):
    """dis's Instruction for (op, arg) placed after `before` NOPs; also returns the end offset."""
    code = [NOP, 0] * before + encode(op, arg, caches) + [NOP, 0] * 64
    for ins in dis.get_instructions(probe_code(code)):
        if ins.opcode == op:
            end = ins.offset + 2 + 2 * caches
            return ins, end
    raise AssertionError("probe lost %s" % opcode.opname[op])


def disassemble_one(op, arg):
    return disassemble_at(op, arg, cache_entries(dis._all_opname[op] if hasattr(dis, "_all_opname") else opcode.opname[op], op), 0)[0]


def probe_jump(name, code, caches):
    """(dir, unit) of a jump opcode: the one formula that reproduces dis's targets."""
    before = 40
    fits = []
    for direction, unit in itertools.product(("Absolute", "Forward", "Backward"), ("Bytes", "CodeUnits")):
        mult = 1 if unit == "Bytes" else 2
        ok = True
        for arg in (1, 3, 5, 8, 13):
            ins, end = disassemble_at(code, arg, caches, before)
            if direction == "Absolute":
                want = arg * mult
            elif direction == "Forward":
                want = end + arg * mult
            else:
                want = end - arg * mult
            if ins.argval != want:
                ok = False
                break
        if ok:
            fits.append((direction, unit))
    if len(fits) != 1:
        raise AssertionError("jump %s: formulas matching dis: %r" % (name, fits))
    return fits[0]


def verify_arg(name, code, kind, caches):
    """Check that dis interprets the argument as `kind` says; raise otherwise."""
    tag = kind[0]
    if tag == "Const":
        cases = [(i, PROBE_CONSTS[i]) for i in range(len(PROBE_CONSTS))]
    elif tag == "Local":
        cases = [(i, LOCAL_SPACE[i]) for i in range(len(LOCAL_SPACE))]
    elif tag == "Free":
        cases = [(i, FREE_SPACE[i]) for i in range(len(FREE_SPACE))]
    elif tag == "LocalPair":
        cases = [((i << 4) | j, (LOCAL_SPACE[i], LOCAL_SPACE[j])) for i in (0, 3, 15) for j in (0, 7, 15)]
    elif tag == "Name":
        shift = kind[1]
        cases = [((i << shift) | low, PROBE_NAMES[i]) for i in range(len(PROBE_NAMES)) for low in {0, (1 << shift) - 1}]
    elif tag == "Int":
        cases = [(i, i) for i in (0, 1, 2, 3, 7, 200)]
    elif tag == "Named":
        key, shift = kind[1], kind[2]
        n = len(named_list(key))
        if n == 0:
            raise AssertionError("%s: empty list %s" % (name, key))
        cases = [((i << shift) | low, ("named", key, i)) for i in range(n) for low in {0, (1 << shift) - 1}]
    else:
        raise AssertionError(tag)
    unknown = 0
    for arg, want in cases:
        ins, _ = disassemble_at(code, arg, caches, 0)
        if isinstance(want, tuple) and want and want[0] == "named":
            good = named_matches(want[1], want[2], ins)
        else:
            good = ins.argval == want
        if not good and isinstance(ins.argval, UNKNOWN):
            unknown += 1
            continue
        if not good:
            return "%s arg %d: dis gives argval %r argrepr %r, %s predicts %r" % (
                name, arg, ins.argval, ins.argrepr, kind, want)
    if unknown == len(cases):
        return "unknown"
    if unknown:
        return "%s: dis resolves only some arguments" % name
    return None


# --------------------------------------------------------------------------------------------------
# Stack effects.

FEATURES = [
    ("Oparg", lambda a: a),
    ("Bit0", lambda a: a & 1),
    ("Bit1", lambda a: (a >> 1) & 1),
    ("Bit2", lambda a: (a >> 2) & 1),
    ("Bit3", lambda a: (a >> 3) & 1),
    ("Low8", lambda a: a & 0xFF),
    ("High8", lambda a: a >> 8),
    ("Is3", lambda a: int(a == 3)),
    ("Shr1", lambda a: a >> 1),
]
EFFECT_ARGS = list(range(1024)) + [2 ** 16 - 1, 2 ** 20 + 5]
QUICK_ARGS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 255, 256, 257, 511, 1023]
COEFS = [1, -1, 2, -2, 3, -3, 4, -4]


class Refused(Exception):
    pass


def raw_effect(code, oparg, jump):
    """dis.stack_effect, passing oparg only where this version takes one for the opcode."""
    attempts = [(oparg,), ()] if oparg is not None else [(), (0,)]
    last = None
    for args in attempts:
        try:
            return dis.stack_effect(code, *args, jump=jump)
        except (ValueError, TypeError) as e:
            last = e
    raise Refused(str(last))


def fit_effect(name, code, takes_arg):
    """(constant, [(feature, coef)]) for jump=False and jump=True, or raise Refused."""
    out = []
    for jump in (False, True):
        if not takes_arg:
            v = raw_effect(code, None, jump)
            out.append((v, []))
            continue
        values = {}
        for a in EFFECT_ARGS:
            values[a] = raw_effect(code, a, jump)
        out.append(search_fit(name, values))
    return out


def search_fit(name, values):
    feats = [(n, [f(a) for a in EFFECT_ARGS], {a: f(a) for a in QUICK_ARGS}) for n, f in FEATURES]
    for size in range(0, 5):
        coefs = COEFS if size <= 2 else [1, -1, 2, -2]
        for subset in itertools.combinations(feats, size):
            for cs in itertools.product(coefs, repeat=size):
                const = values[0] - sum(c * fq[0] for c, (_, _, fq) in zip(cs, subset))
                if any(const + sum(c * fq[a] for c, (_, _, fq) in zip(cs, subset)) != values[a]
                       for a in QUICK_ARGS):
                    continue
                ok = all(const + sum(c * full[i] for c, (_, full, _) in zip(cs, subset)) == values[a]
                         for i, a in enumerate(EFFECT_ARGS))
                if ok:
                    if not -128 <= const <= 127:
                        raise AssertionError("%s: constant %d out of i8" % (name, const))
                    return const, [(n, c) for c, (n, _, _) in zip(cs, subset)]
    raise AssertionError("%s: no stack-effect fit; values %r" % (name, [values[a] for a in QUICK_ARGS]))


# --------------------------------------------------------------------------------------------------
# Building the table.


def refinement(name):
    for n, first, last, kind in ARG_REFINEMENTS:
        if n == name and in_range(first, last):
            return kind
    return None


def check_data_names(names):
    for n, first, last, _ in ARG_REFINEMENTS:
        if in_range(first, last) and n not in names:
            raise AssertionError("ARG_REFINEMENTS names %s, which 3.%d lacks" % (n, MINOR))
    for ns, first, last, _ in FLOW:
        for n in ns:
            if in_range(first, last) and n not in names and not (n in ("JUMP", "JUMP_NO_INTERRUPT") and MINOR < 12):
                raise AssertionError("FLOW names %s, which 3.%d lacks" % (n, MINOR))


def flow_of(name, is_jump):
    for ns, first, last, flow in FLOW:
        if name in ns and in_range(first, last):
            return flow
    return "Branch" if is_jump else "Next"


def build():
    ops = classify()
    names = {o[0] for o in ops}
    check_data_names(names)
    by_name = {o[0]: o for o in ops}
    rows = {}

    base_rows = {}

    def row_real(name, code, notes, probe):
        """arg, caches, flow of a real, pseudo or base-less instrumented opcode.

        Only real opcodes are probed: pseudo ones do not fit a byte, and instrumented ones in co_code
        crash some versions (the deoptimisation behind co_code looks up monitoring data).
        """
        if name in base_rows:
            arg, caches, flow, own_notes = base_rows[name]
            notes.extend(own_notes)
            return arg, caches, flow
        caches = cache_entries(name, code)
        if code in HASJUMP or (code >= 256 and code in HASEXC):
            if probe:
                direction, unit = probe_jump(name, code, caches)
            elif code >= 256:
                direction, unit = "Forward", "CodeUnits"
                notes.append("pseudo: the argument is a label; the assembler picks the real jump")
            else:
                raise AssertionError("%s: jump that cannot be probed" % name)
            arg = ("Jump", direction, unit)
        else:
            ref = refinement(name)
            if code in HASCONST:
                arg = ("Const",)
            elif code in HASNAME:
                arg = ("Name", 0)
            elif code in HASLOCAL:
                arg = ("Local",)
            elif code in HASFREE:
                arg = ("Free",)
            elif code in HASCOMPARE:
                arg = ("Named", "cmp_op", 0)
            elif has_arg(code):
                arg = ("Int",)
            else:
                arg = ("None",)
            if ref is not None and code < 256:
                if arg == ("None",):
                    raise AssertionError("%s: refinement %r for an opcode without argument" % (name, ref))
                arg = ref
            if ref == ("Int",):
                pass  # dis decorates the number (see ARG_REFINEMENTS); nothing to compare
            elif probe and arg != ("None",):
                err = verify_arg(name, code, arg, caches)
                if err == "unknown":
                    notes.append("dis does not resolve its argument; kind from the has* lists")
                elif err:
                    raise AssertionError(err)
            elif arg != ("None",):
                notes.append("argument kind from the has* lists, not probed")
        flow = flow_of(name, arg[0] == "Jump")
        if probe:
            base_rows[name] = (arg, caches, flow, list(notes))
        return arg, caches, flow

    effects = {}

    def effect_of(name, code, takes_arg):
        for n, first, last, fall, jump in EFFECT_CORRECTIONS:
            if n == name and in_range(first, last):
                return [(fall, []), (jump, [])]
        try:
            return fit_effect(name, code, takes_arg)
        except Refused as e:
            return e

    for name, code, kind, base in ops:
        notes = []
        if kind in ("Real", "Pseudo") or (kind == "Instrumented" and base is None):
            arg, caches, flow = row_real(name, code, notes, kind == "Real")
            eff = effect_of(name, code, arg[0] != "None")
            if isinstance(eff, Refused):
                notes.append("dis.stack_effect refuses it (%s) and it has no base: 0" % eff)
                eff = [(0, []), (0, [])]
        else:
            b = rows.get(base)
            if b is None:
                bname, bcode, bkind, _ = by_name[base]
                bnotes = []
                barg, bcaches, bflow = row_real(bname, bcode, bnotes, bkind == "Real")
                beff = effect_of(bname, bcode, barg[0] != "None")
                if isinstance(beff, Refused):
                    raise AssertionError("base %s of %s: stack_effect refused" % (bname, name))
                b = (barg, bcaches, bflow, beff)
            arg, caches, flow, beff = b
            own_caches = cache_entries(name, code)
            if own_caches not in (0, caches):
                raise AssertionError("%s: %d caches, base %s has %d" % (name, own_caches, base, caches))
            eff = effect_of(name, code, arg[0] != "None")
            if isinstance(eff, Refused):
                notes.append("dis.stack_effect refuses it; effect of %s" % base)
                eff = beff
            elif eff != beff:
                notes.append("dis.stack_effect gives %s (its own prologue only); effect of %s" % (
                    fmt_effect_plain(eff), base))
                eff = beff
        rows[name] = (arg, caches, flow, eff)
        effects[name] = notes
    return ops, rows, effects


def fmt_effect_plain(eff):
    return "/".join("%d%s" % (c, "".join(" %+d*%s" % (k, f) for f, k in t)) for c, t in eff)


# --------------------------------------------------------------------------------------------------
# Rust output.

NAMED_STATICS = {
    "cmp_op": "CMP_OP",
    "nb_ops": "NB_OPS",
    "intrinsic_1": "INTRINSIC_1",
    "intrinsic_2": "INTRINSIC_2",
    "converters": "CONVERTERS",
    "common_constants": "COMMON_CONSTANTS",
    "special_method_names": "SPECIAL_METHOD_NAMES",
}


def rust_str(s):
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            out.append("\\u{%x}" % ord(ch))
    return '"' + "".join(out) + '"'


def rust_arg(arg):
    tag = arg[0]
    if tag == "Name":
        return "ArgKind::Name { shift: %d }" % arg[1]
    if tag == "Named":
        return "ArgKind::Named { names: %s, shift: %d }" % (NAMED_STATICS[arg[1]], arg[2])
    if tag == "Jump":
        return "ArgKind::Jump(Jump { dir: JumpDir::%s, unit: JumpUnit::%s })" % (arg[1], arg[2])
    return "ArgKind::%s" % tag


def rust_effect(e):
    const, terms = e
    return "fx(%d, &[%s])" % (const, ", ".join("(Feature::%s, %d)" % t for t in terms))


def rust_kind(kind, base, name, codes):
    if kind == "Real":
        return "OpKind::Real"
    if kind == "Specialized":
        return "OpKind::Specialized { base: %d }" % codes[base]
    if kind == "Instrumented":
        return "OpKind::Instrumented { base: %s }" % ("Some(%d)" % codes[base] if base else "None")
    targets = []
    if PSEUDO_TARGETS is not None:
        targets = [codes[t] for t in PSEUDO_TARGETS.get(name, ())]
    return "OpKind::Pseudo { targets: &[%s] }" % ", ".join(str(t) for t in targets)


def generate():
    ops, rows, notes = build()
    codes = {name: code for name, code, _, _ in ops}
    used_named = sorted({r[0][1] for r in rows.values() if r[0][0] == "Named"})
    imports = ["fx", "ArgKind", "Feature", "Flow"]
    if any(r[0][0] == "Jump" for r in rows.values()):
        imports += ["Jump", "JumpDir", "JumpUnit"]
    imports += ["OpInfo", "OpKind", "OpcodeTable", "NO_OP"]

    v = sys.version.replace("\n", " ")
    w = []
    w.append("//! Opcode table of CPython 3.%d." % MINOR)
    w.append("//!")
    w.append("//! Generated by tools/gen_opcodes.py from `sys.version` %s." % v)
    w.append("//! Do not edit by hand: rerun the generator under that interpreter (`--check` compares).")
    w.append("")
    w.append("use crate::opcode::{")
    line = "   "
    for item in imports:  # rustfmt's layout: fill lines up to 100 columns
        if len(line) + len(item) + 2 > 100:
            w.append(line)
            line = "   "
        line += " " + item + ","
    w.append(line)
    w.append("};")
    w.append("use crate::version::PyVersion;")
    for key in used_named:
        w.append("")
        w.append("/// %s" % {
            "cmp_op": "`opcode.cmp_op`.",
            "nb_ops": "BINARY_OP's operators as `dis` shows them (`opcode._nb_ops`).",
            "intrinsic_1": "`opcode._intrinsic_1_descs` (CALL_INTRINSIC_1).",
            "intrinsic_2": "`opcode._intrinsic_2_descs` (CALL_INTRINSIC_2).",
            "converters": "CONVERT_VALUE's converters as `dis` shows them.",
            "common_constants": "`opcode._common_constants` by name (LOAD_COMMON_CONSTANT).",
            "special_method_names": "`opcode._special_method_names` (LOAD_SPECIAL).",
        }[key])
        w.append("#[rustfmt::skip]")
        w.append("pub static %s: &[&str] = &[%s];" % (
            NAMED_STATICS[key], ", ".join(rust_str(s) for s in named_list(key))))
    w.append("")
    w.append("#[rustfmt::skip]")
    w.append("static OPS: [OpInfo; %d] = [" % len(ops))
    for name, code, kind, base in ops:
        arg, caches, flow, eff = rows[name]
        for note in notes[name]:
            w.append("    // %s: %s" % (name, note))
        if name not in OPCODE_NAMES:
            raise SystemExit("gen_opcodes.py: %s is not in OPCODE_NAMES: append it there, then "
                             "write the ids again (--ids) and this table" % name)
        w.append(
            "    OpInfo { name: %s, id: %d, code: %d, arg: %s, caches: %d, effect: %s, jump_effect: %s, "
            "peak: %d, flow: Flow::%s, kind: %s },"
            % (rust_str(name), OPCODE_NAMES.index(name), code, rust_arg(arg), caches,
               rust_effect(eff[0]), rust_effect(eff[1]), peak_of(name), flow,
               rust_kind(kind, base, name, codes)))
    w.append("];")
    by_code = ["NO_OP"] * 256
    for i, (name, code, kind, _) in enumerate(ops):
        if code < 256 and kind != "Pseudo":
            if by_code[code] != "NO_OP":
                raise AssertionError("two opcodes numbered %d" % code)
            by_code[code] = str(i)
    w.append("")
    w.append("#[rustfmt::skip]")
    w.append("const BY_CODE: [u16; 256] = [")
    for i in range(0, 256, 16):
        w.append("    " + ", ".join(by_code[i:i + 16]) + ",")
    w.append("];")
    order = sorted(range(len(ops)), key=lambda i: ops[i][0].encode())
    w.append("")
    w.append("#[rustfmt::skip]")
    w.append("static BY_NAME: [u16; %d] = [" % len(ops))
    for i in range(0, len(order), 16):
        w.append("    " + ", ".join(str(x) for x in order[i:i + 16]) + ",")
    w.append("];")
    have_arg = "Some(%d)" % HAVE_ARGUMENT if MINOR <= 12 else "None"
    w.append("")
    w.append("pub static TABLE: OpcodeTable = OpcodeTable {")
    w.append("    version: PyVersion::V3_%d," % MINOR)
    w.append("    generated_from: %s," % rust_str(v))
    w.append("    ops: &OPS,")
    w.append("    by_code: BY_CODE,")
    w.append("    by_name: &BY_NAME,")
    w.append("    extended_arg: %d," % EXTENDED_ARG)
    w.append("    cache: %s," % ("Some(%d)" % CACHE if CACHE is not None else "None"))
    if MINOR >= 13:
        w.append("    // opcode.HAVE_ARGUMENT is %d, but opcodes above it may take no argument." % HAVE_ARGUMENT)
    w.append("    have_argument: %s," % have_arg)
    w.append("};")
    return "\n".join(w) + "\n"


IDS_OUT = os.path.join(ROOT, "crates", "bytecode", "src", "opcodes", "ids.rs")


def generate_ids():
    """crates/bytecode/src/opcodes/ids.rs: one constant per name of OPCODE_NAMES, its `id`."""
    if len(set(OPCODE_NAMES)) != len(OPCODE_NAMES):
        raise SystemExit("gen_opcodes.py: a name is twice in OPCODE_NAMES")
    w = ["//! Opcode ids: `OpInfo::id` of each opcode name of 3.8-3.14, the same number in every",
         "//! version, to match on instead of names. Position in `tools/gen_opcodes.py`'s OPCODE_NAMES.",
         "//!",
         "//! Generated by tools/gen_opcodes.py --ids (any interpreter). Do not edit by hand.",
         "",
         "/// Every opcode name, at its id.",
         "#[rustfmt::skip]",
         "pub static NAMES: [&str; %d] = [" % len(OPCODE_NAMES)]
    line = "   "
    for n in OPCODE_NAMES:
        item = " %s," % rust_str(n)
        if len(line) + len(item) > 100:
            w.append(line)
            line = "   "
        line += item
    w.append(line)
    w.append("];")
    w.append("")
    for i, n in enumerate(OPCODE_NAMES):
        w.append("pub const %s: u16 = %d;" % (n, i))
    return "\n".join(w) + "\n"


def write_or_check(path, text, check):
    if check:
        try:
            with open(path, encoding="utf-8") as f:
                old = f.read()
        except OSError as e:
            print("gen_opcodes.py --check: cannot read %s: %s" % (path, e), file=sys.stderr)
            return 1
        if old != text:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), path + " (committed)", path + " (generated)"))
            return 1
        return 0
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print("wrote %s (%d bytes)" % (os.path.relpath(path, ROOT), len(text)))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed table instead of writing")
    ap.add_argument("--stdout", action="store_true", help="print the table instead of writing it")
    ap.add_argument("--ids", action="store_true", help="write (or with --check, compare) the opcode ids instead")
    args = ap.parse_args()
    if args.ids:
        return write_or_check(IDS_OUT, generate_ids(), args.check)
    text = generate()
    if args.stdout:
        sys.stdout.write(text)
        return 0
    return write_or_check(OUT, text, args.check)


if __name__ == "__main__":
    sys.exit(main())
