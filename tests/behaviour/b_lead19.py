"""Behaviour suite (session 19, lead): shapes of the stdlib rows the 3.10 sweep still missed.
First, comprehensions whose last condition is a constant false: 3.10+ drop the element (and the
test), so the loop only stores its target (test_grammar's testGenexps). Then, ≤3.10: `return` from
an except clause in a with body (test_smtpnet); `if c: return v` then `raise` ending a try body or
an except clause (socket, asyncore, crypt: read as `if not c: raise` with the return after the
statement); two lambdas alike on different lines (two code objects, merged when printed on one
line: observable as `__code__` identity)."""

from managers import Sup


def comp_if_false(xs):
    a = [y for y in xs if False]
    b = {y for y in xs if False}
    c = {y: y for y in xs if False}
    d = list(y for y in xs if False)
    return a, b, c, d


def nested_genexp_if_false(n):
    # the inner generator is still consumed: a bad iterable raises
    return sum(x for x in (y for y in (z for z in range(n) if True) if False) if True)


def comp_if_false_tuple_target(pairs):
    return [k for k, v in pairs if False], [v for k, v in pairs]


def clause_return_in_with(xs, suppress):
    log = []
    with Sup(log, suppress):
        try:
            v = 10 // xs[0]
        except (ZeroDivisionError, IndexError):
            return False, log
        else:
            log.append(v)
            return True, log


def return_then_raise_in_finally(xs):
    log = []
    try:
        if len(xs) > 2:
            return xs[0], log
        raise ValueError(len(xs))
    finally:
        log.append("fin")


def return_then_raise_in_clause(xs):
    try:
        return 10 // xs[0]
    except (ZeroDivisionError, IndexError) as e:
        if len(xs) > 2:
            return str(e)
        raise


def lambdas_apart(x):
    fs = (lambda a: a + 1,
          lambda a: a + 1)
    return [f(x) for f in fs], fs[0].__code__ is fs[1].__code__


def lambdas_together(x):
    fs = (lambda a: a + 1, lambda a: a + 1)
    return [f(x) for f in fs], fs[0].__code__ is fs[1].__code__


def for_const_return_in_with(xs, suppress):
    log = []
    with Sup(log, suppress):
        for t in xs:
            log.append(t)
            if t > 1:
                return 5
    return log


def for_break_ends_with(xs, log):
    with Sup(log, False):
        for t in xs:
            log.append(10 // t)
            break


CASES = {
    "comp_if_false": [([1, 2, 3],), ([],), ("ab",), (None,)],
    "nested_genexp_if_false": [(0,), (5,), ("x",)],
    "comp_if_false_tuple_target": [([(1, 2), (3, 4)],), ([],), ([(1, 2, 3)],)],
    "clause_return_in_with": [([5], False), ([0], False), ([], True), ([2, 1, 0], True)],
    "return_then_raise_in_finally": [([1, 2, 3],), ([1],), ([],)],
    "return_then_raise_in_clause": [([5],), ([0, 1, 2],), ([0],), ([],)],
    "lambdas_apart": [(1,), (-3,)],
    "lambdas_together": [(1,), (-3,)],
    "for_const_return_in_with": [([0, 1, 2, 3], False), ([], False), ([0, 0], True)],
    "for_break_ends_with": [([1, 2], []), ([], []), ([0], [])],
}
