"""Behaviour suite: generators, yield expressions, send/throw/close, yield from, return values,
try/finally inside generators. Generator functions are listed by the runner; the drive_* functions
exercise the protocol explicitly."""


def gen_simple(n):
    for i in range(n):
        yield i * i


def gen_with_return(n):
    yield n
    if n > 2:
        return "early"
    yield n + 1
    return "late"


def gen_yield_expression_value(n):
    total = 0
    for _ in range(n):
        got = yield total
        total += got if got is not None else 1
    return total


def gen_yield_no_value(n):
    for _ in range(n):
        yield


def gen_yield_from(xs):
    yield "start"
    yield from xs
    yield "end"


def gen_yield_from_result(n):
    def inner():
        yield 1
        return n * 10

    r = yield from inner()
    yield r


def gen_yield_from_generator_chain(n):
    def leaf(k):
        for i in range(k):
            yield ("leaf", i)
        return k

    def mid(k):
        a = yield from leaf(k)
        b = yield from leaf(k - 1) if k > 0 else ()
        return a, b

    result = yield from mid(n)
    yield ("result", result)


def gen_try_finally(n):
    try:
        for i in range(n):
            yield i
            if i == 2:
                raise ValueError("at 2")
    finally:
        yield "cleanup"


def gen_try_except(xs):
    for x in xs:
        try:
            yield 10 // x
        except ZeroDivisionError:
            yield "zero"


def gen_infinite_with_break(limit):
    def naturals():
        n = 0
        while True:
            yield n
            n += 1

    out = []
    for v in naturals():
        if v >= limit:
            break
        out.append(v)
    return out


def gen_in_condition(xs):
    yield "yes" if xs else "no"
    yield (yield len(xs)) if xs else "skip"


def gen_yield_in_expression(n):
    x = (yield n) or 5
    y = [(yield n + 1), (yield -n)]
    yield x + n, y


def drive_send(n):
    g = gen_yield_expression_value(n)
    out = [next(g)]
    try:
        for k in range(n + 1):
            out.append(g.send(k * 10))
    except StopIteration as e:
        out.append(("stop", e.value))
    return out


def drive_throw(kind):
    def g():
        try:
            yield 1
            yield 2
        except KeyError as e:
            yield "caught %s" % e
        yield 3

    it = g()
    out = [next(it)]
    try:
        out.append(it.throw(KeyError("k") if kind else ValueError("v")))
        out.append(next(it))
    except ValueError as e:
        out.append("propagated " + str(e))
    return out


def drive_close(n):
    log = []

    def g():
        try:
            for i in range(n):
                yield i
        except GeneratorExit:
            log.append("exit")
            raise
        finally:
            log.append("finally")

    it = g()
    first = next(it, None)
    it.close()
    return first, log


def drive_return_value(n):
    g = gen_with_return(n)
    items = []
    while True:
        try:
            items.append(next(g))
        except StopIteration as e:
            return items, e.value


def gen_closure(n):
    def counter():
        i = 0
        while i < n:
            i += 1
            yield i

    return list(counter()), sum(counter())


def gen_state_machine(s):
    state = "start"
    for ch in s:
        if state == "start":
            if ch == "a":
                state = "a"
                yield "->a"
            else:
                yield "stay"
        elif state == "a":
            state = "start" if ch == "b" else "a"
            yield "->" + state
    yield "final " + state


def gen_yield_from_iterable_types(x):
    yield from range(x)
    yield from "ab"
    yield from {1: 2}
    yield from (i for i in range(2))


def gen_exception_escapes(x):
    yield 1
    yield 10 // x
    yield 3


def gen_nested_loops(n):
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            yield i, j
        else:
            yield "else", i


def gen_with_statement(n):
    class CM:
        def __init__(self, log):
            self.log = log

        def __enter__(self):
            self.log.append("in")

        def __exit__(self, *a):
            self.log.append("out")

    log = []

    def g():
        with CM(log):
            for i in range(n):
                yield i

    return list(g()), log


def gen_yield_from_throw(kind):
    def inner():
        try:
            yield "inner1"
        except ValueError:
            yield "inner caught"
        yield "inner2"

    def outer():
        yield from inner()
        yield "outer"

    g = outer()
    out = [next(g)]
    try:
        out.append(g.throw(ValueError("x") if kind else KeyError("y")))
    except KeyError as e:
        out.append("escaped " + str(e))
    out.extend(g)
    return out


def gen_expression_argument_yield(n):
    total = yield
    while total is not None and total < n:
        total += (yield total)
    return total


def gen_dead_yield(x):
    if False:
        yield "never"
    return x


def gen_yield_after_return(x):
    return x
    yield  # noqa: unreachable, still makes this a generator


CASES = {
    "gen_simple": [(3,), (0,), ("a",)],
    "gen_with_return": [(1,), (5,)],
    "gen_yield_expression_value": [(3,), (0,)],
    "gen_yield_no_value": [(2,), (0,)],
    "gen_yield_from": [([1, 2],), ("xy",), (5,)],
    "gen_yield_from_result": [(2,), ("a",)],
    "gen_yield_from_generator_chain": [(2,), (0,)],
    "gen_try_finally": [(2,), (5,)],
    "gen_try_except": [([1, 0, 2],), ([None],)],
    "gen_infinite_with_break": [(3,), (0,)],
    "gen_in_condition": [([1],), ([],)],
    "gen_yield_in_expression": [(2,), ("a",)],
    "drive_send": [(3,), (0,)],
    "drive_throw": [(1,), (0,)],
    "drive_close": [(3,), (0,)],
    "drive_return_value": [(1,), (5,)],
    "gen_closure": [(3,), (0,)],
    "gen_state_machine": [("aab",), ("ba",), ("",)],
    "gen_yield_from_iterable_types": [(2,), ("x",)],
    "gen_exception_escapes": [(1,), (0,)],
    "gen_nested_loops": [(3,), (0,)],
    "gen_with_statement": [(2,), (0,)],
    "gen_yield_from_throw": [(1,), (0,)],
    "gen_expression_argument_yield": [(5,)],
    "gen_dead_yield": [(1,)],
    "gen_yield_after_return": [(1,)],
}
