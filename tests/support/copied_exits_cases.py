"""3.12+ shapes around the small exit blocks the compiler copies into each jump to them, and
loop bodies that leave by `break` (tests/test_copied_exits.py). Each case is a module whose
`run(xs)` is run on several inputs in the original and in the decompiled-and-recompiled module;
results and every code object's normalized instruction sequence must be equal
(decompile_py312_cases.check). Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

CASES = {
    # `return name` after try/except/else: 3.12+ copy it into the clause after its POP_EXCEPT
    "try_else_return_name": '''
def push(xs, log):
    n = len(xs)
    try:
        first = xs[0]
    except IndexError:
        log.append('empty')
    else:
        log.append(first)
    return n
def run(xs):
    log = []
    return push(xs, log), log
''',
}

# a `while` body ending with `break` after an `if` that may `continue` (tested at the top)
CASES_314 = {
    "while_then_break": '''
def sift(xs, pos):
    item = xs[pos]
    while pos > 0:
        parent = (pos - 1) >> 1
        if item < xs[parent]:
            xs[pos] = xs[parent]
            pos = parent
            continue
        break
    xs[pos] = item
    return xs
def run(xs):
    xs = list(xs)
    for k in range(len(xs)):
        sift(xs, k)
    return xs
''',
}

CASES.update({
    # `if c: break` in the middle of a loop body, the rest after it
    "break_mid_body": '''
def walk(xs, stop):
    seen = []
    k = 0
    while k < len(xs):
        seen.append(xs[k])
        if xs[k] == stop:
            break
        k += 1
    return seen, k
def run(xs):
    out = []
    if xs:
        out.append(walk(xs, 0))
        out.append(walk(xs, 9))
    out.append(walk(xs, 2))
    return out
''',
    # a finally body ending in `if a and not b: try ... except ... pass`, at the function's end
    "finally_if_try": '''
class Closer:
    def __init__(self, xs):
        self.xs = xs
        self.log = []
        self.delete = bool(xs)
    def cleanup(self, windows, fail):
        try:
            if fail:
                raise KeyError(fail)
            self.log.append('closed')
        finally:
            if self.delete and not (windows and len(self.xs) > 2):
                try:
                    self.log.append(self.xs[3])
                except IndexError:
                    pass
def run(xs):
    out = []
    for windows in (False, True):
        for fail in (0, 1):
            c = Closer(xs)
            try:
                c.cleanup(windows, fail)
            except KeyError as e:
                out.append(('raised', str(e)))
            out.append(c.log)
    return out
''',
})


def main() -> None:
    cases = dict(CASES)
    cases.update(CASES_314)
    print(json.dumps([check(k, v) for k, v in cases.items()], indent=1))


if __name__ == "__main__":
    main()
