"""Constant tests the compiler drops, read back on 3.14 from the loads after them (session 17,
branch borrow17; structure/dead_if.rs): a dead `if` (`if 0:`, `if not __debug__:`, `if 0 and x:`)
leaves only a NOP and an empty block, `if __debug__ and x:` an empty block before the test of `x`,
`y = 1 if __debug__ else 0` an empty block after the value. 3.14's borrowing analysis never walks
past an empty block, so the code only reached through one keeps its local loads plain (LOAD_FAST):
the decompiler writes `if False: pass` / `True and x` there, which compile to the same
instructions and do nothing. Each case is a module whose `run(xs)` is decompiled with it, compiled
again, run against the original on several inputs (results and exceptions compared), and every
code object's instruction sequence compared (decompile_py312_cases.check). Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

CASES = {
    # `if not __debug__:` between statements: its body is dropped, the code after keeps LOAD_FAST
    "not_debug_between": '''
def f(log, x):
    log.append(x)
    if not __debug__:
        return None
    log.append(x * 2)
    return log

def run(xs):
    return [f([], x) for x in xs]
''',
    # the same as the first statement of the function
    "not_debug_first": '''
def f(log, x):
    if not __debug__:
        log.append("optimized")
    log.append(x + 1)
    return log

def run(xs):
    return [f([], x) for x in xs]
''',
    # `if 0: ... else: ...`: only the `else:` part is compiled, after the NOP of the `if` line
    "zero_else": '''
def f(n, w):
    w1 = w >> 1
    if 0:
        hi = divmod(n, w1)
    else:
        hi = n * w1
        lo = n - hi
    return hi, lo

def run(xs):
    return [f(x, 7) for x in xs]
''',
    # `if 0 and x:` then `elif`: the first test is dropped with its body
    "zero_and_elif": '''
class O:
    def __init__(self, a, b):
        self.a, self.b = a, b

def f(o, log):
    if 0 and o.a:
        log.append("never")
    elif o.a and o.b:
        log.append("both")
    elif o.b:
        log.append("b")
    else:
        log.append("none")
    return log

def run(xs):
    return [f(O(x % 2, x % 3), []) for x in xs]
''',
    # a dead `if` at the start of an arm: the rest of the arm keeps LOAD_FAST, the code after the
    # statement borrows again (the other arm reaches it)
    "dead_if_in_arm": '''
def f(x, log):
    if x > 2:
        log.append(x)
        if 0:
            pass
        log.append(x - 1)
    else:
        log.append(-x)
    log.append(len(log))
    return log

def run(xs):
    return [f(x, []) for x in xs]
''',
    # in a loop body
    "dead_if_in_loop": '''
def f(xs):
    out = []
    for x in xs:
        out.append(x)
        if not __debug__:
            continue
        out.append(x * x)
    return out

def run(xs):
    return f(xs)
''',
    # `if __debug__ and x:` nested in an arm (the test is the first thing of its block)
    "debug_and_nested": '''
class Imap:
    def __init__(self, debug):
        self.debug = debug
        self.log = []
    def mesg(self, s):
        self.log.append(s)

def f(imap, typ):
    if not typ:
        if __debug__ and imap.debug >= 4:
            imap.mesg("exhausted")
        return imap.log
    return typ

def run(xs):
    return [f(Imap(x), x % 2) for x in xs]
''',
    # `while True and x:`
    "true_and_while": '''
def f(xs):
    out = []
    it = list(xs)
    if it:
        while True and it:
            out.append(it.pop())
    return out

def run(xs):
    return f(xs)
''',
    # `x = 1 if __debug__ else 0`: the value's join is not walked, nor what follows
    "debug_ifexp_value": '''
def f(log, x):
    log.append(x)
    level = 1 if __debug__ else 0
    ext = ".pyc"
    log.append(str(x) + ext)
    log.append(level)
    return log

def run(xs):
    return [f([], x) for x in xs]
''',
    # `'' if __debug__ else 1` as an argument: the join is mid-statement, after the call's value
    "debug_ifexp_argument": '''
class Box:
    pass

def cache(path, optimization=None):
    return (path, optimization)

def f(x):
    box = Box()
    box.path = str(x)
    box.cache = cache(box.path, optimization='' if __debug__ else 1)
    box.size = len(box.path)
    return box.path, box.cache, box.size

def run(xs):
    return [f(x) for x in xs]
''',
    # a finally body with a dead `if`: its two copies (the normal one walked, the exceptional one
    # not) still read as one body
    "dead_if_in_finally": '''
def f(x, log):
    try:
        if x == 3:
            raise ValueError(x)
        log.append(x)
    finally:
        log.append("fin")
        if not __debug__:
            log.append("opt")
        log.append(len(log))
    return log

def run(xs):
    return [f(x, []) for x in xs]
''',
    # `while True:` whose body ends with `if c: raise ...`: the raise is the test's own jump target
    # and borrows; read as `if c: break` and the raise after the loop it would not
    "loop_ends_with_raise": '''
def f(xs, amt):
    data = list(xs)
    cursize = 1
    while True:
        data.append(cursize)
        if len(data) >= amt:
            return data
        cursize += 1
        if len(data) < cursize:
            raise ValueError(len(data), amt - len(data))

def run(xs):
    out = []
    for amt in (0, 3, 9):
        try:
            out.append(f(xs, amt))
        except ValueError as e:
            out.append(e.args)
    return out
''',
    # the same with a `return` inside a with statement
    "loop_in_with_returns": '''
class Rec:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append("in")
        return self
    def __exit__(self, *a):
        self.log.append("out")

def f(xs, timeout):
    log = []
    with Rec(log) as sel:
        while True:
            if xs and xs[0] == timeout:
                return sel.log
            if timeout is not None:
                timeout = timeout - 1
                if timeout < 0:
                    return sel.log + [timeout]

def run(xs):
    return [f(xs, t) for t in (0, 2, 5)]
''',
    # (control) `if c: break` ending the body, then code after the loop: not walked, kept after
    "loop_break_then_raise": '''
def f(xs, amt):
    data = list(xs)
    while True:
        data.append(amt)
        if len(data) > amt:
            break
    raise ValueError(len(data), amt - len(data))

def run(xs):
    out = []
    for amt in (0, 3, 9):
        try:
            f(xs, amt)
        except ValueError as e:
            out.append(e.args)
    return out
''',
    # (control) a plain `pass` between statements: a NOP too, but the loads after it borrow and no
    # dead `if` is written
    "pass_between": '''
def f(log, x):
    log.append(x)
    pass
    log.append(x * 3)
    return log

def run(xs):
    return [f([], x) for x in xs]
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
