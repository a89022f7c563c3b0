"""Lead, session 19 (3.10 rows). Comprehensions whose last condition is a constant false: 3.10+
drop the element and the test, so the loop only stores its target (test_grammar `testGenexps`);
read back with `if False` and the target as the (dead) element (lib.rs `fold_comprehension`).
Each case is a module whose `run` is decompiled with it, compiled again, run against the original
on several inputs, and every code object's instruction sequence compared
(decompile_py312_cases.check). Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

# a context manager that records its exits and may suppress
MANAGER = '''
class Rec:
    def __init__(self, log, suppress):
        self.log, self.suppress = log, suppress
    def __enter__(self):
        self.log.append("in")
    def __exit__(self, t, v, tb):
        self.log.append(("out", t is not None))
        return self.suppress
'''

CASES = {
    "listcomp_if_false": '''
def run(xs):
    return [y for y in xs if False]
''',
    "all_comps_if_false": '''
def run(xs):
    return [y for y in xs if False], {y for y in xs if False}, {y: y for y in xs if False}, list(y for y in xs if False)
''',
    # the outer generator still drains the inner ones (a bad iterable raises)
    "nested_genexp_if_false": '''
def run(xs):
    return sum(x for x in (y for y in (z for z in xs if True) if False) if True)
''',
    # a tuple target: the element is `None` (dead code either way)
    "tuple_target_if_false": '''
def run(xs):
    return [k for k, v in xs if False]
''',
    # two loops, the inner one emptied
    "two_loops_if_false": '''
def run(xs):
    return [(a, b) for a in xs for b in xs if False]
''',
    # ≤3.10 `return CONSTANT` in an except clause inside a with body: the clause's POP_EXCEPT, the
    # with's exit call, the return (test_smtpnet `check_ssl_verifiy`): the exit call is the with
    # statement's copy before a way out (legacy_copy_flow.rs `enclosing_copies`)
    "clause_return_in_with": MANAGER + '''
def run(xs):
    log = []
    with Rec(log, len(xs) == 3):
        try:
            v = 10 // xs[0]
        except (ZeroDivisionError, IndexError):
            return False, log
        else:
            log.append(v)
            return True, log
''',
    "clause_return_name_in_with_loop": MANAGER + '''
def run(xs):
    log = []
    for x in xs:
        with Rec(log, False):
            try:
                v = 10 // x
            except ZeroDivisionError:
                return log
            log.append(v)
    return None
''',
    # ≤3.10: two lambdas or comprehensions alike but on different lines are two code objects
    # (equal up to their lines); printed on one line they would be merged into one constant
    # (printer.rs `code_on_own_line`): which one is observable
    "alike_lambdas_apart": '''
def run(xs):
    fs = (lambda a: a + 1,
          lambda a: a + 1)
    return [f(x) for f in fs for x in xs], fs[0].__code__ is fs[1].__code__
''',
    "alike_comprehensions_apart": '''
def run(xs):
    return ([str(x) for x in xs] +
            [str(x) for x in xs[1:]])
''',
    # written alike on one line, they are one constant: kept so
    "alike_lambdas_together": '''
def run(xs):
    fs = (lambda a: a + 1, lambda a: a + 1)
    return [f(x) for f in fs for x in xs], fs[0].__code__ is fs[1].__code__
''',
    # ≤3.10: `if c: return v` then `raise` ending a try body: the return's POP_BLOCK (and the
    # finally body's copy) is laid out before the raise, which is still the body's; the body never
    # completes (legacy_blocks.rs `body_code_after`), not `if not c: raise` and `return v` after
    # the statement (socket `SocketIO.write`, asyncore `accept`, crypt `_add_method`)
    "return_then_raise_in_finally_body": '''
def run(xs):
    log = []
    try:
        if len(xs) > 2:
            return xs[0], log
        raise ValueError(len(xs))
    finally:
        log.append("fin")
''',
    "return_then_raise_in_clause_as": '''
def run(xs):
    try:
        return 10 // xs[0]
    except (ZeroDivisionError, IndexError) as e:
        if len(xs) > 2:
            return None
        raise
''',
    "return_const_then_raise_in_clause": '''
def run(xs):
    result = None
    try:
        result = 10 // xs[0]
    except (ZeroDivisionError, IndexError) as e:
        if len(xs) in {2, 3, 4}:
            return False
        raise
    if result and len(xs) == 4:
        xs.append(result)
        return True
    return False
''',
    # a loop that never ends but by `return`: code after the return's POP_BLOCK goes round
    "return_in_endless_loop_in_try": '''
def run(xs):
    log = []
    it = iter(xs + [7])
    try:
        while True:
            x = next(it)
            if x > 4:
                return x, log
            log.append(x)
    finally:
        log.append("fin")
''',
    # 3.10: a finally body ending with a try/finally whose body ends with an `if`: the handler's
    # RERAISE is copied after the inner finally body's copy into the `if`'s arms, and the normal
    # path's `return None` likewise (mailbox `close`, bz2 / lzma `close`, fileinput `nextfile`)
    "nested_finally_if_in_finally": '''
class Box:
    def __init__(self, locked, fail):
        self.log, self.locked, self.fail = [], locked, fail
    def flush(self):
        self.log.append("flush")
        if self.fail:
            raise OSError("flush")
    def unlock(self):
        self.log.append("unlock")
    def close(self):
        self.log.append("close")

def close(box):
    try:
        box.flush()
    finally:
        try:
            if box.locked:
                box.unlock()
        finally:
            box.close()

def run(xs):
    box = Box(len(xs) > 1, len(xs) == 3)
    try:
        close(box)
    except OSError:
        box.log.append("raised")
    return box.log
''',
    "nested_finally_if_else_in_finally": '''
def run(xs):
    log = []
    try:
        log.append(10 // len(xs))
    finally:
        try:
            if xs:
                log.append("some")
            else:
                log.append("none")
        finally:
            log.append("fin")
    return log
''',
    # a nested try/finally ends a try body: its handler, laid out after the outer body's last
    # POP_BLOCK, is not code of the outer body (smtpd `PureProxy._deliver`)
    "nested_finally_ends_try_body": '''
def run(xs):
    refused = {}
    try:
        n = len(xs)
        try:
            refused = 10 // xs[0]
        finally:
            xs.append("quit")
    except ZeroDivisionError as e:
        refused = str(e)
    except IndexError:
        refused = "none"
    return refused
''',
    # 3.10: a finally body ending with a try/except: the handler's RERAISE is copied into the end
    # of the inner body (or its `else:`) and of each clause that completes (test_os
    # `test_set_get_priority`, test_raise `reraise`)
    "try_except_ends_finally_body": '''
class Errno(Exception):
    def __init__(self, errno):
        self.errno = errno

def restore(xs, log):
    if len(xs) % 3 == 1:
        raise Errno(len(xs))
    log.append("restored")

def guarded(xs, log):
    try:
        log.append(10 // xs[0])
    finally:
        try:
            restore(xs, log)
        except Errno as err:
            if err.errno != 4:
                raise

def run(xs):
    log = []
    try:
        guarded(xs, log)
    except (Errno, ZeroDivisionError, IndexError) as e:
        log.append(type(e).__name__)
    return log
''',
    "try_except_else_ends_finally_body": '''
def guarded(xs, log):
    try:
        log.append(10 // xs[0])
    finally:
        try:
            log.append(xs[1])
        except IndexError:
            log.append("short")
        else:
            log.append("long")

def run(xs):
    log = []
    try:
        guarded(xs, log)
    except (ZeroDivisionError, IndexError) as e:
        log.append(type(e).__name__)
    return log
''',
    # ≤3.10 `return CONSTANT` (or `break` into a copied `return None`) out of a `for` loop in a
    # with body: the iterator popped, the with's block, its exit call, the return (legacy_try_end.rs
    # `closes_with`; test_tarfile `_test_ustar_name`)
    "for_const_return_in_with": MANAGER + '''
def run(xs):
    log = []
    with Rec(log, False):
        for t in xs:
            log.append(t)
            if t > 1:
                return 5
    return log
''',
    "for_break_ends_with": MANAGER + '''
def first(xs, log):
    with Rec(log, False):
        for t in xs:
            log.append(t)
            break

def run(xs):
    log = []
    first(xs, log)
    return log
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
