"""Behaviour suite: if/elif/else, while and for with else, break, continue, nested loops."""


def if_chain(x):
    if x > 10:
        return "big"
    elif x > 5:
        return "medium"
    elif x == 5:
        return "five"
    else:
        return "small"


def if_no_else(x):
    out = []
    if x:
        out.append("truthy")
    if not x:
        out.append("falsy")
    if x and x > 2:
        out.append("gt2")
    if x or x == 0:
        out.append("or")
    return out


def if_nested(a, b):
    if a:
        if b:
            r = 1
        else:
            r = 2
    else:
        if b:
            r = 3
        else:
            r = 4
    return r


def if_complex_condition(a, b, c):
    if (a and b) or (not a and c):
        return "first"
    if a and (b or c):
        return "second"
    if not (a or b or c):
        return "none"
    return "other"


def while_simple(n):
    total = 0
    i = 0
    while i < n:
        total += i * i
        i += 1
    return total, i


def while_else(n, stop):
    i = 0
    while i < n:
        if i == stop:
            break
        i += 1
    else:
        return "exhausted", i
    return "broke", i


def while_true_break(n):
    steps = 0
    while True:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
        if n <= 1:
            break
    return steps


def while_continue(n):
    out = []
    while n > 0:
        n -= 1
        if n % 3 == 0:
            continue
        out.append(n)
    return out


def while_else_continue(items):
    i = 0
    seen = []
    while i < len(items):
        v = items[i]
        i += 1
        if v is None:
            continue
        if v < 0:
            break
        seen.append(v)
    else:
        seen.append("done")
    return seen


def for_simple(xs):
    acc = 0
    for x in xs:
        acc = acc * 2 + x
    return acc


def for_else(xs, target):
    for i, x in enumerate(xs):
        if x == target:
            result = i
            break
    else:
        result = -1
    return result


def for_continue_break(xs):
    out = []
    for x in xs:
        if x % 2:
            continue
        if x > 10:
            break
        out.append(x)
    else:
        out.append("end")
    return out


def for_nested_break(rows):
    found = None
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            if v == 0:
                found = (r, c)
                break
        else:
            continue
        break
    return found


def for_unpack_target(pairs):
    out = {}
    for k, (a, b) in pairs:
        out[k] = a - b
    return out


def for_star_target(rows):
    out = []
    for first, *rest in rows:
        out.append((first, len(rest)))
    return out


def for_attr_target(xs):
    class Box:
        pass

    b = Box()
    seen = []
    for b.value in xs:
        seen.append(b.value * 2)
    return seen, getattr(b, "value", None)


def for_subscript_target(xs):
    d = {}
    for d["k"] in xs:
        pass
    return d


def for_range_step(a, b, s):
    return [i for i in range(a, b, s)], sum(i for i in range(a, b, s))


def loop_var_after(xs):
    for x in xs:
        pass
    return x


def nested_loops_else(n):
    out = []
    for i in range(n):
        for j in range(n):
            if i * j > 6:
                break
            out.append(i * j)
        else:
            out.append(-i)
    return out


def while_with_for(n):
    out = []
    while n:
        for k in range(n):
            if k == 2:
                break
            out.append((n, k))
        n -= 1
    return out


def empty_loop_bodies(n):
    for _ in range(n):
        pass
    i = n
    while i > 0:
        i -= 1
    return i


def loop_return_inside(xs, limit):
    for x in xs:
        while x > 0:
            if x == limit:
                return "hit", x
            x -= 3
    return "miss"


def while_condition_and_or(a, b):
    steps = []
    while a > 0 and (b > 0 or a % 2 == 0):
        steps.append((a, b))
        a -= 1
        b -= 2
    return steps


def for_over_dict(d):
    keys = []
    for k in d:
        keys.append(k)
    vals = []
    for k, v in d.items():
        vals.append((v, k))
    return keys, vals


def loop_else_return(xs):
    for x in xs:
        if x < 0:
            break
    else:
        return "all non-negative"
    return "negative found: %r" % (x,)


def if_pass_elif(x):
    if x < 0:
        pass
    elif x == 0:
        x = 100
    else:
        x = -x
    return x


CASES = {
    "if_chain": [(11,), (6,), (5,), (1,), ("a",)],
    "if_no_else": [(0,), (1,), (3,), ("",), (None,)],
    "if_nested": [(0, 0), (0, 1), (1, 0), (1, 1)],
    "if_complex_condition": [(1, 1, 0), (0, 0, 1), (1, 0, 1), (0, 0, 0), (1, 0, 0), (0, 1, 0)],
    "while_simple": [(0,), (5,), (-1,), ("x",)],
    "while_else": [(5, 2), (5, 10), (0, 0), (3, 3)],
    "while_true_break": [(6,), (7,), (1,), (27,)],
    "while_continue": [(10,), (0,), (4,)],
    "while_else_continue": [([1, None, 2],), ([1, -1, 2],), ([],), ([None, None],), ([1, "a"],)],
    "for_simple": [([1, 0, 1],), ([],), ([1, "x"],), (5,)],
    "for_else": [([3, 4, 5], 4), ([3, 4, 5], 9), ([], 1)],
    "for_continue_break": [([1, 2, 3, 4, 12, 6],), ([2, 4, 6],), ([],), ([None],)],
    "for_nested_break": [([[1, 2], [3, 0]],), ([[1], [2]],), ([],), ([[0]],)],
    "for_unpack_target": [([("a", (3, 1)), ("b", (1, 1))],), ([("a", (1,))],), ([],)],
    "for_star_target": [([[1, 2, 3], [4]],), ([[]],), ([],)],
    "for_attr_target": [([1, 2, 3],), ([],)],
    "for_subscript_target": [([1, 2],), ([],)],
    "for_range_step": [(0, 10, 3), (10, 0, -2), (0, 5, 0)],
    "loop_var_after": [([1, 2],), ([],), ("ab",)],
    "nested_loops_else": [(0,), (3,), (5,)],
    "while_with_for": [(0,), (2,), (4,)],
    "empty_loop_bodies": [(0,), (3,), (-2,)],
    "loop_return_inside": [([7, 8], 4), ([7, 8], 5), ([], 1), ([3], 0)],
    "while_condition_and_or": [(4, 3), (3, 0), (0, 5), (6, -1)],
    "for_over_dict": [({"a": 1, "b": 2},), ({},), ([1],)],
    "loop_else_return": [([1, 2],), ([1, -2, 3],), ([],)],
    "if_pass_elif": [(-1,), (0,), (5,), ("s",)],
}
