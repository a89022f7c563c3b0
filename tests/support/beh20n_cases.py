"""Branch beh20n, session 20: behaviour-suite refusals on 3.11-3.14 (and 3.12+ `break` out of an
except clause of a loop with no other way out, clause_break_split.rs).

- `if`/`elif` ending an inner `if` arm that ends an outer `if` arm with an `else:` (3.11+): the
  inner tests' false ways share a lone jump past the outer `else:`, which the first arm's jump
  (threaded) passes; reached again, that block only jumps where the region stops
  (structure.rs `region_blocks`, the rule of ≤3.10 taken to every version).
- `return CONSTANT` out of a `for` loop ending a with body, code after the with statement (3.12+):
  the loop's exhausted way (END_FOR, the exit call, the code after the with) is no `else:` part
  whose `break` runs a copy of the code after the loop (loop_else.rs `break_into_copy`); 3.14
  loads small integers by LOAD_SMALL_INT (legacy_try_end.rs `const_return_out_of_range`).

Each case is a module whose `run` is decompiled with it, compiled again, run against the
original on several inputs, and every code object's instruction sequence compared
(decompile_py312_cases.check). Prints JSON."""

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
    "elif_ends_inner_arm": '''
def run(xs):
    if xs:
        t = xs[-1]
        if t != 0:
            if t == 1:
                t = "one"
            elif t == 9:
                t = "nine"
    else:
        t = ""
    if len(xs) > 3:
        t = (t, "!")
    return t
''',
    # the inner chain three deep, the outer `if` in a loop (the stop is the loop's next round)
    "elif_chain_ends_inner_arm_in_loop": '''
def run(xs):
    out = []
    for x in xs:
        if x:
            if x > 1:
                if x == 2:
                    out.append("two")
                elif x == 5:
                    out.append("five")
                elif x == 7:
                    out.append("seven")
        else:
            out.append("zero")
        out.append(x)
    return out
''',
    "for_const_return_ends_with": MANAGER + '''
def run(xs):
    log = []
    with Rec(log, False):
        for t in xs:
            log.append(t)
            if t > 4:
                return 5
    return log
''',
    # a string constant (LOAD_CONST on 3.14 too), the manager suppressing a raise in the loop
    "for_str_return_ends_with_suppressing": MANAGER + '''
def run(xs):
    log = []
    with Rec(log, True):
        for t in xs:
            log.append(10 // t)
            if t > 4:
                return "big"
    log.append("after")
    return log
''',
    # nested loops: both iterators popped before the exit call
    "nested_for_const_return_ends_with": MANAGER + '''
def run(xs):
    log = []
    with Rec(log, False):
        for t in xs:
            for u in range(t):
                if u > 3:
                    return 4
            log.append(t)
    return log
''',
    # the same with a real `else:` part that returns and a `break` into the code after the with
    # (must stay read as a for ... else)
    "for_else_return_break_ends_with": MANAGER + '''
def run(xs):
    log = []
    with Rec(log, False):
        for t in xs:
            if t > 4:
                break
        else:
            return 1
    log.append("after")
    return log
''',
    # 3.12+: `break` in an except clause of a loop with no other way out, the code after the loop
    # (a computed return) copied after the clause's POP_EXCEPT: split off as the loop's exit
    # (clause_break_split.rs)
    "clause_break_only_exit": '''
def run(xs):
    log = []
    while True:
        try:
            log.append(xs.pop())
            if log[-1] == 0:
                raise KeyError
        except (KeyError, IndexError):
            log.append("stop")
            break
    return log
''',
    # the same with `as e` (the name unbound after POP_EXCEPT) and a `return` of the body
    "clause_as_break_body_returns": '''
def run(xs):
    log = []
    while True:
        try:
            v = xs.pop()
            if v == 7:
                return ("seven", log)
            log.append(10 // v)
        except (ZeroDivisionError, IndexError) as e:
            log.append(type(e).__name__)
            break
    return len(log), log
''',
    # past a finally body's copy: `log` read after the finally body rebinds it
    "clause_break_past_finally_copy": '''
def run(xs):
    log = []
    while True:
        try:
            v = xs.pop()
            log.append(10 // v)
        except (ZeroDivisionError, IndexError):
            log.append("stop")
            break
        finally:
            log = log + ["f"]
    return log
''',
    # a `while c:` loop, its test's way out a copy of the same code (3.14 loads the local by
    # LOAD_FAST_BORROW there, LOAD_FAST after the clause): not split (email `parse_message_ids`)
    "while_cond_clause_break_same_copy": '''
def run(xs):
    out = []
    while xs:
        if xs[-1] == 2:
            xs.pop()
            continue
        try:
            out.append(10 // xs.pop())
        except ZeroDivisionError as ex:
            out.append(type(ex).__name__)
            break
    return out
''',
    # a constant returned after the clause's end: the clause's own `return` (not split)
    "clause_const_return_in_loop": '''
def run(xs):
    log = []
    while True:
        try:
            log.append(10 // xs.pop())
        except ZeroDivisionError:
            return 0
        except IndexError:
            return "empty"
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
