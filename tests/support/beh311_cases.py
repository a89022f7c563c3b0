"""`break` out of a with body in a loop that has no other way out, and a with body whose last way
out is a `break`, 3.11+ (structure/with_break_exit.rs): the exit call's copy, then the code after
the loop (3.12+ copy a small one right after the exit call). That code runs after `__exit__`; read
into the with body it would run before it, and `__exit__` would see (and here suppress) its
exceptions. The manager records its exits and suppresses ZeroDivisionError. Each case is a module
whose `run` is decompiled with it, compiled again, run against the original on several inputs,
and every code object's instruction sequence compared (decompile_py312_cases.check). Prints
JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

PRELUDE = '''
class Sup:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, t, v, tb):
        self.log.append("exit %s" % (t.__name__ if t else None))
        return t is ZeroDivisionError


def after(log):
    log.append("after")
    if len(log) > 12:
        raise KeyError("late")
    return log
'''

CASES = {
    # the loop's only way out is the `break`; the code after the loop is a call
    "while_true_break_call": PRELUDE + '''
def run(xs):
    log = []
    while True:
        with Sup(log):
            x = xs.pop()
            log.append(10 // x)
            if x > 4:
                break
            log.append("more")
    return after(log)
''',
    # the body never completes: its last way out is the `break`, then a raise after the loop
    "while_true_break_raise": PRELUDE + '''
def run(xs):
    log = []
    while True:
        with Sup(log):
            log.append(10 // xs.pop())
            break
    raise ValueError(len(log))
''',
    # two with statements left by the `break`
    "while_true_break_two_withs": PRELUDE + '''
def run(xs):
    log = []
    while True:
        with Sup(log):
            with Sup(log):
                x = xs.pop()
                log.append(10 // x)
                if x > 4:
                    break
    return after(log)
''',
    # `while xs:` (a guard and a bottom test) whose body's last way out is the `break`
    "while_cond_break_call": PRELUDE + '''
def run(xs):
    log = []
    while xs:
        with Sup(log):
            log.append(10 // xs.pop())
            break
    return after(log)
''',
    # the `while True:` in a `for` body: its `break` goes on with the `for` body
    "while_true_in_for": PRELUDE + '''
def run(xs):
    log = []
    for k in range(2):
        while True:
            with Sup(log):
                x = xs.pop() if xs else 9
                log.append(10 // x)
                if x > 4:
                    break
        log.append(k)
    return after(log)
''',
    # the body completes on one arm (the loop goes round), and leaves by `break` on the other
    "while_true_break_else_round": PRELUDE + '''
def run(xs):
    log = []
    while True:
        with Sup(log):
            x = xs.pop()
            if x > 4:
                break
            log.append(10 // x)
    log.append(x)
    return log
''',
    # two `break`s (3.12 copies the code after the loop into each: refused there, see the test)
    "while_true_two_breaks": PRELUDE + '''
def run(xs):
    log = []
    while True:
        with Sup(log):
            x = xs.pop()
            if x == 1:
                break
            log.append(10 // x)
            if x > 4:
                break
    return after(log)
''',
    # a `return` of a name through the with, and a `break`
    "while_true_break_and_return": PRELUDE + '''
def run(xs):
    log = []
    while True:
        with Sup(log):
            x = xs.pop()
            if x == 1:
                return log
            log.append(10 // x)
            if x > 4:
                break
    return after(log)
''',
    # 3.11: `while True:` left only by an except clause's `break` through a `finally:` body (the
    # `raise` in the try body is no way out of the loop; the loop goes on where the copy jumps)
    "while_true_clause_break_finally": '''
def run(xs):
    log = []
    while True:
        try:
            x = xs.pop()
            if x > 4:
                raise LookupError
        except LookupError:
            log.append("stop")
            break
        else:
            log.append(10 // x)
            if x == 2:
                continue
        finally:
            log.append("f")
    return log
''',
    "while_true_clause_break_finally_in_for": '''
def run(xs):
    log = []
    for k in range(2):
        while True:
            try:
                x = xs.pop() if xs else 9
                if x > 4:
                    raise LookupError
                log.append(10 // x)
            except LookupError:
                break
            finally:
                log.append("f")
        log.append(k)
    return log
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
