"""≤3.10 try / finally / loop shapes (branch beh310f, tests/test_decompile_beh310f.py): `return
CONSTANT` out of `for` loops inside try bodies (the iterators popped, then POP_BLOCK, then the
constant loaded: 3.10 also copies a constant `return` after a `for ... else:` into its `break`), and
`return x` through a finally body whose copy stores to x, a `break` threaded past a `while` loop's exit,
`return` out of three and four nested `except ... as` clauses. 3.8 cannot import framejit: the cases are
compiled there, decompiled by an interpreter that can, and compiled, compared and run under 3.8
again; on 3.9+ they run here (python SCRIPT).

    python3.8 beh310f_checks.py pyc OUT.pyc              write the cases as a .pyc
    python beh310f_checks.py decompile X.pyc OUT.json    (with framejit) decompile the f_* functions
    python3.8 beh310f_checks.py compare OUT.json         compile, compare instructions, run both
    python beh310f_checks.py                             (with framejit) all of it here

Each f_* function takes (x, log) and is run on several x (lists, some holding values that make
risky() raise or a loop return); the results, exceptions and the side-effect log must be equal.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyc_case_runner  # noqa: E402

SOURCE = '''
def risky(v, log):
    log.append(("risky", v))
    if v == "k":
        raise KeyError(v)
    if v == "t":
        raise TypeError(v)
    return v

def f_return_const_in_for(x, log):
    try:
        for v in x:
            if v == 0:
                return "zero"
            log.append(risky(v, log))
    except KeyError:
        return "key"
    return "end"

def f_return_const_in_for_then_return(x, log):
    try:
        for v in x:
            if v == 0:
                return "zero"
            log.append(risky(v, log))
        return "all"
    except KeyError:
        return "key"

def f_for_else_returns_in_try(x, log):
    try:
        for v in x:
            if v == 0:
                break
            risky(v, log)
        else:
            return "all fine"
    except KeyError:
        return "key"
    return "zero"

def f_for_else_raises_in_try(x, log):
    try:
        for v in x:
            if v == 0:
                break
            risky(v, log)
        else:
            raise LookupError("no zero")
        return "found"
    except LookupError as e:
        return str(e)

def f_return_none_in_for(x, log):
    try:
        for v in x:
            if v == 0:
                return
            log.append(risky(v, log))
    except TypeError:
        log.append("type")
    log.append("end")

def f_return_const_nested_try(x, log):
    try:
        try:
            for v in x:
                if v == 0:
                    return "zero"
                log.append(risky(v, log))
        except KeyError:
            return "key"
    except TypeError:
        return "type"
    return "end"

def f_return_const_two_loops(x, log):
    try:
        for v in x:
            for w in (v, v):
                if w == 0:
                    return "zero"
                log.append(risky(w, log))
    except KeyError:
        return "key"

def f_return_const_in_for_finally(x, log):
    try:
        for v in x:
            if v == 0:
                return "zero"
            log.append(risky(v, log))
    finally:
        log.append("finally")
    return "end"

def f_loop_in_body_end_then_return(x, log):
    try:
        for v in x:
            risky(v, log)
        log.append("done")
    except KeyError:
        log.append("key")
    return "end"

def f_while_in_for_break_in_clause(x, log):
    for v in x:
        n = 3
        while n > 0:
            try:
                n -= 1
                risky(v, log)
            except KeyError:
                log.append("key")
                break
            finally:
                log.append(n)
    return len(log)

def f_while_in_for_break_in_clause_else(x, log):
    for v in x:
        if v == 0:
            log.append("zero")
        else:
            n = 2
            while n > 0:
                try:
                    n -= 1
                    risky(v, log)
                except KeyError:
                    break
                finally:
                    log.append(n)
    return len(log)

def f_ret_nested_as_three(x, log):
    d = dict(zip(x, range(len(x))))
    try:
        return d[1]
    except KeyError as a:
        try:
            return d[2]
        except KeyError as b:
            try:
                return d[3]
            except KeyError as c:
                log.append(len(a.args + b.args + c.args))
                return [a.args, b.args, c.args]

def f_ret_nested_as_four(x, log):
    d = dict(zip(x, range(len(x))))
    try:
        return d["k"]
    except KeyError as a:
        try:
            return d[1]
        except KeyError as b:
            try:
                return d[2]
            except KeyError as c:
                try:
                    return d[0]
                except KeyError as e:
                    return [a.args, b.args, c.args, e.args]

def f_return_name_changed_in_finally(x, log):
    try:
        return x
    finally:
        if x:
            x = 5
            log.append(x)

def f_return_names_changed_in_finally_if(x, log):
    y = len(x)
    try:
        return x, y
    finally:
        if y > 2:
            x = "big"
            y = -1
            log.append((x, y))
'''

INPUTS = [[], [1, 2], [1, 0, 2], [0], [1, "k", 0], ["t", 0], [3, 0, "k"]]
pyc_case_runner.main(SOURCE, "beh310f_cases", lambda name: INPUTS, __doc__)
