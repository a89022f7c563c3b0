"""Where 3.11+ lay blocks out (structure/handler_order.rs, structure/exit_in_body.rs): the code
after a try body whose except clauses all leave reads as the statement's `else:` part or as the
code after the statement, the same instructions; the handlers of that code are laid out before
the statement's own handler in the first case and after it in the second (the compiler moves the
blocks only exceptions reach to the end in the order it emitted them). And the way out of a
`while True:` loop that is one block of more than four instructions laid out inside the loop was
written in the body (3.12+ copy only smaller exits into a `break`). Each case is a module whose
`run` is decompiled with it, compiled again, run against the original on several inputs, and
every code object's instruction sequence compared (decompile_py312_cases.check). Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

CM = '''
class Box:
    def __init__(self, log, swallow=False):
        self.log = log
        self.swallow = swallow
    def __enter__(self):
        self.log.append("in")
        return self
    def __exit__(self, *exc):
        self.log.append("out")
        return self.swallow
'''

CASES = {
    # a clause that returns, then a try of its own after the statement (_pyio IOBase.__del__)
    "clause_returns_then_try": '''
def run(xs):
    log = []
    try:
        first = xs[0]
    except IndexError:
        return "empty"
    if first == 5:
        return "five"
    try:
        log.append(10 // xs[-1])
    except ZeroDivisionError:
        log.append("zero")
    return log
''',
    # a clause that returns, then a with statement (ctypes.util _get_soname)
    "clause_returns_then_with": CM + '''
def run(xs):
    log = []
    try:
        box = Box(log, swallow=len(xs) > 3)
        box.log.append(xs[1])
    except IndexError:
        return None
    with box:
        log.append(10 // xs[1])
    return log
''',
    # a clause that raises, then a with statement whose body returns
    "clause_raises_then_with": CM + '''
def run(xs):
    log = []
    try:
        n = xs[0] + 1
    except IndexError:
        raise ValueError("no first")
    with Box(log):
        log.append(n)
        return log
''',
    # the code after the statement builds a comprehension (3.12+ inline it, with a handler)
    "clause_returns_then_comprehension": '''
def run(xs):
    try:
        top = max(xs)
    except ValueError as e:
        return str(e)[:3]
    if top > 4:
        xs = [x + top for x in xs]
    return xs
''',
    # the same statement written with an `else:` part holding the try: it stays one
    "else_part_holds_try": '''
def run(xs):
    log = []
    try:
        first = xs[0]
    except IndexError:
        return "empty"
    else:
        try:
            log.append(10 // first)
        except ZeroDivisionError:
            log.append("zero")
    return log
''',
    # inside an outer try, with try statements after it (mailbox _lock_file)
    "inside_outer_try": '''
def run(xs):
    done = []
    try:
        if xs:
            try:
                n = 10 // xs[0]
            except ZeroDivisionError as e:
                if len(xs) > 3:
                    return "skip"
                raise
            try:
                try:
                    done.append(n // xs[1])
                except (IndexError, ZeroDivisionError):
                    done.append("no second")
                else:
                    done.append("second")
            except KeyError:
                raise ValueError("never")
    except:
        done.append("undo")
        return done
    done.append("end")
    return done
''',
    # in a loop: a clause that leaves by `continue`, then a try
    "loop_clause_continues_then_try": '''
def run(xs):
    out = []
    for x in xs:
        try:
            y = 12 // x
        except ZeroDivisionError:
            out.append("z")
            continue
        try:
            out.append([1, 2, 3][y])
        except IndexError:
            out.append(y)
    return out
''',
    # in a loop: a clause that is only `continue` (its jump back reads as the statement's end),
    # then a try (pydoc ModuleScanner.run)
    "loop_clause_only_continue_then_try": '''
def run(xs):
    out = []
    for x in xs:
        try:
            y = 12 // x
        except ZeroDivisionError:
            continue
        try:
            out.append([1, 2, 3][y])
        except IndexError:
            out.append(y)
    return out
''',
    # `if x not in s: ...; break` ending an inner loop's body: 3.12+ jump to the body over a copy
    # of the jump back; the arms meet at the loop's exit (enum EnumType._find_new_)
    "inner_loop_ends_with_if_break": '''
def run(xs):
    found = None
    for a in (1, 2):
        for x in xs:
            t = x * a
            if t not in {0, 2, 4}:
                found = t
                break
        if found is not None:
            break
    else:
        found = -1
    return found
''',
    # at a module's top level: a clause that leaves, then a with statement and a try
    "module_clause_raises_then_with": CM + '''
LOG = []
try:
    BOX = Box(LOG)
except TypeError:
    raise ImportError("no box")
with BOX:
    LOG.append("module")
try:
    import _no_such_module_here
except ImportError:
    _no_such_module_here = None

def run(xs):
    return LOG + xs, _no_such_module_here
''',
    # `while True:` left by a break and by code written in the body (gzip _GzipReader.read)
    "while_true_return_in_body": '''
class State:
    pass

def run(xs):
    st = State()
    st.seen = 0
    it = iter(xs)
    while True:
        x = next(it, None)
        if x is None:
            st.size = st.seen
            return "end", st.size
        st.seen += 1
        if x == 0:
            break
        if x > 8:
            raise ValueError(x)
    st.total = st.seen * 2
    return "zero", st.total
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
