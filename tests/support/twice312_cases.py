"""Shapes, 3.11-3.14, in which a block would come out twice, read as the source had them
(structure/twice_shapes.rs, branch twice312): a `for` or `while` loop whose body raises, inside an
`if` arm that the enclosing statement goes on after (the arm that goes round the loop reached the
enclosing region's end only through the loop's header or exit, and was taken to end there), and a
chained comparison after a plain test (`a and 0 <= x < n`) followed by `elif` (the comparison did
not fold into the condition), an except clause's `if`/`elif` arms that both go back to the code after
a try laid out before the handler. Each case is a module whose `run` is decompiled with it, compiled
again and run against the original on several inputs (results and exceptions compared), and every
code object's instruction sequence compared (decompile_py312_cases.check). Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

CASES = {
    # plistlib._dict_items: the else arm's `for` raises from its body, then the arm goes on
    "for_raise_in_inner_else": '''
def items(d, sort_keys, skipkeys):
    items = list(d)
    if sort_keys:
        if skipkeys:
            items = [k for k in items if isinstance(k, int)]
            items.sort()
        else:
            for key in d:
                if not isinstance(key, int):
                    raise TypeError("keys must be ints")
            items = sorted(items)
    return items

def run(xs):
    out = []
    for a in (0, 1):
        for b in (0, 1):
            for d in (xs, xs + ["s"]):
                try:
                    out.append(items(d, a, b))
                except TypeError as e:
                    out.append(str(e))
    return out
''',
    # the same with a `while` loop (3.14 tests it at the top): queue.Queue.put
    "while_raise_in_if_arm": '''
class Q:
    def __init__(self, xs, down):
        self.xs = list(xs)
        self.down = down
        self.log = []

    def put(self, block, timeout):
        if len(self.xs) > 0:
            if not block:
                if len(self.xs) >= 3:
                    raise KeyError("full")
            elif timeout is None:
                while len(self.xs) >= 2:
                    self.log.append(self.xs.pop())
                    if self.down:
                        raise ValueError("down")
            else:
                self.log.append(timeout)
        self.log.append("put")
        return self.log

def run(xs):
    out = []
    for block in (False, True):
        for timeout in (None, 1):
            for down in (False, True):
                try:
                    out.append(Q(xs, down).put(block, timeout))
                except (KeyError, ValueError) as e:
                    out.append(repr(e))
    return out
''',
    # the loop's body raises, the arm laid out first leaves by `return` (3.12+ copy the
    # closing return into it): the for loop's end is not the end of the outer `if`
    "for_raise_arm_returns": '''
def f(d, a, b):
    n = 0
    if a:
        if b:
            n = 1
        else:
            for k in d:
                if not k:
                    raise ValueError(k)
            n = 2
    return n

def run(xs):
    out = []
    for a in (0, 1):
        for b in (0, 1):
            try:
                out.append(f(xs, a, b))
            except ValueError as e:
                out.append(("raised", str(e)))
    return out
''',
    # pstats.Stats.eval_print_amount: `a and 0 <= x < n` then `elif b and ...`
    "chain_after_test_elif": '''
def amount(sel, n, items):
    new = items
    if isinstance(sel, str):
        new = [x for x in items if str(x) == sel]
    else:
        count = len(items)
        if isinstance(sel, float) and 0.0 <= sel < 1.0:
            count = int(count * sel + .5)
            new = items[:count]
        elif isinstance(sel, int) and 0 <= sel < count:
            count = sel
            new = items[:count]
    if len(items) != len(new):
        n += 1
    return new, n

def run(xs):
    return [amount(s, 0, xs) for s in ("1", 0.5, 0.0, 1.5, 0, 2, 9, -1, None)]
''',
    # the same with `or`, and a chain of three comparisons
    "chain_after_test_or": '''
def pick(a, x, n):
    if a or 0 < x <= n < 10:
        r = "first"
    elif not a and -5 < x < 0:
        r = "second"
    else:
        r = "none"
    if r != "none":
        r += "!"
    return r

def run(xs):
    n = len(xs)
    return [pick(a, x, n) for a in (0, 1) for x in (-7, -3, 0, 1, 3, 5, 12)]
''',
    # shutil.copy2: an except clause's `if`/`elif` arms of `pass` and an `else: raise`, the try
    # inside an `if` arm (3.13 / 3.14 lay the code after the `if` out before the handler)
    "clause_elif_pass_in_if_arm": '''
def copy(xs, a):
    log = []
    if a:
        try:
            log.append(10 // len(xs))
            return log
        except ZeroDivisionError as exc:
            if "division" in str(exc) and a > 1:
                pass
            elif a == 1:
                pass
            else:
                raise
    log.append("after")
    return log

def run(xs):
    out = []
    for a in (0, 1, 2, -1):
        try:
            out.append(copy(xs, a))
        except ZeroDivisionError as e:
            out.append(("raised", str(e)))
    return out
''',
    # test_ttk NotebookTest._tab_point: `if a and chain: continue` before the rest of a loop
    # body (3.12+: the chain's true way jumps over its cleanup to a jump back of its own), not
    # `if not (a and chain): rest`, whose chain falls into the jump back
    "chain_continue_in_loop": '''
def scan(xs, a, lo, n):
    out = []
    for x in xs:
        if a and lo <= x < lo + n:
            continue
        out.append(x)
    return out

def run(xs):
    return [scan(xs, a, lo, 2) for a in (0, 1) for lo in (0, 1, 5)]
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
