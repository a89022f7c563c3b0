"""`while True:` loops. Loops that never end (no `break`, no `return` or `raise` in them: only an exception from a call
gets out), after a branch whose other arm leaves (flow.rs `endless_loop_exits`), and `continue`
in an except clause nested in another try body in such a loop (structure/except_exit.rs
`leaving`). The walk back from the function's exit never reached such a loop, so a branch with
one arm into the loop and the other raising came out post-dominated by the raise: `assert c`
before the loop was read as `if c: <the loop>` followed by the raise, and a try statement before
the loop took the loop into its body (its bare `except:` then caught what the loop let out:
idlelib.run `main` on 3.10 / 3.14; 3.12 / 3.13 read the loop into the body too, 3.9 as well).
Each case is a module whose `run` is decompiled with it, compiled again, run against the original
on several inputs, and every code object's instruction sequence compared
(decompile_py312_cases.check). Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

# `take` ends every loop below: its LookupError carries the log out
TAKE = '''
def take(xs, log):
    if not xs:
        raise LookupError(repr(log))
    return xs.pop(0)
'''

CASES = {
    # idlelib.run main's shape: an exception the loop lets out must not reach the bare `except:`
    "assert_try_then_endless_loop": TAKE + '''
def run(xs):
    log = []
    try:
        assert len(xs) > 1
        first = xs[0]
    except:
        return "short"
    log.append(first)
    while True:
        log.append(10 // take(xs, log))
''',
    # the same with the loop's body a try statement whose clause continues
    "try_then_endless_loop_of_try": TAKE + '''
def run(xs):
    log = []
    try:
        first = 10 // xs[0]
    except:
        return "bad"
    while True:
        try:
            log.append(first // take(xs, log))
        except ZeroDivisionError:
            log.append("z")
            continue
''',
    # no try: `if not xs: raise` before the loop, the raise read after `if xs: <loop>`
    "raise_arm_then_endless_loop": TAKE + '''
def run(xs):
    log = []
    if not xs:
        raise ValueError("empty")
    while True:
        x = take(xs, log)
        if x:
            log.append(10 // x)
        else:
            log.append("zero")
''',
    # an assert alone before the loop
    "assert_then_endless_loop": TAKE + '''
def run(xs):
    log = []
    assert xs, "empty"
    while True:
        log.append(take(xs, log) * 2)
''',
    # `continue` in an except clause of a try inside another try body (3.11-3.13 left the
    # clause's POP_EXCEPT marker before the `continue`'s written mark: refused)
    "clause_continue_in_try_in_endless_loop": TAKE + '''
def run(xs):
    log = []
    while True:
        try:
            if len(log) % 2:
                try:
                    log.append(10 // take(xs, log))
                except ZeroDivisionError:
                    log.append("z")
                    continue
            log.append(20 // take(xs, log))
        except ZeroDivisionError:
            log.append("Z")
            continue
''',
    "nested_try_continue_in_endless_loop": TAKE + '''
def run(xs):
    log = []
    while True:
        try:
            try:
                log.append(10 // take(xs, log))
            except ZeroDivisionError:
                log.append("z")
                continue
            log.append(take(xs, log))
        except TypeError:
            log.append("t")
''',
    # 3.10: an except clause's `continue` with more of the body after the try statement (the
    # clause's jump goes to the `while` line's NOP: written, not the end of the body)
    "clause_continue_then_more": TAKE + '''
def run(xs):
    log = []
    while True:
        try:
            x = 10 // take(xs, log)
        except ZeroDivisionError:
            log.append("z")
            continue
        log.append(x)
''',
    # 3.10 / 3.11: ways out laid out in a `while True:` body that cannot be copies of the code
    # after the loop (`loop_exits::return_in_body`, `return_not_copied`): a `return` of None
    # after a call, a `raise` of more than four instructions, a `return` beside a `break` whose
    # code after the loop is longer than a copy
    "long_return_none_in_body": TAKE + '''
def run(xs):
    log = []
    while True:
        x = take(xs, log)
        if x > 4:
            log.append("big")
            return
        log.append(x)
''',
    "long_raise_in_body": TAKE + '''
def run(xs):
    out = []
    while True:
        x = take(xs, out)
        if x == 0:
            break
        if x > 4:
            raise ValueError("too big: %r" % (x,))
        out.append(x)
    return out
''',
    # (contextlib `_fix_exception_context`'s shape: the chain followed to its end)
    "return_beside_break": '''
class Node:
    def __init__(self, up):
        self.up = up


def relink(node, first, stop):
    while 1:
        up = node.up
        if up is None or up is first:
            return
        if up is stop:
            break
        node = up
    node.up = first


def run(xs):
    stop = Node(None)
    first = Node(Node(Node(stop if len(xs) % 2 else None)))
    relink(first, first, stop)
    return first.up.up.up is first
''',
    # (3.10: a `continue` whose jump follows the unbinding of the clause's name or an exit
    # call: no mark between the copy and its way out)
    "as_clause_continue": TAKE + '''
def run(xs):
    log = []
    while True:
        try:
            x = 10 // take(xs, log)
        except ZeroDivisionError as e:
            if len(log) % 2:
                log.append(str(e)[:3])
                continue
            log.append("even")
        log.append(len(log))
''',
    "with_continue": TAKE + '''
class Box:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("in")

    def __exit__(self, *a):
        self.log.append("out")


def run(xs):
    log = []
    while True:
        with Box(log):
            x = take(xs, log)
            if x % 2:
                continue
            log.append(x)
        log.append(-x)
''',
    # ≤3.9: an except clause's `continue` ending a loop body, told by the dead POP_EXCEPT and
    # jump after it (nop_header.rs `legacy_clause_continue`)
    "for_clause_continue": '''
def run(xs):
    out = []
    for x in xs:
        try:
            out.append(10 // x)
        except ZeroDivisionError:
            continue
    return out
''',
    # (argparse `consume_optional`'s shape, 3.10 / 3.11: two ways out of the loop, each a
    # `break` after a test whose other arm raises, meet after the loop)
    "raise_arms_then_breaks": '''
def co(a, b, c, m):
    while True:
        if a is None:
            m.append(b)
            return c + 1
        if b is not None:
            if c == 1:
                if a in m:
                    m.remove(a)
                    a = None
                else:
                    raise ValueError("bad %s" % b)
            elif c == 2:
                m.append(a)
                break
            else:
                raise TypeError("worse %s" % b)
        else:
            m.append(c)
            break
    m.append(a)
    return b


def run(xs):
    m = [1, 2]
    out = [co(None, 5, len(xs), m)]
    for x in xs:
        try:
            out.append(co(x, x if x % 3 else None, x % 4, m))
        except (ValueError, TypeError) as e:
            out.append(str(e))
    return out, m
''',
    # a loop left only through an except clause's `return` (no normal edge out of it): joined to
    # the exit at its header, an `if` ending its body still ends at the jump back (test_queue
    # `feed`, 3.9)
    "loop_left_by_clause_return": '''
def run(xs):
    out = []
    while True:
        try:
            v = xs.pop()
        except IndexError:
            return out
        out.append(v)
        if v > 2:
            out.append(-v)
''',
    # 3.14: a `while True:` body of one block, the test in it, whose taken arm returns: the arm
    # is written in the body (its loads borrow; walked_exit.rs), weakref `popitem`
    "one_block_body_return": '''
def run(xs):
    while True:
        k, v = xs.pop()
        o = v * 2
        if o is not None:
            return k, o
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
