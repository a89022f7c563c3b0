"""Issue 3 acceptance: the stdlib code objects that do not come back identical are listed, with the
reason each differs, in checked-in files (docs/decompile-differences/<version>.tsv, written by
`decompile_sweep.py --list` and `decompile_sweep_pyc.py compare --list`). These tests check the
classifier on instruction lists of real compiled code, and that each checked-in list is whole:
every code object the sweep did not find identical is on it, with a reason."""

from __future__ import annotations

import re
import sys
import types

import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "tests" / "support"))
from decompile_sweep import normalized  # noqa: E402
from sweep_differences import CLASSES, classify, reason  # noqa: E402

LISTS = sorted((ROOT / "docs" / "decompile-differences").glob("*.tsv"))


def _code(source: str) -> types.CodeType:
    module = compile(source, "<test>", "exec")
    return next(c for c in module.co_consts if isinstance(c, types.CodeType))


def _class(a: str, b: str) -> str:
    return classify(normalized(_code(a)), normalized(_code(b)))


def test_identical_code_has_no_class_but_the_same_instructions() -> None:
    src = "def f(x):\n    return x + 1\n"
    assert normalized(_code(src)) == normalized(_code(src))


@pytest.mark.skipif(sys.version_info < (3, 11), reason="block setups before 3.11 are instructions")
def test_same_instructions_under_another_handler() -> None:
    # 3.11+: an `else:` part runs outside the try's range, the same code at the body's end inside
    # it (its exceptions caught): the instructions agree, the exception table does not
    a = "def f(a):\n    try:\n        a.x()\n    except ValueError:\n        return 1\n    else:\n        return a.y()\n"
    b = "def f(a):\n    try:\n        a.x()\n        return a.y()\n    except ValueError:\n        return 1\n"
    assert _class(a, b) == "exception-ranges"
    status, why = reason(normalized(_code(a)), normalized(_code(b)))
    assert status == "different" and "handled by none -> ->" in why


def test_condition_written_the_other_way_round() -> None:
    a = "def f(x, y):\n    if x in y:\n        g()\n    else:\n        h()\n"
    b = "def f(x, y):\n    if x not in y:\n        h()\n    else:\n        g()\n"
    assert _class(a, b) == "condition-sense"


def test_a_return_copied_into_an_arm() -> None:
    # the end of an `if` with `return None` copied into the arm (as ≤3.11 compilers do for some
    # layouts), against one shared return
    none = ("LOAD_CONST", ("NoneType", "None"))
    ret = ("RETURN_VALUE", ("NoneType", "None"))
    shared = [("LOAD_FAST", ("str", "'x'")), ("POP_JUMP_IF_FALSE", ("->", 4)), ("LOAD_CONST", ("int", "1")),
              ("STORE_FAST", ("str", "'y'")), none, ret]
    copied = shared[:1] + [("POP_JUMP_IF_FALSE", ("->", 6))] + shared[2:] + [none, ret]
    assert classify(shared, copied) == "exits"


def test_other_operations() -> None:
    assert _class("def f(x):\n    return x + 1\n", "def f(x):\n    return x - 1\n") == "instructions"
    status, why = reason(normalized(_code("def f(x):\n    return x + 1\n")),
                         normalized(_code("def f(x):\n    return g(x)\n")))
    assert status == "different" and why.startswith("instructions:") and "at " in why


def test_jumps_alone() -> None:
    x = [("LOAD_FAST", ("str", "'x'")), ("POP_JUMP_IF_FALSE", ("->", 4)), ("LOAD_CONST", ("int", "1")),
         ("RETURN_VALUE", ("NoneType", "None")), ("LOAD_CONST", ("int", "2")), ("RETURN_VALUE", ("NoneType", "None"))]
    moved = [x[0], ("POP_JUMP_IF_FALSE", ("->", 5))] + x[2:]
    assert classify(x, moved) == "jump-targets"
    swapped = [x[0], x[1], x[4], x[5], x[2], x[3]]
    assert classify(x, swapped) == "block-order"
    threaded = x[:4] + [("JUMP_FORWARD", ("->", 6))] + x[4:]
    assert classify(x, threaded) == "branches"
    assert reason(x, None)[0] == "missing"


NESTED_CLASS_CHECK = r"""
import sys, types
sys.path.insert(0, "tests/support")
# (3.8 cannot load framejit, which decompile_sweep imports: only its comparison is used here)
sys.modules.setdefault("framejit", types.SimpleNamespace(DecompileError=Exception, decompile=None))
from decompile_sweep import normalized

def body(src, *path):
    code = compile(src, "<t>", "exec")
    for name in path:
        code = next(c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == name)
    return code

inner = "    class B:\n        def g(self):\n            return 1\n"
nested = body("class A:\n" + inner, "A", "B")
alone = body(inner.replace("\n    ", "\n")[4:], "B")
other = body("class B:\n    def h(self):\n        return 1\n", "B")
print(normalized(nested) == normalized(alone), normalized(nested) == normalized(other))
"""


@pytest.mark.parametrize("minor", [8, 9, 10])
def test_a_class_nested_in_a_class_compares_with_its_body_compiled_alone(minor) -> None:
    # ≤3.10 passes each function's qualified name to MAKE_FUNCTION; the sweep compiles a class body
    # without the class around it, so "A.B.g" there is "B.g": the same function, named from elsewhere.
    # A function of another name still differs.
    from conftest import interpreter, run_python

    p = run_python(interpreter(minor), "-c", NESTED_CLASS_CHECK)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["True", "False"]


SUPER_CHECK = r"""
import sys, types
sys.path.insert(0, "tests/support")
from decompile_sweep import in_context, module_imports, normalized, tree

module = compile("_s = super\nclass A:\n    def f(self):\n        return super().f()\n", "<t>", "exec")
f = next(c for c in tree(module) if c.co_name == "f")
body = "def f(self):\n    return super().f()\n"
def again(names):
    m = compile(in_context(f, body, names), "<t>", "exec")
    return next(c for c in tree(m) if c.co_name == "f")
print(normalized(again(module_imports(module))) == normalized(f), normalized(again(set())) == normalized(f))
"""


@pytest.mark.parametrize("minor", [12, 13, 14])
def test_the_skeleton_knows_super_where_the_module_names_it(minor) -> None:
    # 3.12+ compiles `super().f` to LOAD_SUPER_ATTR only where the module scope does not name `super`
    # (unittest/mock.py: `_safe_super = super`); the skeleton must know it as the module did
    from conftest import interpreter, run_python

    p = run_python(interpreter(minor), "-c", SUPER_CHECK)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["True", "False"]


BORROW_CHECK = """
import sys
sys.path.insert(0, "tests/support")
import types
from decompile_sweep import normalized

def fn(src):
    m = compile(src, "<t>", "exec")
    return next(c for c in m.co_consts if isinstance(c, types.CodeType))

# two lines: `a` plain (it waits across the branch), `b` borrowed, apart; one line: fused,
# neither borrowed
two = fn("def f(a, b, y):\\n    return g(a,\\n             b.c, 1 if y else 2)\\n")
one = fn("def f(a, b, y):\\n    return g(a, b.c, 1 if y else 2)\\n")
other = fn("def f(a, b, y):\\n    return g(b, a.c, 1 if y else 2)\\n")
import dis
ops = [i.opname for i in dis.get_instructions(two)]
assert "LOAD_FAST" in ops and "LOAD_FAST_BORROW" in ops, ops
print(normalized(two) == normalized(one), normalized(two) == normalized(other))
"""


def test_a_pair_of_loads_borrowed_by_line_compares_as_fused() -> None:
    # 3.14 fuses two local loads only on one line, and borrows a fused pair only where it may
    # borrow both: the same source on two lines borrows one load of the pair
    from conftest import interpreter, run_python

    p = run_python(interpreter(14), "-c", BORROW_CHECK)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["True", "False"]


def test_a_method_with_free_variables_is_compiled_in_a_class() -> None:
    # a method named like a global it reads (test_random: `def random(self): ... random.Random...`)
    # must not become a local of the skeleton's function, which the method would then read as a cell
    from decompile_sweep import in_context, tree

    module = compile("import random\ndef outer():\n    seen = []\n    class Sub:\n"
                     "        def random(self):\n            seen.append(1)\n            return random.random()\n",
                     "<t>", "exec")
    method = next(c for c in tree(module) if c.co_name == "random")
    parent = next(c for c in tree(module) if c.co_name == "Sub")
    body = "def random(self):\n    seen.append(1)\n    return random.random()\n"

    def again(parent_of):
        m = compile(in_context(method, body, {"random"}, parent_of), "<t>", "exec")
        return next(c for c in tree(m) if c.co_name == "random")

    assert normalized(again(parent)) == normalized(method)
    assert normalized(again(None)) != normalized(method)


HEADER = re.compile(r"# code objects (\d+), identical (\d+) \([\d.]+%\), listed below (\d+)")


@pytest.mark.parametrize("path", LISTS, ids=lambda p: p.name)
def test_checked_in_list_accounts_for_every_code_object(path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# Python " + path.stem), f"{path.name}: first line names another interpreter"
    total, identical, listed = (int(g) for g in HEADER.fullmatch(lines[1]).groups())
    rows = [line.split("\t") for line in lines if not line.startswith("#")]
    assert all(len(r) == 6 and r[5].strip() for r in rows), "every row has six fields and a reason"
    assert {r[0] for r in rows} <= {"refused", "syntax", "different", "missing"}
    assert all(r[5].split(":", 1)[0] in CLASSES for r in rows if r[0] == "different")
    assert sum(int(r[4]) for r in rows) == listed == total - identical
    per_status = {}
    for r in rows:
        key = r[0] if r[0] != "different" else "different: " + r[5].split(":", 1)[0]
        per_status[key] = per_status.get(key, 0) + int(r[4])
    summary = {k: int(v) for k, v in (line[2:].rsplit(": ", 1) for line in lines[2:] if
                                      line.startswith("# ") and not line.startswith("# status"))}
    assert summary == per_status


def test_there_is_a_list_per_version() -> None:
    assert {p.stem.rsplit(".", 1)[0] for p in LISTS} >= {f"3.{m}" for m in range(8, 15)}, \
        [p.name for p in LISTS]
