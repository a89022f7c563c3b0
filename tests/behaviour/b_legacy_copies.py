"""Behaviour suite: code that 3.10 copies after an except clause's or a with handler's POP_EXCEPT.

A try body that returns, inside an `if`, whose clause goes on to the code after the `if`; a
try/except/else whose `else:` returns while the clauses go on to a different `return`; a with
body that never completes (only a suppressed exception reaches the code after it); a with
statement whose code after it (`raise`, the end of an enclosing except clause) is copied into
the handler's suppressed path; a `for` loop's `break` into which the exit block is copied.
"""

import contextlib


class Box:
    def __init__(self, log, suppress):
        self.log = log
        self.suppress = suppress

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, typ, val, tb):
        self.log.append("exit %s" % (typ.__name__ if typ else None))
        return self.suppress


def try_return_in_if(flag, x):
    log = []
    if flag:
        try:
            log.append(10 // x)
        except ZeroDivisionError:
            pass
        else:
            return log
    log.append("after")
    if not flag:
        log.append("not flag")
    return log


def try_else_return(x):
    try:
        got = 10 // x
    except ZeroDivisionError:
        pass
    else:
        return got * 2
    return -x


def try_else_return_loop(xs):
    out = []
    for x in xs:
        if x is None:
            continue
        try:
            v = 10 // x
        except ZeroDivisionError:
            out.append("zero")
        else:
            return out, v
        out.append("next")
    return out


def with_never_completes(x, suppress):
    log = []
    with Box(log, suppress):
        return log, 10 // x
    log.append("suppressed")
    return log, None


def with_never_completes_suppress(d, key):
    with contextlib.suppress(KeyError):
        return d[key]
    d[key] = len(d)
    return -d[key]


def with_then_raise(x):
    log = []
    try:
        log.append(10 // x)
    except ZeroDivisionError:
        with Box(log, x == 0):
            log.append(10 // (x - 0) if x else "z")
        raise
    return log


def with_in_clause(x, suppress):
    log = []
    try:
        log.append(10 // x)
    except ZeroDivisionError:
        with Box(log, suppress):
            log.append(len(log) // x if suppress else "ok")
    return log


def for_break_copied_exit(xs):
    out = []
    for x in xs:
        out.append(x)
        if x > 2:
            break
    return out


def for_break_in_try_body(xs):
    out = []
    for x in xs:
        try:
            v = 10 // x
            if v > 3:
                break
        except ZeroDivisionError:
            continue
        out.append(v)
    return out


def for_try_break(xs):
    v = -1
    for x in xs:
        try:
            v = 10 // x
            break
        except ZeroDivisionError:
            v = 0
    return v


def run_raise(x):
    try:
        return with_then_raise(x)
    except ZeroDivisionError as e:
        return "raised", str(e)


CASES = {
    "try_return_in_if": [(True, 1), (True, 0), (False, 1), (False, 0)],
    "try_else_return": [(1,), (0,), ("a",)],
    "try_else_return_loop": [([0, None, 2],), ([0, 0],), ([],), (["a"],)],
    "with_never_completes": [(1, False), (0, True), (0, False)],
    "with_never_completes_suppress": [({"a": 1}, "a"), ({}, "b")],
    "with_then_raise": [(1,), (2,)],
    "with_in_clause": [(1, False), (0, True), (0, False)],
    "run_raise": [(0,), (1,)],
    "for_break_copied_exit": [([1, 2, 3, 4],), ([],), ([5],)],
    "for_try_break": [([0, 5, 1],), ([],), ([0],), (["a"],)],
    "for_break_in_try_body": [([0, 5, 1, 2],), ([],), ([0],), (["a"],)],
}
