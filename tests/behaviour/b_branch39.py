"""Behaviour suite: ≤3.9 `if` / `try` ends the compiler's kept jumps say (branch branch39). An
`if` whose body ends with `raise` / `break` / `continue` right before the code after it has no
`else:`; a try statement whose clauses all leave has an `else:` part where their dead way out
jumps past it; `else: pass`; a loop body's last arm ending with its own `continue`."""


def loop_if_raise_then_code(limit, bad):
    n = 0
    seen = []
    while n < limit:
        n += 1
        if n > 2:
            if n == bad:
                raise ValueError(n)
            seen.append(("big", n))
        seen.append(n)
    return seen


def nested_raise_tail(n, scale):
    if n >= 0:
        if n * scale > 8:
            raise IndexError("big")
        return n * scale
    else:
        n += 1
        if n * scale < -8:
            raise IndexError("small")
        return n - scale


def continue_then_raise(items, skip):
    out = []
    for k in items:
        if not isinstance(k, int):
            if skip:
                continue
            raise TypeError(k)
        out.append(k)
    return out


def nested_break_no_else(limit, stop):
    n = 0
    for i in range(limit):
        if i % 2:
            if i == stop:
                break
            if i > 6:
                n = -i
                break
        n += i
    return n


def try_else_clause_breaks(table, keys):
    out = []
    for k in keys:
        if k is None:
            break
        try:
            v = table[k]
        except KeyError:
            break
        else:
            if isinstance(v, list):
                out.extend(v)
            else:
                out.append(v)
    return out


def try_else_clause_raises(table, key):
    if key:
        try:
            found = table[key]
        except KeyError:
            raise LookupError(key) from None
        else:
            for name in found:
                table[name] = key
    else:
        raise ValueError("no key")
    return sorted(table)


def else_pass(a, b):
    if a == b:
        b = a + 1
    else:
        pass
    return b


def last_arm_continues(items):
    items = list(items)
    out = []
    while True:
        if not items:
            return out
        w = items.pop()
        if w % 3:
            out.append(w)
        else:
            out.append(-w)
            continue


CASES = {
    "loop_if_raise_then_code": [(5, 9), (6, 4), (0, 1), (3, 3)],
    "nested_raise_tail": [(1, 2), (5, 2), (-3, 1), (-12, 1), (0, 0)],
    "continue_then_raise": [([1, "a", 2], True), ([1, "a", 2], False), ([], False), ([3, 4], False)],
    "nested_break_no_else": [(10, 3), (10, 20), (3, 1), (0, 0), (12, 11)],
    "try_else_clause_breaks": [({1: 2, 2: [3, 4]}, [1, 2, 5, 1]), ({1: 1}, [1, None, 1]), ({}, [])],
    "try_else_clause_raises": [({"a": ["b", "c"]}, "a"), ({"a": []}, "b"), ({}, "")],
    "else_pass": [(1, 1), (1, 2), (0, 0)],
    "last_arm_continues": [([1, 2, 3, 6, 7],), ([],), ([3],)],
}
