"""Behaviour suite (branch rows310c, session 19): 3.10 try/except statements whose except clauses
all go on to one block that the body's normal way on reaches, the code after the statement: in a
with body (managers that suppress and that do not), in a try/finally body, in `for` / `while`
loops, and in `if` arms with code after the statement in the arm. 3.10 refused them ("a block
would come out twice")."""

from managers import Sup


def with_clause_if_else_raise(xs, suppress):
    log = []
    with Sup(log, suppress):
        try:
            log.append(10 // xs[-1])
        except ZeroDivisionError as e:
            if len(xs) > 2:
                log.append(str(e))
            else:
                raise
        log.append("after try")
    return log


def with_clause_raise_then_code(xs, suppress):
    log = []
    with Sup(log, suppress):
        try:
            item = xs.pop(0)
        except IndexError:
            if suppress:
                raise
            item = None
        log.append(item)
        if item == 5:
            raise ValueError("five")
    return log


def for_clause_if_raise(xs):
    out = []
    for x in xs:
        try:
            out.append(10 // (x - 2))
        except ZeroDivisionError:
            if len(out) > 2:
                raise
        out.append(x)
    return out


def while_clause_if_raise(xs):
    out = []
    while xs:
        x = xs.pop()
        try:
            out.append(10 // (x - 1))
        except ZeroDivisionError:
            if len(xs) > 3:
                raise
            out.append("skip")
        out.append(x)
    return out


def for_with_clause_else(xs, suppress):
    log = []
    for x in xs:
        with Sup(log, suppress):
            try:
                r = 12 // x
            except ZeroDivisionError:
                if len(log) > 6:
                    pass
                else:
                    raise
            else:
                for k in (1, 2):
                    log.append(r * k)
    return log


def if_arm_clause_raise_then_code(xs):
    out = []
    if xs:
        try:
            out.append(10 // xs[1])
        except (ZeroDivisionError, IndexError) as e:
            if len(xs) > 3:
                raise
            out.append(type(e).__name__)
        out.append("arm")
    out.append("after")
    return out


def finally_body_clause_raise(xs):
    log = []
    try:
        try:
            v = 10 // (xs[-1] - 2)
        except ZeroDivisionError:
            if len(xs) < 3:
                raise
            v = -1
        log.append(v)
    except IndexError:
        log.append("empty")
    finally:
        log.append("finally")
    log.append("end")
    return log


def else_return_then_if_else(xs):
    try:
        r = 10 // xs[-1]
    except (ZeroDivisionError, IndexError):
        pass
    else:
        return r, len(xs)
    out = list(xs)
    if out and not out[-1]:
        dot = "."
        del out[-1]
    else:
        dot = ""
    return str(len(out)) + dot, len(xs)


def nested_elif_ending_arm(xs):
    if xs:
        t = str(xs.pop())
        if t != "0":
            if t == "1":
                t = "one"
            elif t == "3":
                t = "three"
    else:
        t = ""
    if len(xs) > 2:
        t = t + "!"
    return t


def continue_last_in_try_body(xs):
    out = []
    for term in xs:
        try:
            out.append(10 // (term - 1))
            continue
        except ZeroDivisionError:
            pass
        try:
            frac = 12 / term
            if frac > 5 or frac < 0:
                out.append("big")
                continue
            out.append(frac)
            continue
        except ZeroDivisionError:
            pass
        out.append(term)
    return out


def clause_try_else_continue(xs):
    out = []
    while True:
        try:
            out.append(10 // (xs.pop() - 1))
        except:
            try:
                out.append(12 // len(xs))
            except:
                out.append(xs[-1] * len(out))
            else:
                continue


CASES = {
    "with_clause_if_else_raise": [([1, 2], False), ([0], False), ([0], True), ([3, 4, 0], False)],
    "with_clause_raise_then_code": [([], False), ([], True), ([5, 1], False), ([5], True), ([2], True)],
    "for_clause_if_raise": [([],), ([1, 2, 3],), ([3, 4, 5, 2],), ([2, 2, 2, 2],)],
    "while_clause_if_raise": [([],), ([1, 2, 3],), ([1, 2, 3, 4, 5],), ([1],)],
    "for_with_clause_else": [([], False), ([1, 2], False), ([0, 3], True), ([1, 2, 3, 0], False), ([1, 2, 3, 0], True)],
    "if_arm_clause_raise_then_code": [([],), ([1],), ([1, 2],), ([1, 0],), ([1, 0, 3, 4],)],
    "finally_body_clause_raise": [([],), ([1, 2],), ([4, 2],), ([1, 1, 2],), ([3],)],
    "else_return_then_if_else": [([],), ([1, 2],), ([1, 0],), ([0, 0],)],
    "nested_elif_ending_arm": [([],), ([0],), ([1],), ([3],), ([4],), ([5, 5, 5, 1],)],
    "continue_last_in_try_body": [([],), ([1, 2, 3],), ([0, 1, 5, -4],), ([1, 0, 2],)],
    "clause_try_else_continue": [([],), ([1],), ([3, 1],), ([2, 1, 0],)],
}
