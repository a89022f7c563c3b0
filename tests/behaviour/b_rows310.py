"""Behaviour suite (branch rows310): 3.10 rows. A `break` whose way on is a copy of the code after
the loop (3.10 copies a small exit into the `break`, after the `break` line's NOP), reached by an
`or` condition whose first part jumps straight to it; `while True:` and `while c:` loops; and
`return`s written in the body beside them, which stay `return`s. A `pass` whose NOP a jump lands
on (`else: pass`, `pass` after an `if`, a dead `if 0 and m:` after a `for` loop); `while c:` whose
body ends with `break`; and the code after a `try: ... finally:` that 3.10 copies after the finally
body's copy on a way out of the body (it runs after the finally body, which may change its value).
"""


def true_or_break(n, limit):
    i = 0
    while True:
        if i >= n or i * i > limit:
            break
        i = i + 1
    return i


def cond_or_break(s):
    i, n = 0, len(s)
    out = ""
    while i < n:
        c = s[i]
        i = i + 1
        if c == '"':
            if i >= n or s[i] != '"':
                break
            i = i + 1
        out = out + c
    return out


def true_return_and_break(x):
    i = 0
    while True:
        if i == 7 or i * 2 == x:
            return -i
        if i >= x or i == 4:
            break
        i = i + 1
    return i


def or_return_in_body(items, stop):
    seen = []
    k = 0
    while True:
        if k >= len(items) or items[k] == stop:
            return seen
        seen.append(items[k] * 2)
        k += 1


def else_pass_then_code(x, flag):
    out = []
    if x > 6 or flag:
        out.append("big")
    else:
        pass
    out.append(x)
    return out


def pass_after_if_in_while(step):
    n = 0
    while n < 5:
        if step:
            n += step
        else:
            return -1
        pass
    return n


def while_cond_then_break(pos):
    seen = []
    while pos > 2:
        half = pos >> 1
        seen.append(half)
        if half % 2:
            pos = half
            continue
        break
    return pos, seen


def finally_changes_returned(x, d):
    v = 0
    if x:
        try:
            if d:
                v = x
        finally:
            v = v + 100
    return v


def finally_after_except(x):
    res = None
    try:
        res = 10 // (x - 3)
    except ZeroDivisionError:
        pass
    finally:
        res = (res or 0) + 1
    return res


def inner_true_try_else_break(items):
    seen = []
    k = 0
    while True:
        while True:
            try:
                val = items[k]
                k += 1
                if val is not None and val < 0:
                    raise KeyError(val)
            except KeyError:
                seen.append("neg")
            else:
                break
        if val is None:
            return seen, k
        seen.append(val)


CASES = {
    "true_or_break": [(0, 10), (3, 10), (10, 10), (10, 50)],
    "cond_or_break": [("abc",), ('a""b"c',), ('ab"',), ('"x',), ("",)],
    "true_return_and_break": [(0,), (3,), (8,), (14,), (20,)],
    "or_return_in_body": [([1, 2, 3], 2), ([1, 2, 3], 9), ([], 0)],
    "else_pass_then_code": [(1, False), (9, False), (1, True)],
    "pass_after_if_in_while": [(0,), (1,), (2,), (7,)],
    "while_cond_then_break": [(1,), (6,), (12,), (27,), (100,)],
    "finally_changes_returned": [(0, 0), (3, 0), (3, 1), (-5, 1)],
    "finally_after_except": [(0,), (3,), (5,)],
    "inner_true_try_else_break": [([None],), ([1, -2, 3, None],), ([-1, -1, None],), ([4],)],
}
