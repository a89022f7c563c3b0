"""Behaviour suite: ways out of loops inside try statements, 3.11+ layouts. A `for ... else:` whose
`else:` part returns, inside `try:`, with the code after the loop reached only by `break` (3.12+
place it right after the break, across the end of the try's exception range); a `break` out of a
`for` loop through a `finally:` body, with the code after the loop copied after the iterator's pop
(read as `return`, its value would be computed before the `finally:` body ran)."""


def for_else_in_try_const(xs):
    try:
        for x in xs:
            if x == 0:
                break
            10 // x
        else:
            return "all"
    except TypeError:
        return "type"
    return "zero"


def for_else_in_try_raise(xs):
    try:
        for x in xs:
            if x is None:
                break
        else:
            raise KeyError("none missing")
        return "found"
    except KeyError as e:
        return str(e)


def break_through_finally_rebinds(xs):
    log = []
    for x in xs:
        try:
            if x < 0:
                break
            log.append(x)
        finally:
            log = log + ["f"]
    return log


def break_through_finally_len(xs):
    log = []
    for x in xs:
        try:
            if x < 0:
                break
        finally:
            log.append("f")
    return len(log)


def break_in_except_through_finally(xs):
    out = []
    for x in xs:
        try:
            out.append(10 // x)
        except ZeroDivisionError:
            out.append("z")
            break
        finally:
            out = out + ["."]
    return out


CASES = {
    "for_else_in_try_const": [([1, 2, 0],), ([1, 2],), ([],), (["a"],), ([0],)],
    "for_else_in_try_raise": [([1, None],), ([1, 2],), ([],)],
    "break_through_finally_rebinds": [([1, 2, -1, 3],), ([],), ([1],), ([-1],)],
    "break_through_finally_len": [([1, 2, -1, 3],), ([],), ([1],)],
    "break_in_except_through_finally": [([1, 0, 2],), ([5],), ([],), ([2, 5],)],
}
