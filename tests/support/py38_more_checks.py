"""CPython 3.8 jump layouts read back as written (tests/test_decompile_py38_more.py): an `if` whose
body raises, with or without `else:` (the dead jump past an `else:` the compiler leaves after a
`raise` / `continue`), an `if` ending a loop body whose body leaves (its false arm jumps straight
back to the loop's header), and except clauses that may re-raise (no join of the clauses with the
normal path). 3.8 cannot import framejit: the cases are compiled there, decompiled by an
interpreter that can, and compiled, compared and run under 3.8 again.

Modes (pyc / decompile / compare / live) and the checks made: pyc_case_runner; the cases call
its `risky` (RISKY), which raises for some inputs.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyc_case_runner  # noqa: E402

SOURCE = pyc_case_runner.RISKY + '''
def f_raise_no_else(x, log):
    if x < 5:
        if x == 1:
            raise KeyError(x)
        log.append("small")
    if x > 2:
        log.append("big")
    return x

def f_raise_else(x, log):
    if x == 1:
        raise KeyError(x)
    else:
        log.append("else")
    return x + 1

def f_raise_else_nested(x, log):
    if x:
        if x == 3:
            raise ValueError(x)
        else:
            x = x * 2
        log.append(x)
        return x
    return -1

def f_raise_else_at_end(x, log):
    if x == 4:
        raise ValueError("four")
    else:
        log.append(x)

def f_loop_if_return(x, log):
    for i in range(x):
        log.append(i)
        if i not in (0, 1, 2, 3):
            return False
    return True

def f_loop_if_raise(x, log):
    for i in range(x):
        if i > 4:
            raise IndexError(i)
    return x

def f_while_if_return(x, log):
    n = 0
    while n < x:
        n += 1
        if n == 5:
            return "five"
    return n

def f_loop_raise_else(x, log):
    out = []
    for i in range(x):
        if i == 5:
            raise ValueError(i)
        else:
            out.append(i)
    return out

def f_loop_continue_else(x, log):
    out = []
    for i in range(x):
        if i == 1:
            out.append(i)
        elif i % 2:
            continue
        else:
            log.append(i)
    return out

def f_except_may_raise(x, log):
    try:
        risky(x, log)
    except KeyError:
        if x == 1:
            raise
    log.append("after")

def f_except_as_may_raise(x, log):
    if x is not None:
        try:
            risky(x, log)
        except OSError as why:
            if why.args[0] not in (1, 3):
                raise

def f_except_two_may_raise(x, log):
    try:
        v = risky(x, log)
    except KeyError:
        if x > 5:
            raise
        v = "k"
    except OSError:
        if x == 2:
            raise
        v = "o"
    return v

def f_except_loop_may_raise(x, log):
    for i in range(x):
        try:
            risky(i, log)
        except KeyError:
            if x == 3:
                raise
    return x
'''

INPUTS = [0, 1, 2, 3, 4, 5, 7]


pyc_case_runner.main(SOURCE, "py38_more_cases", lambda name: INPUTS, __doc__)
