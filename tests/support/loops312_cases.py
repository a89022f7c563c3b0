"""Loop bodies whose 3.12+ layouts decide how an `if` reads back (structure/loop_shapes.rs): each
case is a module whose `run(xs)` is decompiled with it, compiled again, run against the original
on several inputs (results and exceptions compared), and every code object's instruction sequence
compared (decompile_py312_cases.check). Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

CASES = {
    # `if a and b: return x` ending a for body: each test jumps over its own copy of the jump back
    "and_ends_body": '''
def first(xs, d):
    for a in xs:
        if a > d and a % 2:
            return a
    return None

def run(xs):
    return first(xs, 1), first(xs, 4), first(xs, 100)
''',
    # the same layout from two `continue` statements (no line numbers compared)
    "two_continues": '''
def run(xs):
    out = []
    for a in xs:
        if not a > 1:
            continue
        if not a % 2:
            continue
        out.append(a)
        out.append(a * 2)
    return out
''',
    # one explicit `continue` shared by the tests of an `or`
    "shared_continue": '''
def run(xs):
    out = []
    for a in xs:
        if not a or not a > 1:
            continue
        out.append(a)
    for a in xs:
        if a in (0, 7) or a == 2:
            continue
        out.append(-a)
    return out
''',
    # `while True:` whose `break` the compiler replaced with a copy of the `return` after it
    "while_true_break_copy": '''
def count(n):
    out = []
    while True:
        n += 1
        if n > 10:
            break
        out.append(n)
    return out

def run(xs):
    return [count(x) for x in xs]
''',
    # `if c: A  elif d: B` ending a loop body, B sometimes raising, A an `if not r: ...`
    "elif_ends_body": '''
def walk(xs, rec):
    log = []
    for sub in xs:
        if sub == 2:
            if not rec:
                found = sub * 3
                if found:
                    log.append(found)
        elif sub not in (0, 9):
            log.append(sub + 1)
            if sub > 8:
                raise ValueError(sub)
    return log

def run(xs):
    return walk(xs, 0), walk(xs, 1)
''',
    # `while a and b:` (3.12+ test the condition twice: a guard and a bottom test)
    "while_and": '''
def strip(p, sep):
    out = []
    while p and p != sep:
        out.append(p)
        p = p[:-1]
    return out

def run(xs):
    return strip(xs, [1]), strip(xs, []), strip(xs, xs[:2])
''',
    # `while a and b:` in a generator: every way out is a copy of the `return None` after it
    "while_and_copied_exits": '''
def ancestry(path, sep):
    while path and path != sep:
        yield path
        path, tail = path.rsplit(sep, 1) if sep in path else ('', path)

def run(xs):
    p = '/'.join(map(str, xs))
    return list(ancestry(p, '/')), list(ancestry('/' + p, '/')), list(ancestry('', '/'))
''',
    # `if not (a and b): A  elif c: raise` ending a loop body: the arm laid out first is the body
    "else_first_ends_body": '''
def check(xs):
    seen = 0
    for x in xs:
        if x != 5:
            if not (x > 1 and x % 2):
                seen = seen + 1
            elif seen > 2:
                raise TypeError(x)
    return seen

def run(xs):
    return check(xs)
''',
    # an explicit `continue` ending an arm, reached by a jump from an inner `if` (it has a line
    # of its own, so it is one block): `if c: A; continue` then B
    "explicit_continue_after_if": '''
def find(xs, skip):
    out = []
    for x in xs:
        if skip:
            if x == 2:
                skip = False
            continue
        if x > 3:
            out.append(x)
        else:
            out.append(-x)
        if x == 9:
            return out
    for x in xs:
        if x == 0:
            if x in out:
                raise ValueError(x)
            continue
        if x == 1:
            out.append(1)
        else:
            out.append(2)
    return out

def run(xs):
    return find(xs, True), find(xs, False)
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
