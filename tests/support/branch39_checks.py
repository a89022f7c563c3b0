"""3.8 / 3.9 `if` and `try` ends read from the jumps the compiler kept (branch branch39,
tests/test_decompile_branch39.py): an `if` whose body ends by raising, `break` or `continue` right
before the code after it had no `else:` (the compiler's dead jump past one would be there); an
`else:` part of a try statement whose clauses all left, named by the clauses' dead way out; an
`else: pass` (a jump to the next instruction); a loop body whose last arm ends with its own
`continue` (the body's closing jump left dead after it). 3.8 cannot import framejit: the cases
are compiled there, decompiled by an interpreter that can, and compiled, compared and run under
3.8 again; on 3.9+ they run here (python SCRIPT).

Modes (pyc / decompile / compare / live) and the checks made: pyc_case_runner; the cases call
its `risky` (RISKY), which raises for some inputs.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyc_case_runner  # noqa: E402

SOURCE = pyc_case_runner.RISKY + '''
def f_loop_if_raise_then_code(x, log):
    n = 0
    while n < abs(x) + 1:
        n += 1
        if n > 2:
            if n == 6:
                raise ValueError(n)
            log.append(("big", n))
        log.append(n)
    return n

def f_arm_raise_then_code(x, log):
    rest = [x, x + 1]
    while rest:
        v = rest.pop()
        if v % 2 == 0:
            if v == 4:
                if not log:
                    raise ValueError(v)
                v, rest = v * 10, rest[1:]
            log.append(("even", v))
        else:
            log.append(("odd", v))
    return rest

def f_else_tail_past_raise_if(x, log):
    n = x * 2
    if x >= 0:
        if n > 8:
            raise IndexError("big")
        return n + 1
    else:
        n += 1
        if n < -8:
            raise IndexError("small")
        return n - 1

def f_try_else_tail_past_raise_if(x, log):
    if x == 0:
        return "zero"
    try:
        v = risky(x, log)
    except KeyError:
        raise ValueError(x) from None
    else:
        if v > 40:
            raise TypeError(v)
        return v

def f_nested_break_no_else(x, log):
    n = 0
    for i in range(x + 3):
        if i % 2:
            if i == x:
                break
            if i > 4:
                n = i
                break
        n += i
    log.append(n)
    return n

def f_continue_then_raise(x, log):
    for k in [1, "a", 2, "b", x]:
        if not isinstance(k, int):
            if x > 3:
                continue
            raise TypeError(k)
        log.append(k)
    return len(log)

def f_try_else_in_loop_clause_breaks(x, log):
    out = []
    for i in range(x + 2):
        if i > 5:
            break
        try:
            v = risky(i, log)
        except KeyError:
            break
        else:
            if i == 3:
                out.extend([v, v])
            else:
                out.append(v)
    return out

def f_try_else_in_if_clause_raises(x, log):
    if x > 0:
        try:
            v = risky(x, log)
        except OSError:
            raise ValueError(x) from None
        else:
            for i in range(v // 10):
                log.append(i)
    else:
        raise KeyError(x)
    return x

def f_else_pass(x, log):
    if x == 3:
        x += 1
    else:
        pass
    return x

def f_else_pass_in_loop(x, log):
    for i in range(x):
        if i % 2:
            log.append(i)
        else:
            pass
        log.append(-i)
    return log

def f_loop_last_arm_continues(x, log):
    items = list(range(x + 2))
    while True:
        if not items:
            return log
        w = items.pop()
        if w % 3:
            log.append(w)
        else:
            log.append(("skip", w))
            continue

def f_for_body_continues(x, log):
    for i in range(x):
        log.append(i)
        continue
    return log

def f_chain_compare_pass(x, log):
    if 1 < x > 1 == 1:
        pass
    if 0 <= x < 4 != x:
        log.append("small")
    return x

def f_if_bare_clause_then_raise(x, log):
    msg = "m"
    if x > 0:
        try:
            msg = msg % risky(x, log)
        except:
            msg = "caught"
    raise SyntaxError(msg)

def f_clause_raises_in_if_with_else(x, log):
    if x >= 0:
        try:
            risky(x, log)
        except KeyError:
            log.append("key")
        except:
            log.append("other")
            raise
    else:
        log.append("negative")
    return x

def f_if_else_ends_loop(x, log):
    ok = True
    for d in [x, 0, x + 1, 3]:
        if (not d or d == 3) and x > 0:
            if x < 2:
                log.append("skip")
        else:
            ok = ok and risky(d + 3, log)
    return ok
'''

INPUTS = [0, 1, 2, 3, 4, 5, 7, -1, -6]


pyc_case_runner.main(SOURCE, "branch39_cases", lambda name: INPUTS, __doc__)
