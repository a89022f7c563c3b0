"""Helper beh20l, session 20 (≤3.10 loop refusals of the behaviour suite). Each case is a module
whose `run` is decompiled with it, compiled again, run against the original on several inputs, and
every code object's instruction sequence compared (decompile_py312_cases.check). Prints JSON.

- `break` threaded past a `for` loop's exit that is a lone jump (the loop ends an `if` arm with an
  `else:` part, or a finally body): ≤3.10 jump threading sends the `break` straight to where the
  exit jumps (structure.rs `breaks_for`, loop_exits.rs `threaded_break`).
- `for ... else:` whose `break` is in an except clause (≤3.10 too: the clause lies outside the
  natural loop; loop_else.rs `body_clauses`).
- ≤3.9: `while c:` whose body starts with `while True:` is no guard of the inner loop
  (loop_exits.rs `guard_header`).
- 3.10: `while True:` left by a `break` after code in an `elif` arm (exit_in_body.rs
  `break_code_exit`, as ≤3.9)."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

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
    # the loop ends an `if` arm with an `else:` part: its exit jumps past the `else:` part
    "for_break_ends_if_arm": '''
def run(xs):
    log = []
    if len(xs) != 3:
        for x in xs:
            if x == 0:
                break
            log.append(x)
    else:
        log.append("three")
    return log
''',
    # the same, the `if` inside a loop: the exit jumps back to the outer loop's header
    "for_break_ends_if_arm_in_loop": '''
def run(xs):
    log = []
    for n in xs:
        if n % 2:
            for x in xs:
                if x == n:
                    break
                log.append(x)
        else:
            log.append(-n)
    return log
''',
    # the loop ends a finally body: the normal copy's exit jumps past the handler's copy
    "for_break_ends_finally": '''
def body(xs, log):
    try:
        log.append(10 // len(xs))
    finally:
        for x in xs:
            if x == 0:
                break
            log.append(x)
    return 5

def run(xs):
    log = []
    try:
        log.append(body(xs, log))
    except ZeroDivisionError:
        log.append("zero")
    return log
''',
    # two `break`s, one threaded past the exit, one after code
    "for_two_breaks_ends_if_arm": '''
def run(xs):
    log = []
    if xs:
        for x in xs:
            if x == 0:
                break
            if x > 6:
                log.append("big")
                break
            log.append(x)
    else:
        log.append("empty")
    return log
''',
    # `for ... else:` whose `break` is in an except clause
    "for_else_break_in_clause": '''
def run(xs):
    log = []
    for x in xs:
        try:
            log.append(10 // x)
        except ZeroDivisionError:
            log.append(len(log))
            break
    else:
        log.append("no break")
    return log
''',
    # the same, nested in a loop: the `break` goes on to the outer loop's header
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
    # a clause's `break` and a body's `break` to the same place
    "for_else_break_in_clause_and_body": '''
def run(xs):
    log = []
    for x in xs:
        if x > 8:
            break
        try:
            log.append(10 // x)
        except ZeroDivisionError:
            break
    else:
        log.append("no break")
    log.append("end")
    return log
''',
    # the clause goes on (no `break`); the `else:` part still runs at exhaustion
    "for_else_clause_continues": '''
def run(xs):
    log = []
    for x in xs:
        try:
            log.append(10 // x)
        except ZeroDivisionError:
            log.append("z")
            continue
        if x > 8:
            break
    else:
        log.append("no break")
    return log
''',
    # a clause's `break` in a with body
    "for_else_break_in_clause_in_with": MANAGER + '''
def run(xs):
    log = []
    for x in xs:
        with Rec(log, False):
            try:
                log.append(10 // x)
            except ZeroDivisionError:
                break
    else:
        log.append("no break")
    return log
''',
    # ≤3.9: `while c:` whose body starts with `while True:` (the outer test falls into the
    # inner loop's header; no guard on those versions, loop_exits.rs `guard_header`)
    "while_true_first_in_while": '''
def run(xs):
    n = 2 * len(xs)
    out = []
    while n > 0:
        while True:
            n -= 1
            out.append(n)
            if n % 3 == 2:
                break
        n -= 1
    return out
''',
    # the same, the inner loop's `continue` and the outer loop's jump back both to the test
    "while_true_first_in_while_try": '''
def run(xs):
    n = len(xs)
    out = []
    while n > 0:
        while True:
            try:
                n -= 1
                out.append(10 // n)
            except ZeroDivisionError:
                out.append("z")
                if n < -2:
                    return out
                continue
            else:
                break
    return out
''',
    # `while True:` whose first statement is `if c:` around another `while True:`
    "while_true_if_first_in_while_true": '''
def run(xs):
    out = []
    i = 0
    while True:
        if i < len(xs):
            while True:
                out.append(xs[i])
                i += 1
                if i % 2 == 0 or i >= len(xs):
                    break
        else:
            break
        out.append("-")
    return out
''',
    # `while True:` left by an except clause's `break` and by a `break` after code in an `elif`
    # arm (wave `Wave_read.initfp`): the code after the loop is its exit (≤3.10,
    # exit_in_body.rs `break_code_exit`)
    "while_break_after_elif_code": '''
def run(xs):
    state = {"fmt": 0, "data": None, "seen": []}
    it = iter(xs)
    while 1:
        state["seen"].append("round")
        try:
            chunk = next(it)
        except StopIteration:
            break
        if chunk == 1:
            state["fmt"] = 1
        elif chunk == 0:
            if not state["fmt"]:
                raise ValueError("data before fmt")
            state["data"] = chunk
            break
        state["seen"].append(chunk)
    if not state["fmt"] or state["data"] is None:
        return "missing", state
    return "ok", state
''',
    # the same with a `break` written alone after a test too (sre_parse `_parse_flags`)
    "while_break_alone_and_raises": '''
def run(xs):
    out = []
    i = 0
    while True:
        x = xs[i] if i < len(xs) else None
        if x is None:
            raise ValueError("end")
        if x == 7:
            break
        if x > 4:
            raise KeyError(x)
        out.append(x)
        i += 1
    out.append("after")
    if len(out) > 2:
        return out
    return out[:1]
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
