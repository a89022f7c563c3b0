"""except* (PEP 654, 3.11+) decompiled, recompiled and run: every case below is a function using
`try: ... except* T: ...` in one shape (several clauses, `as` names, bare re-raise, raise from,
else, finally, in loops with break / continue in the body, loops inside a clause, nested in other
try statements and functions). Each is decompiled, the source compiled again, the normalized
instruction sequences compared, and original and recompiled function run on inputs that raise
exception groups of different mixes (or plain exceptions, or nothing): results and exceptions must
be equal, including which sub-exceptions propagate and how the groups nest.

Prints one JSON object: per case, whether it decompiled, compiled, is identical, and behaved the
same (with details where not)."""

from __future__ import annotations

import json
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from case_runner import case_functions, run_case  # noqa: E402


HELPERS = '''
def make(s):
    if isinstance(s, list):
        return ExceptionGroup("inner", [make(x) for x in s])
    kind, arg = s
    return {"V": ValueError, "T": TypeError, "K": KeyError, "O": OSError, "R": RuntimeError}[kind](arg)

def boom(spec):
    """Raise what spec says: None nothing, a tuple one plain exception, a list a group."""
    if spec is None:
        return "ok"
    if isinstance(spec, tuple):
        raise make(spec)
    raise ExceptionGroup("eg", [make(s) for s in spec])

class Box:
    def __init__(self):
        self.log = []
    def __enter__(self):
        self.log.append("enter")
        return self
    def __exit__(self, *a):
        self.log.append(("exit", a[0].__name__ if a[0] else None))
        return False
'''

CASES = '''
def one_clause(x):
    try:
        boom(x)
    except* ValueError:
        return_value = "caught"
    else:
        return_value = "none"
    return return_value

def as_name(x):
    r = []
    try:
        boom(x)
    except* ValueError as e:
        r.append(sorted(str(s) for s in e.exceptions))
    return r

def several(x):
    r = []
    try:
        r.append(boom(x))
    except* ValueError as e:
        r.append(("V", len(e.exceptions)))
    except* TypeError as e:
        r.append(("T", len(e.exceptions)))
    except* (KeyError, OSError) as e:
        r.append(("KO", sorted(type(s).__name__ for s in e.exceptions)))
    return r

def no_name_several(x):
    r = []
    try:
        boom(x)
    except* ValueError:
        r.append(1)
    except* TypeError:
        r.append(2)
    return r

def reraise(x):
    r = []
    try:
        boom(x)
    except* ValueError:
        r.append("v")
        raise
    except* TypeError:
        r.append("t")
    return r

def raise_new(x):
    try:
        boom(x)
    except* ValueError as e:
        raise RuntimeError("wrapped") from e
    return "done"

def raise_in_second(x):
    try:
        boom(x)
    except* ValueError:
        pass
    except* TypeError as e:
        raise KeyError("from-t")
    return "done"

def with_else(x):
    try:
        y = boom(x)
    except* ValueError:
        y = "v"
    else:
        y = y + "!"
    return y

def with_finally(x):
    log = []
    try:
        boom(x)
    except* ValueError as e:
        log.append(len(e.exceptions))
    finally:
        log.append("fin")
    return log

def else_finally(x):
    log = []
    try:
        boom(x)
    except* ValueError:
        log.append("v")
    except* TypeError:
        log.append("t")
    else:
        log.append("else")
    finally:
        log.append("fin")
    return log

def in_for(xs):
    out = []
    for x in xs:
        try:
            boom(x)
        except* ValueError as e:
            out.append(len(e.exceptions))
    return out

def body_break(xs):
    n = 0
    for x in xs:
        try:
            if boom(x) == "ok":
                break
        except* ValueError:
            n += 1
    return n

def body_continue(xs):
    n = 0
    for x in xs:
        try:
            if boom(x) == "ok":
                continue
            n += 100
        except* ValueError:
            n += 1
        n += 10
    return n

def body_return(x):
    try:
        return boom(x)
    except* ValueError:
        pass
    return "after"

def in_while(xs):
    i = 0
    out = []
    while i < len(xs):
        try:
            boom(xs[i])
        except* ValueError as e:
            out.append(i)
        i += 1
    return out

def loop_in_clause(x):
    out = []
    try:
        boom(x)
    except* ValueError as e:
        for s in e.exceptions:
            if str(s) == "stop":
                break
            if str(s) == "skip":
                continue
            out.append(str(s))
    return out

def if_in_clause(x):
    r = None
    try:
        boom(x)
    except* ValueError as e:
        if len(e.exceptions) > 1:
            r = "many"
        else:
            r = "one"
    except* TypeError:
        if r is None:
            r = "t"
    return r

def try_in_clause(x):
    r = []
    try:
        boom(x)
    except* ValueError as e:
        try:
            r.append(int(str(e.exceptions[0])))
        except ValueError:
            r.append("not int")
    return r

def as_try_in_last_clause(x):
    r = []
    try:
        boom(x)
    except* ValueError:
        r.append("v")
    except* TypeError as t:
        try:
            raise KeyError("from t")
        except KeyError as k:
            r.append(("t", str(k), len(t.exceptions)))
    return r

def star_in_clause(x):
    r = []
    try:
        boom(x)
    except* ValueError as e:
        try:
            raise ExceptionGroup("again", [KeyError(1), TypeError(2)])
        except* KeyError:
            r.append("k")
    return r

def star_in_try(x):
    try:
        try:
            boom(x)
        except* ValueError:
            pass
    except ExceptionGroup as eg:
        return sorted(type(e).__name__ for e in eg.exceptions)
    return "clean"

def star_in_except(x):
    try:
        boom(x)
    except TypeError:
        try:
            raise ExceptionGroup("g", [ValueError(1)])
        except* ValueError:
            x = "handled"
        return x
    except Exception as e:
        return type(e).__name__
    return "none"

def star_in_with(x):
    b = Box()
    with b:
        try:
            boom(x)
        except* ValueError:
            b.log.append("v")
    return b.log

def nested_def_in_clause(x):
    try:
        boom(x)
    except* ValueError as e:
        def count():
            return len(e.exceptions)
        n = count()
    else:
        n = 0
    return n

def nested_stars(x):
    r = []
    try:
        try:
            boom(x)
        except* ValueError:
            r.append("inner v")
            raise
        except* TypeError:
            r.append("inner t")
    except* ValueError as e:
        r.append(("outer v", len(e.exceptions)))
    return r

def del_name(x):
    try:
        boom(x)
    except* ValueError as e:
        del e
    return "ok"

def closure_name(x):
    e = "unset"
    def get():
        return e
    try:
        boom(x)
    except* ValueError as e:
        r = get()
    else:
        r = get()
    return type(r).__name__

def global_name(x):
    global caught
    try:
        boom(x)
    except* ValueError as caught:
        pass
    return "ok"

def while_break_in_body(xs):
    i = 0
    while True:
        try:
            if i >= len(xs):
                break
            boom(xs[i])
        except* ValueError:
            i += 10
        i += 1
    return i
'''

INPUTS = [
    None,
    ("V", 1),
    ("T", 2),
    ("K", "k"),
    [("V", 1)],
    [("V", 1), ("V", 2)],
    [("T", 1)],
    [("V", 1), ("T", 2)],
    [("V", 1), ("T", 2), ("K", 3)],
    [("K", 1), ("O", 2)],
    [("R", 1)],
    [("V", 1), [("T", 2), ("V", 3)]],
    [[("V", "skip"), ("V", "a")], ("V", "stop"), ("V", "b")],
    [("V", "skip"), ("V", "x"), ("V", "stop"), ("V", "y")],
    [("V", "12")],
]
LOOP_INPUTS = [
    [],
    [None],
    [[("V", 1)], None, [("V", 2), ("V", 3)]],
    [[("V", 1)], [("T", 1)], None],
    [[("T", 1)]],
    [[("V", 1), ("T", 2)], None],
    [("V", 1), None],
    [[("K", 1)], [("V", 2)]],
]
LOOPS = {"in_for", "body_break", "body_continue", "in_while", "while_break_in_body"}


def describe(e: BaseException):
    """What an exception says: its type, message and (a group) its members, its cause's type."""
    if isinstance(e, BaseExceptionGroup):
        subs = [describe(s) for s in e.exceptions]
        out = [type(e).__name__, e.message, subs]
    else:
        out = [type(e).__name__, repr(e.args)]
    if e.__cause__ is not None:
        out.append(("cause", type(e.__cause__).__name__))
    return out


def call(fn, arg):
    try:
        return ["ok", repr(fn(arg))]
    except BaseException as e:  # noqa: BLE001 - every outcome is compared
        return ["raised", describe(e)]


def namespace() -> dict:
    ns = {"__name__": "except_star_cases"}
    exec(compile(HELPERS, "<helpers>", "exec"), ns)
    return ns


def reset_caught(ns: dict, ns2: dict) -> None:
    """Global state the cases write: reset before each run."""
    ns.pop("caught", None)
    ns2.pop("caught", None)


def main() -> None:
    ns = namespace()
    results = {}
    for name in case_functions(CASES, ns):
        results[name] = run_case(name, ns, namespace, LOOP_INPUTS if name in LOOPS else INPUTS, call,
                                 reset_caught)
    print(json.dumps({"version": list(sys.version_info[:2]), "cases": results}))


if __name__ == "__main__":
    try:
        main()
    except Exception:
        traceback.print_exc()
        sys.exit(1)
