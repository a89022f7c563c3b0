"""Behaviour suite: async def, await, async for, async with, async comprehensions, async generators.
Coroutine functions are run with asyncio.run; async generators are collected."""

import asyncio


class ARange:
    """An asynchronous iterator over range(n) that can fail at a given index."""

    def __init__(self, n, fail_at=None):
        self.i = 0
        self.n = n
        self.fail_at = fail_at

    def __aiter__(self):
        return self

    async def __anext__(self):
        await asyncio.sleep(0)
        if self.i == self.fail_at:
            raise ValueError("fail at %d" % self.i)
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        return self.i - 1


class ACM:
    def __init__(self, log, name, suppress=False):
        self.log = log
        self.name = name
        self.suppress = suppress

    async def __aenter__(self):
        await asyncio.sleep(0)
        self.log.append("aenter " + self.name)
        return self.name

    async def __aexit__(self, t, v, tb):
        self.log.append("aexit %s %s" % (self.name, t.__name__ if t else None))
        return self.suppress


async def double(x):
    await asyncio.sleep(0)
    return x * 2


async def co_simple(x):
    return x + 1


async def co_await(x):
    a = await double(x)
    b = await double(a)
    return a, b


async def co_await_in_expression(x):
    return [await double(x), (await double(x)) + 1, await double(await double(x))]


async def co_await_exception(x):
    try:
        return await double(10 // x)
    except ZeroDivisionError:
        return "zero"


async def co_await_in_loop(n):
    out = []
    for i in range(n):
        if i % 2:
            continue
        out.append(await double(i))
    return out


async def co_gather(n):
    return await asyncio.gather(*[double(i) for i in range(n)])


async def co_async_for(n):
    out = []
    async for v in ARange(n):
        out.append(v)
    return out


async def co_async_for_else_break(n, stop):
    out = []
    async for v in ARange(n):
        if v == stop:
            break
        out.append(v)
    else:
        out.append("exhausted")
    return out


async def co_async_for_raises(n):
    out = []
    try:
        async for v in ARange(n, fail_at=2):
            out.append(v)
    except ValueError as e:
        out.append(str(e))
    return out


async def co_async_for_continue(n):
    out = []
    async for v in ARange(n):
        if v % 2 == 0:
            continue
        out.append(v)
    return out


async def co_async_with(x):
    log = []
    async with ACM(log, "a") as name:
        log.append(name + str(x))
    return log


async def co_async_with_multiple(x):
    log = []
    async with ACM(log, "a"), ACM(log, "b", suppress=True) as b:
        log.append(b)
        if x:
            raise KeyError(x)
    return log


async def co_async_with_raises(x):
    log = []
    try:
        async with ACM(log, "r"):
            log.append(1 // x)
    except ZeroDivisionError:
        log.append("caught")
    return log


async def co_async_with_return_in_loop(xs):
    log = []
    for x in xs:
        async with ACM(log, str(x)):
            if x == 0:
                continue
            if x < 0:
                return log, "neg"
    return log, "done"


async def co_async_list_comp(n):
    return [v async for v in ARange(n)]


async def co_async_comp_cond(n):
    return [v * 2 async for v in ARange(n) if v % 2]


async def co_async_set_dict_comp(n):
    s = {v % 2 async for v in ARange(n)}
    d = {v: str(v) async for v in ARange(n)}
    return sorted(s), d


async def co_await_in_comp(n):
    return [await double(i) for i in range(n)]


async def co_async_genexpr(n):
    g = (v + 1 async for v in ARange(n))
    return [x async for x in g]


async def agen_simple(n):
    for i in range(n):
        await asyncio.sleep(0)
        yield i


async def agen_async_for(n):
    async for v in ARange(n):
        yield v * 10
    yield "end"


async def agen_try_finally(n):
    try:
        for i in range(n):
            yield i
            if i == 1:
                raise ValueError("stop")
    finally:
        await asyncio.sleep(0)


async def co_consume_agen(n):
    out = []
    async for v in agen_simple(n):
        out.append(v)
    return out


async def co_nested_coroutines(x):
    async def inner(v):
        return await double(v) + 1

    async def middle(v):
        return await inner(v) * 2

    return await middle(x)


async def co_closure_nonlocal(n):
    count = 0

    async def bump():
        nonlocal count
        await asyncio.sleep(0)
        count += 1

    for _ in range(n):
        await bump()
    return count


async def co_try_finally_await(x):
    log = []
    try:
        log.append(await double(x))
        if x > 2:
            raise ValueError(x)
    except ValueError:
        log.append("ve")
    finally:
        log.append(await double(0))
    return log


async def co_async_lambda_result(x):
    f = lambda v: double(v)  # noqa: E731
    return await f(x)


async def co_wait_for(x):
    return await asyncio.wait_for(double(x), timeout=5)


async def agen_dead_yield(n):
    if False:
        yield n
    await asyncio.sleep(0)


async def co_without_await(n):
    return n * 2


CASES = {
    "co_simple": [(1,), ("a",)],
    "co_await": [(1,), ("a",)],
    "co_await_in_expression": [(1,), ("a",)],
    "co_await_exception": [(1,), (0,)],
    "co_await_in_loop": [(5,), (0,)],
    "co_gather": [(3,), (0,)],
    "co_async_for": [(3,), (0,)],
    "co_async_for_else_break": [(5, 2), (3, 10)],
    "co_async_for_raises": [(5,), (1,)],
    "co_async_for_continue": [(5,), (0,)],
    "co_async_with": [(1,)],
    "co_async_with_multiple": [(0,), (1,)],
    "co_async_with_raises": [(1,), (0,)],
    "co_async_with_return_in_loop": [([1, 0, -1, 2],), ([1],)],
    "co_async_list_comp": [(3,), (0,)],
    "co_async_comp_cond": [(5,), (0,)],
    "co_async_set_dict_comp": [(4,), (0,)],
    "co_await_in_comp": [(3,), (0,)],
    "co_async_genexpr": [(3,), (0,)],
    "agen_simple": [(3,), (0,)],
    "agen_async_for": [(2,), (0,)],
    "agen_try_finally": [(1,), (3,)],
    "co_consume_agen": [(3,)],
    "co_nested_coroutines": [(1,), ("a",)],
    "co_closure_nonlocal": [(3,), (0,)],
    "co_try_finally_await": [(1,), (3,), ("s",)],
    "co_async_lambda_result": [(2,)],
    "co_wait_for": [(2,)],
    "agen_dead_yield": [(1,)],
    "co_without_await": [(1,)],
}
