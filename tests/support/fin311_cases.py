"""try/finally shapes of branch fin311 (3.11-3.14): a `raise` inside a try body inside `while True:`
(once read as the loop's exit, a `break` with the raise after the loop: refused), a `finally:`
body ending with `if c: A  else: B` where the code after the statement is a small exit that 3.12+
copy into both arms of the normal path's copy (refused: "a finally block whose normal-path copy
differs"), and shapes next to them that must stay right or refused (an except clause's `break`
through a finally body that rebinds the value the code after the loop returns). Each case is a
module whose `run` is decompiled with it, compiled again, run against the original on several
inputs (results and exceptions compared), and every code object's instruction sequence compared
(decompile_py312_cases.check). Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

CASES = {
    # the only way out of the loop is the raise inside the try body; the finally body runs first
    "raise_in_finally_try_in_while_true": '''
def run(xs):
    log = []
    xs = xs + [0]
    while True:
        try:
            x = xs.pop(0)
            if x == 0:
                raise ValueError(len(log))
            log.append(x)
        finally:
            log.append('f')
''',
    # the same, the raise under an except clause that does not catch it, code after the try
    "raise_in_except_try_in_while_true": '''
def run(xs):
    log = []
    xs = xs + [0]
    while True:
        try:
            x = xs.pop(0)
            if x == 0:
                raise ValueError(len(log))
            log.append(10 // (x - 1))
        except ZeroDivisionError:
            log.append('zero')
        log.append(x)
''',
    # nested: the raise two try statements deep, the outer one with a finally body
    "raise_in_nested_try_in_while_true": '''
def run(xs):
    log = []
    xs = xs + [0]
    while True:
        try:
            try:
                x = xs.pop(0)
                if x == 0:
                    raise KeyError(x)
                log.append(x)
            finally:
                log.append('inner')
        finally:
            log.append('outer')
''',
    # test.support.import_helper.module_restored: the finally body's final if/else, the implicit
    # `return None` copied into both arms of the normal path's copy
    "finally_if_else_at_end": '''
def restore(log, x, missing):
    try:
        log.append(10 // x)
    finally:
        if x is missing:
            log.append('missing')
        else:
            log.append(x)

def run(xs):
    out = []
    for x in xs + [None]:
        try:
            restore(out, x, None)
        except Exception as e:
            out.append(type(e).__name__)
    return out
''',
    # the same with elif, and a generator (contextmanager-like) whose try holds a yield
    "finally_if_elif_else_at_end": '''
def restore(log, x):
    try:
        yield 10 // x
    finally:
        if x is None:
            log.append('none')
        elif x > 2:
            log.append('big')
            log.append(x)
        else:
            log.append('small')

def run(xs):
    out = []
    for x in xs + [None, 0]:
        try:
            out.extend(restore(out, x))
        except Exception as e:
            out.append(type(e).__name__)
    return out
''',
    # the final if's arms end with a nested if/else: both levels get the exit
    "finally_nested_if_else_at_end": '''
def restore(log, x):
    try:
        log.append(10 // x)
    finally:
        if x % 2:
            if x > 2:
                log.append('odd big')
            else:
                log.append('odd small')
        else:
            log.append('even')

def run(xs):
    out = []
    for x in xs + [0, 'a']:
        try:
            restore(out, x)
        except Exception as e:
            out.append(type(e).__name__)
    return out
''',
    # wsgiref.handlers.BaseHandler.start_response: `try: if c: raise ... finally:` in the first arm
    # of an if/elif, the normal path's copy jumping past the whole if (its arm took that copy in)
    "finally_in_if_arm_raise": '''
def respond(log, x, y):
    if x:
        try:
            if x > 2:
                raise ValueError(x)
        finally:
            x = None
    elif y is not None:
        raise KeyError(y)
    log.append((x, y))
    return log

def run(xs):
    out = []
    for x in xs + [0]:
        for y in (None, x):
            try:
                respond(out, x, y)
            except Exception as e:
                out.append(type(e).__name__)
    return out
''',
    # the same with an except clause too, the code after the if reached from both other arms
    "except_in_if_arm_raise": '''
def respond(log, x, y):
    if x:
        try:
            if x > 2:
                raise ValueError(x)
        except KeyError:
            log.append('key')
        finally:
            log.append('f')
    elif y:
        log.append('y')
    else:
        return 'none'
    log.append(x)
    return log

def run(xs):
    out = []
    for x in xs + [0]:
        for y in (0, x):
            try:
                out.append(respond([], x, y))
            except Exception as e:
                out.append(type(e).__name__)
    return out
''',
    # an except clause's `break` through a finally body that rebinds what the code after the loop
    # returns (3.12+ copy that `return log` after the break's copy of the finally body): read as
    # `return log` in the clause it would return the list from before the finally body ran
    "clause_break_finally_rebinds": '''
def run(xs):
    log = []
    i = 0
    while True:
        try:
            i += 1
            if i > len(xs):
                raise StopIteration
        except StopIteration:
            log.append('stop')
            break
        else:
            log.append(i)
            if i == 3:
                continue
        finally:
            log = log + ['f']
    return log
''',
    # a `return` inside the try body in `while True:` (the value computed before the copy)
    "return_in_finally_try_in_while_true": '''
def run(xs):
    log = []
    while True:
        try:
            if not xs:
                return len(log)
            log.append(xs.pop())
        finally:
            log.append('f')
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
