"""Loop exits of session 13, run under one interpreter (see tests/test_decompile_loop_exit_shapes.py):
each case's function is decompiled, compiled again, its instructions compared with the original's and
both run on the inputs. Prints JSON {case: {"source": ... or None, "error": ..., "same_code": bool,
"results": [[original, again], ...]}}."""

from __future__ import annotations

import copy
import json

from decompile_sweep import normalized
from framejit import DecompileError, decompile

FEED = '''
class Feed:
    def __init__(self, values):
        self.values = list(values)
    def __call__(self):
        if not self.values:
            raise RuntimeError("exhausted")
        v = self.values.pop(0)
        if isinstance(v, type):
            raise v("fed")
        return v
'''

CASES = {
    # ≤3.9: the `return` written in the loop (reached by falling through from the body) was taken
    # for the code after the loop and the `break` dropped: the loop went round again
    "break_or_return_in_try": (
        "def run(a, w):\n    a, w = Feed(a), Feed(w)\n    try:\n        while True:\n"
        "            if a():\n                break\n            if w():\n                return 'ret'\n"
        "    except ValueError:\n        return 'value error'\n    a.x = None\n    return 'after'\n",
        [([1], []), ([0, 1], [0]), ([0], [1]), ([ValueError], []), ([0], [KeyError])],
    ),
    # 3.12+: the code after the try statement, which only the `break` reaches (outside the
    # handler's range), came back as the `if a():` arm inside the try body, its exceptions caught;
    # here the `return` comes first, and the code after the try raises where `fail` is set
    "return_then_break_in_try": (
        "def run(a, w, fail):\n    a, w = Feed(a), Feed(w)\n    try:\n        while True:\n"
        "            if w():\n                return 'ret'\n            if a():\n                break\n"
        "    except ValueError:\n        return 'value error'\n    if fail:\n        raise ValueError('after')\n"
        "    return 'after'\n",
        [([1], [0], 0), ([1], [0], 1), ([0, 1], [0, 0], 1), ([0], [1], 1), ([ValueError], [0], 0)],
    ),
    "break_then_return_in_try": (
        "def run(a, w, fail):\n    a, w = Feed(a), Feed(w)\n    try:\n        while True:\n"
        "            if a():\n                break\n            if w():\n                return 'ret'\n"
        "    except ValueError:\n        return 'value error'\n    if fail:\n        raise ValueError('after')\n"
        "    return 'after'\n",
        [([1], [], 0), ([1], [], 1), ([0, 1], [0], 1), ([0], [1], 1), ([ValueError], [], 0)],
    ),
    # the same without the try: either reading runs the same code; the layout says which
    "return_then_break": (
        "def run(a, w):\n    a, w = Feed(a), Feed(w)\n    while True:\n        if w():\n"
        "            return 'ret'\n        if a():\n            break\n    a.x = None\n    return 'after'\n",
        [([1], [0]), ([0, 1], [0, 0]), ([0], [1])],
    ),
    # inside try/finally (the `return` runs the finally body's copy) and around a try statement
    "return_then_break_in_try_finally": (
        "def run(a, w, log):\n    a, w = Feed(a), Feed(w)\n    try:\n        while True:\n"
        "            if w():\n                return 1\n            if a():\n                break\n"
        "            log.append('more')\n    finally:\n        log.append('fin')\n    log.append('after')\n"
        "    return log\n",
        [([1], [0], []), ([0, 1], [0, 0], []), ([0], [1], []), ([KeyError], [0], [])],
    ),
    "try_in_loop_return_then_break": (
        "def run(a, w):\n    a, w = Feed(a), Feed(w)\n    while True:\n        try:\n            if w():\n"
        "                return 'ret'\n            if a():\n                break\n        except ValueError:\n"
        "            return 'value error'\n    a.x = None\n    return 'after'\n",
        [([1], [0]), ([0, 1], [0, 0]), ([0], [1]), ([ValueError], [0])],
    ),
    # a `break` out of an inner `for` whose jump the compiler threads on to the outer loop's header
    # (the code after the inner loop is only that jump), behind a test of its own
    "threaded_break_behind_test": (
        "def run(mro, methods):\n    for m in methods:\n        for b in mro:\n            if m in b:\n"
        "                if b[m] is None:\n                    return 'none', m\n                break\n"
        "    return True\n",
        [([{"a": 1}, {"b": None}], ["a", "b"]), ([{"a": 1}], ["a", "c"]), ([], [])],
    ),
    # the same with `else:` on the inner loop: where `break` goes is found past the test
    "threaded_break_for_else": (
        "def run(mro, methods):\n    for m in methods:\n        for b in mro:\n            if m in b:\n"
        "                if b[m] is None:\n                    return 'none', m\n                break\n"
        "        else:\n            return 'missing', m\n    return True\n",
        [([{"a": 1}, {"b": None}], ["a", "b"]), ([{"a": 1}], ["a", "c"]), ([{}], ["x"]), ([], [])],
    ),
    # 3.12+: `return name` after an except clause's POP_EXCEPT is the code after the statement
    # copied there (a clause's own return loads its value first), with an `else:` that raises
    "copied_return_after_raising_else": (
        "def run(it, first, too_long):\n    it = iter(it)\n    try:\n        second = next(it)\n"
        "    except StopIteration:\n        pass\n    else:\n        raise too_long or ValueError(second)\n"
        "    return first\n",
        [([], 1, None), ([5], 1, None), ([5], 1, KeyError("x"))],
    ),
    # 3.13+: `for x in it: break` first in a try body: the try's range ends after the `break`'s
    # pop of the iterator, whose jump (threaded to the outer loop's header) is a block of its own
    # (session 15; refused before: "the stack went below the statement's base")
    "break_first_in_try_in_loop": (
        "def run(items):\n    n = 0\n    for item in items:\n        try:\n"
        "            for x in item:\n                break\n        except ValueError:\n"
        "            n += 1\n    return n\n",
        [([[1], []],), ([[1], 5],), ([],)],
    ),
    # 3.11-3.13: every way out of a `while True:` inside its try body (the `break`s lead to the
    # function's end, copied): the arm before the `break` was taken for the code after the loop,
    # and the try statement came out twice (logging.handlers.QueueListener._monitor; refused
    # until session 15)
    "every_exit_in_try_body": (
        "def run(a, done):\n    a = Feed(a)\n    log = []\n    while True:\n        try:\n"
        "            record = a()\n            if record == 'stop':\n                if done:\n"
        "                    log.append('done')\n                break\n            log.append(record)\n"
        "            if done:\n                log.append('task')\n        except RuntimeError:\n"
        "            break\n    return log\n",
        [([1, 2, "stop"], True), ([1], False), ([ValueError], True), (["stop"], False)],
    ),
}


def outcome(f, args):
    try:
        return repr(f(*copy.deepcopy(args)))
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"


def main() -> None:
    report = {}
    for name, (src, inputs) in CASES.items():
        ns: dict = {}
        exec(compile(FEED + src, name, "exec"), ns)
        try:
            text = decompile(ns["run"].__code__)
        except DecompileError as e:
            report[name] = {"source": None, "error": str(e), "same_code": False, "results": []}
            continue
        again: dict = {"Feed": ns["Feed"]}
        exec(compile(text, name, "exec"), again)
        report[name] = {
            "source": text,
            "error": None,
            "same_code": normalized(ns["run"].__code__) == normalized(again["run"].__code__),
            "results": [[outcome(ns["run"], a), outcome(again["run"], a)] for a in inputs],
        }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
