"""Behaviour suite (3.11+): except* with exception groups, including split groups, re-raise,
unhandled remainder, and except* in loops and with finally."""


def eg_single_type(kind):
    try:
        if kind == 0:
            raise ExceptionGroup("g", [ValueError(1), ValueError(2)])
        if kind == 1:
            raise ValueError("bare")
        result = "no error"
    except* ValueError as eg:
        result = "ValueError group of %d" % len(eg.exceptions)
    return result


def eg_split(kind):
    log = []
    try:
        try:
            raise ExceptionGroup("mixed", [ValueError("v"), TypeError("t"), KeyError("k")][: kind + 1])
        except* ValueError as eg:
            log.append(("value", [str(e) for e in eg.exceptions]))
        except* TypeError as eg:
            log.append(("type", [str(e) for e in eg.exceptions]))
    except ExceptionGroup as rest:
        log.append(("rest", [type(e).__name__ for e in rest.exceptions]))
    return log


def eg_tuple_of_types(x):
    try:
        raise ExceptionGroup("g", [KeyError(x), IndexError(x), OSError(x)])
    except* (KeyError, IndexError) as eg:
        caught = sorted(type(e).__name__ for e in eg.exceptions)
    except* OSError:
        caught2 = "os"
    return caught, caught2


def eg_reraise(x):
    try:
        try:
            raise ExceptionGroup("g", [ValueError(x)])
        except* ValueError:
            raise
    except ExceptionGroup as eg:
        return "reraised", [str(e) for e in eg.exceptions]


def eg_raise_new_in_handler(x):
    try:
        try:
            raise ExceptionGroup("g", [ValueError(x)])
        except* ValueError:
            raise KeyError("new")
    except ExceptionGroup as eg:
        return [type(e).__name__ for e in eg.exceptions]
    except KeyError as e:
        return "plain " + str(e)


def eg_with_finally(x):
    log = []
    try:
        try:
            if x:
                raise ExceptionGroup("g", [ValueError(x)])
            log.append("no raise")
        except* ValueError:
            log.append("handled")
        finally:
            log.append("finally")
    except Exception as e:
        log.append(type(e).__name__)
    return log


def eg_else(x):
    log = []
    try:
        if x:
            raise ExceptionGroup("g", [TypeError(x)])
    except* TypeError:
        log.append("except")
    else:
        log.append("else")
    return log


def eg_in_loop(xs):
    out = []
    for x in xs:
        try:
            raise ExceptionGroup("g", [ValueError(x)] if x else [KeyError(x)])
        except* ValueError:
            out.append("v%r" % x)
        except* KeyError:
            out.append("k")
    return out


def eg_nested_groups(x):
    try:
        raise ExceptionGroup("outer", [ValueError(1), ExceptionGroup("inner", [ValueError(2), TypeError(x)])])
    except* ValueError as eg:
        values = repr(eg)
    except* TypeError as eg:
        types_ = repr(eg)
    return values, types_


def eg_unmatched_propagates(x):
    try:
        raise ExceptionGroup("g", [OSError(x)])
    except* ValueError:
        print("wrong")
    return "unreachable"


def eg_naked_exception_wrapped(x):
    try:
        try:
            raise KeyError(x)
        except* KeyError as eg:
            result = type(eg).__name__, [repr(e) for e in eg.exceptions]
        return result
    except Exception as e:
        return "escaped " + type(e).__name__


CASES = {
    "eg_single_type": [(0,), (1,), (2,)],
    "eg_split": [(0,), (1,), (2,)],
    "eg_tuple_of_types": [(1,), ("s",)],
    "eg_reraise": [(1,), ("a",)],
    "eg_raise_new_in_handler": [(1,)],
    "eg_with_finally": [(0,), (1,)],
    "eg_else": [(0,), (1,)],
    "eg_in_loop": [([1, 0, 2],), ([],)],
    "eg_nested_groups": [(3,)],
    "eg_unmatched_propagates": [(1,)],
    "eg_naked_exception_wrapped": [(1,)],
}
