"""Shapes in which a structurer could place a block twice (structure/twice_shapes.rs): a `return`
out of a `for` inside `while True:` (the return pops the iterator: no exit of the while), an
except clause's `if c: B  else: raise` going back to the code after the try (3.11+ lay it out
before the handler), `while True:` whose `break`s meet at one place after one of them runs code
first. Each case is a module whose `run` is decompiled with it, compiled again, run against the
original on several inputs (results and exceptions compared), and every code object's instruction
sequence compared (decompile_py312_cases.check). Prints JSON."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_py312_cases import check  # noqa: E402

CASES = {
    # timeit.Timer.autorange: the return inside the for is the only way out of the while
    "return_from_for_in_while_true": '''
def run(xs):
    i = 1
    while True:
        for j in 1, 2, 5:
            n = i * j
            if xs:
                xs.append(n)
            if n >= 7 + len(xs):
                return (n, j, len(xs))
        i *= 10
''',
    # test_codecs test_decode_surrogatepass: an except clause whose if arm goes back to the code
    # after the try and whose else arm re-raises
    "clause_if_else_raise": '''
def check(x):
    try:
        r = 10 // x
    except ZeroDivisionError as exc:
        if str(exc).startswith('integer'):
            r = -1
        else:
            raise
    except TypeError:
        if x is None:
            r = -2
        else:
            raise
    y = r * 2
    z = [y, x]
    return z

def run(xs):
    out = []
    for x in xs + [None, 'a']:
        try:
            out.append(check(x))
        except Exception as e:
            out.append(type(e).__name__)
    return out
''',
    # a clause whose branch inside a loop must not end at the code after the try
    "clause_loop_raise": '''
def run(xs):
    try:
        f = {1: 'one'}[len(xs)]
    except KeyError:
        if not xs:
            raise TypeError('empty')
        for t in xs:
            if t == 9:
                raise TypeError('nine')
        f = 'many'
    return f
''',
    # shutil._copyfileobj_readinto: `while True:` in `with`, one break jumps straight to the
    # with's exit, the other runs code first
    "breaks_meeting_in_with": '''
import contextlib

def run(xs):
    out = []
    it = iter(xs + [0, 7])
    with contextlib.nullcontext(out) as mv:
        while True:
            n = next(it)
            if not n:
                break
            elif n < 3:
                mv.append(-n)
                break
            else:
                mv.append(n)
    return out
''',
}


def main() -> None:
    print(json.dumps([check(k, v) for k, v in CASES.items()], indent=1))


if __name__ == "__main__":
    main()
