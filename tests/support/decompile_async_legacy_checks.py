"""`async for`, `async with` and async comprehensions, decompiled under one interpreter (written for
3.9 / 3.10's block-stack bytecode, run under every version), recompiled, driven step by step
against the original (the drivers of decompile_async_checks.py) and compared instruction by
instruction. Prints one JSON object: per case, whether it decompiled, behaved the same, and
compiled to the same instructions (tests/test_decompile_async_legacy.py says which must)."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from decompile_async_checks import report  # noqa: E402

SOURCE = '''
class Box:
    def __init__(self, v):
        self.v = v

    def __await__(self):
        got = yield ("box", self.v)
        return (self.v, got)


class AIter:
    """Async iterator over range(n), each step awaiting a Box; raises at `fail_at`."""

    def __init__(self, n, fail_at=None):
        self.i, self.n, self.fail_at = 0, n, fail_at

    def __aiter__(self):
        return self

    async def __anext__(self):
        await Box(self.i)
        if self.i == self.fail_at:
            raise ValueError(self.i)
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        return self.i - 1


class ACM:
    def __init__(self, log, v, suppress=False):
        self.log, self.v, self.suppress = log, v, suppress

    async def __aenter__(self):
        self.log.append(("enter", self.v))
        await Box(self.v)
        return self.v

    async def __aexit__(self, t, e, tb):
        self.log.append(("exit", self.v, t is None))
        await Box(-1)
        return self.suppress


async def afor_plain(n):
    out = []
    async for v in AIter(n):
        out.append(v)
    return out


async def afor_continue(n):
    out = []
    async for v in AIter(n):
        if v % 2:
            continue
        out.append(v)
    return out


async def afor_break(n):
    out = []
    async for v in AIter(n):
        if v == 2:
            break
        out.append(v)
    out.append("after")
    return out


async def afor_else(n):
    out = []
    async for v in AIter(n):
        out.append(v)
    else:
        out.append("exhausted")
    return out


async def afor_else_break(n, stop):
    out = []
    async for v in AIter(n):
        if v == stop:
            break
        out.append(v)
    else:
        out.append("exhausted")
    return out


async def afor_return(n):
    async for v in AIter(n):
        if v == 2:
            return v
    return None


async def afor_raises(n, fail_at):
    out = []
    try:
        async for v in AIter(n, fail_at):
            out.append(v)
    except ValueError as e:
        out.append(("caught", e.args))
    return out


async def afor_nested(n):
    out = []
    async for a in AIter(n):
        async for b in AIter(a):
            out.append((a, b))
    return out


async def afor_in_for(xs):
    out = []
    for x in xs:
        async for v in AIter(x):
            out.append(v)
    return out


async def afor_tuple_target(n):
    out = []
    async for v in AIter(n):
        out.append(v)
    async for a in AIter(n):
        out.append(-a)
    return out


async def agen_afor(n):
    async for v in AIter(n):
        yield v * 10
    yield "end"


async def awith_as(log, x):
    async with ACM(log, x) as v:
        log.append(("body", v))
    return log


async def awith_plain(log, x):
    async with ACM(log, x):
        log.append("body")
    log.append("after")


async def awith_two(log, x):
    async with ACM(log, 1), ACM(log, 2, suppress=True) as b:
        log.append(b)
        if x:
            raise KeyError(x)
    return log


async def awith_raises(log, x):
    try:
        async with ACM(log, "r"):
            log.append(1 // x)
    except ZeroDivisionError:
        log.append("caught")
    return log


async def awith_suppress(log, x):
    async with ACM(log, x, suppress=True):
        if x:
            raise ValueError(x)
        log.append("no raise")
    log.append("after")
    return log


async def awith_return_const(log, x):
    async with ACM(log, x):
        if x:
            return "early"
        log.append("body")
    return "late"


async def awith_return_name(log, x):
    async with ACM(log, x) as v:
        return v


async def awith_afor(log, n):
    async with ACM(log, n):
        async for v in AIter(n):
            log.append(v)
    return log


async def acomp_list(n):
    return [v async for v in AIter(n)]


async def acomp_cond(n):
    return [v * 2 async for v in AIter(n) if v % 2]


async def acomp_set_dict(n):
    s = {v % 2 async for v in AIter(n)}
    d = {v: str(v) async for v in AIter(n)}
    return sorted(s), d


async def acomp_nested(n):
    return [(a, b) async for a in AIter(n) for b in range(a)]


async def agenexpr(n):
    g = (v + 1 async for v in AIter(n))
    return [x async for x in g]
'''

# (case, arguments to try)
CASES = {
    "afor_plain": [(0,), (3,)],
    "afor_continue": [(5,)],
    "afor_break": [(1,), (4,)],
    "afor_else": [(0,), (2,)],
    "afor_else_break": [(4, 2), (4, 9)],
    "afor_return": [(1,), (4,)],
    "afor_raises": [(4, 2), (2, 9)],
    "afor_nested": [(3,)],
    "afor_in_for": [([0, 2, 1],)],
    "afor_tuple_target": [(2,)],
    "agen_afor": [(0,), (3,)],
    "awith_as": [([], 1)],
    "awith_plain": [([], 2)],
    "awith_two": [([], 0), ([], 1)],
    "awith_raises": [([], 0), ([], 1)],
    "awith_suppress": [([], 0), ([], 1)],
    "awith_return_const": [([], 0), ([], 1)],
    "awith_return_name": [([], 5)],
    "awith_afor": [([], 2)],
    "acomp_list": [(0,), (3,)],
    "acomp_cond": [(5,)],
    "acomp_set_dict": [(4,)],
    "acomp_nested": [(3,)],
    "agenexpr": [(3,)],
}


def main() -> None:
    print(json.dumps(report(SOURCE, "async_legacy_cases", CASES), indent=1))

if __name__ == "__main__":
    main()
