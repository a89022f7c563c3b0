"""try/except/finally and with under this interpreter (3.9/3.10: block setups, no exception table):
each function is decompiled, the source compiled again, and the original and the recompiled function
are run on the same inputs (some raising) and their results, exceptions and side effects compared, as
well as their instruction sequences (decompile_sweep.normalized). Prints JSON, one row per function.

    python legacy_blocks_checks.py                      decompile here (3.9+, framejit importable)
    python3.8 legacy_blocks_checks.py pyc OUT.pyc       3.8: write the cases as a .pyc
    python legacy_blocks_checks.py decompile X.pyc OUT.json   (with framejit) decompile its f_* functions
    python3.8 legacy_blocks_checks.py compare OUT.json  3.8: compile, compare and run what came back
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyc_case_runner  # noqa: E402

SOURCE = '''
class Boom(Exception):
    pass

class CM:
    """A context manager that logs, and swallows Boom when told to."""
    def __init__(self, log, tag, swallow=False):
        self.log, self.tag, self.swallow = log, tag, swallow
    def __enter__(self):
        self.log.append(("enter", self.tag))
        return self.tag
    def __exit__(self, t, v, tb):
        self.log.append(("exit", self.tag, t.__name__ if t else None))
        return self.swallow and t is Boom

def risky(x, log):
    log.append(("risky", x))
    if x == 0:
        raise ZeroDivisionError("zero")
    if x == 1:
        raise KeyError(x)
    if x == 2:
        raise Boom("boom")
    if x == 3:
        raise TypeError("type")
    return x * 10

def f_except(x, log):
    try:
        a = risky(x, log)
    except ZeroDivisionError:
        a = -1
    return a

def f_except_as(x, log):
    try:
        a = risky(x, log)
    except KeyError as e:
        a = repr(e)
    return a, "e" in dir()

def f_tuple(x, log):
    try:
        a = risky(x, log)
    except (KeyError, ZeroDivisionError) as err:
        log.append(type(err).__name__)
        a = 0
    return a

def f_bare(x, log):
    try:
        risky(x, log)
    except:
        log.append("bare")
        return "caught"
    return "ok"

def f_many(x, log):
    try:
        a = risky(x, log)
    except ZeroDivisionError:
        a = 1
    except KeyError as k:
        a = str(k)
    except Boom:
        a = 3
    else:
        a = a + 1
    return a

def f_else(x, log):
    try:
        risky(x, log)
    except KeyError:
        log.append("key")
    else:
        log.append("else")
    log.append("after")

def f_finally(x, log):
    try:
        a = risky(x, log)
    finally:
        log.append("finally")
    return a

def f_except_finally(x, log):
    try:
        a = risky(x, log)
    except KeyError:
        a = "k"
    finally:
        log.append("fin")
    return a

def f_return_in_finally_try(x, log):
    try:
        return risky(x, log)
    finally:
        log.append("cleanup")

def f_return_in_except(x, log):
    try:
        return risky(x, log)
    except KeyError as e:
        return e.args

def f_nested(x, log):
    try:
        try:
            a = risky(x, log)
        except KeyError:
            a = risky(x - 1, log)
    except ZeroDivisionError:
        a = "inner raised"
    return a

def f_nested_finally(x, log):
    try:
        try:
            risky(x, log)
        finally:
            log.append("inner")
    finally:
        log.append("outer")
    return len(log)

def f_loop_break(xs, log):
    for x in xs:
        try:
            if x == 5:
                break
            risky(x, log)
        except KeyError:
            log.append("k")
    return log

def f_loop_continue(xs, log):
    total = 0
    for x in xs:
        try:
            total += risky(x, log)
        except (KeyError, Boom):
            continue
        total += 1
    return total

def f_loop_finally(xs, log):
    for x in xs:
        try:
            if x == 4:
                break
            if x == 5:
                continue
            log.append(x)
        finally:
            log.append("f")
    return 1

def f_while_retry(n, log):
    while True:
        try:
            return risky(n, log)
        except KeyError as e:
            log.append(e)
            n = 4

def f_reraise(x, log):
    try:
        risky(x, log)
    except KeyError:
        log.append("k")
        raise
    return "done"

def f_raise_in_handler(x, log):
    try:
        risky(x, log)
    except Boom as b:
        raise ValueError("wrapped") from b
    return "ok"

def f_handler_if(x, log):
    try:
        a = risky(x, log)
    except KeyError:
        if x > 0:
            a = "pos"
        else:
            a = "neg"
    return a

def f_with(x, log):
    with CM(log, "a") as t:
        log.append(t)
        risky(x, log)
    return "out"

def f_with_swallow(x, log):
    with CM(log, "s", swallow=True):
        risky(x, log)
        log.append("after risky")
    return "swallowed or not"

def f_with_two(x, log):
    with CM(log, "a") as a, CM(log, "b") as b:
        log.append((a, b))
        risky(x, log)

def f_with_nested_return(x, log):
    with CM(log, "outer"):
        with CM(log, "inner") as i:
            return risky(x, log), i

def f_with_in_try(x, log):
    try:
        with CM(log, "w"):
            risky(x, log)
    except Boom:
        return "boom"
    return "fine"

def f_try_in_with(x, log):
    with CM(log, "w") as w:
        try:
            risky(x, log)
        except ZeroDivisionError:
            log.append(w)
    return w

def f_with_loop(xs, log):
    for x in xs:
        with CM(log, x):
            if x == 4:
                continue
            log.append(x)
    return log

def f_finally_in_handler(x, log):
    try:
        risky(x, log)
    except KeyError:
        try:
            risky(x + 1, log)
        finally:
            log.append("inner finally")
    return "end"

def f_if_arm_returns(x, log):
    # the else arm leaves the try body by return; the code after the try must stay outside it
    try:
        if x > 3:
            risky(x - 3, log)
        else:
            return -1
    except KeyError:
        raise ValueError("k")
    log.append(2)
    return risky(x - 4, log)

def f_if_arm_returns_first(x, log):
    try:
        if x < 4:
            return risky(x, log)
        else:
            log.append(1)
    except Boom:
        raise ValueError("b")
    log.append(2)
    return risky(x, log)

def f_except_pass(x, log):
    try:
        risky(x, log)
    except Exception:
        pass
    return log[-1]
'''

INPUTS = [0, 1, 2, 3, 4, 7]
LIST_INPUTS = [[4, 7], [1, 2, 4], [5, 1], [0], [1, 5, 4], [2, 3]]


pyc_case_runner.main(SOURCE, "legacy_blocks_cases", lambda name: LIST_INPUTS if "loop" in name else INPUTS, __doc__)
