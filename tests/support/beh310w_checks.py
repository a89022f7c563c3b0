"""≤3.10 with statements whose body never completes, and ways out of with bodies in loops (branch
beh310w, tests/test_decompile_beh310w.py). The code after such a with statement runs only where
`__exit__` suppressed the body's exception; the body's own last `return` / `continue` (its exit
call copied in front of it) must stay in the body. Code the compiler copied after a way out's exit
call (3.10: the code after a loop, copied into a `break`) runs after `__exit__` and must not be
read into the body. 3.8 cannot import framejit: the cases are compiled there, decompiled by an
interpreter that can, and compiled, compared and run under 3.8 again; on 3.9+ they run here.

    python3.8 beh310w_checks.py pyc OUT.pyc              write the cases as a .pyc
    python beh310w_checks.py decompile X.pyc OUT.json    (with framejit) decompile the f_* functions
    python3.8 beh310w_checks.py compare OUT.json         compile, compare instructions, run both
    python beh310w_checks.py                             (with framejit) all of it here

Each f_* function takes (x, log); x says whether the managers suppress (odd x) and whether
risky() raises (x in 2, 3, 6, 7); results, exceptions and the log must be equal.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyc_case_runner  # noqa: E402

SOURCE = '''
class Sup:
    def __init__(self, log, suppress):
        self.log = log
        self.suppress = suppress

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, typ, val, tb):
        self.log.append("exit %s" % (typ.__name__ if typ else None))
        # (risky's KeyError only: the IndexError of popping an empty list must end the
        # `while True:` cases, which would otherwise go round for ever)
        return self.suppress and typ is KeyError

def risky(x, log):
    log.append(("risky", x))
    if x in (2, 3, 6, 7):
        raise KeyError(x)
    return x > 3

def f_then_code(x, log):
    with Sup(log, x % 2):
        if risky(x, log):
            return 1
        return 2
    log.append("suppressed")
    return len(log)

def f_const_returns(x, log):
    with Sup(log, x % 2):
        if risky(x, log):
            return True
        return False

def f_no_enter(x, log):
    with Sup(log, x % 2):
        risky(x, log)
        return "entered"

def f_nested(x, log):
    with Sup(log, x % 2):
        with Sup(log, not x % 2):
            if risky(x, log):
                return "inner"
            return "inner false"
        return "outer"

def f_nested_loop_returns(x, log):
    it = iter([x - 4, x, x])
    with Sup(log, not x % 2):
        with Sup(log, x % 2):
            while True:
                v = next(it)
                if risky(v, log):
                    return False
                if v < 0:
                    continue
                return True
    return "after"

def f_nested_continue_return(x, log):
    it = iter([x - 4, x, x])
    with Sup(log, not x % 2):
        with Sup(log, x % 2):
            while True:
                v = next(it)
                if v < 0 or risky(v, log):
                    continue
                return True
    return "after"

def f_nested_return_then_code(x, log):
    with Sup(log, not x % 2):
        with Sup(log, x % 2):
            if risky(x, log):
                return 1
            return 2
        log.append("outer body")
    return "after"

def f_arms_return_or_raise(x, log):
    with Sup(log, x % 2):
        if x == 0:
            log.append("zero")
            return False
        elif risky(x, log):
            log.append("true")
            return True
        else:
            log.append("else")
            raise RuntimeError("unexpected")
    return "after"

def f_loop_continue_last(x, log):
    n = 0
    for v in range(x):
        n += 1
        with Sup(log, x % 2):
            risky(v, log)
            continue
        log.append("suppressed %s" % v)
    return n

def f_loop_continue_or_return(x, log):
    for v in range(x):
        with Sup(log, x % 2):
            if risky(v, log):
                continue
            return "small"
        log.append("suppressed")
    return "done"

def f_completes_then_return(x, log):
    with Sup(log, x % 2):
        risky(x, log)
    return "after"

def f_body_return_same_as_after(x, log):
    with Sup(log, x % 2):
        risky(x, log)
        return "same"
    return "same"

def f_while_true_break_then_raise(x, log):
    xs = list(range(x))
    while True:
        with Sup(log, x % 2):
            risky(xs.pop(), log)
            break
    raise ValueError("after")

def f_while_true_if_break_then_call(x, log):
    xs = list(range(x))
    while True:
        with Sup(log, x % 2):
            if risky(xs.pop(), log):
                break
            log.append("more")
    return len(log)

def f_while_break_then_call(x, log):
    xs = list(range(x))
    while xs:
        with Sup(log, x % 2):
            risky(xs.pop(), log)
            break
    return len(log)
'''

INPUTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]

# cases that must decompile on 3.8-3.10 (the others may be refused, never miscompiled)
READ = [
    "f_then_code",
    "f_const_returns",
    "f_no_enter",
    "f_nested",
    "f_nested_loop_returns",
    "f_nested_continue_return",
    "f_nested_return_then_code",
    "f_arms_return_or_raise",
    "f_loop_continue_last",
    "f_loop_continue_or_return",
    "f_completes_then_return",
    "f_body_return_same_as_after",
]

if __name__ == "__main__":
    pyc_case_runner.main(SOURCE, "beh310w_cases", lambda name: INPUTS, __doc__)
