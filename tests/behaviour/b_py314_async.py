"""Behaviour suite: `async with` (3.14 compiles it with LOAD_SPECIAL __aenter__/__aexit__ where 3.11-3.13
had BEFORE_ASYNC_WITH) and annotations in a class body's try statement."""

import asyncio


class Manager:
    def __init__(self, log, fail=False):
        self.log = log
        self.fail = fail

    async def __aenter__(self):
        self.log.append("enter")
        return self

    async def __aexit__(self, *exc):
        self.log.append(("exit", exc[0].__name__ if exc[0] else None))
        return self.fail


async def _async_with(fail, raise_inside):
    log = []
    async with Manager(log, fail) as m:
        log.append(m is not None)
        if raise_inside:
            raise ValueError("inside")
    async with Manager(log) as a, Manager(log) as b:
        log.append(a is not b)
    return log


def async_with(fail, raise_inside):
    try:
        return asyncio.run(_async_with(fail, raise_inside))
    except ValueError as e:
        return "raised %s" % e


async def _async_with_return(n):
    log = []
    async with Manager(log):
        if n:
            return n, log
        log.append("body")
    return None, log


def async_with_return(n):
    return asyncio.run(_async_with_return(n))


def class_annotations_in_try(flag):
    class Maybe:
        if flag:
            a: int
        try:
            c: bytes
        except Exception:
            pass

    return sorted(Maybe.__annotations__.items(), key=repr)


CASES = {
    "async_with": [(False, False), (True, True), (False, True)],
    "async_with_return": [(0,), (3,)],
    "class_annotations_in_try": [(True,), (False,)],
}
