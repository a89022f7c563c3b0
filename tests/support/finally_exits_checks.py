"""try/finally left by return / break / continue, and finally bodies that swallow or override
(`return` / `break` / `continue` inside `finally:`, a finally body that raises), decompiled,
recompiled and run: every case below is a function of one argument in one such shape. Each is
decompiled, the source compiled again, the normalized instruction sequences compared, and original
and recompiled function run on several inputs (some of which raise): results, exceptions (with
their `__context__`), and what they log must be equal.

Run with PYTHONPATH=python:  python tests/support/finally_exits_checks.py [--show NAME]
Prints one JSON object: per case, whether it decompiled, compiled, is identical, and behaved the
same (with details where not)."""

from __future__ import annotations

import json
import os
import sys
import traceback
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from case_runner import case_functions, run_case  # noqa: E402


HELPERS = '''
def boom(x):
    """Raise for some inputs: 0 divides by zero, a string is a TypeError, negative a KeyError."""
    if isinstance(x, str):
        raise TypeError(x)
    if x < 0:
        raise KeyError(x)
    return 10 // x
'''

CASES = '''
def finally_pass(x):
    # an empty finally body: its copies on the ways out are empty (3.11+ refused it until
    # session 15, looking for a `pass` before the implicit `return None`)
    try:
        boom(x)
    finally:
        pass

def finally_pass_return(x):
    try:
        return boom(x)
    finally:
        pass

def continue_in_for(xs):
    log = []
    for x in xs:
        try:
            if x % 2:
                continue
            log.append(x)
        finally:
            log.append("f%d" % x)
    return log

def break_in_for(xs):
    log = []
    for x in xs:
        try:
            if x > 3:
                break
            log.append(x)
        finally:
            log.append("f")
    return log

def return_in_body(x):
    log = []
    try:
        if x:
            return 1
        log.append(x)
    finally:
        log.append("f")
    return log

def continue_in_while(n):
    i = 0
    log = []
    while i < n:
        i += 1
        try:
            if i == 2:
                continue
            log.append(i)
        finally:
            log.append("f")
    return log

def continue_and_break(xs):
    log = []
    for x in xs:
        try:
            if x == 2:
                continue
            if x > 4:
                break
            log.append(boom(x))
        finally:
            log.append("f")
    return log

def continue_elif(xs):
    log = []
    for x in xs:
        try:
            if x == 1:
                log.append("one")
                continue
            elif x == 2:
                log.append("two")
            else:
                log.append(boom(x))
        finally:
            log.append("f")
    return log

def while_true_continue(n):
    i = 0
    log = []
    while True:
        i += 1
        try:
            if i == 2:
                continue
            if i > n:
                break
            log.append(i)
        finally:
            log.append("f")
    return log

def nested_finally_return(x):
    log = []
    try:
        try:
            return boom(x)
        finally:
            log.append("in")
    finally:
        log.append("out")
        print(log)

def except_finally_return(x):
    log = []
    try:
        return boom(x)
    except ZeroDivisionError:
        log.append("e")
        return "handled"
    finally:
        log.append("f")
        print(log)

def except_finally_continue(xs):
    log = []
    for x in xs:
        try:
            log.append(boom(x))
        except ZeroDivisionError:
            log.append("zero")
            continue
        finally:
            log.append("f")
        log.append("after")
    return log

def finally_return(x):
    try:
        return "try"
    finally:
        if x:
            return "finally"

def finally_return_after_raise(x):
    try:
        boom(x)
    finally:
        return "swallowed"

def finally_break(x):
    for _ in range(1):
        try:
            raise ValueError(x)
        finally:
            if x:
                break
    return "after"

def finally_continue(xs):
    out = []
    for x in xs:
        try:
            out.append(boom(x))
        finally:
            if x == 0:
                continue
    return out

def finally_raises(x):
    try:
        print(boom(x))
    finally:
        raise ValueError(x)

def finally_raises_in_if(x):
    try:
        print(boom(x))
    finally:
        if x == 1:
            raise ValueError(x)
        raise KeyError(x)

def return_through_raising_finally(x):
    try:
        try:
            return boom(x)
        finally:
            raise ValueError(x)
    except ValueError as e:
        return repr(e), repr(e.__context__)

def try_in_finally(x):
    log = []
    try:
        log.append(boom(x))
    finally:
        try:
            log.append(len(x))
        except TypeError:
            log.append("no len")
    return log

def finally_in_finally(x):
    log = []
    try:
        log.append(boom(x))
    finally:
        try:
            log.append("inner")
        finally:
            log.append("inner f")
    return log
'''

INPUTS = [0, 1, 2, 5, -1, "s"]
LOOP_INPUTS = [[], [0], [1, 2, 3], [2, 4, 6], [1, 0, 3], [3, -1, 2], [5, 1, 0]]
LOOPS = {"continue_in_for", "break_in_for", "continue_and_break", "continue_elif",
         "except_finally_continue", "finally_continue"}


def describe(e: BaseException):
    """An exception's type and arguments, and its context's (which exception was being handled)."""
    out = [type(e).__name__, repr(e.args)]
    if e.__context__ is not None:
        out.append(("context", type(e.__context__).__name__, repr(e.__context__.args)))
    return out


def call(fn, arg):
    import contextlib
    import io
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            r = ["ok", repr(fn(arg))]
    except BaseException as e:  # noqa: BLE001 - every outcome is compared
        r = ["raised", describe(e)]
    return r + [buf.getvalue()]


def namespace() -> dict:
    ns = {"__name__": "finally_cases"}
    exec(compile(HELPERS, "<helpers>", "exec"), ns)
    return ns


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
    if show:
        print(results[show].get("source") or results[show].get("error"))
        print(json.dumps(results[show], indent=1))
        return
    print(json.dumps({"version": list(sys.version_info[:2]), "cases": results}))


if __name__ == "__main__":
    try:
        main()
    except Exception:
        traceback.print_exc()
        sys.exit(1)
