"""Branch beh20w (session 20): 3.10 `break` out of with bodies in `while` loops, the code after the
loop copied after the `break`'s exit call (legacy_with_break.rs), and with bodies that never
complete whose code after the statement ends in a conditional jump, laid out in the handler's
suppressed-path block (legacy_with_split.rs). Each case is a module whose `run` is decompiled with
it, compiled again, run against the original on several inputs, and every code object's
instruction sequence compared (decompile_py312_cases.check). The managers record their exits and
suppress where told: code read on the wrong side of an exit call, or into the suppressed path,
shows in the log. Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

MANAGERS = '''
class Rec:
    def __init__(self, log, suppress):
        self.log, self.suppress = log, suppress
    def __enter__(self):
        self.log.append("in")
    def __exit__(self, t, v, tb):
        self.log.append(("out", t is not None))
        return self.suppress

class ARec(Rec):
    async def __aenter__(self):
        self.log.append("ain")
    async def __aexit__(self, t, v, tb):
        self.log.append(("aout", t is not None))
        return self.suppress

def drive(coro):
    try:
        coro.send(None)
    except StopIteration as e:
        return e.value
    raise RuntimeError("suspended")

def run(xs):
    log = []
    try:
        return body(xs, log), log
    except Exception as e:
        return type(e).__name__, str(e), log

def after(log):
    log.append("after")
    if len(log) > 12:
        raise KeyError(len(log))
    return len(log)
'''

CASES = {
    # `while c:`: the rotated test after the with statement in the suppressed path's block, the
    # `break` with `return after(log)` copied after its exit call
    "while_cond_break_call": MANAGERS + '''
def body(xs, log):
    while xs:
        with Rec(log, len(xs) > 2):
            log.append(10 // xs.pop())
            break
    return after(log)
''',
    "while_cond_break_raise": MANAGERS + '''
def body(xs, log):
    while xs:
        with Rec(log, len(xs) > 2):
            log.append(10 // xs.pop())
            break
    raise ValueError(log)
''',
    "while_cond_if_break_call": MANAGERS + '''
def body(xs, log):
    while xs:
        with Rec(log, len(xs) > 2):
            if 10 // xs.pop() > 3:
                break
            log.append("more")
    return after(log)
''',
    # `while True:` left only by the `break`: no exit at the loop's depth but the copy
    "while_true_break_call": MANAGERS + '''
def body(xs, log):
    while True:
        with Rec(log, len(xs) > 2):
            log.append(10 // xs.pop())
            break
    return after(log)
''',
    "while_true_break_raise": MANAGERS + '''
def body(xs, log):
    while True:
        with Rec(log, len(xs) > 2):
            log.append(10 // xs.pop())
            break
    raise ValueError(log)
''',
    "while_true_if_break_call": MANAGERS + '''
def body(xs, log):
    while True:
        with Rec(log, len(xs) > 2):
            if 10 // xs.pop() > 3:
                break
            log.append("more")
    return after(log)
''',
    "while_true_nested_break_call": MANAGERS + '''
def body(xs, log):
    while True:
        with Rec(log, len(xs) > 3):
            with Rec(log, len(xs) > 2):
                log.append(10 // xs.pop())
                break
    return after(log)
''',
    # a long code after the loop: the `break` jumps to it (nothing copied)
    "while_true_break_jumps": MANAGERS + '''
def body(xs, log):
    while True:
        with Rec(log, len(xs) > 2):
            log.append(10 // xs.pop())
            break
    log.append("a")
    log.append("b")
    log.append("c")
    return after(log)
''',
    "async_while_cond_break_call": MANAGERS + '''
async def go(xs, log):
    while xs:
        async with ARec(log, len(xs) > 2):
            log.append(10 // xs.pop())
            break
    return after(log)

def body(xs, log):
    return drive(go(xs, log))
''',
    "async_while_true_if_break_call": MANAGERS + '''
async def go(xs, log):
    while True:
        async with ARec(log, len(xs) > 2):
            if 10 // xs.pop() > 3:
                break
            log.append("more")
    return after(log)

def body(xs, log):
    return drive(go(xs, log))
''',
    "async_while_true_nested_break_call": MANAGERS + '''
async def go(xs, log):
    while True:
        async with ARec(log, len(xs) > 3):
            async with ARec(log, len(xs) > 2):
                log.append(10 // xs.pop())
                break
    return after(log)

def body(xs, log):
    return drive(go(xs, log))
''',
    # a body that completes by several ways, each with the exit call and `return after(log)`
    # copied after it (ftplib `retrbinary`): read as one end of the body, the return after it
    "completes_by_arms_then_call": MANAGERS + '''
def body(xs, log):
    with Rec(log, len(xs) > 2):
        while True:
            x = xs.pop()
            if not x:
                break
            log.append(10 // (x - 1))
        if len(xs) > 1:
            if xs[0] > 1:
                log.append("big")
    return after(log)
''',
    # a loop in a with body left by its test and by `break`, the code after the statement copied
    # into both (platform `libc_ver`)
    "loop_exits_then_locals": MANAGERS + '''
def body(xs, log):
    n = 0
    with Rec(log, len(xs) > 2):
        while n < len(xs):
            if xs[n] == 7:
                break
            log.append(10 // xs[n])
            n += 1
    return n, len(log)
''',
    # a `break` out of the with body and the body's end both run `return after(log)` after the
    # exit call (the loop's exit and the code after the statement): the same instructions
    "break_and_end_same_copy": MANAGERS + '''
def body(xs, log):
    while True:
        with Rec(log, len(xs) > 2):
            if 10 // xs.pop() > 3:
                break
            log.append("more")
        return after(log)
    return after(log)
''',
    # siblings that must keep their readings: a `return` computed in the body (before the exit
    # call), a constant `return` in the body of a `while True:` (after the exit call: the same
    # instructions as `break` with `return 5` after the loop, the same behaviour), a `for` loop
    "while_cond_return_in_body": MANAGERS + '''
def body(xs, log):
    while xs:
        with Rec(log, len(xs) > 2):
            log.append(10 // xs.pop())
            return after(log)
    return -1
''',
    "while_true_const_return_in_body": MANAGERS + '''
def body(xs, log):
    while True:
        with Rec(log, len(xs) > 2):
            log.append(10 // xs.pop())
            return 5
''',
    "for_if_break_call": MANAGERS + '''
def body(xs, log):
    for x in xs:
        with Rec(log, x < 3):
            if 10 // x > 3:
                break
            log.append("more")
    return after(log)
''',
    # a body that never completes, an `if` after the statement: its test in the suppressed
    # path's block
    "never_completes_then_if": MANAGERS + '''
def body(xs, log):
    with Rec(log, len(xs) > 2):
        log.append(10 // xs[-1])
        return log[:]
    if xs[0] > 1:
        log.append("big")
    return "after"
''',
    # ... in a `while c:` loop: the rotated test after a `continue`-less body that returns
    "while_cond_never_completes": MANAGERS + '''
def body(xs, log):
    while xs:
        with Rec(log, len(xs) > 2):
            log.append(10 // xs.pop())
            return len(log)
        log.append("suppressed")
    return "done"
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
