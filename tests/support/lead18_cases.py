"""Lead, session 18 (3.9 rows). `return x` out of `for` loops in a try body whose finally body
branches (imghdr `what`): ≤3.9 pops each loop's iterator from under x (ROT_TWO; POP_TOP), pops
the block, runs the finally body's copy with x where the first iterator was, and returns; the
copy's `if` is a statement over that waiting value (structure/finally_wait.rs `popped_iters`,
legacy_try_end.rs `return_past_iter`), not two arms each running the RETURN_VALUE.
Each case is a module whose `run` is decompiled with it, compiled again, run against the original
on several inputs, and every code object's instruction sequence compared
(decompile_py312_cases.check). Prints JSON."""

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
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
