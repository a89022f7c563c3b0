"""3.8 / 3.9 exits as the source wrote them (branch exits17, tests/test_decompile_exits17.py).

3.8 / 3.9 write the closing `return None` once, as a function's last instructions, and copy it
nowhere: a `return` ending an except clause or an `else:` arm is the source's own, and the
structurer marks the one statement the closing instructions come out as
(crates/decompile/src/structure/closing_return.rs). Also the `else:` part of a try/except whose
body never completes, reached only by the body's dead way out (structure/dead_else.rs).

Modes (pyc / decompile / compare / live) and the checks made: pyc_case_runner; the cases call
its `risky` (RISKY), which raises for some inputs.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyc_case_runner  # noqa: E402

SOURCE = pyc_case_runner.RISKY + '''
class CM:
    def __init__(self, log, swallow=False):
        self.log = log
        self.swallow = swallow
    def __enter__(self):
        self.log.append("enter")
        return self
    def __exit__(self, t, v, tb):
        self.log.append(("exit", t.__name__ if t else None))
        return self.swallow

def f_clause_return_ends_function(x, log):
    try:
        if x > 2:
            risky(x, log)
        log.append("body")
    except KeyError:
        return
    except OSError:
        log.append("os")

def f_single_clause_return(x, log):
    try:
        if x > 2:
            risky(x, log)
    except OSError:
        return

def f_while_true_clause_return(x, log):
    try:
        while True:
            risky(x, log)
            x = max(x - 1, 1)
    except KeyError:
        return

def f_clause_return_none_written(x, log):
    try:
        risky(x, log)
    except (KeyError, OSError):
        log.append("caught")
        return None

def f_generator_clause_return(x, log):
    def gen(n):
        i = 0
        try:
            while True:
                if i >= n:
                    raise IndexError(i)
                yield i
                i += 1
        except IndexError:
            return
    return list(gen(x))

def f_try_pass_then_elif_else_return_none(x, log):
    if x > 3:
        try:
            return risky(x, log)
        except KeyError:
            pass
    elif x == 1:
        return x
    else:
        return None

def f_with_return_else_return_none(x, log):
    if x != 1:
        with CM(log, swallow=x == 2) as c:
            log.append(risky(x, log))
            return c.swallow
    else:
        return None

def f_with_return_none_at_end(x, log):
    with CM(log, swallow=x == 2):
        risky(x, log)
        log.append("in")
        return

def f_if_arm_falls_off_else_code(x, log):
    if x > 4:
        try:
            risky(x, log)
        except KeyError:
            pass
    else:
        log.append("else")
        return None

def f_raising_body_else(x, log):
    try:
        raise KeyError(x)
    except KeyError:
        log.append("caught")
    else:
        log.append("never")
    log.append("after")

def f_raising_body_else_named(x, log):
    try:
        risky(1, log)
        raise OSError(x)
    except KeyError as e:
        log.append(str(e))
    else:
        log.append("never")
        return "else"
    return x

def f_while_true_try_else_break_then_code(x, log):
    n = 0
    while True:
        try:
            v = risky(x - n, log)
        except KeyError:
            log.append("retry")
            n += 1
            if n > 3:
                raise
        else:
            break
    return (v, n)

def f_while_true_try_break_then_code(x, log):
    n = x
    while True:
        try:
            v = risky(n, log)
            break
        except (KeyError, OSError):
            n += 5
    log.append(("after", n))
    return v

def f_while_true_try_break_ends_function(x, log):
    n = x
    while True:
        try:
            log.append(risky(n, log))
            break
        except KeyError:
            n -= 2

def f_nested_clause_returns(x, log):
    table = {0: "zero", 30: "thirty"}
    try:
        v = table[x]
    except KeyError:
        if x < 0:
            return
        try:
            v = table[risky(x, log)]
        except KeyError:
            log.append("inner")
            return
    return v

def f_nested_named_clause_returns(x, log):
    try:
        risky(x, log)
    except (KeyError, OSError) as e:
        log.append(type(e).__name__)
        try:
            risky(x + 1, log)
        except KeyError as e2:
            log.append(str(e2))
            return "inner"
    return "end"

def f_named_clause_raises_else_returns(x, log):
    try:
        risky(x, log)
    except KeyError as e:
        log.append("key")
        raise ValueError(str(e))
    else:
        return x

def f_named_clause_raises_then_return(x, log):
    try:
        risky(x, log)
    except KeyError as e:
        log.append("key")
        raise ValueError(str(e))
    return x
'''

INPUTS = [0, 1, 2, 3, 4, 5, 7, -1]


if __name__ == "__main__":
    pyc_case_runner.main(SOURCE, "exits17_cases", lambda name: INPUTS, __doc__)
