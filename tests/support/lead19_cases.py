"""Lead, session 19 (3.10 rows). Comprehensions whose last condition is a constant false: 3.10+
drop the element and the test, so the loop only stores its target (test_grammar `testGenexps`);
read back with `if False` and the target as the (dead) element (lib.rs `fold_comprehension`).
Each case is a module whose `run` is decompiled with it, compiled again, run against the original
on several inputs, and every code object's instruction sequence compared
(decompile_py312_cases.check). Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

CASES = {
    "listcomp_if_false": '''
def run(xs):
    return [y for y in xs if False]
''',
    "all_comps_if_false": '''
def run(xs):
    return [y for y in xs if False], {y for y in xs if False}, {y: y for y in xs if False}, list(y for y in xs if False)
''',
    # the outer generator still drains the inner ones (a bad iterable raises)
    "nested_genexp_if_false": '''
def run(xs):
    return sum(x for x in (y for y in (z for z in xs if True) if False) if True)
''',
    # a tuple target: the element is `None` (dead code either way)
    "tuple_target_if_false": '''
def run(xs):
    return [k for k, v in xs if False]
''',
    # two loops, the inner one emptied
    "two_loops_if_false": '''
def run(xs):
    return [(a, b) for a in xs for b in xs if False]
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
