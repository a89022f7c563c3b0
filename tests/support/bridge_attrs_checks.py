"""The bridge reads a live code object's co_* attributes straight through the descriptors of
types.CodeType (3.10+) and anything else through getattr: both ways must give the same decompiled
text or the same error. Every code object of a few stdlib modules is decompiled as itself and
through a proxy that answers the same attributes (a type of its own, so the generic way).
Prints JSON: {"compared": N, "mismatches": [...]}."""

import json
import sys
import types

from framejit import _native


class Proxy:
    """Answers the attributes of `code` through __getattr__ (never a code object itself)."""

    def __init__(self, code):
        self._code = code

    def __getattr__(self, name):
        return getattr(self._code, name)


def tree(code):
    yield code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from tree(c)


def outcome(obj):
    try:
        return "ok\0" + _native.decompile_code(obj)[0]
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}\0{e}"


def main():
    import argparse, ast, json as _json, textwrap, tokenize  # noqa: E401,F401  (modules to read)

    compared, mismatches = 0, []
    for mod in (argparse, ast, _json, textwrap, tokenize):
        path = mod.__file__
        with open(path, "rb") as f:
            module = compile(f.read(), path, "exec", dont_inherit=True)
        for code in tree(module):
            a, b = outcome(code), outcome(Proxy(code))
            compared += 1
            if a != b:
                mismatches.append(f"{path}: {code.co_name}")
    # a closure, a nested function with defaults and a lambda: attributes of every kind
    src = textwrap.dedent(
        """
        def outer(a, /, b=1, *args, c, d=2, **kw):
            x = [a]
            def inner(e=b):
                nonlocal x
                x = x + [e, lambda: c]
                return x
            return inner
        """
    )
    for code in tree(compile(src, "<case>", "exec")):
        compared += 1
        if outcome(code) != outcome(Proxy(code)):
            mismatches.append(f"<case>: {code.co_name}")
    print(json.dumps({"compared": compared, "mismatches": mismatches[:20]}))


if __name__ == "__main__":
    sys.exit(main())
