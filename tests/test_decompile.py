"""The decompiler (issue 3, in progress): decompiled functions behave as the originals, recompile to the
same instructions, and bad bytecode gives DecompileError/BytecodeError, never a crash or a panic."""

from __future__ import annotations

import copy
import json
import random
import sys
import types

import pytest

from conftest import run_json
from framejit import BytecodeError, DecompileError, decompile
from framejit.decompiler import decompile_with_constants

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent / "support"))
from decompile_sweep import normalized, recompiled  # noqa: E402

G = 10


def straight(a, b=2):
    c = a * b + G
    c -= 1
    return c, a / b, a // b, a % b, -a, ~a, not a


def branches(x):
    if x > 3:
        y = "big"
    elif x < -3:
        y = "small"
    else:
        y = "mid"
    if x and not x % 2:
        return y + "-even"
    return y


def loops(n):
    total = 0
    for i in range(n):
        if i % 3 == 0:
            continue
        if i > 20:
            break
        total += i
    while n > 0:
        n -= 7
    return total, n


def boolean_exprs(a, b, c):
    return (a and b, a or b or c, b if a else c, f"{a}" if b else None)


def fstrings(x, w):
    return f"{x!r:>{w}}|{x:.2f}|{'lit'}|{w}"


def unpacking(seq):
    a, (b, c), *rest = seq
    first, *_ = rest or [None]
    return a, b, c, rest, first


def calls(f, *args, **kw):
    out = f(*args, **kw) if kw else f(*args)
    return out, sorted(args, key=lambda v: -v if isinstance(v, int) else 0, reverse=True)


def closures(n):
    acc = []

    def add(v, scale=2):
        nonlocal n
        n += v
        acc.append(v * scale)
        return n

    add(1)
    add(2, scale=3)
    return n, acc


def gen(n):
    for i in range(n):
        got = yield i * 2
        if got:
            yield got


def tries(x):
    try:
        r = 10 // x
    except ZeroDivisionError as e:
        r = str(e)
    except TypeError:
        r = "type"
    else:
        r = r + 1
    try:
        return int(r)
    except:  # noqa: E722
        return None


def finally_(x, log):
    try:
        log.append("body")
        if x:
            return x * 2
    finally:
        log.append("finally")
    return -1


class Point:
    """A point."""

    scale: int = 3

    def __init__(self, x, y=0):
        self.x, self.y = x, y

    def norm(self):
        return abs(self.x) + abs(self.y) * self.scale


def classes(x):
    p = Point(x, 2)
    p.x += 1
    p.y *= 2
    return p.norm(), Point.__doc__


def globals_(v):
    global G_STATE
    G_STATE = v + 1
    return G_STATE


def chained_comparisons(a, b, c):
    # the middle operand is evaluated once: a call with a side effect shows it
    calls = []

    def mid():
        calls.append(b)
        return b

    if not a <= mid() <= c:
        r = "out"
    elif a < b < c < 10:
        r = "strict"
    else:
        r = "edge"
    return r, a < mid() <= c, calls


def tuple_assignments(a, b, items):
    # the values are all evaluated before any store: a swap, a rotation, and calls with side effects
    a, b = b, a
    x, y, z = b, items.pop(), a
    items[0], items[-1] = items[-1], items[0]
    first, last = items.pop(), items.pop()
    return a, b, x, y, z, first, last, items


def lambda_statement(k):
    # a lambda evaluated for nothing: no behaviour, but its code object is made (and compared)
    lambda v: v + k  # noqa: B018
    return k


def set_displays(x, items):
    # the compiler folds these displays into frozenset constants; written back as displays, they fold
    # to the same constants again (written `frozenset({...})` they would be a call)
    found = [y for y in {4, 5, 6} if y in items]
    for y in {"a", "b"}:
        found.append(y in items)
    return x in {1, 2, 3}, x not in {"a", None, 1.5}, found


FUNCTIONS = {
    set_displays: [(1, {4, "a"}), ("a", [5, 6, "b"]), (None, ())],
    tuple_assignments: [(1, 2, [1, 2, 3, 4, 5]), ("p", "q", [7, 8, 9]), (0, 0, [1])],
    chained_comparisons: [(1, 2, 3), (3, 2, 1), (2, 2, 2), (0, 5, 20), (1, 1, 3)],
    straight: [(5,), (7, 3), (-4, 5)],
    branches: [(0,), (4,), (-5,), (2,), (3,), (-4,)],
    loops: [(0,), (10,), (30,)],
    boolean_exprs: [(0, 1, 2), (1, 0, 2), (1, 2, 0), ("", None, [])],
    fstrings: [(3.14159, 10), ("ab", 4)],
    unpacking: [([1, (2, 3), 4, 5],), ([1, (2, 3)],), ("a", )],
    calls: [(max, 3, 1, 2), (dict, "a", 1)],
    closures: [(0,), (5,)],
    tries: [(0,), (5,), ("x",), (2.5,)],
    classes: [(1,), (-4,)],
    globals_: [(1,), (41,)],
}


def outcome(fn, args):
    args = copy.deepcopy(args)  # both runs see the same inputs, however the function mutates them
    try:
        value = fn(*args)
        if isinstance(value, types.GeneratorType):
            value = list(value)
        return ("ok", repr(value))
    except Exception as e:  # the same exception type and message count as the same behaviour
        return ("raised", type(e).__name__, str(e))


def rebuilt(fn):
    source, constants = decompile_with_constants(fn)
    namespace = dict(fn.__globals__)
    namespace.update(constants)
    exec(compile(source, "<decompiled>", "exec"), namespace)
    return source, namespace[fn.__name__]


@pytest.mark.parametrize("fn", [f for f in FUNCTIONS if f not in (closures, classes)], ids=lambda f: f.__name__)
def test_decompiled_function_behaves_the_same(fn) -> None:
    source, again = rebuilt(fn)
    for args in FUNCTIONS[fn]:
        assert outcome(again, args) == outcome(fn, args), (args, source)


def test_generator_decompiles_and_yields_the_same() -> None:
    source, again = rebuilt(gen)
    g1, g2 = gen(4), again(4)
    assert [next(g1), g1.send(7), next(g1)] == [next(g2), g2.send(7), next(g2)], source


def test_finally_runs_the_same() -> None:
    source, again = rebuilt(finally_)
    for x in (0, 3):
        l1, l2 = [], []
        assert (finally_(x, l1), l1) == (again(x, l2), l2), source


MODULE = """
import functools


class Point:
    \"\"\"A point.\"\"\"

    scale: int = 3

    def __init__(self, x, y=0):
        self.x = x
        self.y = y

    @functools.lru_cache(maxsize=None)
    def norm(self):
        return abs(self.x) + abs(self.y) * self.scale


def classes(x):
    p = Point(x, 2)
    p.x += 1
    p.y *= 2
    return p.norm(), Point.__doc__, Point.__annotations__


def closures(n):
    acc = []

    def add(v, scale=2):
        nonlocal n
        n += v
        acc.append(v * scale)
        return n

    add(1)
    add(2, scale=3)
    return n, acc, [a * 2 for a in acc if a > 2]
"""


def test_module_with_classes_and_closures() -> None:
    """Nested functions, closures and classes decompile in their module and behave the same."""
    code = compile(MODULE, "<module-source>", "exec", dont_inherit=True)
    out = decompile(code)
    original: dict = {"__name__": "original"}
    exec(code, original)
    decompiled: dict = {"__name__": "decompiled"}
    exec(compile(out, "<decompiled>", "exec", dont_inherit=True), decompiled)
    for name, inputs in (("classes", [(1,), (-4,)]), ("closures", [(0,), (5,)])):
        for args in inputs:
            assert outcome(decompiled[name], args) == outcome(original[name], args), out
    assert all(normalized(p) == normalized(q) for p, q in zip(_tree(code), _tree(compile(out, "x", "exec", dont_inherit=True)))), out


def _tree(code):
    out = [code]
    for k in code.co_consts:
        if isinstance(k, types.CodeType):
            out.extend(_tree(k))
    return out


@pytest.mark.parametrize("fn", [straight, branches, loops, fstrings, unpacking, tries, finally_, globals_, tuple_assignments,
                                set_displays, lambda_statement])
def test_recompiles_to_the_same_instructions(fn) -> None:
    source = decompile(fn)
    assert normalized(recompiled(fn.__code__, source)) == normalized(fn.__code__), source


def test_postponed_annotations() -> None:
    """Under `from __future__ import annotations` an annotation is stored as its source text."""
    src = "from __future__ import annotations\n\ndef f(x: list[int]) -> Optional[str]:\n    y: dict[str, int] = {}\n    return y\n"
    code = compile(src, "<m>", "exec", dont_inherit=True)
    out = decompile(code)
    assert "x: list[int]" in out and "-> Optional[str]" in out, out
    again = compile(out, "<m>", "exec", dont_inherit=True)
    assert [normalized(c) for c in _tree(again)] == [normalized(c) for c in _tree(code)], out


def test_error_names_code_object_and_opcode() -> None:
    def coro(x):
        return x

    # POP_TOP on an empty stack (async with, the example here before, is decompiled now)
    import dis

    c = coro.__code__
    attrs = {k: getattr(c, k) for k in dir(c) if k.startswith("co_")}
    attrs["co_code"] = bytes([dis.opmap["POP_TOP"], 0, dis.opmap["LOAD_CONST"], 0, dis.opmap["RETURN_VALUE"], 0])
    with pytest.raises(DecompileError) as ei:
        decompile(types.SimpleNamespace(**attrs))
    e = ei.value
    assert e.code_name and "coro" in e.code_name and str(e)
    # the message names the bytecode offset (as dis shows it) and the opcode
    assert "offset 0 (POP_TOP)" in str(e), str(e)


def test_mutated_bytecode_gives_errors_not_crashes() -> None:
    rng = random.Random(3)
    codes = [f.__code__ for f in FUNCTIONS] + [gen.__code__, finally_.__code__]
    outcomes: dict = {}
    for _ in range(1500):
        c = rng.choice(codes)
        b = bytearray(c.co_code)
        for _ in range(rng.randrange(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        # a plain object with the code object's attributes: making a real code object of random bytes
        # can crash CPython itself (it quickens co_code on creation)
        attrs = {k: getattr(c, k) for k in dir(c) if k.startswith("co_")}
        attrs["co_code"] = bytes(b)
        mutated = types.SimpleNamespace(**attrs)
        try:
            decompile(mutated)
            key = "ok"
        except (DecompileError, BytecodeError):
            key = "error"
        outcomes[key] = outcomes.get(key, 0) + 1
    assert outcomes.get("error", 0) > 100, outcomes


def test_stdlib_sweep_does_not_regress() -> None:
    """The measurement of issue 3 on this interpreter: a floor against regressions, not the target."""
    report = run_json(sys.executable, "tests/support/decompile_sweep.py")
    stats = report["stats"]
    assert stats["code_objects"] > 70_000
    # 3.11.7, 2026-11-22 (end of session 7): 76,219 of 78,010 identical (97.7%) in the default
    # (in-context) mode; 75,799 at the session's start
    assert stats["identical"] >= 76_250, json.dumps(stats)


def test_private_method_names_in_class_bodies() -> None:
    """`def __f` in class C is stored as `_C__f`: the def keeps its own name (no function-as-value)."""
    src = (
        "class _P:\n"
        "    def __init__(self, n):\n"
        "        self.__n = n\n"
        "    def __setup(self):\n"
        "        return self.__n * 2\n"
        "    def get(self):\n"
        "        return self.__setup()\n"
    )
    code = compile(src, "<private>", "exec")
    out = decompile(code)
    assert "def __setup(self):" in out, out
    ns: dict = {}
    exec(compile(out, "<decompiled>", "exec"), ns)
    assert ns["_P"](21).get() == 42
    again = compile(out, "<private>", "exec")
    assert [normalized(c) for c in _tree(code)] == [normalized(c) for c in _tree(again)]


def _tree(code: types.CodeType) -> list:
    out = [code]
    for k in code.co_consts:
        if isinstance(k, types.CodeType):
            out.extend(_tree(k))
    return out


NAN_CLASS = '''
class Base:
    def f(self):
        return 1


class WithNan(Base):
    # a folded NaN constant (nan != nan as a float) in a class body whose epilogue is stripped
    nan = 1e300 * 1e300 * 0
    zero, negative_zero = 0.0, -0.0

    def f(self):
        return super().f() + 1


RESULT = (WithNan().f(), repr(WithNan.nan), repr(WithNan.negative_zero))
'''


def test_module_with_nan_and_signed_zero_constants() -> None:
    # statements are compared (copies of a block) by their constants' bits: a NaN constant once
    # made that comparison loop forever (in a subprocess, so a hang fails the test)
    script = ("import json, sys, framejit; src = sys.stdin.read(); "
              "out = framejit.decompile(compile(src, 'm', 'exec')); ns = {}; exec(src, ns); ns2 = {}; "
              "exec(compile(out, 'm', 'exec'), ns2); print(json.dumps([ns['RESULT'], ns2['RESULT']]))")
    import subprocess
    from conftest import PYTHON_DIR
    p = subprocess.run([sys.executable, "-c", script], input=NAN_CLASS, capture_output=True, text=True,
                       timeout=60, env={"PYTHONPATH": str(PYTHON_DIR)})
    assert p.returncode == 0, p.stderr[-2000:]
    original, again = json.loads(p.stdout)
    assert original == again == [2, "nan", "-0.0"]
