"""Decompile coroutines, async generators and generators that delegate (yield from), recompile the
output, drive original and recompiled the same way, and compare results and instruction sequences.
Prints one JSON object: per case, whether it decompiled, behaved the same, and compiled to the same
instructions. Runs under any interpreter 3.9-3.14 (the checks of which cases must be exact are in
tests/test_decompile_async.py)."""

from __future__ import annotations

import json
import os
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_sweep import normalized, recompiled  # noqa: E402
from framejit import DecompileError  # noqa: E402
from framejit.decompiler import decompile_with_constants  # noqa: E402

SOURCE = '''
class Box:
    """Awaitable: yields once (the value it was made with), returns that and what it was sent."""

    def __init__(self, v):
        self.v = v

    def __await__(self):
        got = yield ("box", self.v)
        return (self.v, got)


class Fail:
    def __await__(self):
        yield "fail"
        raise ValueError("failed")


class ACM:
    def __init__(self, log, v):
        self.log, self.v = log, v

    async def __aenter__(self):
        self.log.append(("enter", self.v))
        await Box(self.v)
        return self.v

    async def __aexit__(self, t, e, tb):
        self.log.append(("exit", t is None))
        await Box(-1)
        return False


def inner(n):
    x = yield n
    return (x, n)


def gen_delegate(n):
    r = yield from inner(n)
    yield r
    yield from [1, 2]
    return r


def gen_delegate_expr(n):
    return [(yield from inner(n)), (yield from inner(n + 1))]


async def await_simple(a):
    x = await Box(a)
    return x, a + 1


async def await_expr(a, b):
    return [await Box(a), (await Box(b))[0] * 2]


async def await_return(a):
    return await Box(a)


async def await_cond(a, c):
    y = await Box(a) if c else -1
    if await Box(c):
        y = (y, 1)
    return y


async def await_loop(n):
    t = 0
    for i in range(n):
        t += (await Box(i))[0]
    while t > 5:
        t = (await Box(t - 5))[0]
    return t


async def await_try(a):
    try:
        r = await Fail() if a else await Box(a)
    except ValueError:
        r = "caught"
    return r


async def agen(n):
    for i in range(n):
        yield await Box(i)
    yield "end"


async def agen_plain(n):
    yield n
    x = yield n + 1
    yield x


async def afor_collect(n):
    t = []
    async for v in agen(n):
        t.append(v)
    return t


async def afor_break(n):
    t = None
    async for v in agen(n):
        if v == "end":
            break
        t = v
    return t


async def afor_nested(n):
    t = []
    for k in range(2):
        async for v in agen(n + k):
            t.append((k, v))
    return t


async def awith(log, a):
    async with ACM(log, a) as x, ACM(log, 2):
        log.append(x)
    return log


async def awith_return(log, a):
    async with ACM(log, a) as x:
        return x * 2


async def acomp(n):
    return [v async for v in agen(n)], [await Box(i) for i in range(n)]


async def await_boolop(a, b):
    x = a and await Box(b)
    y = (await Box(a))[0] or await Box(b)
    return x, y, f"{(await Box(a))[0]!r:>4}"


async def await_while(n):
    k = 0
    while (await Box(n - k))[0] > 0:
        k += 1
    return k


async def await_finally(log, a):
    try:
        return await Box(a)
    finally:
        log.append("done")


async def afor_in_try(n):
    t = []
    try:
        async for v in agen(n):
            t.append(v)
    except ValueError:
        t = None
    return t


async def afor_before_if(n, c):
    if c:
        n += 1
    else:
        n -= 1
    t = []
    async for v in agen(n):
        t.append(v)
    return t


async def awith_in_loop(log, n):
    for i in range(n):
        async with ACM(log, i) as x:
            if x == 1:
                continue
            log.append(x)
    return log


async def agen_delegate_await(n):
    async for v in agen(n):
        yield (await Box(v))[1]
    return


def gen_dead_yield(n):
    return n
    yield


async def agen_dead_yield(n):
    await Box(n)
    return
    yield n


async def agen_expr(n):
    g = (v async for v in agen(n))
    return [v async for v in g]
'''

# (case, arguments to try)
CASES = {
    "gen_delegate": [(1,), (5,)],
    "gen_delegate_expr": [(2,)],
    "await_simple": [(1,), (3,)],
    "await_expr": [(1, 2)],
    "await_return": [(4,)],
    "await_cond": [(1, 0), (1, 2)],
    "await_loop": [(0,), (4,), (7,)],
    "await_try": [(0,), (1,)],
    "agen": [(0,), (3,)],
    "agen_plain": [(2,)],
    "afor_collect": [(0,), (3,)],
    "afor_break": [(0,), (3,)],
    "afor_nested": [(2,)],
    "awith": [([], 1)],
    "awith_return": [([], 3)],
    "acomp": [(3,)],
    "agen_expr": [(3,)],
    "await_boolop": [(0, 1), (2, 3)],
    "await_while": [(0,), (3,)],
    "await_finally": [([], 2)],
    "afor_in_try": [(2,)],
    "afor_before_if": [(2, 0), (2, 1)],
    "awith_in_loop": [([], 3)],
    "agen_delegate_await": [(2,)],
    "gen_dead_yield": [(3,)],
    "agen_dead_yield": [(3,)],
}


def drive(obj):
    """Step a generator or coroutine to its end, sending 0, 1, 2, ...; async generators are
    collected item by item (each asend driven the same way)."""
    out = []
    if isinstance(obj, types.AsyncGeneratorType):
        k = 0
        while True:
            step = drive(obj.asend(None if k == 0 else k))
            out.append(step)
            k += 1
            if step and step[-1][0] != "return" or k > 50:
                return out
    try:
        v = obj.send(None)
        i = 0
        while i < 100:
            out.append(repr(v))
            v = obj.send(i)
            i += 1
    except StopIteration as e:
        out.append(("return", repr(e.value)))
    except StopAsyncIteration:
        out.append(("stop-async",))
    except Exception as e:  # the same exception type and message count as the same behaviour
        out.append(("raised", type(e).__name__, str(e)))
    return out


def run(fn, args):
    args = [list(a) if isinstance(a, list) else a for a in args]
    try:
        result = fn(*args)
    except Exception as e:
        return [("raised", type(e).__name__, str(e))]
    if isinstance(result, (types.GeneratorType, types.CoroutineType, types.AsyncGeneratorType)):
        return [drive(result), repr(args)]
    return [repr(result), repr(args)]


def report(source: str, name: str, cases: dict) -> dict:
    """Each function of `cases` in `source` (compiled as module `name`): decompiled, compiled again,
    run against the original on its argument sets, instruction sequences compared."""
    module = types.ModuleType(name)
    exec(compile(source, f"<{name}>", "exec"), module.__dict__)
    out = {}
    for fname, arg_sets in cases.items():
        fn = getattr(module, fname)
        entry: dict = {"decompiled": False}
        out[fname] = entry
        try:
            src, constants = decompile_with_constants(fn)
        except DecompileError as e:
            entry["refused"] = str(e)
            continue
        entry["decompiled"] = True
        entry["source"] = src
        namespace = dict(module.__dict__)
        namespace.update(constants)
        try:
            exec(compile(src, "<decompiled>", "exec"), namespace)
        except SyntaxError as e:
            entry["syntax_error"] = str(e)
            continue
        again = namespace[fname]
        entry["same_behaviour"] = True
        for args in arg_sets:
            a, b = run(fn, args), run(again, args)
            if a != b:
                entry["same_behaviour"] = False
                entry["difference"] = [repr(args), a, b]
                break
        re = recompiled(fn.__code__, src)
        entry["same_instructions"] = re is not None and normalized(re) == normalized(fn.__code__)
    return out


def main() -> None:
    print(json.dumps(report(SOURCE, "async_cases", CASES), indent=1))

if __name__ == "__main__":
    main()
