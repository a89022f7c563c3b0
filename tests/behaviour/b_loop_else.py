"""Behaviour suite: `for` / `while` loops with an `else:` part and `break` (the `else:` part runs only
when the loop ends by its test), nested in other loops, with the `else:` part returning, breaking or
continuing the enclosing loop, and loops whose `break` the compiler threads to an enclosing loop."""


def for_else_break(xs):
    for x in xs:
        if x:
            break
    else:
        xs.append(1)
    return xs


def while_else_break(xs):
    while xs:
        if xs.pop():
            break
    else:
        xs.append(1)
    return xs


def while_else_with_body_after_break(n, stop):
    out = []
    i = 0
    while i < n:
        if i == stop:
            break
        out.append(i)
        i += 1
    else:
        out.append("else")
    out.append("after")
    return out


def nested_for_else_returns(table, keys):
    for key in keys:
        for row in table:
            if key in row:
                break
        else:
            return ("missing", key)
    return True


def nested_for_else_appends(table, keys):
    out = []
    for key in keys:
        for row in table:
            if key in row:
                out.append(("found", key))
                break
        else:
            out.append(("missing", key))
    return out


def for_else_break_in_nested_if(flags):
    names = []
    for i in range(8):
        flag = 1 << i
        if flags & flag:
            names.append(flag)
            flags ^= flag
            if not flags:
                break
    else:
        names.append(hex(flags))
    return names


def for_else_continue_outer(rows):
    out = []
    for row in rows:
        for v in row:
            if v < 0:
                break
        else:
            out.append(sum(row))
            continue
        out.append("neg")
    return out


def for_else_break_outer(rows):
    out = []
    for row in rows:
        for v in row:
            if v == 0:
                break
        else:
            out.append("no zero")
            break
        out.append(row)
    return out


def for_else_raise(xs, want):
    for i, x in enumerate(xs):
        if x == want:
            break
    else:
        raise KeyError(want)
    return i


def while_true_with_else_unreachable(xs):
    out = []
    while xs:
        v = xs.pop()
        if v is None:
            break
        out.append(v)
    else:
        out.append("drained")
    return out


def for_else_in_try(xs):
    try:
        for x in xs:
            if x == 0:
                break
            1 / x
        else:
            return "all fine"
    except TypeError:
        return "type"
    return "zero"




def for_body_always_returns(d):
    for key in d:
        value = d[key]
        del d[key]
        return key, value
    raise KeyError("empty")


def for_body_returns_or_breaks(xs):
    for x in xs:
        if x:
            return x
        break
    return None


def for_else_body_returns(xs):
    for x in xs:
        return ("first", x)
    else:
        return "empty"


CASES = {
    "for_else_break": [([0, 1],), ([0, 0],), ([],)],
    "while_else_break": [([1, 0],), ([0, 0],), ([],)],
    "while_else_with_body_after_break": [(5, 2), (3, 7), (0, 0)],
    "nested_for_else_returns": [([(1, 2), (3,)], [1, 3]), ([(1,)], [1, 2]), ([], [])],
    "nested_for_else_appends": [([(1, 2), (3,)], [1, 4, 3]), ([], [1])],
    "for_else_break_in_nested_if": [(5,), (0,), (255,), (256,)],
    "for_else_continue_outer": [([[1, 2], [3, -1], []],), ([],)],
    "for_else_break_outer": [([[1, 2], [0], [3]],), ([[1], [2]],)],
    "for_else_raise": [([1, 2, 3], 2), ([1], 5), ([], 0)],
    "while_true_with_else_unreachable": [([1, None, 2],), ([1, 2],), ([],)],
    "for_else_in_try": [([1, 2],), ([1, 0],), (["a"],), ([],)],
    "for_body_always_returns": [({"a": 1, "b": 2},), ({},)],
    "for_body_returns_or_breaks": [([0, 1],), ([2],), ([],)],
    "for_else_body_returns": [([3, 4],), ([],)],
}
