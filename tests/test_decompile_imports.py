"""`import a.b.c as d` (three or more parts, bound to a name): the compiler reads each part after the
first with IMPORT_FROM, popping the module in between (SWAP / ROT_TWO, POP_TOP). It was refused ("a
module popped without being stored"). The module below is decompiled, compiled again, compared
instruction by instruction (module and nested function) and run: the names must be bound to the same
modules."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json

SOURCE = '''
import os.path as osp
import xml.etree.ElementTree as ET
import importlib.machinery
from os import path as p2
import email.mime.text as emt
import xml.dom as dom


def inner():
    import xml.dom.minidom as md
    import os.path as q
    return md.__name__, q.__name__


RESULT = (osp.__name__, ET.__name__, emt.__name__, p2.__name__, dom.__name__, inner())
'''

SCRIPT = r"""
import json, sys, types
sys.path.insert(0, "tests/support")
import decompile_sweep as sweep
import framejit
source = sys.argv[1]
code = compile(source, "<imports>", "exec")
out = framejit.decompile(code)
again = compile(out, "<imports>", "exec")
codes = lambda c: [c] + [k for k in c.co_consts if isinstance(k, types.CodeType)]
same = [sweep.normalized(a) == sweep.normalized(b) for a, b in zip(codes(code), codes(again))]
ns1, ns2 = {}, {}
exec(code, ns1)
exec(again, ns2)
print(json.dumps({"same": same, "want": repr(ns1["RESULT"]), "got": repr(ns2["RESULT"]), "source": out}))
"""


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_dotted_import_as(minor: int) -> None:
    r = run_json(interpreter(minor), "-c", SCRIPT, SOURCE)
    assert r["want"] == r["got"], r["source"]
    assert r["same"] and all(r["same"]), r["source"]
    assert "import xml.etree.ElementTree as ET" in r["source"], r["source"]


CLASS_SOURCE = '''
import sys


class C:
    x = 1
    if sys.version_info > (3, 0):
        def f(self):
            self.a = 1
    else:
        y = 2


class D:
    def nan(self):
        return repr(1e300 * 1e300 * 0)

    if len(sys.argv) > 100:
        z = 1
    w = 2
    if sys.maxsize:
        pass


RESULT = (C.x, hasattr(C, "f"), hasattr(C, "y"), hasattr(D, "z"), D.w)
'''


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_class_body_ending_in_if(minor: int) -> None:
    """A class body whose last statement is an `if`: 3.12+ copy the body's `return None` (3.13+ with
    the `__static_attributes__` epilogue) into each arm; it printed as `return None` inside the class
    body, which does not compile."""
    # (D's body holds a NaN constant, folded by 3.13+: a loop that compared statements to see whether
    # stripping changed anything never ended, NaN being unequal to itself)
    r = run_json(interpreter(minor), "-c", SCRIPT, CLASS_SOURCE, timeout=60)
    assert r["want"] == r["got"], r["source"]
    assert "return None" not in r["source"], r["source"]
    assert r["same"] and all(r["same"]), r["source"]
