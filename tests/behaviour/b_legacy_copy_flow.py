"""Behaviour suite: ≤3.10 shapes of code the compiler copies where a try body is left.

`return v` through a `finally:` body that holds an `if` (v waits on the stack under the copy, whose
arms join before RETURN_VALUE); a `return` out of nested `except ... as` clauses (each clause's
unbinding copied on the way out, the normal path dead); `break` / `continue` / `return` in an except
clause inside try/finally (the finally body copied after the clause's POP_EXCEPT).
"""


class Rec:
    def __init__(self, value):
        self.value = value
        self.seen = []


def ret_call_finally_if_else(n, log):
    try:
        return len(log) + n
    finally:
        if n > 2:
            log.append("big")
        elif n < 0:
            log.append("neg")
        else:
            log.append("small")
        log.append("end")


def ret_attr_finally_if(rec, flag):
    try:
        return rec.value * 2
    finally:
        if flag:
            rec.seen.append(rec.value)
            rec.value = 0
        rec.seen.append("f")


def ret_after_loop_finally_if(xs, log):
    total = 0
    try:
        for x in xs:
            total += 10 // x
        return total
    finally:
        if total > 5:
            log.append(total)
        log.append(len(xs))


def ret_nested_as(d, k):
    try:
        return d[k]
    except KeyError as first:
        try:
            return d[k * 2]
        except KeyError as second:
            return (str(first), str(second))


def ret_nested_as_three(d, k):
    try:
        return d[k]
    except KeyError as a:
        try:
            return d[k + 1]
        except KeyError as b:
            try:
                return d[k + 2]
            except KeyError as c:
                return [a.args, b.args, c.args]


def break_in_clause_finally(xs):
    out = []
    for x in xs:
        try:
            out.append(100 // x)
        except ZeroDivisionError:
            out.append("zero")
            break
        except TypeError:
            out.append("type")
            continue
        finally:
            out.append("f")
        out.append("next")
    return out


def return_in_clause_finally(xs, log):
    for x in xs:
        try:
            log.append(x + 1)
        except TypeError:
            return None
        finally:
            log.append("f")
    return log


CASES = {
    "ret_call_finally_if_else": [(3, []), (-1, [1]), (0, [1, 2]), (1, None)],
    "ret_attr_finally_if": [(Rec(3), True), (Rec(4), False), (Rec("a"), True), (Rec(None), False)],
    "ret_after_loop_finally_if": [([1, 2], []), ([1, 0], []), ([], []), ([5, 5], [])],
    "ret_nested_as": [({1: "a"}, 1), ({2: "b"}, 1), ({}, 3), ({}, [1])],
    "ret_nested_as_three": [({1: 1}, 1), ({2: 2}, 1), ({3: 3}, 1), ({}, 1), ({}, "x")],
    "break_in_clause_finally": [([1, 0, 2],), ([],), ([5, "a", 2],), ([1, 2],)],
    "return_in_clause_finally": [([1, 2], []), ([1, "a", 3], []), ([], [])],
}
