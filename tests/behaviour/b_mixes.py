"""Behaviour suite: tricky mixes - return/break/continue inside try/finally and with inside loops,
nested functions in loops, exceptions escaping handlers, generators with try/finally, loops in
handlers."""


class CM:
    def __init__(self, log, tag, swallow=False):
        self.log = log
        self.tag = tag
        self.swallow = swallow

    def __enter__(self):
        self.log.append("+" + self.tag)
        return self

    def __exit__(self, t, v, tb):
        self.log.append("-" + self.tag + ("!" if t else ""))
        return self.swallow


def break_in_try_finally(xs):
    log = []
    for x in xs:
        try:
            if x < 0:
                break
            log.append(x)
        finally:
            log.append("f")
    return log


def continue_in_try_finally(xs):
    log = []
    for x in xs:
        try:
            if x % 2:
                continue
            log.append(x)
        finally:
            log.append("f%d" % x)
    return log


def return_in_try_finally_in_loop(xs):
    log = []

    def run():
        for x in xs:
            try:
                if x == 0:
                    return "zero at %d" % len(log)
            finally:
                log.append(x)
        return "none"

    return run(), log


def break_in_except(xs):
    out = []
    for x in xs:
        try:
            out.append(10 // x)
        except ZeroDivisionError:
            out.append("z")
            break
        finally:
            out.append(".")
    return out


def continue_in_except(xs):
    out = []
    for x in xs:
        try:
            v = int(x)
        except ValueError:
            continue
        out.append(v)
    return out


def return_in_except_with_finally(x):
    log = []
    try:
        try:
            return 1 / x
        except ZeroDivisionError:
            log.append("except")
            return "handled"
        finally:
            log.append("finally")
    finally:
        log.append("outer")
        print(log)


def with_break_continue_nested(rows):
    log = []
    for row in rows:
        with CM(log, "row"):
            for v in row:
                with CM(log, str(v)):
                    if v == 0:
                        continue
                    if v < 0:
                        break
                    log.append(v)
    return log


def with_return_in_loop(xs):
    log = []

    def run():
        for x in xs:
            with CM(log, str(x)):
                if x > 5:
                    return x
        return None

    return run(), log


def with_in_try_in_loop(xs):
    log = []
    for x in xs:
        try:
            with CM(log, "w", swallow=(x == 1)):
                if x:
                    raise ValueError(x)
        except ValueError:
            log.append("caught")
            continue
        log.append("next")
    return log


def nested_function_in_loop(n):
    funcs = []
    for i in range(n):
        def f(x, i=i):
            return x * i

        def g(x):
            return x * i

        funcs.append((f, g))
    return [(f(2), g(2)) for f, g in funcs]


def class_in_loop(n):
    out = []
    for i in range(n):
        class K:
            val = i

            def get(self):
                return self.val * 2

        out.append(K().get())
    return out


def exception_escapes_handler(x):
    try:
        try:
            raise ValueError(x)
        except ValueError as e:
            raise KeyError("from handler %s" % e)
    except KeyError as e:
        return str(e), type(e.__context__).__name__


def exception_in_finally(x):
    try:
        try:
            raise ValueError("body")
        finally:
            if x:
                raise KeyError("finally")
    except Exception as e:
        return type(e).__name__, str(e)


def exception_in_else(x):
    log = []
    try:
        try:
            log.append("body")
        except KeyError:
            log.append("never")
        else:
            log.append("else")
            if x:
                raise KeyError("in else")
    except KeyError as e:
        log.append("outer " + str(e))
    return log


def generator_try_finally_close(n):
    log = []

    def g():
        try:
            for i in range(n):
                try:
                    yield i
                finally:
                    log.append("inner %d" % i)
        finally:
            log.append("outer")

    it = g()
    first = [next(it, None), next(it, None)]
    it.close()
    return first, log


def generator_break_in_consumer(n):
    log = []

    def g():
        try:
            yield from range(n)
        finally:
            log.append("gen finally")

    for v in g():
        if v == 1:
            break
        log.append(v)
    return log


def loop_in_handler(xs):
    try:
        raise ValueError("x")
    except ValueError:
        out = []
        for x in xs:
            if x is None:
                continue
            if x < 0:
                break
            out.append(x)
        else:
            out.append("all")
        return out


def while_try_else_break(n):
    log = []
    i = 0
    while True:
        try:
            i += 1
            if i > n:
                raise StopIteration
        except StopIteration:
            log.append("stop")
            break
        else:
            log.append(i)
            if i == 3:
                continue
        finally:
            log.append("f")
    return log


def try_finally_return_value_preserved(x):
    log = []

    def f():
        try:
            log.append("try")
            return x * 2
        finally:
            log.append("finally")
            x_local = 99  # noqa: F841

    return f(), log


def deep_nesting(n):
    total = 0
    for i in range(n):
        if i % 2:
            while i > 0:
                try:
                    if i == 3:
                        raise ValueError
                    with CM([], "x"):
                        total += i
                except ValueError:
                    total -= 100
                    break
                finally:
                    i -= 1
        else:
            for j in range(i):
                total += j if j % 2 else -j
    return total


def closure_in_try(x):
    try:
        f = lambda: 10 // x  # noqa: E731
        return f()
    except ZeroDivisionError:
        g = lambda: "recovered %r" % x  # noqa: E731
        return g()


def return_from_nested_loops(grid, target):
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v == target:
                return r, c
    return None


def try_except_else_in_generator(xs):
    for x in xs:
        try:
            v = 10 // x
        except ZeroDivisionError:
            yield "zero"
            continue
        except TypeError:
            return
        else:
            yield v
        finally:
            yield "f"


def conditional_return_in_with(x):
    log = []
    with CM(log, "a"):
        with CM(log, "b"):
            r = "pos" if x > 0 else "nonpos"
            if x:
                return r, log
    return "zero", log


def reraise_after_cleanup(x):
    log = []
    try:
        try:
            1 / x
        except ZeroDivisionError:
            log.append("cleanup")
            raise
    except ZeroDivisionError:
        log.append("outer")
    return log


def flag_loop_with_else_in_try(xs):
    try:
        for x in xs:
            if x == "stop":
                break
        else:
            raise LookupError("no stop")
        return "found stop"
    except LookupError as e:
        return str(e)


def mixed_and_or_in_loop_condition(xs):
    i = 0
    out = []
    while i < len(xs) and (xs[i] or i == 0) and not xs[i] == "end":
        out.append(xs[i])
        i += 1
    return out, i


CASES = {
    "break_in_try_finally": [([1, 2, -1, 3],), ([],), ([1],)],
    "continue_in_try_finally": [([1, 2, 3, 4],), ([],)],
    "return_in_try_finally_in_loop": [([1, 0, 2],), ([1, 2],)],
    "break_in_except": [([1, 0, 2],), ([5],), (["a"],)],
    "continue_in_except": [(["1", "x", "3"],), ([],), ([None],)],
    "return_in_except_with_finally": [(1,), (0,), ("a",)],
    "with_break_continue_nested": [([[1, 0, 2], [3, -1, 4]],), ([],), ([[]],)],
    "with_return_in_loop": [([1, 7, 2],), ([1],)],
    "with_in_try_in_loop": [([0, 1, 2],), ([],)],
    "nested_function_in_loop": [(3,), (0,)],
    "class_in_loop": [(3,), (0,)],
    "exception_escapes_handler": [(1,), ("q",)],
    "exception_in_finally": [(0,), (1,)],
    "exception_in_else": [(0,), (1,)],
    "generator_try_finally_close": [(3,), (1,), (0,)],
    "generator_break_in_consumer": [(3,), (1,)],
    "loop_in_handler": [([1, None, 2],), ([1, -1, 2],), ([],)],
    "while_try_else_break": [(0,), (2,), (5,)],
    "try_finally_return_value_preserved": [(2,), ("a",)],
    "deep_nesting": [(0,), (4,), (7,)],
    "closure_in_try": [(2,), (0,)],
    "return_from_nested_loops": [([[1, 2], [3, 4]], 3), ([[1]], 5), ([], 1)],
    "try_except_else_in_generator": [([1, 0, 2],), ([1, "a", 2],), ([],)],
    "conditional_return_in_with": [(1,), (0,), (-1,)],
    "reraise_after_cleanup": [(1,), (0,)],
    "flag_loop_with_else_in_try": [(["a", "stop"],), (["a"],)],
    "mixed_and_or_in_loop_condition": [([1, 2, "end", 3],), ([0, 0, 1],), ([],), ([1, 0],)],
}
