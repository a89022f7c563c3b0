"""≤3.10 shapes that came out twice (branch twice310, tests/test_decompile_twice310.py): a try/except
whose body's way on and whose clauses' way on (after POP_EXCEPT) meet at code that runs to the end
of the function, the body's way on going there through a jump block or through its `else:` part;
and a chained comparison as a part of an `or` / `and` condition, whose cleanup 3.10 ends with a
copy of the small exit block after the `if`. The code after the statement must run once, after the
body or after a clause; the copied exit must return what the `if`'s false path returns.

    python3.8 twice310_cases.py pyc OUT.pyc              write the cases as a .pyc
    python twice310_cases.py decompile X.pyc OUT.json    (with framejit) decompile the f_* functions
    python3.8 twice310_cases.py compare OUT.json         compile, compare instructions, run both
    python twice310_cases.py                             (with framejit) all of it here

Each f_* function takes (x, log); risky() raises KeyError for x in (2, 3, 6, 7) and ValueError for
x == 8; results, exceptions and the log must be equal.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyc_case_runner  # noqa: E402

SOURCE = '''
class Skip(Exception):
    pass

def risky(x, log):
    log.append(("risky", x))
    if x in (2, 3, 6, 7):
        raise KeyError(x)
    if x == 8:
        raise ValueError(x)
    return x > 4

def f_clause_reraise_then_raise(x, log):
    try:
        risky(x, log)
    except (KeyError, ValueError) as e:
        if not isinstance(e, KeyError):
            raise
        log.append("caught")
    raise Skip(log.copy(), x)

def f_clause_reraise_then_if(x, log):
    try:
        risky(x, log)
    except KeyError as e:
        if e.args[0] != 2:
            raise
    if x % 2:
        log.append("odd")

def f_clause_returns_or_assigns(x, log):
    try:
        v = risky(x, log)
    except KeyError:
        if x == 3:
            return "early"
        if x == 6:
            v = "six"
        else:
            v = "other"
    if x > 5:
        return ("big", v)
    return ("small", v)

def f_clause_pass_else_if_return(x, log):
    try:
        v = risky(x, log)
    except KeyError:
        pass
    else:
        if v is not True:
            if x == 1:
                raise Skip("one")
            log.append(("else", v))
            return "else"
    log.append("after")

def f_clause_pass_else_if_return_value(x, log):
    try:
        v = risky(x, log)
    except (KeyError, ValueError):
        log.append("caught")
    else:
        if v:
            return v
    return len(log)

def f_if_clause_pass_else_returns(x, log):
    if x != 5:
        log.append("in")
        try:
            v = risky(x, log)
        except KeyError:
            pass
        else:
            log.append(("else", v))
            return v
    return len(log)

def f_clause_pass_else_leaves_then_code(x, log):
    try:
        v = risky(x, log)
    except KeyError:
        log.append("caught")
    else:
        if v:
            raise Skip(v)
        return "else"
    log.append("after")
    return log.copy()

def f_nested_try_as_clause(x, log):
    try:
        try:
            risky(x, log)
        except KeyError as exc:
            if exc.args[0] == 2:
                pass
            else:
                raise
    except Exception as err:
        if x > 6:
            log.append(("outer", type(err).__name__))
        else:
            log.append("outer else")

def f_or_chain(x, log):
    n = len(log)
    if x == 9 or 2 <= x < 5:
        n += 10
    return n

def f_chain_or(x, log):
    n = x
    if 2 <= x < 5 or x == 9:
        n += 10
    return n

def f_nested_or_chain(x, log):
    n = [x]
    if x >= 1:
        log.append("in")
        if x >= 7 or (3, 0) <= (x, 1) < (5,):
            n += (1, 2)
    return n

def f_and_chain(x, log):
    n = x
    if x != 3 and 1 <= x < 6:
        n *= 2
    return n

def f_chain_and_chain_pass_else(x, log):
    if x - 1 < x < 8 != x and 0 < x <= 6:
        pass
    else:
        log.append("outside")
    if x > 1 and -1 < x < 5:
        pass
    else:
        log.append("not 2-4")

def f_chain_and_name_pass_else_then_call(x, log):
    if 1 < x < 7 and x % 3:
        pass
    else:
        log.append("else")
    risky(x + 10, log)

def f_or_chain_chain(x, log):
    n = x
    if 0 <= x < 2 or 6 < x <= 8:
        n = -n
    return n
'''

INPUTS = list(range(10))

# cases that must decompile on 3.8-3.10 (the others may be refused, never miscompiled)
READ = [
    "f_clause_reraise_then_raise",
    "f_clause_reraise_then_if",
    "f_clause_returns_or_assigns",
    "f_clause_pass_else_if_return",
    "f_clause_pass_else_if_return_value",
    "f_if_clause_pass_else_returns",
    "f_clause_pass_else_leaves_then_code",
    "f_nested_try_as_clause",
    "f_or_chain",
    "f_nested_or_chain",
    "f_and_chain",
    "f_chain_and_chain_pass_else",
    "f_chain_and_name_pass_else_then_call",
]

if __name__ == "__main__":
    pyc_case_runner.main(SOURCE, "twice310_cases", lambda name: INPUTS, __doc__)
