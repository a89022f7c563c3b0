"""Decompile every test method of CPython's own test_patma (the pattern matching tests), compile the
output into the test module's namespace, and run original and decompiled methods: same outcome
(pass, skip, or the exception's type). Prints JSON {"same", "different": [[class, test, a, b]],
"refused", "missing"}. TestTracing checks traced line numbers, which decompiled code cannot keep."""

from __future__ import annotations

import json
import types
import unittest
import warnings

from framejit import DecompileError, decompile


def main() -> None:
    warnings.simplefilter("ignore")
    try:
        import test.test_patma as tp
    except ImportError:
        print(json.dumps({"missing": True}))
        return
    same, different, refused = 0, [], 0
    for cname, cls in vars(tp).items():
        if not (isinstance(cls, type) and issubclass(cls, unittest.TestCase)):
            continue
        for name, fn in list(vars(cls).items()):
            if not name.startswith("test") or not isinstance(fn, types.FunctionType) or fn.__code__.co_freevars:
                continue
            try:
                src = decompile(fn)
            except DecompileError:
                refused += 1
                continue
            ns = dict(vars(tp))
            try:
                exec(compile(src, tp.__file__, "exec"), ns)
            except SyntaxError as e:
                different.append([cname, name, "compiles", str(e)])
                continue

            def outcome(f, cls=cls, name=name):
                try:
                    f(cls(name))
                    return "ok"
                except unittest.SkipTest:
                    return "skip"
                except Exception as e:  # noqa: BLE001 - the outcome is the exception's type
                    return type(e).__name__

            a, b = outcome(fn), outcome(ns[fn.__name__])
            if a == b:
                same += 1
            else:
                different.append([cname, name, a, b])
    print(json.dumps({"missing": False, "same": same, "different": different, "refused": refused}))


if __name__ == "__main__":
    main()
