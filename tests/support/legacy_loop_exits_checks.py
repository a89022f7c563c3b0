"""≤3.9 loop bodies that end in a statement leaving the loop from inside it: an `if` whose body ends
by `break` (the arms meet only after the loop), `if c: break` followed by more of the body, and a
try/except whose clauses fall off the end of the body (3.8/3.9 thread the clauses' jump to the end
of the statement straight to the header); and functions whose every way out is a written `return`
(the compiler's own closing `return None` is dead after them).
Compiled from source under 3.8 or 3.9 into a .pyc, decompiled by an interpreter with framejit,
compiled, compared and run by the .pyc's interpreter again.

    python3.X legacy_loop_exits_checks.py pyc OUT.pyc           write the cases as a .pyc
    python legacy_loop_exits_checks.py decompile X.pyc OUT.json (with framejit) the f_* functions
    python3.X legacy_loop_exits_checks.py compare OUT.json      compile, compare, run both

Each f_* function takes (x, log) and runs on several x, some making risky() raise; results,
exceptions and the side-effect logs must be equal.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyc_case_runner  # noqa: E402

SOURCE = '''
def risky(x, log):
    log.append(("risky", x))
    if x % 5 == 1:
        raise KeyError(x)
    if x % 7 == 2:
        raise ZeroDivisionError("zero")
    return x * 10

def f_nested_break(x, log):
    for i in range(x + 3):
        if i % 2:
            log.append(i)
            if i > x:
                break
    return "end"

def f_nested_break_else(x, log):
    flags = x
    for i in range(6):
        flag = 1 << i
        if flags & flag:
            log.append(flag)
            flags ^= flag
            if not flags:
                break
    else:
        log.append(("left", flags))
    return flags

def f_while_nested_break(x, log):
    n = 0
    while n < 10:
        n += 1
        if n % 3:
            log.append(n)
            if n > x:
                break
    return n

def f_break_then_rest(x, log):
    idx = 0
    for i in range(x + 4):
        if idx >= x:
            break
        if i % 2:
            idx += 1
            log.append(i)
    return idx

def f_break_in_arm_then_rest(x, log):
    for i in range(x + 4):
        if i > x:
            log.append("stop")
            break
        log.append(i)
    else:
        log.append("all")
    return "arm"

def f_while_break_then_rest(x, log):
    n = 0
    while n < 9:
        n += 1
        if n > x:
            break
        log.append(n)
    return n

def f_return_none_else(x, log):
    if x % 2:
        log.append("odd")
        return x
    else:
        return None

def f_return_none_elif(x, log):
    if x is None:
        return None
    elif x > 3:
        return risky(x, log)
    else:
        return None

def f_return_none_clause(x, log):
    try:
        return risky(x, log)
    except KeyError:
        return None

def f_except_pass_else(x, log):
    for i in range(x + 2):
        try:
            v = risky(i, log)
        except KeyError:
            pass
        else:
            log.append(v)
    return "done"

def f_except_as_else(x, log):
    for i in range(x + 2):
        try:
            v = risky(i, log)
        except KeyError as e:
            log.append(("key", e.args))
        else:
            log.append(v)
    return "done"

def f_bare_except_else(x, log):
    for i in range(x + 2):
        try:
            v = risky(i, log)
        except:
            log.append("any")
        else:
            log.append(v)
    return 2

def f_two_clauses_else(x, log):
    for i in range(x + 2):
        try:
            v = risky(i, log)
        except KeyError:
            pass
        except ZeroDivisionError:
            log.append("zero")
        else:
            log.append(v)
            if v > 30:
                break
    return "two"

def f_while_except_else(x, log):
    n = 0
    while n < x + 2:
        n += 1
        try:
            v = risky(n, log)
        except KeyError:
            log.append("k")
        else:
            log.append(v)
    return n

def f_except_continue(x, log):
    for i in range(x + 2):
        try:
            v = risky(i, log)
        except KeyError:
            continue
        log.append(v)
    return "cont"

def f_except_as_continue(x, log):
    for i in range(x + 2):
        try:
            v = risky(i, log)
        except KeyError as e:
            continue
        log.append(v)
    return "cont"

def f_except_pass_after(x, log):
    for i in range(x + 2):
        try:
            v = risky(i, log)
        except KeyError:
            v = -1
        log.append(v)
    return "after"

def f_if_try_else(x, log):
    for i in range(x + 2):
        if i % 2 == 0:
            try:
                v = risky(i, log)
            except KeyError:
                pass
            else:
                log.append(v)
    return "if"
'''

INPUTS = [0, 1, 2, 3, 4, 7, 12]


pyc_case_runner.main(SOURCE, "legacy_loop_exits_cases", lambda name: INPUTS, __doc__)
