"""3.10 rows (branch rows310, tests/test_decompile_rows310.py): shapes of 3.10's sweep list.

A `break` whose way on is a copy of the code after the loop: 3.10 copies a small exit (`return i`,
at most four instructions) into the `break`, which keeps its line as a NOP before the copy. Read
as a `return` written in the body, a condition jumping straight to the arm (`if a or b: break`)
lands on the load after the NOP. The `return`s written in the body (no NOP) must stay `return`s.

    python SCRIPT                            (with framejit) decompile, compile and run here

Each f_* function takes (x, log); results, exceptions and the log must be equal.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyc_case_runner  # noqa: E402

SOURCE = '''
def f_true_or_break(x, log):
    i, n = 0, x
    while True:
        if i >= n or i * i > 10:
            break
        log.append(i)
        i = i + 1
    return i

def f_true_single_break(x, log):
    i = 0
    while True:
        if i * 3 > x:
            break
        log.append(i)
        i = i + 1
    return i

def f_true_and_break(x, log):
    i = 0
    while True:
        if i > 2 and i % 3 == x % 3:
            break
        i = i + 1
    return i

def f_while_cond_or_break(x, log):
    s = "a" * x + '"' + "b"
    i, n = 0, len(s)
    out = ""
    while i < n:
        c = s[i]
        i = i + 1
        if c == '"':
            if i >= n or s[i] != '"':
                break
            i = i + 1
        out = out + c
    return out

def f_true_or_return_in_body(x, log):
    i = 0
    while True:
        if i >= x or i == 3:
            return i * 10
        log.append(i)
        i = i + 1

def f_true_return_and_break(x, log):
    i = 0
    while True:
        if i == 7 or i * 2 == x:
            return -i
        if i >= x or i == 4:
            break
        i = i + 1
    return i

def f_cond_break_copy_else_return(x, log):
    i = 0
    while i < 6:
        if i == x or i * i == x:
            break
        log.append(i)
        i += 1
    return log
def f_else_pass_ends_function(x, log):
    if not x % 2:
        log.append("even")
    else:
        pass

def f_else_pass_in_for(x, log):
    for i in range(x):
        if i % 3:
            log.append(i)
        else:
            pass

def f_or_else_pass_then_code(x, log):
    if x > 6 or x == 2:
        log.append("big")
    else:
        pass
    log.append(x)

def f_pass_after_if_in_while(x, log):
    n = 0
    while n < 5:
        if x:
            n += x
        else:
            return n
        pass
    log.append(n)
    return n

def f_dead_if_after_for(x, log):
    m = None
    for i in range(x):
        if m is None:
            m = i
        elif i % 2:
            m = m + i
    if 0 and m:
        log.append("never")
    return m

def f_while_cond_body_then_break(x, log):
    pos = x
    while pos > 2:
        half = pos >> 1
        log.append(half)
        if half % 2:
            pos = half
            continue
        break
    return pos
def f_finally_then_return_copied(x, log):
    v = 0
    if x > 1:
        log.append("in")
        try:
            if x % 2:
                v = x
        finally:
            v = v + 100
    return v

def f_finally_except_else_then_return(x, log):
    res = None
    try:
        res = 10 // (x - 3)
    except ZeroDivisionError:
        pass
    finally:
        res = (res or 0) + 1
        log.append(res)
    return res

def f_finally_return_in_body(x, log):
    v = 0
    if x > 1:
        try:
            if x % 2:
                v = x
                return v
        finally:
            v = v + 100
            log.append(v)
    return v

def f_finally_both_returns(x, log):
    v = x
    if x:
        try:
            if x % 3 == 0:
                return v
            if x % 2:
                v = v * 2
        finally:
            v = v + 1
    return v
def f_inner_true_try_else_break(x, log):
    items = list(range(x)) + [None]
    k = 0
    while True:
        while True:
            try:
                val = items[k]
                k += 1
                if val is not None and val % 3 == 0:
                    raise KeyError(val)
            except KeyError:
                log.append("skip")
            else:
                break
        if val is None:
            return k
        log.append(val)
def f_else_pass_copied_return(x, log):
    if not x % 3:
        log.append("three")
    else:
        pass
    return x
'''

INPUTS = list(range(10))

# cases that must decompile to the same instructions on 3.10 (every case, on every version, must
# behave the same where it decompiles)
READ = [
    "f_true_or_break",
    "f_true_single_break",
    "f_true_and_break",
    "f_while_cond_or_break",
    "f_true_or_return_in_body",
    "f_true_return_and_break",
    "f_cond_break_copy_else_return",
    "f_else_pass_ends_function",
    "f_else_pass_in_for",
    "f_or_else_pass_then_code",
    "f_pass_after_if_in_while",
    "f_dead_if_after_for",
    "f_while_cond_body_then_break",
    "f_finally_then_return_copied",
    "f_finally_except_else_then_return",
    "f_inner_true_try_else_break",
    "f_else_pass_copied_return",
]

if __name__ == "__main__":
    pyc_case_runner.main(SOURCE, "rows310_cases", lambda name: INPUTS, __doc__)
