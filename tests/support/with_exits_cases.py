"""`with` bodies left by `break` / `continue` / `return` (the compiler copies the exit call
`__exit__(None, None, None)` onto each such way out): each case is a module whose `run` is
decompiled with it, compiled again, run against the original on several inputs (results and
exceptions compared, the context managers log every enter and exit), and every code object's
instruction sequence compared (decompile_py312_cases.check). Prints JSON.

Run under any of 3.9-3.14 with PYTHONPATH=python; `async with` cases only from 3.11 (3.9 / 3.10
async with is another piece of work)."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

CM = '''
class CM:
    def __init__(self, log, name, suppress=False):
        self.log = log
        self.name = name
        self.suppress = suppress

    def __enter__(self):
        self.log.append('>' + self.name)
        return self.name

    def __exit__(self, t, v, tb):
        self.log.append('<' + self.name + ('!' if t else ''))
        return self.suppress
'''

ACM = '''
import asyncio

class ACM:
    def __init__(self, log, name):
        self.log = log
        self.name = name

    async def __aenter__(self):
        self.log.append('>' + self.name)
        return self.name

    async def __aexit__(self, t, v, tb):
        self.log.append('<' + self.name + ('!' if t else ''))
        return False
'''

CASES = {
    "continue_in_with": CM + '''
def run(xs):
    log = []
    for x in xs:
        with CM(log, str(x)):
            if x == 0:
                continue
            log.append(x)
    return log
''',
    "break_in_with": CM + '''
def run(xs):
    log = []
    for x in xs:
        with CM(log, str(x)):
            if x > 4:
                break
            log.append(x)
    log.append('after')
    return log
''',
    "break_and_continue_in_with": CM + '''
def run(xs):
    log = []
    for x in xs:
        with CM(log, str(x)):
            if x == 0:
                continue
            if x > 4:
                break
            log.append(x)
        log.append('tail')
    return log
''',
    # both with statements are left: two exit calls before the jump
    "continue_through_two_withs": CM + '''
def run(xs):
    log = []
    for x in xs:
        with CM(log, 'a'):
            with CM(log, 'b'):
                if x == 2:
                    continue
                if x > 6:
                    break
                log.append(x)
    return log
''',
    "break_in_while_with": CM + '''
def run(xs):
    log = []
    i = 0
    while i < len(xs):
        with CM(log, 'w'):
            i += 1
            if xs[i - 1] > 4:
                break
            if xs[i - 1] == 1:
                continue
            log.append(xs[i - 1])
    return log, i
''',
    # the with statement is the loop body's last statement: its normal end and a `continue`
    # both go back to the loop header
    "with_last_in_loop": CM + '''
def run(xs):
    log = []
    for x in xs:
        log.append(x)
        with CM(log, 'z'):
            if x == 0:
                continue
            log.append(-x)
    return log
''',
    "return_in_with_in_loop": CM + '''
def run(xs):
    log = []
    for x in xs:
        with CM(log, str(x)):
            if x > 4:
                return log, x
            log.append(x)
    return log, None
''',
    # `return value` swaps the value under each with statement's exit
    "return_through_two_withs": CM + '''
def run(xs):
    log = []
    with CM(log, 'a'):
        with CM(log, 'b'):
            r = 'pos' if len(xs) > 3 else 'short'
            if xs:
                return r, log
    return 'empty', log
''',
    # a with statement inside a try body: the return path's exit call and the return are in
    # different exception ranges
    "return_in_with_in_try": CM + '''
def one(log, x):
    try:
        with CM(log, str(x)):
            if x == 1:
                return 'one'
            if x == 2:
                raise KeyError(x)
    except KeyError:
        return 'key'
    return 'none'

def run(xs):
    log = []
    return [one(log, x) for x in xs], log
''',
    "with_as_then_return_tuple": CM + '''
def run(xs):
    log = []
    with CM(log, 'v') as v:
        log.append(v + str(len(xs)))
    return log, v
''',
    # __exit__ suppresses the exception raised in the body: the loop goes on after the statement
    "suppressed_then_continue": CM + '''
def run(xs):
    log = []
    for x in xs:
        with CM(log, str(x), suppress=True):
            if x == 0:
                continue
            if x == 9:
                break
            if x == 2:
                raise ValueError(x)
            log.append(x)
        log.append('after')
    return log
''',
    "continue_in_with_in_try": CM + '''
def run(xs):
    log = []
    for x in xs:
        try:
            with CM(log, str(x)):
                if x == 0:
                    continue
                log.append(10 // (x - 1))
        except ZeroDivisionError:
            log.append('zero')
    return log
''',
    # a loop inside the with body: its break and continue stay inside the with
    "loop_in_with_in_loop": CM + '''
def run(xs):
    log = []
    for n in (1, 2):
        with CM(log, 'outer'):
            for x in xs:
                with CM(log, 'inner'):
                    if x == 0:
                        continue
                    if x > 4:
                        break
                    log.append(x * n)
            if n == 2:
                break
    return log
''',
}

ASYNC_CASES = {
    "async_with_continue_return": ACM + '''
async def body(xs):
    log = []
    for x in xs:
        async with ACM(log, str(x)):
            if x == 0:
                continue
            if x > 4:
                return log, 'big'
            log.append(x)
    return log, 'done'

def run(xs):
    return asyncio.run(body(xs))
''',
    "async_with_break": ACM + '''
async def body(xs):
    log = []
    for x in xs:
        async with ACM(log, str(x)):
            if x == 7:
                break
            log.append(x)
    return log

def run(xs):
    return asyncio.run(body(xs))
''',
}


def main() -> None:
    cases = dict(CASES)
    if sys.version_info >= (3, 11):
        cases.update(ASYNC_CASES)
    print(json.dumps([check(k, v) for k, v in cases.items()], indent=1))


if __name__ == "__main__":
    main()
