"""`while True:` loops that came out as "a block would come out twice" or read back otherwise
(session 16, branch twice16; structure/nop_header.rs, structure/handler_break_jump.rs): a written
`continue` jumping to the loop's NOP header (the only way to its block, after statements, or
ending an arm of the body's last statement), and a loop left by a `break` in an except clause and
a `break` of the body. Each case is a module whose `run(xs)` is decompiled with it, compiled
again, run against the original on several inputs (results and exceptions compared), and every
code object's instruction sequence compared (decompile_py312_cases.check). Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

CASES = {
    # `if c: continue` alone in its block (its test falls into it), then the rest of the body
    "continue_then_rest": '''
def run(xs):
    out = []
    it = iter(xs)
    while True:
        x = next(it, None)
        if x is None:
            break
        if x % 2:
            continue
        out.append(x)
    return out
''',
    # the same inside a try statement whose finally body records the way out
    "continue_then_rest_in_finally": '''
def run(xs):
    out = []
    it = iter(xs)
    try:
        while True:
            x = next(it, None)
            if x is None:
                break
            if x > 4:
                continue
            out.append(x)
    finally:
        out.append("done")
    return out
''',
    # `with` around the loop
    "continue_then_rest_in_with": '''
class Rec:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append("in")
    def __exit__(self, *a):
        self.log.append("out")

def run(xs):
    out = []
    it = iter(xs)
    with Rec(out):
        while True:
            x = next(it, None)
            if x is None:
                break
            if x == 2:
                continue
            out.append(x * 10)
    return out
''',
    # `continue` after a with statement in an arm, the arm's test the body's last but one
    "continue_after_with_arm": '''
class Rec:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append("in")
    def __exit__(self, *a):
        self.log.append("out")

def run(xs):
    out = []
    it = iter(xs)
    try:
        while True:
            x = next(it, None)
            if x is None:
                break
            if x % 3 == 0:
                with Rec(out):
                    out.append(x)
                continue
            out.append(-x)
    finally:
        out.append("end")
    return out
''',
    # `f(); continue` ending an arm, the arm then the body's last statement
    "statements_then_continue": '''
def run(xs):
    out = []
    it = iter(xs)
    while True:
        x = next(it, None)
        if x is None:
            return out
        if x > 1:
            out.append(x)
            continue
        out.append(0)
''',
    # `elif c: f(); continue` with an `else:` ending the body
    "elif_continue_else": '''
def run(xs):
    out = []
    it = iter(xs)
    while True:
        x = next(it, None)
        if x is None:
            break
        elif x == 0:
            out.append("zero")
            continue
        else:
            out.append(x + 1)
    return out
''',
    # a `continue` that ends the body
    "continue_ends_body": '''
def run(xs):
    out = []
    i = 0
    while True:
        if i >= len(xs):
            break
        out.append(xs[i])
        i += 1
        continue
    return out
''',
    # a for loop with its own `continue` inside, then `if c: f(); continue` ending the body
    "inner_for_then_continue": '''
def run(xs):
    out = []
    n = 0
    while True:
        n += 1
        if n > 3:
            break
        for y in xs:
            if y == n:
                continue
            out.append(y)
        if n == 2:
            out.append("two")
            continue
''',
    # `break` in an except clause and `break` in the body (wave.Wave_read.initfp's shape)
    "clause_break_and_body_break": '''
def run(xs):
    out = []
    it = iter(xs)
    while 1:
        try:
            x = next(it)
        except StopIteration:
            break
        if x == 0:
            break
        out.append(x)
    out.append("after")
    return out
''',
    # the body's `break` ending an `elif` arm after statements
    "clause_break_and_elif_break": '''
def run(xs):
    out = []
    it = iter(xs)
    found = None
    while 1:
        out.append("round")
        try:
            x = next(it)
        except StopIteration:
            break
        if x == 1:
            out.append("one")
        elif x == 9:
            found = x
            break
        out.append(x)
    if not found:
        out.append("none")
    return out
''',
    # the body's `break` after a test whose other arm raises
    "clause_break_and_raise_then_break": '''
def take(it):
    x = next(it, None)
    if x is None:
        raise EOFError
    return x

def run(xs):
    out = []
    it = iter(xs)
    while 1:
        try:
            x = take(it)
        except EOFError:
            break
        if x > 5:
            if x == 9:
                raise ValueError(x)
            break
        out.append(x)
    out.append("after")
    return out
''',
    # 3.12+: the code after a try statement whose body returns is reached only from the except
    # clause, moved after the handlers; its `if d: return` jumps back to the code after the `if`
    "clause_code_back_to_stop": '''
def encode(x, cte):
    if cte is None:
        if x:
            try:
                return "int", int(x)
            except ValueError:
                pass
            if x.startswith("f"):
                return "float", x
        cte = "text"
    return cte, x

def run(xs):
    return [encode(a, b) for a in ("", "12", "f1", "zz") for b in (None, "b64")]
''',
    "clause_code_back_to_stop_else": '''
def encode(x, cte, log):
    if x:
        try:
            return int(x)
        except ValueError:
            pass
        if x.startswith("f"):
            log.append(x)
        elif cte:
            return 3
        else:
            return 2
    else:
        log.append("empty")
    return cte

def run(xs):
    log = []
    out = [encode(a, b, log) for a in ("", "12", "f1", "zz") for b in (None, "b64")]
    return out, log
''',
    # `elif a == m == b or c == m == d:` (html.parser's parse_starttag): the first comparison's
    # false way jumps over its cleanup to the next operand
    "chain_or_chain": '''
def strip(v, rest):
    if not rest:
        v = None
    elif v[:1] == "'" == v[-1:] or v[:1] == '"' == v[-1:]:
        v = v[1:-1]
    return v

def run(xs):
    return [strip(v, r) for v in ("'a'", '"b"', "'c", "d", "") for r in (0, 1)]
''',
    "chain_or_name": '''
def pick(v, w):
    if v[:1] == "x" == v[-1:] or w:
        return v[1:-1]
    return v

def run(xs):
    return [pick(v, w) for v in ("xax", "xa", "b") for w in (0, 1)]
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
