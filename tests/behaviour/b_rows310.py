"""Behaviour suite (branch rows310): 3.10 rows. A `break` whose way on is a copy of the code after
the loop (3.10 copies a small exit into the `break`, after the `break` line's NOP), reached by an
`or` condition whose first part jumps straight to it; `while True:` and `while c:` loops; and
`return`s written in the body beside them, which stay `return`s.
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


CASES = {
    "true_or_break": [(0, 10), (3, 10), (10, 10), (10, 50)],
    "cond_or_break": [("abc",), ('a""b"c',), ('ab"',), ('"x',), ("",)],
    "true_return_and_break": [(0,), (3,), (8,), (14,), (20,)],
    "or_return_in_body": [([1, 2, 3], 2), ([1, 2, 3], 9), ([], 0)],
}
