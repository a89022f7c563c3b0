"""Control flow whose blocks a structurer could reach twice (the compiler copies small exit blocks
into each jump to them, 3.14 splits NOT_TAKEN markers into blocks of their own, a `try:` line's NOP
sits between two statements): each case is a module whose `run` is decompiled with it, compiled
again, run against the original on several inputs (results and exceptions compared), and every
code object's instruction sequence compared (decompile_py312_cases.check). Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

CASES = {
    # the NOP of the second `try:` line follows the first try (in an else arm): the first try's
    # body ends there, it does not run on into the second statement
    "try_after_try_in_else": '''
def get(xs, k):
    if k not in (1, 2):
        m = k
    else:
        try:
            m = xs[k]
        except IndexError:
            raise KeyError(k) from None
    try:
        cat = 10 // m
    except ZeroDivisionError:
        raise ValueError(m) from None
    return cat

def run(xs):
    out = []
    for k in (0, 1, 2, 5):
        try:
            out.append(get(xs, k))
        except Exception as e:
            out.append(type(e).__name__)
    return out
''',
    # `break` out of a while loop whose exit is a small `return` block: the compiler copies
    # the return into the break
    "break_copies_return": '''
def run(xs):
    out = ''
    i = 0
    n = len(xs)
    while i < n:
        c = xs[i]
        i = i + 1
        if c == 2:
            if i >= n or xs[i] != 2:
                break
            i = i + 1
        out = out + str(c)
    return out
''',
    # `if a or b: continue` in a for loop: 3.14's NOT_TAKEN after the second test is a block of
    # its own before the jump back
    "continue_after_or": '''
def run(xs):
    out = {}
    for g in xs:
        m = g % 3
        if not m or not callable(getattr(m, 'real', None)) and m > 5:
            continue
        out[g] = m
    return sorted(out.items())
''',
    "continue_after_or_while": '''
def run(xs):
    ws = list(xs)
    seen = []
    while ws:
        w = ws.pop()
        if w in seen or w <= 1:
            continue
        seen.append(w)
    return seen
''',
    # a top-tested while (3.14) whose exit is also where an enclosing if goes on, with a return
    # inside the loop
    "while_exit_shared_with_if": '''
def find(xs, flag, target):
    if flag:
        if xs:
            i = 0
            while i < len(xs):
                if xs[i] is target:
                    return 'found'
                i = i + 1
        xs.append(target)
    return len(xs)

def run(xs):
    return [find(list(xs), f, t) for f in (0, 1) for t in (0, 1, 2, 7)]
''',
    # an if without else in a loop whose body's inner elif jumps straight to where the if goes on
    "elif_jumps_to_if_merge": '''
def run(xs):
    new = []
    for value in xs:
        if value:
            value = value - 1
            if value == 0:
                continue
            elif value > 3:
                new.extend([value, value])
                continue
        new.append(value)
    return new
''',
    # a while condition made of or-ed ands: the first test's post-dominator is a later test
    "while_or_of_ands": '''
def run(xs):
    y = len(xs)
    r = 0
    out = []
    while (r <= 2 and y >= 1 or r > 2 and y <= 8):
        y = y + 1
        r += 1
        out.append(y)
        if r > 20:
            break
    return out, r
''',
    # an if arm that goes on after the statement only from an except clause (its try body
    # returns): the arms meet where the clause comes back
    "clause_rejoins_after_if": '''
def cwd(xs, d):
    if d == 0:
        try:
            return xs[5]
        except IndexError:
            xs.append('short')
    elif d == 1:
        d = 7
    xs.append(d)
    return len(xs)

def run(xs):
    return [cwd(list(xs), d) for d in (0, 1, 2)]
''',
    # `break` out of a while inside `with`: a NOP under the with's handler falling into the
    # __exit__ call, which no handler covers
    "break_in_while_in_with": '''
import contextlib

def run(xs):
    written = 0
    log = []
    with contextlib.nullcontext(log):
        while written < len(xs) + 3:
            written += 1
            if written == 4:
                break
        log.append(written)
    return written, log
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
