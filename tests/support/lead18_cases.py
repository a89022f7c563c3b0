"""Lead, session 18 (3.9 rows). `return x` out of `for` loops in a try body whose finally body
branches (imghdr `what`): ≤3.9 pops each loop's iterator from under x (ROT_TWO; POP_TOP), pops
the block, runs the finally body's copy with x where the first iterator was, and returns; the
copy's `if` is a statement over that waiting value (structure/finally_wait.rs `popped_iters`,
legacy_try_end.rs `return_past_iter`), not two arms each running the RETURN_VALUE.
Each case is a module whose `run` is decompiled with it, compiled again, run against the original
on several inputs, and every code object's instruction sequence compared
(decompile_py312_cases.check). Prints JSON.
Also `if a or b: break` whose first test's jump ≤3.9 thread to the loop's exit (structure.rs
`fold_condition`)."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

# a file-like thing that records its closing
CLOSER = '''
class Closer:
    def __init__(self, log):
        self.log = log
    def close(self):
        self.log.append("closed")
'''

CASES = {
    # imghdr `what`: the finally body's `if` runs with the returned value waiting
    "for_return_through_finally_if": CLOSER + '''
def run(xs):
    log = []
    f = Closer(log) if len(xs) % 2 else None
    try:
        for x in xs:
            r = 10 // x
            log.append(r)
            if r > 2:
                return r, log
    finally:
        if f: f.close()
    return None, log
''',
    # out of two `for` loops: both iterators popped, the value in the outer one's place
    "nested_for_return_through_finally_if": CLOSER + '''
def run(xs):
    log = []
    f = Closer(log) if len(xs) > 3 else None
    try:
        for x in xs:
            for y in range(x):
                if x * y > 6:
                    return x, y, log
            log.append(x)
    finally:
        if f: f.close()
    return log
''',
    # the return straight in the loop body, the copy's `if` with an `else:`
    "for_return_through_finally_if_else": CLOSER + '''
def run(xs):
    log = []
    f = Closer(log) if xs and xs[0] else None
    try:
        for x in xs:
            return 10 // x
    finally:
        if f:
            f.close()
        else:
            log.append("none")
    return log
''',
    # ≤3.9 thread the first test's jump to the loop's exit past the `break` block the second
    # test falls into: one `if a or b: break` (ftplib parse257), not the loop's own test
    "or_break_in_nested_if": '''
def run(xs):
    i, n, out = 0, len(xs), []
    while i < n:
        c = xs[i]
        i = i + 1
        if c % 2:
            if i >= n or xs[i] == c:
                break
            i = i + 1
        out.append(c)
    return out, i
''',
    "or_break_first_in_while": '''
def run(xs):
    i, n = 0, len(xs)
    while i < n:
        if i >= n - 1 or xs[i] > xs[i + 1]:
            break
        i = i + 1
    return i
''',
    # two `if c: break` statements: each `break` a block of its own (http.client
    # `_read_and_discard_trailer`)
    "two_if_breaks": '''
def run(xs):
    out = []
    while True:
        line = xs.pop() if xs else 0
        if line > 8:
            raise ValueError(line)
        if not line:
            break
        if line in (1, 2, 3):
            break
        out.append(line)
    return out
''',
    # ≤3.9 `return CONSTANT` out of a try/except body inside a try/finally: both POP_BLOCKs, the
    # finally body's copy (its `if` joined where the constant is loaded), the return; the inner
    # body never completes (test.support.socket_helper `_is_ipv6_enabled`)
    "const_return_through_nested_finally_if": CLOSER + '''
def probe(xs, log):
    sock = None
    try:
        try:
            sock = Closer(log) if xs else None
            log.append(10 // len(xs) if len(xs) != 3 else 1 // 0)
            return True
        except ZeroDivisionError:
            log.append("zero")
    finally:
        if sock:
            sock.close()
    return False
def run(xs):
    log = []
    return probe(xs, log), log
''',
    # ≤3.9 `if c: with m: return x  else: with n: return y`: the arms meet only where a manager
    # suppresses (importlib `FileLoader.get_data`)
    "with_returns_in_both_arms": '''
class Quiet:
    def __init__(self, log, v):
        self.log, self.v = log, v
    def __enter__(self):
        return self.v
    def __exit__(self, *exc):
        self.log.append(exc[0].__name__ if exc[0] else None)
        return True
def run(xs):
    log = []
    if len(xs) % 2:
        with Quiet(log, xs) as file:
            return 10 // file[-1], log
    else:
        with Quiet(log, xs) as file:
            return file[0] // 2, log
''',
    # ≤3.9 `if c: A  else: B` ending an outer `if` arm: the arm's end is the jump past the outer
    # `else:`, where an `if` inside A also jumps when false (tkinter `_stringify`,
    # xml.sax.expatreader `setFeature`)
    "nested_if_else_ending_arm": '''
class Box:
    b = None
def run(xs):
    out = []
    for x in xs:
        box = Box()
        if x % 3 == 0:
            if x:
                if box.b is None:
                    box.a = x
            else:
                box.c = None
        elif x % 3 == 1:
            if x > 4:
                out.append(ValueError(x).args)
        else:
            box.d = 5
        out.append(sorted(vars(box).items()))
    return out
''',
    # ≤3.9 `while True:` left only by a `break` after code in an `elif` arm: that code is laid out
    # in the body, the code after the loop where its jump goes (structure/exit_in_body.rs
    # `break_code_exit`); the arm's post-dominator, reached only by going round the loop, is no
    # merge (loop_exits.rs `loop_merge`)
    "elif_code_then_break": '''
def run(xs):
    seen = []
    data = None
    while True:
        chunk = xs.pop() if xs else "data"
        if chunk == 1:
            seen.append("one")
        elif chunk == "data":
            data = len(seen)
            break
        seen.append(chunk)
    return seen, data
''',
    # the same with `if c: raise` before the `break` (its jump threaded to the exit, the
    # `break`'s own jump left dead: legacy_loop_exits.rs `legacy_break_without_else`)
    "elif_raise_then_break": '''
def run(xs):
    seen = []
    while True:
        chunk = xs.pop() if xs else 0
        if chunk == 1:
            seen.append("one")
        elif chunk in (0, 2):
            if not seen:
                raise ValueError("nothing before the end")
            break
        seen.append(chunk)
    return seen
''',
    # 3.11-3.13: `if a == b == c and d: pass  else: E` with code after it: the jump of the chained
    # comparison's last part over its cleanup goes into the next test (legacy_join.rs
    # `legacy_jump_into`, now every version's); it came out twice
    "chain_and_pass_else_then_more": '''
def run(xs):
    log = []
    for x in xs:
        if x == 1 == len(xs) % 4 and x:
            pass
        else:
            log.append("not one")
        if -5 <= x <= 5 and xs:
            pass
        else:
            log.append("other")
        log.append(x)
    return log
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
