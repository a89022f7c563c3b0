"""Helper beh20f, session 20 (≤3.10 try/finally refusals of the behaviour suite): finally bodies
ending in an if / elif / else chain (3.10 copies the handler's RERAISE and the normal path's
`return` into each arm), named except clauses whose if / elif / else arms each end with the
clause's cleanup and the copied `return`, and `return v` through a finally body that holds a try
statement (the copy's try statement entered with v waiting on the stack). Each case is a module
whose `run` is decompiled with it, compiled again, run against the original on several inputs,
and every code object's instruction sequence compared (decompile_py312_cases.check). Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

CASES = {
    # the handler's RERAISE copied into both arms (3.10): read as if / else
    "finally_if_else_at_end": '''
def run(xs):
    log = []
    try:
        log.append(10 // len(xs))
    finally:
        if len(xs) > 3:
            log.append("big")
        else:
            log.append("small")
    return log
''',
    "finally_if_elif_else_at_end": '''
def inner(xs, log):
    try:
        log.append(10 // len(xs))
    finally:
        if not xs:
            log.append("none")
        elif len(xs) > 3:
            log.append("big")
            log.append(len(xs))
        else:
            log.append("small")

def run(xs):
    log = []
    try:
        inner(xs, log)
    except ZeroDivisionError:
        log.append("zd")
    return log
''',
    # four arms, the last one raising itself
    "finally_elif_chain_raises": '''
def inner(xs, log):
    try:
        log.append(sum(xs))
    finally:
        if not xs:
            log.append(0)
        elif xs[0] == 1:
            log.append(1)
        elif xs[0] == 5:
            log.append(5)
        else:
            raise KeyError(len(xs))

def run(xs):
    log = []
    try:
        inner(xs, log)
    except KeyError as e:
        log.append(("key", e.args))
    return log
''',
    # each arm of a named clause ends with the clause's cleanup and the copied `return msg`
    "named_clause_if_elif_else": '''
def run(xs):
    n = len(xs)
    try:
        msg = xs[3]
    except IndexError as e:
        if n == 1:
            msg = str(e)
        elif n == 2:
            msg = repr(e)
        else:
            msg = "?"
    return msg
''',
    # an arm's own `return v` (computed before the cleanup) beside the copied ones: kept
    "named_clause_arm_returns": '''
def run(xs):
    ok = True
    n = len(xs)
    try:
        msg = xs[3]
    except IndexError as e:
        ok = False
        if n >= 3:
            return ok
        elif n == 1:
            msg = str(e)
        else:
            msg = "?"
    return ok, msg
''',
    # `return v` through a finally body holding a try statement: v computed before the body
    "return_through_finally_try": '''
def inner(xs):
    try:
        return len(xs)
    finally:
        try:
            xs.remove(0)
        except ValueError:
            xs.append("none")

def run(xs):
    return inner(xs), xs
''',
    "return_through_finally_if_try": '''
def inner(xs, log):
    got = False
    try:
        if not xs:
            got = True
        elif xs[0] <= 1:
            got = xs
        else:
            got = not xs
        return got
    finally:
        if not got:
            try:
                log.remove(xs[0])
            except (ValueError, AttributeError):
                log.append("gone")

def run(xs):
    log = [5, 2]
    return inner(xs, log), log
''',
    # the finally body's try rebinds the returned name: the value returned is the old one
    "return_name_rebound_in_finally_try": '''
def inner(xs):
    v = len(xs)
    try:
        return v
    finally:
        try:
            v = 10 // xs[0]
        except (ZeroDivisionError, IndexError):
            v = -1
        xs.append(v)

def run(xs):
    return inner(xs), xs
''',
    # ≤3.9: `break` out of a try body whose normal way out is the jump back to the loop's header
    "try_in_loop_break_and_return": '''
def run(xs):
    it = iter(xs)
    log = []
    while True:
        try:
            x = next(it)
            if x == 0:
                return "zero", log
            if x > 4:
                break
            log.append(10 // (x - 2))
        except ZeroDivisionError:
            return "two", log
        except StopIteration:
            return "end", log
    log.append("after")
    return log
''',
    "try_in_while_cond_break": '''
def run(xs):
    log = []
    i = 0
    while i < len(xs):
        i += 1
        try:
            if xs[i - 1] == 9:
                break
            log.append(10 // xs[i - 1])
        except ZeroDivisionError:
            log.append("zd")
    return log, i
''',
    "try_in_for_break": '''
def run(xs):
    log = []
    for x in xs:
        try:
            if x == 4:
                break
            log.append(10 // x)
        except ZeroDivisionError:
            return "zd", log
    else:
        log.append("else")
    return log
''',
    # `while True:` left by a try body's `break`, the code after the loop small (3.10 copies it
    # into the `break`: no exit block of its own, refused there)
    "while_true_try_break_small_tail": '''
def run(xs):
    it = iter(xs)
    while True:
        try:
            x = next(it)
            if x == 0:
                return "zero"
            if x > 4:
                break
        except StopIteration:
            return "end"
    return len(xs)
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
