"""Helper beh19, session 19: `break` out of `async with` bodies in `while` loops, and the code
after an except clause's POP_EXCEPT that 3.12+ copy after an enclosing finally body's copy.
3.11+ leave an `async with` body by `break` through the awaited exit call, then a jump to the
loop's exit (3.11) or 3.12+ a copy of it: read as `break` (structure/async_break.rs), never as
that code inside the body, where it would run before `__aexit__`. 3.11 lays the code after an
`async with` whose body never completes right after the handler's suppressed pops, in their
block: split off as for `with` (with_tail_split.rs). A `return VALUE` computed after an except
clause's POP_EXCEPT and after an enclosing finally body's copy is the code after the loop the
clause's `break` leaves: refused (late_exit.rs), as it was read into the try body, computed
before the finally body.
Each case is a module whose `run` is decompiled with it, compiled again, run against the original
on several inputs, and every code object's instruction sequence compared
(decompile_py312_cases.check). Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

# an asynchronous manager that records its exits and suppresses when told; a check that raises
# on 0; a driver for coroutines that never suspend
ASYNC = '''
class ASup:
    def __init__(self, log, suppress):
        self.log = log
        self.suppress = suppress
    async def __aenter__(self):
        self.log.append("enter")
        return self
    async def __aexit__(self, typ, val, tb):
        self.log.append("exit " + (typ.__name__ if typ else "None"))
        return self.suppress

def check(x):
    if x == 0:
        raise KeyError(x)
    return x > 2

def compute(log):
    log.append("compute")
    if len(log) > 9:
        raise ValueError(len(log))
    return len(log)

def drive(c):
    try:
        c.send(None)
    except StopIteration as e:
        return e.value
    raise RuntimeError("suspended")
'''

CASES = {
    # 3.12+ copy `return compute(log)` after the awaited exit call of the `break`
    "async_while_true_break_then_call": ASYNC + '''
async def f(xs, log):
    while True:
        async with ASup(log, len(xs) % 2):
            check(xs.pop())
            break
    return compute(log)

def run(xs):
    log = []
    return drive(f(xs + [1], log)), log
''',
    # the loop has its own exit too (the test): the copy compared with it
    "async_while_break_then_call": ASYNC + '''
async def f(xs, log):
    while xs:
        async with ASup(log, len(xs) % 2):
            check(xs.pop())
            break
    return compute(log)

def run(xs):
    log = []
    return drive(f(xs, log)), log
''',
    # `break` in an `if` of the body, more code after it
    "async_while_true_if_break_then_call": ASYNC + '''
async def f(xs, log):
    while True:
        async with ASup(log, len(xs) % 2):
            if check(xs.pop()):
                break
            log.append("more")
    return compute(log)

def run(xs):
    log = []
    return drive(f(xs + [3], log)), log
''',
    "async_while_if_break_then_call": ASYNC + '''
async def f(xs, log):
    while xs:
        async with ASup(log, len(xs) % 2):
            if check(xs.pop()):
                break
            log.append("more")
    return compute(log)

def run(xs):
    log = []
    return drive(f(xs, log)), log
''',
    # a `raise` after the loop, copied after the exit call: it runs after `__aexit__`
    "async_while_true_break_then_raise": ASYNC + '''
async def f(xs, log):
    while True:
        async with ASup(log, len(xs) % 2):
            log.append(check(xs.pop()))
            break
    raise LookupError(len(log))

def run(xs):
    log = []
    try:
        drive(f(xs + [1], log))
    except LookupError as e:
        return "raised", str(e), log
''',
    # a constant `return` after the loop: `break` (the copy is the loop's own exit block)
    "async_while_true_break_then_const": ASYNC + '''
async def f(xs, log):
    while True:
        async with ASup(log, len(xs) % 2):
            check(xs.pop())
            break
    return 5

def run(xs):
    log = []
    return drive(f(xs + [1], log)), log
''',
    # 3.11: the code after an `async with` whose body never completes follows the handler's
    # suppressed pops in their block
    "async_with_never_completes_then_code": ASYNC + '''
async def f(x, log):
    async with ASup(log, x % 2):
        check(x)
        return "body"
    log.append("after")
    return "after"

def run(xs):
    log = []
    return [drive(f(x, log)) for x in xs], log
''',
    # 3.12+: `return log` after the loop, copied after the finally body's copy in the except
    # clause: `log` is read after the finally body rebinds it
    "while_except_break_finally_rebinds": '''
def bump(i, n):
    if i >= n:
        raise StopIteration
    return i + 1

def run(xs):
    log = []
    i = 0
    while True:
        try:
            i = bump(i, len(xs))
        except StopIteration:
            log.append("stop")
            break
        else:
            if i == 3:
                continue
        finally:
            log = log + ["f"]
    return log
''',
    # 3.11: `return CONSTANT` out of a `for` loop in a try body with a `finally:`: the iterator
    # popped at the end of the body's range, then the finally body's copy, then the constant
    "for_const_return_through_finally": '''
def f(xs, log):
    try:
        for x in xs:
            if not x:
                return "empty"
            log.append(x)
    finally:
        log.append("finally")
    return "end"

def run(xs):
    log = []
    return f(xs, log), log
''',
    # the same through a try/except inside the try/finally
    "for_const_return_through_except_and_finally": '''
def f(xs, log):
    try:
        try:
            for x in xs:
                if not x:
                    return "empty"
                log.append(10 // (x - 1))
        except ZeroDivisionError:
            return "zero"
    finally:
        log.append("finally")
    return "end"

def run(xs):
    log = []
    return f(xs, log), log
''',
    # two `finally:` bodies' copies before the constant
    "for_const_return_through_two_finallys": '''
def f(xs, log):
    try:
        try:
            for x in xs:
                if not x:
                    return "empty"
                log.append(x)
        finally:
            log.append("inner")
    finally:
        log.append("outer")
    return "end"

def run(xs):
    log = []
    return f(xs, log), log
''',
    # 3.11: a `finally:` body ending in a loop left by `break`: the normal path's copy has the
    # function's closing `return None` copied into the `break` and after the loop, the handler's
    # copy its re-raise (finally_break_copy.rs)
    "finally_loop_break": '''
def f(xs, log):
    try:
        log.append(10 // len(xs))
    finally:
        for x in xs + [0]:
            if x == 0:
                break
            log.append(x)

def run(xs):
    log = []
    try:
        f(xs, log)
    except ZeroDivisionError:
        log.append("zero")
    return log
''',
    "finally_while_break_return_const": '''
def f(xs, log):
    try:
        log.append(10 // len(xs))
    finally:
        while xs:
            x = xs.pop()
            if x > 3:
                log.append("big")
                break
            log.append(x)
    return "done"

def run(xs):
    log = []
    try:
        r = f(xs, log)
    except ZeroDivisionError:
        r = "zero"
    return r, log
''',
    "finally_for_break_then_code": '''
def f(xs, log):
    try:
        log.append(10 // len(xs))
    finally:
        for x in xs:
            if x == 0:
                break
            log.append(x)
    log.append("after")
    return log

def run(xs):
    log = []
    try:
        return f(xs, log)
    except ZeroDivisionError:
        return "zero", log
''',
    # 3.14: a `while True:` ending a try body, left by `break` in an `else:` arm (its line kept as
    # a NOP falling into the code after the try statement) and by a `break` that jumps there
    # (nop_break.rs)
    "try_while_else_break_then_call": '''
def f(it):
    n = 0
    try:
        while True:
            tp = next(it)
            if tp == 2:
                if n:
                    break
                n = 1
            else:
                break
    except StopIteration:
        pass
    return sorted(it), n

def run(xs):
    return f(iter(xs))
''',
    # lib2to3 `_detect_future_features`' shape
    "try_while_future_features": '''
def f(tokens):
    have_doc = False
    features = set()
    it = iter(tokens)
    try:
        while True:
            tp = next(it)
            if tp == 1:
                continue
            elif tp == 2:
                if have_doc:
                    break
                have_doc = True
            elif tp == 3 and have_doc:
                tp = next(it)
                if tp != 4:
                    break
                features.add(next(it))
            else:
                break
    except StopIteration:
        pass
    return sorted(features), have_doc

def run(xs):
    return f(xs), f([2, 3, 4] + xs), f([1, 2, 3, 4, 7, 3, 4, 8, 2] + xs)
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
