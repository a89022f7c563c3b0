"""Behaviour suite: expression-level control flow and comprehensions of the shapes 3.11-3.14
compile in ways of their own: chained comparisons whose last test jumps on `is None` / `is not
None` (3.14 POP_JUMP_IF_NOT_NONE), whose false arm 3.14 copies after the cleanup's POP_TOP (an
`assert` / a small `return`), and chained comparisons inside an inlined comprehension's `if`
(3.12+, where an exception range splits the test). The operands of some log their evaluation
into the list argument, so a decompiled version that evaluates one twice or out of order gives a
different result."""


def t(log, v):
    log.append(v)
    return v


def chain_is_none(a, b, c):
    if a is b is c is None:
        return 1
    return 2


def chain_is_not_none(a, b, c):
    if a is b is not None:
        return c
    return 2


def chain_assert(a, b):
    assert 0 <= a < b, "x"
    return a


def chain_assert_logged(a, b, log):
    assert t(log, 0) <= t(log, a) < t(log, b), "out of range"
    return log


def chain_in_listcomp(xs, m):
    return [x for x in xs if 0 < x < m]


def chain_two_in_listcomp(xs, m, n):
    return [x for x in xs if 0 <= x < m and 0 <= x + 1 < n]


def chain_in_elif(res, a, items):
    while items:
        if res == 1:
            break
        elif a <= res < a + len(items):
            res -= a
        items = items[1:]
    return res


def any_over_listcomp(a, b, n):
    return any(p in a for p in [b[i:i + n + 1] for i in range(0, len(b) - n - 1)])


def all_over_ifexp(xs, ys, flag):
    return all(x in ys for x in (xs if flag else ys))


def tuple_over_listcomp(xs):
    return tuple(x * 2 for x in [y for y in xs if y])


class _Ctx:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("enter")

    def __exit__(self, *exc):
        self.log.append("exit")


def all_in_with_in_loop(items, hexd, log):
    for n in items:
        with _Ctx(log):
            log.append(all(c in hexd for c in n))
    return log


def tuple_in_try(v):
    x = None
    if v:
        try:
            x = tuple(int(i) for i in v.split("."))
        except ValueError:
            x = ()
    return x


def return_through_finally_if(n, func, log):
    try:
        for i in range(n):
            result = func(i)
        return result
    finally:
        if n > 1:
            log.append(n)
        log.append("done")


def return_call_through_finally_if(n, log):
    try:
        return t(log, n * 2)
    finally:
        if n > 1:
            log.append(n)
        else:
            log.append(-n)
        log.append("done")


def return_name_changed_in_finally(x, log):
    try:
        return x
    finally:
        if x:
            x = 5
            log.append(x)


def return_attr_through_finally(box, log):
    try:
        return box.value
    finally:
        if box.value:
            box.value = None
        log.append("done")


class _Box:
    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return "_Box(%r)" % (self.value,)


def return_through_finally_try(waiter, ok):
    gotit = False
    try:
        if waiter is None:
            gotit = True
        elif waiter <= 0:
            gotit = ok
        else:
            gotit = not ok
        return gotit
    finally:
        if not gotit:
            try:
                ok.remove(waiter)
            except (ValueError, AttributeError):
                pass


def unpack_dropped_store(rows, code):
    for op, dummy, dummy in rows:
        if op == code:
            return dummy
    return None


def unpack_two_dropped(entries):
    out = []
    for start, end, target, _, _ in entries:
        out.append((start, end, target, _))
    return out


def unpack_dropped_in_genexpr(rows):
    return any(v == 3 for _, _, v in rows)


def unpack_dropped_assign(row):
    a, b, a = row
    return a, b


def unpack_dropped_starred(row):
    # 3.13+ drop all but the last store of `_`, the starred one too
    _, *_, _ = row
    first, *_, _ = row
    return _, first


class _F:
    def __init__(self, compare, hash):
        self.compare = compare
        self.hash = hash

    def __repr__(self):
        return "_F(%r, %r)" % (self.compare, self.hash)


def ifexp_condition(f):
    if f.compare if f.hash is None else f.hash:
        return 1
    return 2


def ifexp_condition_in_loop(fields):
    out = []
    for f in fields:
        if f.compare if f.hash is None else f.hash:
            out.append(f)
    return out


def ifexp_condition_in_listcomp(fields):
    return [f for f in fields if (f.compare if f.hash is None else f.hash)]


def or_in_setcomp(items, g):
    return sorted({h for h in items if h & 3 != 3 or g(h) != 2})


def or_not_in_listcomp(xs, m):
    return [e for e in xs if not e.startswith("_") or m(e)]


def or_in_genexpr(items, value):
    return sum(1 for v in items if v is value or v == value)


def try_else_clauses_leave(mapping, key, value):
    try:
        v = mapping[key]
    except KeyError:
        return False
    else:
        return v is value or v == value


def try_after_clauses_leave(mapping, key, value):
    try:
        v = mapping[key]
    except KeyError:
        return False
    return v is value or v == value


def try_else_in_if(size):
    if size is None:
        size = -1
    else:
        try:
            size_index = size.__index__
        except AttributeError:
            raise TypeError("not an integer")
        else:
            size = size_index()
    return size


CASES = {
    "chain_is_none": [(None, None, None), (1, 1, None), (None, None, 2), (1, 2, 3)],
    "chain_is_not_none": [(None, None, 3), (1, 1, 3), (1, 2, 3)],
    "chain_assert": [(0, 1), (1, 1), (-1, 1), (2, 5)],
    "chain_assert_logged": [(0, 1, []), (1, 1, []), (-1, 1, [])],
    "chain_in_listcomp": [([0, 1, 2, 3, 4], 3), ([], 1), ([5, -1], 9)],
    "chain_two_in_listcomp": [([0, 1, 2, 3, 4], 3, 3), ([0, 1, 2], 9, 2)],
    "chain_in_elif": [(5, 2, [1, 2, 3]), (1, 2, [1]), (9, 1, [1, 2])],
    "any_over_listcomp": [("abcd", "bc", 1), ("abcd", "xy", 0), ("", "", 0)],
    "all_over_ifexp": [([1, 2], [1, 2, 3], True), ([1, 5], [1, 2], True), ([], [4], False)],
    "tuple_over_listcomp": [([0, 1, 2],), ([],)],
    "all_in_with_in_loop": [(["ab", "xz"], "abcdef", []), ([], "a", [])],
    "tuple_in_try": [("1.2.3",), ("1.x",), ("",)],
    "return_through_finally_if": [(3, str, []), (1, str, []), (0, str, [])],
    "return_call_through_finally_if": [(3, []), (0, [])],
    "return_name_changed_in_finally": [(0, []), (2, [])],
    "return_attr_through_finally": [(_Box(1), []), (_Box(0), [])],
    "unpack_dropped_store": [([(1, 2, 3), (4, 5, 6)], 4), ([], 1), ([(1, 2, 3)], 9)],
    "unpack_two_dropped": [([(1, 2, 3, 4, 5), (6, 7, 8, 9, 10)],), ([],)],
    "unpack_dropped_in_genexpr": [([(1, 2, 3)],), ([(1, 2, 4)],), ([],)],
    "unpack_dropped_assign": [((1, 2, 3),), ("abc",)],
    "unpack_dropped_starred": [((1, 2, 3),), ("abcd",), ([1, 2],), ((1,),)],
    "ifexp_condition": [(_F(1, None),), (_F(0, None),), (_F(1, 0),), (_F(0, 2),)],
    "ifexp_condition_in_loop": [([_F(1, None), _F(0, None), _F(1, 0), _F(0, 2)],)],
    "ifexp_condition_in_listcomp": [([_F(1, None), _F(0, None), _F(1, 0), _F(0, 2)],)],
    "or_in_setcomp": [([1, 3, 7, 11, 4], abs), ([3, 7], lambda h: 2)],
    "or_not_in_listcomp": [(["_a", "b", "__c__"], lambda e: e.endswith("_")), ([], str)],
    "or_in_genexpr": [([1, 2, 1.0, "1"], 1), ([], 0)],
    "try_else_clauses_leave": [({1: 2}, 1, 2), ({1: 2}, 3, 2), ({1: 2}, 1, 5)],
    "try_after_clauses_leave": [({1: 2}, 1, 2), ({1: 2}, 3, 2), ({1: 2}, 1, 5)],
    "try_else_in_if": [(None,), (3,), ("x",)],
    "return_through_finally_try": [(None, [1]), (0, []), (-1, [-1]), (3, [3])],
}
