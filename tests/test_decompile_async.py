"""Decompiling coroutines, async generators and generators that delegate: `await`, `yield from`,
`async def`, `async for`, `async with`, async comprehensions. Each case of
tests/support/decompile_async_checks.py is decompiled under every interpreter 3.9-3.14 found,
recompiled, driven step by step (coroutine.send / asend) against the original, and its instruction
sequence compared. A case the decompiler refuses is acceptable; a decompiled case that behaves
differently never is."""

from __future__ import annotations

import asyncio
import sys

import pytest

from conftest import LIVE_MINORS, interpreter, run_json
from framejit.decompiler import decompile_with_constants

ALL = range(9, 15)

# cases that must decompile to the same behaviour and the same instructions, by version
EXACT = {
    "gen_delegate": ALL,
    "gen_delegate_expr": ALL,
    "await_simple": ALL,
    "await_return": ALL,
    "await_cond": ALL,
    "agen": ALL,
    "agen_plain": ALL,
    # generators whose yield the compiler dropped as dead code stay generators
    "gen_dead_yield": ALL,
    "agen_dead_yield": ALL,
    # 3.14: the subscription BINARY_OP is not decompiled yet
    "await_expr": range(9, 14),
    "await_boolop": range(9, 14),
    # 3.9: a while loop with its test at the top comes out as `while True: if ...: else: break`
    "await_loop": range(10, 14),
    "await_while": range(10, 14),
    # ≤3.10 need SETUP_FINALLY (try, async for); 3.12+ copy the code after a loop or try into
    # each way out, which comes out copied
    "await_try": [11],
    "afor_break": [11],
    "afor_in_try": [11],
    "afor_collect": range(11, 15),
    "afor_nested": range(11, 15),
    "afor_before_if": range(11, 15),
    # 3.14: `with` is LOAD_SPECIAL there, not decompiled yet
    "awith": range(11, 14),
    "awith_return": range(11, 14),
    "agen_delegate_await": range(11, 14),
    # 3.12+ inline comprehensions, not decompiled yet
    "acomp": [11],
    "agen_expr": [11],
}

# cases that must decompile and behave the same (the instructions may differ)
BEHAVES = {
    "await_try": [13, 14],
    "afor_break": range(12, 15),
    "afor_in_try": range(12, 15),
}


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_async_cases_behave_the_same(minor: int) -> None:
    exe = interpreter(minor)
    report = run_json(exe, "tests/support/decompile_async_checks.py")
    assert set(EXACT) | set(BEHAVES) <= set(report)
    for name, entry in report.items():
        if entry["decompiled"]:
            assert "syntax_error" not in entry, (minor, name, entry)
            assert entry["same_behaviour"], (minor, name, entry)
        if minor in EXACT.get(name, ()) or minor in BEHAVES.get(name, ()):
            assert entry["decompiled"], (minor, name, entry.get("refused"))
            assert entry["same_behaviour"], (minor, name, entry)
        if minor in EXACT.get(name, ()):
            assert entry["same_instructions"], (minor, name, entry.get("source"))


# The same under asyncio, in this interpreter: real event-loop awaitables.


async def ticker(n):
    for i in range(n):
        await asyncio.sleep(0)
        yield i * i


async def gathered(n):
    results = await asyncio.gather(*[asyncio.sleep(0, result=i) for i in range(n)])
    total = 0
    async for v in ticker(n):
        total += v
    lock = asyncio.Lock()
    async with lock:
        total += sum(results)
    return total, lock.locked()


def delegating(n):
    got = yield from range(n)
    return got


def rebuilt(fn):
    source, constants = decompile_with_constants(fn)
    namespace = dict(fn.__globals__)
    namespace.update(constants)
    exec(compile(source, "<decompiled>", "exec"), namespace)
    return source, namespace[fn.__name__]


@pytest.mark.skipif(sys.version_info[:2] not in ((3, 11), (3, 12), (3, 13)), reason="async with is decompiled on 3.11-3.13")
def test_asyncio_coroutine_runs_the_same() -> None:
    source, again = rebuilt(gathered)
    assert source.startswith("async def gathered"), source
    for n in (0, 1, 4):
        assert asyncio.run(again(n)) == asyncio.run(gathered(n)), source


def test_async_generator_and_delegation_run_the_same() -> None:
    source, again = rebuilt(ticker)
    assert source.startswith("async def ticker"), source

    async def collect(agen):
        return [v async for v in agen]

    assert asyncio.run(collect(again(5))) == asyncio.run(collect(ticker(5)))
    source, again = rebuilt(delegating)
    assert "yield from" in source, source
    assert list(again(4)) == list(delegating(4))
