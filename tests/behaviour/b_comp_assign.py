"""Behaviour suite: the assignment idiom in comprehensions, `for y in [v]` (3.9+ compile it as a
store, with no loop), alone, chained, with a tuple target whose values are calls (their order must
stay: the compiler stores the pair without a tuple), in every kind of comprehension."""


def _log_calls():
    log = []

    def f(x):
        log.append(("f", x))
        return x + 1

    def g(x):
        log.append(("g", x))
        return x * 2

    return log, f, g


def listcomp_assign(xs):
    return [y * 2 for x in xs for y in [x + 1]]


def setcomp_assign(xs):
    return sorted({y % 3 for x in xs for y in [x * x]})


def dictcomp_chained(n):
    return {j + k: j * k for i in range(n) for j in [i + 1] for k in [j + 1]}


def genexpr_assign_with_ifs(xs):
    return list(y for x in xs if x for y in [x - 1] if y)


def tuple_target_calls_in_order(xs):
    log, f, g = _log_calls()
    out = [p + q for x in xs for p, q in [(f(x), g(x))]]
    return out, log


def tuple_target_names(xs):
    return [p - q for x in xs for p, q in [(x, x * 2)]]


def statement_pair_calls_in_order(a):
    log, f, g = _log_calls()
    p, q = f(a), g(a)
    return p, q, log


CASES = {
    "listcomp_assign": [([1, 2, 3],), ([],)],
    "setcomp_assign": [([1, 2, 3, 4],), ([],)],
    "dictcomp_chained": [(4,), (0,)],
    "genexpr_assign_with_ifs": [([0, 1, 2, 3],), ([],)],
    "tuple_target_calls_in_order": [([1, 2],), ([],)],
    "tuple_target_names": [([1, 5],), ([],)],
    "statement_pair_calls_in_order": [(3,), (0,)],
}
