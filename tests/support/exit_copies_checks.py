"""Exits the compiler copies into the ways that reach them (3.10, 3.11 most), checked as read back:
`if c: break` in `while True:` whose exit (the implicit `return None`) is copied into the `break`;
`return`s written in a `while True:` body (3.10, 3.11: not the code after the loop, which it
would be were it reached by a `break`); `if not a or not b: continue` sharing one `continue` block
(3.11); a `with` statement ending a
function, its exit call and `return None` copied into each end of its body (≤3.10), nested `if`s
and a guarded `while` among them. Each case is a function of one argument, decompiled, compiled
again, its normalized instructions compared with the original's, and both run on several inputs
(results, exceptions, printed output).

Run with PYTHONPATH=python:  python tests/support/exit_copies_checks.py [--show NAME]
Prints one JSON object: per case, whether it decompiled, compiled, is identical, behaved the same."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from case_runner import case_functions, run_case  # noqa: E402

HELPERS = '''
class Log:
    """A context manager that prints its enter and exit (and the exception it sees)."""
    def __init__(self, name):
        self.name = name
    def __enter__(self):
        print("enter", self.name)
        return self
    def __exit__(self, t, v, tb):
        print("exit", self.name, t and t.__name__)
        return False
'''

CASES = '''
def while_true_break(x):
    n = x
    while True:
        n -= 1
        if n <= 0:
            break
        print(n)

def while_true_break_elif(x):
    n = x
    while True:
        n -= 1
        if not n or n < 0:
            break
        elif n == 2:
            print("two")
        else:
            print(n)

def while_true_break_and(x):
    n = x
    while True:
        n -= 1
        if n < 2 and n != 1:
            break
        print(n)

def while_true_break_or_call(x):
    seen = []
    while True:
        x -= 1
        if not x or abs(x) > 8:
            break
        seen.append(x)
    print(seen)

def while_true_break_in_with(x):
    with Log("w") as w:
        while True:
            x -= 1
            if x <= 0:
                break
            elif x < 3:
                print(w.name, x)
            else:
                print(x)

def while_true_returns(x):
    seen = set()
    n = x
    while True:
        n = (n * 7 + 3) % 11
        if n == 0:
            return False
        if n == 5:
            return True
        if n in seen:
            return False
        seen.add(n)

def while_true_return_in_elif(x):
    i = 0
    s = "abcdefg"
    while 1:
        i += 1
        if i >= len(s):
            return (-1, -1)
        c = s[i]
        if c == "cdefgh"[x % 6]:
            return x, i
        elif c < "d":
            x += 1

def while_true_break_or_return(x):
    xs = list(range(x))
    while True:
        if not xs:
            return 0
        v = xs.pop()
        if v == 3:
            break
        if v == 4:
            return 5
    return 7

def for_compound_continue(x):
    for k in range(x):
        m = k % 3
        if not m or not k % 2:
            continue
        print(k, m)

def for_compound_continue_call(x):
    data = {}
    for k in range(-2, x):
        m = abs(k) % 3
        if not m or not callable(print):
            continue
        data[k] = m
    print(data)

def for_compound_continue_three(x):
    for k in range(x):
        if not k or k == 3 or not k % 2:
            continue
        print(k)
        x += 1

def with_nested_ifs_at_end(x):
    with Log("a"):
        print(x)
        if x > 1:
            print("gt")
            if x > 4:
                print("big")

def with_raise_then_nested_ifs(x):
    with Log("b"):
        if x < 0:
            raise ValueError(x)
        x -= 1
        if x == 1:
            print("one")
            if x % 2:
                x -= 1
                print("odd", x)

def with_guarded_while_at_end(x):
    with Log("c"):
        while x > 0:
            x -= 2
            print(x)

def with_if_else_at_end(x):
    with Log("d"):
        if x > 2:
            if x > 5:
                print("big")
        else:
            print("small")
'''

INPUTS = [0, 1, 2, 3, 5, 6, 9, -1]


def call(fn, arg) -> list:
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            r = ["ok", repr(fn(arg))]
    except Exception as e:  # noqa: BLE001 - what it raises is compared
        r = ["raised", type(e).__name__, repr(e.args)]
    return r + [buf.getvalue()]


def namespace() -> dict:
    ns = {"__name__": "exit_copies_cases"}
    exec(compile(HELPERS, "<helpers>", "exec"), ns)
    return ns


def main() -> None:
    ns = namespace()
    names = case_functions(CASES, ns)
    out = {name: run_case(name, ns, namespace, INPUTS, call) for name in names}
    if "--show" in sys.argv:
        r = out[sys.argv[sys.argv.index("--show") + 1]]
        print(r.get("source") or r.get("error"))
        return
    print(json.dumps({"version": sys.version, "cases": out}, indent=1))


if __name__ == "__main__":
    main()
