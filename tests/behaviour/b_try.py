"""Behaviour suite: try/except/else/finally, raise, raise from, exception variables."""


class AppError(Exception):
    pass


class SubError(AppError):
    pass


def try_except_basic(x):
    try:
        r = 10 / x
    except ZeroDivisionError:
        r = "div by zero"
    return r


def try_except_as(x):
    try:
        return int(x)
    except ValueError as e:
        return "bad: " + str(e)


def try_except_multiple(x):
    try:
        return [1, 2, 3][x]
    except IndexError:
        return "index"
    except TypeError as e:
        return "type " + type(e).__name__


def try_except_tuple(x):
    try:
        return {"a": 1}[x] + 0
    except (KeyError, TypeError) as e:
        return type(e).__name__


def try_except_bare(f):
    try:
        return f()
    except:  # noqa: E722
        return "caught"


def try_except_else(x):
    log = []
    try:
        v = 100 // x
    except ZeroDivisionError:
        log.append("zero")
    else:
        log.append("ok %d" % v)
    return log


def try_finally(x, log):
    try:
        log.append("body")
        return 10 // x
    finally:
        log.append("finally")


def try_except_else_finally(x):
    log = []
    try:
        log.append("try")
        v = 6 // x
    except ZeroDivisionError as e:
        log.append("except " + str(e))
    except TypeError:
        log.append("type")
        raise
    else:
        log.append("else %s" % v)
    finally:
        log.append("finally")
    return log


def reraise(x):
    try:
        return 1 / x
    except ZeroDivisionError:
        raise


def raise_new_in_handler(x):
    try:
        return {}[x]
    except KeyError:
        raise ValueError("missing %r" % (x,))


def raise_from(x):
    try:
        return int(x)
    except ValueError as e:
        err = AppError("wrapped")
        raise err from e


def raise_from_none(x):
    try:
        return int(x)
    except ValueError:
        raise AppError("quiet") from None


def raise_from_check(x):
    try:
        raise_from(x)
    except AppError as e:
        return type(e.__cause__).__name__, e.__suppress_context__
    return "none"


def exception_var_cleared(x):
    e = "before"
    try:
        1 / x
    except ZeroDivisionError as e:
        pass
    try:
        return e
    except NameError:
        return "cleared"


def nested_try(x):
    try:
        try:
            r = 1 / x
        except ZeroDivisionError:
            r = int("z" + str(x))
    except ValueError as e:
        r = "outer " + str(e)[:20]
    return r


def try_in_handler(x):
    try:
        return 1 / x
    except ZeroDivisionError:
        try:
            return int(str(x) + "q")
        except ValueError:
            return "inner handled"


def handler_subclass_order(kind):
    try:
        if kind == 1:
            raise SubError("sub")
        if kind == 2:
            raise AppError("app")
        if kind == 3:
            raise KeyError("key")
        return "no error"
    except SubError as e:
        return "SubError " + str(e)
    except AppError as e:
        return "AppError " + str(e)


def finally_overrides_return(x):
    try:
        return "try"
    finally:
        if x:
            return "finally"  # noqa: B012


def finally_swallows(x):
    for _ in range(1):
        try:
            raise ValueError(x)
        finally:
            if x:
                break  # noqa: B012
    return "after"


def raise_class_and_instance(k):
    if k == 0:
        raise ValueError
    if k == 1:
        raise ValueError("msg")
    if k == 2:
        raise AppError
    return k


def exc_info_in_handler(x):
    import sys

    try:
        raise KeyError(x)
    except KeyError:
        t, v, _ = sys.exc_info()
        return t.__name__, repr(v)


def exception_context(x):
    try:
        try:
            raise ValueError(x)
        except ValueError:
            raise TypeError("second")
    except TypeError as e:
        return repr(e.__context__), e.__cause__


def try_except_in_loop(items):
    out = []
    for it in items:
        try:
            out.append(10 // it)
        except ZeroDivisionError:
            out.append("z")
            continue
        except TypeError:
            break
        out.append("+")
    return out


def try_finally_counter(n):
    count = 0
    for i in range(n):
        try:
            if i % 2:
                continue
            count += 10
        finally:
            count += 1
    return count


def except_with_condition_expr(x, errs):
    try:
        raise errs[x]
    except (errs[0] if x else KeyError):
        return "matched"
    except Exception as e:
        return "other " + type(e).__name__


def except_with_boolop_as(x, errs):
    try:
        raise errs[x]
    except (errs[0] if x else KeyError):
        return "matched"
    except (x and ValueError) or TypeError as e:
        return "other " + type(e).__name__


def assert_in_try(x):
    try:
        assert x > 0, "not positive"
        return "ok"
    except AssertionError as e:
        return "assert: " + str(e)


def handler_returns_exception(x):
    try:
        x.missing_attribute
    except AttributeError as e:
        return type(e).__name__
    return "has it"


def try_else_raises(x):
    try:
        y = x + 1
    except TypeError:
        return "type"
    else:
        if y > 5:
            raise AppError("big %d" % y)
        return y


def finally_with_exception_in_body(x):
    log = []
    try:
        try:
            log.append(1)
            if x:
                raise AppError("x")
            log.append(2)
        finally:
            log.append(3)
    except AppError:
        log.append(4)
    return log


CASES = {
    "try_except_basic": [(2,), (0,), ("a",)],
    "try_except_as": [("12",), ("x",), (None,)],
    "try_except_multiple": [(1,), (5,), ("a",), (None,)],
    "try_except_tuple": [("a",), ("b",), ([],)],
    "try_except_bare": [(lambda: 1,), (lambda: 1 / 0,), (None,)],
    "try_except_else": [(0,), (7,), ("s",)],
    "try_finally": [(2, []), (0, []), ("x", [])],
    "try_except_else_finally": [(0,), (2,), ("x",)],
    "reraise": [(1,), (0,), ("a",)],
    "raise_new_in_handler": [("a",), ([],)],
    "raise_from": [("3",), ("x",)],
    "raise_from_none": [("3",), ("x",)],
    "raise_from_check": [("3",), ("x",)],
    "exception_var_cleared": [(1,), (0,)],
    "nested_try": [(1,), (0,), ("s",)],
    "try_in_handler": [(2,), (0,), (None,)],
    "handler_subclass_order": [(0,), (1,), (2,), (3,)],
    "finally_overrides_return": [(0,), (1,)],
    "finally_swallows": [(0,), (1,)],
    "raise_class_and_instance": [(0,), (1,), (2,), (3,)],
    "exc_info_in_handler": [(1,), ("k",)],
    "exception_context": [(1,), ("z",)],
    "try_except_in_loop": [([1, 0, 2],), ([1, None, 2],), ([],)],
    "try_finally_counter": [(0,), (3,), (6,)],
    "except_with_condition_expr": [(0, [KeyError, ValueError]), (1, [KeyError, ValueError]), (0, [TypeError])],
    "except_with_boolop_as": [(0, [KeyError, ValueError]), (1, [KeyError, ValueError]), (0, [TypeError]),
                              (1, [OSError, ValueError]), (2, [OSError, ValueError, TypeError]),
                              (0, [ValueError])],
    "assert_in_try": [(1,), (-1,), ("s",)],
    "handler_returns_exception": [(1,), (AppError(),)],
    "try_else_raises": [(1,), (9,), ("s",)],
    "finally_with_exception_in_body": [(0,), (1,)],
}
