"""Ways out of loops inside try statements, 3.11+ (structure/try_loop_exits.rs,
structure/late_exit.rs, exprs/late_return.rs, `leaves_through_own` in structure/loop_else.rs):
`for ... else:` inside `try:` whose `break` reaches the code after the try (3.12+ place it right
after the break, past the end of the exception range), and `break` out of a `for` loop through a
`finally:` body whose copy runs before the iterator's pop and the code after the loop (which, read
as a `return`, would compute its value before the `finally:` body: `finally: log = log + [...]`).
Each case is a module whose `run` is decompiled with it, compiled again, run against the original
on several inputs, and every code object's instruction sequence compared
(decompile_py312_cases.check). Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

CASES = {
    # the break's code after the loop is the code after the try, placed after the iterator's pop
    "for_else_in_try": '''
def run(xs):
    try:
        for x in xs:
            if x == 0:
                break
            10 // x
        else:
            return "all fine"
    except TypeError:
        return "type"
    return "zero"
''',
    "flag_loop_else_raise_in_try": '''
def run(xs):
    try:
        for x in xs:
            if x == 7:
                break
        else:
            raise LookupError("no seven")
        return "found"
    except LookupError as e:
        return str(e)
''',
    # a finally body that rebinds what the code after the loop returns
    "break_through_finally_rebinds": '''
def run(xs):
    log = []
    for x in xs:
        try:
            if x == 0:
                break
            log.append(x)
        finally:
            log = log + ["f"]
    return log
''',
    "break_through_finally_len": '''
def run(xs):
    log = []
    for x in xs:
        try:
            if x == 0:
                break
        finally:
            log.append("f")
    return len(log)
''',
    "break_in_except_through_finally": '''
def run(xs):
    out = []
    for x in xs:
        try:
            out.append(10 // x)
        except ZeroDivisionError:
            out.append("z")
            break
        finally:
            out = out + ["."]
    return out
''',
    # a `while True:` left only by an except clause's break through a finally body
    "while_clause_break_through_finally": '''
def run(xs):
    log = []
    i = 0
    while True:
        try:
            i += 1
            log.append(10 // (len(xs) + 1 - i))
        except ZeroDivisionError:
            log.append("stop")
            break
        finally:
            log = log + ["f"]
    return log
''',
    # for ... else: returning, the break through a finally body that rebinds
    "for_else_break_through_finally": '''
def run(xs):
    log = []
    for x in xs:
        try:
            if x == 0:
                break
        finally:
            log = log + ["f"]
    else:
        return None
    return log
''',
    # `while True:` whose only way out is `break` in an except clause (3.11 lays the handler out
    # inline, outside the loop: no edge of the loop itself leaves it)
    "while_true_except_break": '''
def run(xs):
    it = iter(xs)
    out = []
    while True:
        try:
            v = next(it)
        except StopIteration:
            break
        out.append(10 // v)
    return out, len(out)
''',
    # the same inside an outer try: the code after the loop is at the outer try's nesting
    "while_true_except_break_in_try": '''
def run(xs):
    it = iter(xs)
    out = []
    try:
        while True:
            try:
                v = next(it)
            except StopIteration:
                break
            out.append(10 // v)
        out.append("done")
    except ZeroDivisionError:
        out.append("zero")
    return out
''',
    # `except ... as e:` ending in an `if` inside a loop: 3.13+ copy the clause's unbinding of e and
    # the jump back into both arms
    "except_as_if_in_loop": '''
def run(xs):
    out = []
    for x in xs:
        try:
            out.append(10 // x)
        except ZeroDivisionError as e:
            if len(out) > 1:
                out.append(type(e).__name__)
    return out
''',
    # `while True:` whose except clause ends by `break` in one arm and `return` in the other, and
    # whose body has a `break` of its own: that `break`'s jump is taken as the loop's exit, and the
    # clause's `break` goes past it, straight to the code after the loop (3.11, 3.13+), or into a
    # copy of that code after its POP_EXCEPT (3.12+ copy a small exit: `return out`), which read
    # as it was made `return out` inside the clause (_pyio FileIO.readall)
    "while_except_break_or_return": '''
def run(xs):
    it = iter(xs)
    out = []
    while True:
        try:
            v = next(it)
        except StopIteration:
            if out:
                break
            return None
        if v == 0:
            break
        out.append(10 // v)
    return out
''',
    # the same with code after the loop too long to copy (3.12+ jump back to it from the clause)
    "while_except_break_or_return_call": '''
def run(xs):
    it = iter(xs)
    out = []
    while True:
        try:
            v = next(it)
        except StopIteration:
            if out:
                break
            return None
        if v == 0:
            break
        out.append(10 // v)
    return tuple(out), len(out)
''',
    # `return CONSTANT` out of a `for` loop in a try body: 3.11 pops the iterator, ends the
    # exception range, then loads the constant and returns outside it (the stack walk went below
    # the statement's base at the pop)
    "for_return_const_in_try": '''
def run(xs):
    out = []
    try:
        for x in xs:
            if x == 0:
                return "zero"
            out.append(10 // x)
    except TypeError:
        return "type"
    return out
''',
    # `break` out of such a loop where the code after it is the function's implicit `return None`,
    # which 3.11 copies into the `break`: the same instructions as `return None` there
    "for_break_into_implicit_return_in_try": '''
def run(xs):
    out = xs
    try:
        for x in xs:
            if x == 0:
                break
            out.append(10 // x)
            if len(out) > 20:
                raise ValueError(len(out))
    except ValueError as e:
        out.append(str(e))
        raise
''',
    # the same out of a with body: the iterator's pop, then the exit call and the return outside
    # the with body's range
    "for_return_const_in_with": '''
class Box:
    def __init__(self):
        self.log = []
    def __enter__(self):
        self.log.append("in")
        return self
    def __exit__(self, *exc):
        self.log.append("out")
        return False

def run(xs):
    box = Box()
    with box:
        for x in xs:
            if x == 0:
                return None
            box.log.append(10 // x)
    return box.log
''',
    # `return` out of a `for` loop in an except clause: the iterator's pop ends the handler's
    # range, the clause's POP_EXCEPT and the return come after it (enum `_add_value_alias_`)
    "for_return_in_clause": '''
def run(xs):
    out = []
    try:
        out.append(10 // len(xs))
    except ZeroDivisionError as e:
        for m in [1, 2, 3]:
            if m == 2:
                return None
            out.append(m)
    out.append("after")
    return out
''',
    # a finally body ending with a `for` loop left by `break`: 3.12+ copy the code after the
    # statement (here the implicit `return None`) into the normal path's `break` and loop end, and
    # the handler's re-raise into the handler's: both read as the loop's `else:` part followed by
    # that code (lock_tests Bunch.task)
    "finally_loop_break": '''
def run(xs):
    log = []
    def body():
        try:
            log.append(10 // len(xs))
        finally:
            for x in xs + [0]:
                if x == 0:
                    break
                log.append(x)
    try:
        body()
    except ZeroDivisionError:
        log.append("zero")
    return log
''',
    "finally_loop_break_after_except": '''
def run(xs):
    log = []
    def body():
        try:
            log.append(10 // len(xs))
        except ZeroDivisionError as e:
            log.append(type(e).__name__)
        finally:
            for x in xs + [0]:
                if x == 0:
                    break
                log.append(x)
    body()
    return log
''',
    # `for ... else:` whose only `break` is in an except clause of a try statement in its body:
    # the clause lies outside the natural loop, so the `break` was not seen and the `else:` part
    # not found (test_posix test_path_error2: nested in another loop, the `break`'s jump threaded
    # to the outer header; test_timeout _sock_operation: the code after the loop after it)
    "for_else_break_in_clause_nested": '''
def run(xs):
    log = []
    for n in [1, 2]:
        for x in xs:
            try:
                log.append(n * 10 // x)
            except ZeroDivisionError as e:
                log.append(str(e)[:4])
                break
        else:
            log.append("no break")
    return log
''',
    "for_else_break_in_clause": '''
def run(xs):
    log = []
    delta = None
    for x in xs:
        try:
            log.append(10 // x)
        except ZeroDivisionError as e:
            delta = len(log)
            break
    else:
        log.append("no break")
    log.append(delta)
    return log
''',
    # the same with a small code after the loop, which 3.12+ copy after the clause's end and the
    # iterator's pop (read as `return log` in the clause, recompiled +SWAP)
    "for_else_break_in_clause_copied": '''
def run(xs):
    log = []
    for x in xs:
        try:
            log.append(10 // x)
        except ZeroDivisionError as e:
            log.append(len(log))
            break
    else:
        log.append("no break")
    return log
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
