"""CPython 3.8's finally blocks (BEGIN_FINALLY / CALL_FINALLY / END_FINALLY), with statements
(WITH_CLEANUP_START / WITH_CLEANUP_FINISH), `except ... as name` and the unpacking opcodes
(BUILD_*_UNPACK*), read from a .pyc: 3.8 cannot import framejit, so the cases are compiled there,
decompiled by an interpreter that can, and compiled, compared and run under 3.8 again.

    python3.8 py38_checks.py pyc OUT.pyc              write the cases as a .pyc
    python py38_checks.py decompile X.pyc OUT.json    (with framejit) decompile the f_* functions
    python3.8 py38_checks.py compare OUT.json         compile, compare instructions, run both

Each f_* function takes (x, log) and is run on several x, some of which make risky() raise; the
results, exceptions (type, message, cause) and the side-effect log must be equal.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyc_case_runner  # noqa: E402

SOURCE = '''
class Boom(Exception):
    pass

class CM:
    def __init__(self, log, tag, swallow=False):
        self.log, self.tag, self.swallow = log, tag, swallow
    def __enter__(self):
        self.log.append(("enter", self.tag))
        return self.tag
    def __exit__(self, t, v, tb):
        self.log.append(("exit", self.tag, t.__name__ if t else None))
        return self.swallow and t is Boom

def risky(x, log):
    log.append(("risky", x))
    if x == 1:
        raise KeyError(x)
    if x == 2:
        raise Boom("boom")
    if x == 3:
        raise ZeroDivisionError("zero")
    return x * 10

def f_finally(x, log):
    try:
        risky(x, log)
    finally:
        log.append("fin")
    return "end"

def f_return_in_finally_body(x, log):
    try:
        return risky(x, log)
    finally:
        log.append("fin")

def f_finally_if(x, log):
    try:
        y = risky(x, log)
    finally:
        if x > 4:
            log.append("big")
        else:
            log.append("small")
    return y

def f_finally_loop_break(x, log):
    for i in range(x + 2):
        try:
            if i == 3:
                break
            risky(i, log)
        finally:
            log.append(("fin", i))
    return "done"

def f_finally_loop_continue(x, log):
    n = 0
    while n < x + 2:
        n += 1
        try:
            if n % 2:
                continue
            log.append(n)
        finally:
            log.append(("fin", n))
    return n

def f_finally_nested(x, log):
    try:
        try:
            risky(x, log)
        finally:
            log.append("inner")
    finally:
        log.append("outer")
    return 1

def f_finally_in_finally(x, log):
    try:
        risky(x, log)
    finally:
        try:
            risky(x + 1, log)
        finally:
            log.append("fin2")
    return 2

def f_except_finally(x, log):
    try:
        r = risky(x, log)
    except KeyError as e:
        r = ("key", e.args)
    finally:
        log.append("fin")
    return r

def f_except_as(x, log):
    try:
        risky(x, log)
    except (KeyError, Boom) as e:
        log.append(type(e).__name__)
    return 3

def f_except_as_return(x, log):
    try:
        return risky(x, log)
    except KeyError as e:
        return e.args
    except Boom:
        return "boom"

def f_except_as_loop(x, log):
    out = []
    for i in range(x + 1):
        try:
            out.append(risky(i, log))
        except ZeroDivisionError as e:
            out.append(str(e))
            break
        except KeyError as e:
            continue
    return out

def f_with(x, log):
    with CM(log, "a") as t:
        log.append(t)
        risky(x, log)
    return 4

def f_with_swallow(x, log):
    with CM(log, "s", True):
        risky(x, log)
    return 5

def f_with_return(x, log):
    with CM(log, "r", True) as t:
        return risky(x, log), t
    return "swallowed"

def f_with_loop_break(x, log):
    for i in range(4):
        with CM(log, i):
            if i == x:
                break
            log.append(i)
    return i

def f_with_two(x, log):
    with CM(log, "a") as a, CM(log, "b", True) as b:
        risky(x, log)
        log.append((a, b))
    return 6

def f_with_in_finally(x, log):
    try:
        risky(x, log)
    finally:
        with CM(log, "f"):
            log.append("in")
    return 7

def f_try_in_with(x, log):
    with CM(log, "w", True):
        try:
            risky(x, log)
        except KeyError:
            log.append("k")
        finally:
            log.append("fin")
    return 8

def f_while_else(x, log):
    n = 0
    while n < x:
        n += 1
        if n == 2:
            continue
        log.append(n)
    else:
        log.append("else")
    return n

def f_while_try(x, log):
    n = 0
    while n < x:
        n += 1
        try:
            risky(n, log)
        except KeyError:
            log.append("k")
        finally:
            log.append(("fin", n))
    return n

def f_try_else_return(x, log):
    try:
        v = risky(x, log)
    except KeyError:
        return "key"
    except ZeroDivisionError as e:
        raise ValueError(x) from e
    else:
        log.append(v)
        return v

def f_if_else_return(x, log):
    if x == 1:
        return "one"
    else:
        if risky(x, log) > 30:
            log.append("big")
        return x

def f_unpack(x, log):
    a, b = [x, 1], (2, x)
    k = {"p": x}
    log.append(((*a, *b), [*a, 3, *b], {*a, *b}, {**k, "q": 1}))
    return risky(*a[:1], log, *[]), dict(**k, **{"r": 2}), max(*a, *b), dict(**{"2": x, '"': 1})
'''

INPUTS = [0, 1, 2, 3, 4, 7]


pyc_case_runner.main(SOURCE, "py38_cases", lambda name: INPUTS, __doc__)
