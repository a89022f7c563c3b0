"""Shapes of 3.8-3.10 block-stack bytecode (SETUP_FINALLY / POP_BLOCK) that the legacy branch
reads back: each case is a function of one argument, decompiled, compiled again, its normalized
instructions compared with the original's, and original and recompiled function run on several
inputs (some raise): results, exceptions (with their `__context__`) and printed output must agree.

Run with PYTHONPATH=python:  python tests/support/legacy_shapes_checks.py [--show NAME]
Prints one JSON object: per case, whether it decompiled, compiled, is identical, behaved the same."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import textwrap
import traceback
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_sweep import normalized  # noqa: E402

from case_runner import case_functions, run_case  # noqa: E402
from framejit import DecompileError, decompile  # noqa: E402

HELPERS = '''
def boom(x):
    """Raise for some inputs: 0 divides by zero, a string is a TypeError, negative a KeyError."""
    if isinstance(x, str):
        raise TypeError(x)
    if x < 0:
        raise KeyError(x)
    return 10 // x

def pair(x):
    return boom(x), x

class Meta(type):
    def __new__(mcls, name, bases, ns, **kw):
        ns["made_by"] = "Meta" + repr(sorted(kw))
        return super().__new__(mcls, name, bases, ns)
'''

CASES = '''
def class_with_metaclass(x):
    class C(metaclass=Meta):
        v = x
        def get(self):
            return self.v
    return C.made_by, C().get()

def class_with_keywords(x):
    class C(int, metaclass=Meta, flag=x):
        pass
    return C.made_by, C(3)

def else_leaves(x):
    try:
        a, b = pair(x)
    except (ZeroDivisionError, KeyError):
        pass
    else:
        print(a)
        return a, b
    return "after"

def else_if_leaves(x):
    try:
        size = boom(x)
    except (TypeError, KeyError):
        pass
    else:
        if size > 2:
            return size
    return "after"

def body_returns(x):
    try:
        return boom(x)
    except (ZeroDivisionError, KeyError):
        pass
    return "after"

def else_leaves_in_loop(xs):
    for x in xs:
        try:
            v = boom(x)
        except KeyError:
            pass
        else:
            return v
        print("next", x)
    return "none"

def clause_raises_else_leaves(x):
    try:
        v = boom(x)
    except ZeroDivisionError:
        if x == 0:
            raise
    else:
        if v > 3:
            return v
        raise ValueError(v)
    return "after"

def try_else_in_if(x):
    state = None
    if x != 5:
        try:
            boom(x)
        except ZeroDivisionError:
            state = False
        else:
            state = True
    return state

def try_raising_clause_in_else_arm(x):
    if not x or x == 1:
        d = "default"
    else:
        try:
            d = boom(x)
        except KeyError:
            raise ValueError(x) from None
    x = repr(x)
    return d, x

def finally_if(x):
    log = []
    try:
        log.append(boom(x))
    finally:
        if x:
            log.append("f")
        print(log)

def finally_final_if(x):
    log = []
    try:
        log.append(boom(x))
    finally:
        if log:
            print("closing", log)

def except_finally_if(x):
    log = []
    if x != 7:
        try:
            log.append(boom(x))
        except (ZeroDivisionError, KeyError):
            log.append("e")
        finally:
            if x != 2:
                print("f", log)

def return_from_for_in_finally(xs):
    log = []
    try:
        for x in xs:
            if x > 1:
                return x
            log.append(x)
    finally:
        print(log)

def return_from_for_finally_rebinds(xs):
    x = None
    try:
        for x in xs:
            if x > 1:
                return x
    finally:
        x = "finally"
        print(x)
'''

# module code: 3.10 copies the end of the code (`return None`) into a final loop's `break` and a
# final with body's try `else:`, which module code cannot spell as `return`
MODULES = {
    "module_loop_break": '''
import contextlib
log = []
n = 0
if __name__ == "legacy_cases":
    while True:
        n += 1
        try:
            if n < 3:
                raise KeyError(n)
        except KeyError:
            log.append(n)
            continue
        else:
            break
    print(log, n)
''',
    "module_with_try_else": '''
import contextlib
log = []
with contextlib.suppress(ZeroDivisionError):
    log.append(1)
    try:
        v = len(log)
    except TypeError:
        log.append("t")
        raise
    else:
        if v:
            log.append("v")
        print(log)
''',
}

INPUTS = [0, 1, 2, 5, 7, -1, "s"]
LOOP_INPUTS = [[], [0], [1, 2, 3], [-1, 4], [1, 0, 3], [3, -1, 2], ["s"]]
LOOPS = {"else_leaves_in_loop", "return_from_for_in_finally", "return_from_for_finally_rebinds"}


def describe(e: BaseException) -> list:
    """An exception's type and arguments, and its context's (which exception was being handled)."""
    out = [type(e).__name__, repr(e.args)]
    if e.__context__ is not None:
        out.append(["context", type(e.__context__).__name__, repr(e.__context__.args)])
    return out


def call(fn, arg) -> list:
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            r = ["ok", repr(fn(arg))]
    except Exception as e:  # noqa: BLE001 - what it raises is compared
        r = ["raised", describe(e)]
    return r + [buf.getvalue()]


def namespace() -> dict:
    ns = {"__name__": "legacy_cases"}
    exec(compile(HELPERS, "<helpers>", "exec"), ns)
    return ns


def run_module(code) -> list:
    buf = io.StringIO()
    ns = {"__name__": "legacy_cases"}
    try:
        with contextlib.redirect_stdout(buf):
            exec(code, ns)
        r = ["ok"]
    except Exception as e:  # noqa: BLE001 - what it raises is compared
        r = ["raised", describe(e)]
    return r + [buf.getvalue()]


def module_case(text: str) -> dict:
    res = {"decompiled": False, "compiled": False, "identical": False, "behaviour": None}
    code = compile(textwrap.dedent(text), "<module>", "exec")
    try:
        src = decompile(code)
    except DecompileError as e:
        res["error"] = str(e)
        return res
    res["decompiled"] = True
    res["source"] = src
    try:
        again = compile(src, "<module>", "exec")
    except SyntaxError as e:
        res["error"] = f"syntax: {e}"
        return res
    res["compiled"] = True
    res["identical"] = normalized(code) == normalized(again)
    x, y = run_module(code), run_module(again)
    res["behaviour"] = "equal" if x == y else "different"
    if x != y:
        res["diffs"] = [{"original": x, "decompiled": y}]
    return res


def main() -> None:
    warnings.simplefilter("ignore")
    show = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--show" else None
    ns = namespace()
    names = case_functions(CASES, ns)
    if show:
        names = [show]
    results = {}
    for name in names:
        results[name] = run_case(name, ns, namespace, LOOP_INPUTS if name in LOOPS else INPUTS, call)
    for name, text in MODULES.items():
        if show and name != show:
            continue
        results[name] = module_case(text)
    if show:
        print(results[show].get("source") or results[show].get("error"))
        print(json.dumps(results[show], indent=1))
        return
    print(json.dumps({"version": list(sys.version_info[:2]), "cases": results}))


if __name__ == "__main__":
    try:
        main()
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        sys.exit(1)
