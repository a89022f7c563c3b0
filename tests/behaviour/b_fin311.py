"""Behaviour suite: try/finally shapes of branch fin311. A `raise` inside a try body inside
`while True:` (the loop's only way out), a `finally:` body ending with `if/elif/else` at the end of
a function (the implicit `return None` copied into the arms of the normal path's copy on 3.12+),
`try: if c: raise ... finally:` in the first arm of an if/elif (the normal path's copy jumping past
the whole `if`)."""


def raise_in_finally_try_in_while_true(xs):
    log = []
    xs = list(xs) + [0]
    try:
        while True:
            try:
                x = xs.pop(0)
                if x == 0:
                    raise ValueError(len(log))
                log.append(x)
            finally:
                log.append("f")
    except ValueError as e:
        return log, str(e)


def raise_in_nested_try_in_while_true(xs):
    log = []
    xs = list(xs) + [0]
    try:
        while True:
            try:
                try:
                    x = xs.pop(0)
                    if x == 0:
                        raise KeyError(x)
                    log.append(x)
                finally:
                    log.append("inner")
            finally:
                log.append("outer")
    except KeyError:
        return log


def _restore(log, x, missing):
    try:
        log.append(10 // x)
    finally:
        if x is missing:
            log.append("missing")
        else:
            log.append(x)


def finally_if_else_at_end(x):
    log = []
    try:
        _restore(log, x, None)
    except Exception as e:
        log.append(type(e).__name__)
    return log


def finally_if_elif_else_at_end(log, x):
    try:
        log.append(10 // x)
    finally:
        if x is None:
            log.append("none")
        elif x > 2:
            log.append("big")
            log.append(x)
        else:
            log.append("small")


def finally_in_if_arm_raise(log, x, y):
    if x:
        try:
            if x > 2:
                raise ValueError(x)
        finally:
            x = None
    elif y is not None:
        raise KeyError(y)
    log.append((x, y))
    return log


CASES = {
    "raise_in_finally_try_in_while_true": [([1, 2],), ([],), ([3, 0, 4],)],
    "raise_in_nested_try_in_while_true": [([1, 2],), ([],), ([5],)],
    "finally_if_else_at_end": [(2,), (0,), (None,), ("a",)],
    "finally_if_elif_else_at_end": [([], 2), ([], 5), ([], 0), ([], None)],
    "finally_in_if_arm_raise": [([], 1, None), ([], 3, None), ([], 0, 4), ([], 0, None)],
}
