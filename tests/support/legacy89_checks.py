"""3.8 / 3.9 layouts of exits (branch legacy89, tests/test_decompile_legacy89.py): a constant
`return` ending a try body (laid out after its last POP_BLOCK, where 3.10 puts an `else:`), the
closing `return None` as the only `return` the compiler adds, and an `if` whose body ends in a
statement every way of which leaves (the dead jump past its `else:` the peephole optimizer keeps
after a `return` only behind a label). 3.8 cannot import framejit: the cases are compiled there,
decompiled by an interpreter that can, and compiled, compared and run under 3.8 again; on 3.9+
they run here (python SCRIPT).

Modes (pyc / decompile / compare / live) and the checks made: pyc_case_runner; the cases call
its `risky` (RISKY), which raises for some inputs.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyc_case_runner  # noqa: E402

SOURCE = pyc_case_runner.RISKY + '''
def f_try_body_returns_none(x, log):
    try:
        risky(x, log)
        log.append("body")
        return
    except KeyError:
        return
    except:
        log.append("other")

def f_try_body_returns_const(x, log):
    try:
        risky(x, log)
        return False
    except KeyError:
        return True
    except OSError:
        log.append("os")

def f_try_body_return_then_code(x, log):
    try:
        risky(x, log)
        return
    except KeyError:
        log.append("key")
    log.append("after")

def f_clause_returns_none(x, log):
    try:
        risky(x, log)
    except KeyError:
        return
    except OSError:
        log.append("os")
    log.append("after")

def f_else_returns_none(x, log):
    try:
        risky(x, log)
    except KeyError:
        log.append("key")
    else:
        return
    log.append("after")

def f_if_else_returns_none(x, log):
    if x > 3:
        log.append("big")
    else:
        return
    log.append(x)

def f_nested_if_returns_else(x, log):
    if x > 2:
        v = risky(x, log)
        if v > 40:
            return [v, v]
        else:
            return v
    else:
        return -x

def f_nested_elif_returns_else_goes_on(x, log):
    if x > 1:
        if x == 3:
            return 1
        elif x > 4:
            return 2
        else:
            return 3
    else:
        log.append("small")
    log.append("after")
    return 0

def f_loop_nested_returns_else(x, log):
    for i in range(x):
        if i > 2:
            if i == 4:
                return "four"
            else:
                return "more"
        else:
            log.append(i)
    log.append("done")
    return x

def f_if_try_all_leave_else(x, log):
    if x > 0:
        try:
            return risky(x, log)
        except:
            return "caught"
    else:
        log.append("none")
    log.append("after")

def f_while_ends_with_return_if(x, log):
    n = 0
    while n < x:
        n += 1
        log.append(n)
        if n == 5:
            log.append("five")
            return "five"
    return n

def f_while_ends_with_raise_if(x, log):
    n = 0
    while n < x:
        n += 1
        if risky(n, log) > 30:
            raise ValueError(n)
    return n

def f_while_true_clause_breaks(x, log):
    n = abs(x) + 1
    while True:
        try:
            v = risky(n, log)
        except KeyError:
            break
        log.append(v)
        n -= 1

def f_while_true_clause_breaks_then_code(x, log):
    n = abs(x) + 2
    while True:
        try:
            v = risky(n, log)
        except (KeyError, OSError):
            break
        log.append(v)
        n -= 1
    log.append("after")
    return n

def f_try_body_ends_in_returning_if_else(x, log):
    try:
        a, b = risky(x, log), x - 4
        if b > 0:
            return a
        else:
            return a + b
    except (KeyError, ValueError):
        raise TypeError("no") from None

def f_finally_body_returns_const(x, log):
    try:
        risky(x, log)
        return 1
    finally:
        log.append("fin")

def f_finally_body_returns_none(x, log):
    try:
        log.append(risky(x, log))
        return
    finally:
        log.append("fin")

def f_finally_then_return_const(x, log):
    try:
        risky(x, log)
    finally:
        log.append("fin")
    return 1
'''

INPUTS = [0, 1, 2, 3, 4, 5, 7, -1]


pyc_case_runner.main(SOURCE, "legacy89_cases", lambda name: INPUTS, __doc__)
