"""CPython 3.8 layouts that only 3.8's dead code tells apart (tests/test_decompile_rows38.py): the
3.8 lowering (crates/decompile/src/legacy38.rs) drops what no path reaches, and keeps the dead
instructions that say where a statement ended (legacy_layout38.rs), as 3.9 keeps all of them:

- an except clause that leaves (`break`, `raise`, `continue`) still ends with its own way out,
  POP_EXCEPT and a jump to the end of the try statement, which says how far its `else:` runs;
- a try body that ends by raising still has POP_BLOCK and the jump to its `else:`, which is laid
  out after the handler and is dead too (kept, not lost);
- the jump past an `if` statement's `else:` after a body ending with a try statement that never
  completes (after the clauses' re-raise, or a finally body's);
- a `break` in a try body, followed by the body's own dead way out.

And two try/finally layouts the lowering now copies as 3.9 does: a finally body that ends by
raising (its END_FINALLY is dead) and an empty one (`finally: pass`, the handler's first
instruction its END_FINALLY). Calls with one `**` mapping and no `*` argument keep it (3.8
passes the one mapping as it is; keywords `k=v` without a `*` compile to CALL_FUNCTION_KW).

3.8 cannot import framejit: the cases are compiled there, decompiled by an interpreter that can,
and compiled, compared and run under 3.8 again (pyc_case_runner). Under 3.9+ (`live` mode) the
same cases are decompiled, compiled and run in one interpreter.

Modes (pyc / decompile / compare / live) and the checks made: pyc_case_runner; the cases call
its `risky` (RISKY), which raises for some inputs.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyc_case_runner  # noqa: E402

SOURCE = pyc_case_runner.RISKY + '''
def f_except_break_else(x, log):
    i = 0
    while True:
        try:
            v = risky(x + i, log)
        except OSError:
            break
        else:
            if v > 40:
                log.append(v)
        i += 1
        if i > 3:
            return i
    return -i

def f_except_break_no_else(x, log):
    i = 0
    while True:
        try:
            v = risky(x + i, log)
        except OSError:
            break
        if v > 40:
            log.append(v)
        i += 1
        if i > 3:
            return i
    return -i

def f_except_raise_else(x, log):
    try:
        v = risky(x, log)
    except KeyError:
        raise TypeError("not an integer")
    else:
        v = v + 1
    log.append(v)
    return v

def f_except_raise_no_else(x, log):
    try:
        v = risky(x, log)
    except KeyError:
        raise TypeError("not an integer")
    v = v + 1
    log.append(v)
    return v

def f_except_continue_ends_body(x, log):
    for i in range(x):
        try:
            if i % 2:
                risky(i, log)
        except KeyError:
            continue
    return x

def f_except_pass_ends_body(x, log):
    for i in range(x):
        try:
            if i % 2:
                risky(i, log)
        except KeyError:
            pass
    return x

def f_body_raises_else(x, log):
    try:
        raise (IndexError, KeyError)
    except TypeError:
        log.append("type")
    else:
        log.append("no exception")
    return x

def f_body_raises_no_else(x, log):
    try:
        raise (IndexError, KeyError)
    except TypeError:
        log.append("type")
    log.append("after")
    return x

def f_if_try_returns_else(x, log):
    if x % 2:
        try:
            return risky(x, log)
        except KeyError:
            return -1
    else:
        return -2

def f_if_try_returns_no_else(x, log):
    if x % 2:
        try:
            return risky(x, log)
        except KeyError:
            return -1
    return -2

def f_if_finally_raises_else(x, log):
    if x > 3:
        try:
            raise ValueError(x)
        finally:
            log.append("finally")
    else:
        return x

def f_if_finally_raises_no_else(x, log):
    if x > 3:
        try:
            raise ValueError(x)
        finally:
            log.append("finally")
    return x

def f_break_in_try_body(x, log):
    n = 0
    while True:
        n += 1
        try:
            risky(x + n, log)
            break
        except OSError:
            log.append("again")
    return n

def f_break_in_try_else(x, log):
    n = 0
    while True:
        n += 1
        try:
            risky(x + n, log)
        except OSError:
            log.append("again")
        else:
            break
    return n

def f_raise_then_try_else(x, log):
    if x == 5:
        raise LookupError(x)
    try:
        a, b = divmod(risky(x, log), 7)
    except KeyError:
        raise ValueError(x) from None
    else:
        return a, b

def f_finally_raises(x, log):
    try:
        try:
            log.append(10 // (x - 3))
        finally:
            log.append("fin")
            if x > 4:
                log.append("big")
            raise KeyError("uh oh")
    except KeyError:
        log.append("caught")
    return x

def f_finally_raises_in_loop(x, log):
    out = []
    for i in range(x):
        try:
            try:
                risky(i, log)
            finally:
                out.append(i)
                raise LookupError(i)
        except LookupError as e:
            log.append(e.args)
    return out

def f_empty_finally_in_loop(x, log):
    for i in range(x):
        try:
            risky(i, log)
        finally:
            pass
        try:
            pass
        finally:
            pass
        log.append(i)
    return x

def f_empty_finally_return(x, log):
    try:
        return risky(x, log)
    finally:
        pass

def f_empty_finally_break_continue(x, log):
    for i in range(x):
        try:
            if i == 4:
                break
            if i == 1:
                continue
            risky(i, log)
        finally:
            pass
        log.append(i)
    return x

def f_empty_finally_generator(x, log):
    def gen():
        try:
            yield x
            log.append("resumed")
        finally:
            pass
    g = gen()
    log.append(next(g))
    log.append(list(g))
    return x

def f_except_as_return_else(x, log):
    try:
        risky(x, log)
    except KeyError as value:
        return ("key", value.args)
    else:
        raise ValueError("did not raise")

def f_except_as_return_no_else(x, log):
    try:
        risky(x, log)
    except KeyError as value:
        return ("key", value.args)
    raise ValueError("did not raise")

def f_except_as_raise_else(x, log):
    try:
        v = risky(x, log)
    except OSError as e:
        raise KeyError(e.args)
    else:
        v += 1
    return v

def f_except_as_break_else(x, log):
    v = 0
    while x:
        try:
            v = risky(x, log)
        except KeyError as e:
            log.append(e.args)
            break
        else:
            v += 1
        x -= 1
    return v

def f_bare_except_else_in_loop(x, log):
    for i in range(x):
        try:
            risky(i, log)
        except:
            log.append("error")
        else:
            log.append("ok")
    return x

def f_bare_except_body_raises_else(x, log):
    hit = None
    try:
        raise Exception("foo")
    except:
        hit = "except"
    else:
        hit = "else"
    log.append(hit)
    return x

def f_call_one_mapping(x, log):
    log.append(dict(**{}))
    log.append(dict(**{"valid": x}))
    log.append(max(0, x, **{}))
    log.append(dict(*(), a=1, b=x))
    log.append(dict(a=1, **{"b": x}))
    log.append(max(*[x, 3], key=abs))
    log.append(max(*[x, 3], **{"key": abs}))
    log.append(max(*[x, 3], **{}))
    if x == 3:
        log.append(max(*()))
    return x
'''

INPUTS = [0, 1, 2, 3, 4, 5, 7]


if __name__ == "__main__":
    pyc_case_runner.main(SOURCE, "rows38_cases", lambda name: INPUTS, __doc__)
