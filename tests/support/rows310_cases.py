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
]

if __name__ == "__main__":
    pyc_case_runner.main(SOURCE, "rows310_cases", lambda name: INPUTS, __doc__)
