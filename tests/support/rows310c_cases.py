"""Branch rows310c, session 19: 3.10 "a block would come out twice" rows. A try/except whose
except clauses all go on (after POP_EXCEPT) to one block, which the body's normal way on reaches
too: that block is the code after the statement (structure/legacy_join.rs `legacy_clause_join`).
3.10 read it only outside loops, protected ranges and enclosing `if` arms whose merge is further
on; there the statement found no end and the code after it came out in a clause and again after
the body. Now also inside a `with` / try body (the block in the protected range the statement
itself is in), in `for` / `while` loops (the normal way reaches the block without passing the
loop's header, exit, `else:` part or guard) and in an `if` arm (reached before the arm's merge).
Each case is a module whose `run` is decompiled with it, compiled again, run against the original
on several inputs, and every code object's instruction sequence compared
(decompile_py312_cases.check). Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

# a context manager that records its exits (and suppresses ValueError when asked to)
CM = '''
class CM:
    def __init__(self, log, suppress=False):
        self.log = log
        self.suppress = suppress
    def __enter__(self):
        self.log.append("enter")
        return self
    def __exit__(self, t, v, tb):
        self.log.append(("exit", t.__name__ if t else None))
        return self.suppress and t is ValueError
'''

CASES = {
    # test_smtpnet `test_connect_starttls`: a clause's `if`/`else: raise` in a with body, then code
    "with_clause_if_else_raise": CM + '''
def run(xs):
    log = []
    with CM(log):
        try:
            log.append(10 // ((xs[-1] if xs else 3) - 3))
        except ZeroDivisionError as e:
            if len(xs) != 3:
                log.append(("big", str(e)))
            else:
                raise
        log.append("after try")
    return log
''',
    # multiprocessing.pool `next`: a clause that may raise, in a with body, the code after the with
    "with_clause_if_raise_then_code": CM + '''
def run(xs):
    log = []
    with CM(log, suppress=len(xs) > 3):
        try:
            item = xs.pop(0)
        except IndexError:
            if not log:
                raise
            log.append("none")
            item = None
        log.append(item)
        if item == 5:
            raise ValueError("five")
    return log
''',
    # configparser `read_dict`: the same in a `for` loop
    "for_clause_if_raise": '''
def run(xs):
    out = []
    for x in xs:
        try:
            out.append(10 // (x - 2))
        except ZeroDivisionError:
            if len(out) > 2:
                raise
        out.append(x)
    return out
''',
    # a `while` loop (3.10 tests it again at the bottom: the clause jumps to the body's end)
    "while_clause_if_raise": '''
def run(xs):
    out = []
    while xs:
        x = xs.pop()
        try:
            out.append(10 // (x - 1))
        except ZeroDivisionError:
            if len(xs) > 3:
                raise
            out.append("skip")
        out.append(x)
    return out
''',
    # test_tarfile `test_add`: a with body in a `for` loop, the try with an `else:` part
    "for_with_clause_else": CM + '''
def run(xs):
    log = []
    for x in xs:
        with CM(log):
            try:
                r = 12 // x
            except ZeroDivisionError:
                if len(log) > 6:
                    pass
                else:
                    raise
            else:
                for k in (1, 2):
                    log.append(r * k)
    return log
''',
    # runpy `_get_module_details`: the statement in an `if` arm with code after it in the arm
    "if_arm_clause_raise_then_code": '''
def run(xs):
    out = []
    if xs:
        try:
            out.append(10 // xs[1])
        except (ZeroDivisionError, IndexError) as e:
            if len(xs) > 3:
                raise
            out.append(type(e).__name__)
        out.append("arm")
    out.append("after")
    return out
''',
    # the same with an `else:` arm around it
    "if_else_arm_clause_raise": '''
def run(xs):
    out = []
    if len(xs) != 4:
        try:
            out.append(10 // xs[1])
        except (ZeroDivisionError, IndexError):
            if len(xs) == 5:
                raise
        out.append("arm")
    else:
        out.append("other")
    out.append("after")
    return out
''',
    # test_resource `test_fsize_enforced` / runtest_mp `_run_process`: in a try/finally body
    "finally_body_clause_raise": '''
def run(xs):
    log = []
    try:
        try:
            v = 10 // (xs[-1] - 2)
        except ZeroDivisionError:
            if len(xs) < 3:
                raise
            v = -1
        log.append(v)
    except IndexError:
        log.append("empty")
    finally:
        log.append("finally")
    log.append("end")
    return log
''',
    # inspect `getmembers`: in a `for` loop, a clause that `continue`s or raises, code after it
    "for_clause_continue_or_raise": '''
def run(xs):
    out = []
    for i, x in enumerate(xs):
        try:
            v = 10 // x
        except ZeroDivisionError:
            if i > 3:
                raise
            if i % 2:
                continue
            v = None
        out.append((i, v))
    return out
''',
    # encodings.idna `encode`: the `else:` part returns, the clause goes on to the code after the
    # statement, which has an if/else
    "else_return_then_if_else": '''
def run(xs):
    try:
        r = 10 // xs[-1]
    except (ZeroDivisionError, IndexError):
        pass
    else:
        return r, len(xs)
    out = list(xs)
    if out and not out[-1]:
        dot = "."
        del out[-1]
    else:
        dot = ""
    return str(len(out)) + dot, len(xs)
''',
    # http.server `_url_collapse_path`: an `if`/`elif` inside an `if` inside an outer `if` arm with
    # an `else:`; the `elif`'s false way and the inner `if`'s share the jump past the outer
    # `else:`, reached again after the `elif` arm (structure.rs `region_blocks`, now ≤3.10)
    "nested_elif_ending_arm": '''
def run(xs):
    if xs:
        t = str(xs.pop())
        if t != "0":
            if t == "1":
                t = "one"
            elif t == "3":
                t = "three"
    else:
        t = ""
    if len(xs) > 2:
        t = t + "!"
    return t
''',
    # pstats `generic`: `continue` written last in try bodies (3.10: POP_BLOCK on the `continue`
    # line, then the jump back; read as `else: continue` before, or refused, structure/try_continue.rs)
    "continue_last_in_try_body": '''
def run(xs):
    out = []
    for term in xs:
        try:
            out.append(10 // (term - 1))
            continue
        except ZeroDivisionError:
            pass
        try:
            frac = 12 / term
            if frac > 5 or frac < 0:
                out.append("big")
                continue
            out.append(frac)
            continue
        except ZeroDivisionError:
            pass
        out.append(term)
    return out
''',
    # idlelib.run `main`: a try inside a clause of a try in a loop, its `else: continue`; the
    # inner clause goes on to the outer clause's end, the outer statement's way on is the lone
    # jump round the loop (not code after it: that reading was refused)
    "clause_try_else_continue": '''
def run(xs):
    out = []
    while True:
        try:
            out.append(10 // (xs.pop() - 1))
        except:
            try:
                out.append(12 // len(xs))
            except:
                out.append(xs[-1] * len(out))
            else:
                continue
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
