"""Behaviour suite: shapes in which a block would come out twice on 3.11-3.14 (branch twice312): a
loop whose body raises inside an `if` arm that the code goes on after (a `for` in an `else:` arm,
a `while` in an `elif` arm, the other arm returning), and chained comparisons after a plain test
(`a and 0 <= x < n`, `a or 0 < x < n`, `not a and -5 < x < 0`) followed by `elif`, an except
clause's `if` / `elif` arms of `pass` inside an `if` arm."""


def for_raise_in_else_arm(d, sort_keys, skipkeys):
    items = list(d)
    if sort_keys:
        if skipkeys:
            items = [k for k in items if isinstance(k, int)]
            items.sort()
        else:
            for key in d:
                if not isinstance(key, int):
                    raise TypeError("keys must be ints")
            items = sorted(items)
    return items


def while_raise_in_elif_arm(xs, block, timeout, down):
    log = []
    if len(xs) > 0:
        if not block:
            if len(xs) >= 3:
                raise KeyError("full")
        elif timeout is None:
            while len(xs) >= 2:
                log.append(xs.pop())
                if down:
                    raise ValueError("down")
        else:
            log.append(timeout)
    log.append("put")
    return log


def for_raise_other_arm_returns(d, a, b):
    n = 0
    if a:
        if b:
            n = 1
        else:
            for k in d:
                if not k:
                    raise ValueError(k)
            n = 2
    return n


def chain_after_test_then_elif(sel, items):
    new = items
    if isinstance(sel, str):
        new = [x for x in items if str(x) == sel]
    else:
        count = len(items)
        if isinstance(sel, float) and 0.0 <= sel < 1.0:
            count = int(count * sel + 0.5)
            new = items[:count]
        elif isinstance(sel, int) and 0 <= sel < count:
            count = sel
            new = items[:count]
    n = 0
    if len(items) != len(new):
        n += 1
    return new, n


def chain_or_then_elif(a, x, n):
    if a or 0 < x <= n < 10:
        r = "first"
    elif not a and -5 < x < 0:
        r = "second"
    else:
        r = "none"
    if r != "none":
        r += "!"
    return r


def chain_or_returns(a, x, n):
    if a or 0 < x < 10:
        r = "first"
    elif n:
        r = "second"
    else:
        r = None
    return r


def clause_elif_pass_in_if_arm(xs, a):
    log = []
    if a:
        try:
            log.append(10 // len(xs))
            return log
        except ZeroDivisionError as exc:
            if "division" in str(exc) and a > 1:
                pass
            elif a == 1:
                pass
            else:
                raise
    log.append("after")
    return log


CASES = {
    "for_raise_in_else_arm": [
        ([3, 1, 2], 0, 0), ([3, 1, 2], 1, 0), ([3, 1, 2], 1, 1), ([3, "s", 2], 1, 0), ([3, "s"], 1, 1),
    ],
    "while_raise_in_elif_arm": [
        ([], True, None, False), ([1, 2, 3], False, None, False), ([1, 2], False, None, False),
        ([1, 2, 3], True, None, False), ([1, 2, 3], True, None, True), ([1, 2, 3], True, 5, True),
    ],
    "for_raise_other_arm_returns": [
        ([1, 2], 0, 0), ([1, 2], 1, 1), ([1, 2], 1, 0), ([1, 0], 1, 0), ([], 1, 0),
    ],
    "chain_after_test_then_elif": [
        ("1", [1, 2, 3]), (0.5, [1, 2, 3, 4]), (1.5, [1, 2]), (0, [1, 2]), (2, [1, 2, 3]),
        (9, [1, 2]), (-1, [1]), (None, [1, 2]),
    ],
    "chain_or_then_elif": [
        (0, -7, 3), (0, -3, 3), (0, 0, 3), (0, 2, 3), (0, 5, 3), (1, -3, 3), (0, 2, 12),
    ],
    "chain_or_returns": [(0, 5, 0), (1, 50, 0), (0, 50, 1), (0, -1, 0), (0, 10, 0)],
    "clause_elif_pass_in_if_arm": [([], 0), ([], 1), ([], 2), ([], -1), ([1, 2], 1)],
}
