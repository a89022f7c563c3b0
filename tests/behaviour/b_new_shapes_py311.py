"""Behaviour suite: shapes 3.11 lays out without copying a small exit block into each arm.

A conditional expression tested for truth whose arms jump opposite ways (`if (a if b else not a):`:
the first arm jumps on false, the second, a `not`, on true, to the same place); a chained
comparison as the test of a conditional expression that computes a value (`x if a < b < c else
y`: the cleanup of the kept middle operand goes to the `else` value, the arms meet at one merge
carrying the value); code after a try statement that is itself a try, copied (3.13+) into each
except clause under the one handler the normal path's copy has too; a with statement whose body
never completes normally followed by more code, which 3.11 lays out in the same block as the
suppressed path's pops (run with context managers that suppress the exception and that do not)."""


class Gate:
    def __init__(self, log, suppress):
        self.log = log
        self.suppress = suppress

    def __enter__(self):
        self.log.append("enter")
        return self.log

    def __exit__(self, typ, val, tb):
        self.log.append("exit" if typ is None else "exit " + typ.__name__)
        return self.suppress


def ifexp_test_not_arm(a, b):
    if (a if b else not a):
        return "then"
    return "else"


def ifexp_test_not_first(a, b, c):
    if (not a if b else c):
        return "then"
    return "else"


def ifexp_test_not_arm_body(a, b, log):
    if (a if b else not a):
        log.append("t")
    else:
        log.append("f")
    log.append("end")
    return log


def ifexp_test_not_arm_while(n, m):
    out = []
    while (n if m else not n):
        out.append(n)
        n -= 1
        if len(out) > 5:
            break
    return out


def ifexp_test_negated(a, b):
    if not (a if b else not a):
        return "then"
    return "else"


def chain_ifexp_and(x):
    return "mid" if 0 < x < 10 and x != 5 else "out"


def chain_ifexp_plain(x, lo, hi):
    return "in" if lo <= x < hi else "out"


def chain_ifexp_three(a, b, c, d):
    return [a, d] if a < b < c < d else None


def chain_ifexp_assign(x, y):
    z = x if 0 <= x < y else y
    return z * 2


def with_return_then_code(x, suppress):
    log = []
    with Gate(log, suppress):
        return log, 10 // x
    log.append("suppressed")
    return log, None


def with_as_raise_then_code(x, suppress):
    with Gate([], suppress) as log:
        raise ValueError(x)
    log.append(x)
    if x:
        return log
    return "no x"


def with_nested_never_completes(x, s1, s2):
    log = []
    with Gate(log, s1):
        with Gate(log, s2):
            return 10 // x
        log.append("inner")
    log.append("outer")
    return log


def with_never_completes_in_loop(xs, suppress):
    log = []
    for x in xs:
        with Gate(log, suppress):
            return 10 // x, log
        log.append(x)
    return log


def with_never_completes_try(x, suppress):
    log = []
    try:
        with Gate(log, suppress):
            return 10 // x
        log.append("after")
    except ZeroDivisionError:
        log.append("caught")
    return log


CASES = {
    "ifexp_test_not_arm": [(1, 1), (0, 1), (1, 0), (0, 0), ([], "x"), ("s", "")],
    "ifexp_test_not_first": [(1, 1, 0), (0, 1, 0), (1, 0, 1), (0, 0, 0), (0, 0, [1])],
    "ifexp_test_not_arm_body": [(1, 1, []), (0, 1, []), (1, 0, []), (0, 0, [])],
    "ifexp_test_not_arm_while": [(3, 1), (0, 1), (3, 0), (0, 0), (-2, 1)],
    "ifexp_test_negated": [(1, 1), (0, 1), (1, 0), (0, 0)],
    "chain_ifexp_and": [(-1,), (0,), (3,), (5,), (9,), (10,), (11,), (4.5,)],
    "chain_ifexp_plain": [(1, 0, 2), (0, 0, 2), (2, 0, 2), (-1, 0, 2), (1, 2, 0)],
    "chain_ifexp_three": [(1, 2, 3, 4), (1, 3, 2, 4), (4, 3, 2, 1), (1, 2, 3, 3)],
    "chain_ifexp_assign": [(1, 3), (3, 3), (-1, 3), (0, 0)],
    "clause_copy_try_name": [(1,), (0,), ("a",)],
    "clause_copy_try_plain": [(2, 5), (0, 5), (0, None), ("a", 1)],
    "clause_copy_try_two": [("3",), ("x",), (None,), (4.5,)],
    "clause_copy_try_attr": [([1],), (3,), ("ab",)],
    "with_return_then_code": [(1, False), (0, True), (0, False), (2, True)],
    "with_as_raise_then_code": [(1, True), (0, True), (1, False)],
    "with_nested_never_completes": [(1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 1, 1), (0, 0, 0)],
    "with_never_completes_in_loop": [([1], 0), ([0, 2], 1), ([0, 0], 1), ([0], 0), ([], 1)],
    "with_never_completes_try": [(1, 0), (0, 1), (0, 0)],
}


def clause_copy_try_name(x):
    e = "before"
    try:
        1 / x
    except ZeroDivisionError as e:
        pass
    try:
        return e
    except NameError:
        return "cleared"


def clause_copy_try_plain(x, y):
    try:
        r = 10 // x
    except ZeroDivisionError:
        r = y
    try:
        return r
    except NameError:
        return "unbound"


def clause_copy_try_two(x):
    try:
        v = int(x)
    except ValueError:
        pass
    except TypeError:
        v = -1
    try:
        return v
    except UnboundLocalError:
        return "unset"


def clause_copy_try_attr(o):
    try:
        n = o.count
    except AttributeError:
        n = 0
    try:
        return n
    finally:
        o = None
