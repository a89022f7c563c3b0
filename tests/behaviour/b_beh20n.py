"""Behaviour suite (session 20, branch beh20n): 3.11-3.14 shapes. An `if`/`elif` ending an inner
`if` arm of an outer `if` with an `else:` (3.11+: the inner tests' false ways share a lone jump
past the outer `else:`); `return CONSTANT` out of `for` loops ending a with body, with code after
the with statement (3.12+: the loop's exhausted way is the with's normal end, no `else:` part)."""

from managers import Sup


def elif_chain_ends_inner_arm(xs):
    if xs:
        t = xs[0]
        if t > 0:
            if t == 1:
                t = "one"
            elif t == 2:
                t = "two"
            elif t == 3:
                t = "three"
    else:
        t = None
    return t, len(xs)


def for_small_int_return_in_with(xs, suppress):
    log = []
    with Sup(log, suppress):
        for t in xs:
            log.append(10 // t)
            if t > 2:
                return 3
    log.append("after")
    return log


def nested_for_const_return_in_with(xs, suppress):
    log = []
    with Sup(log, suppress):
        for t in xs:
            for u in range(t):
                if u == 2:
                    return "two"
            log.append(t)
    return log


CASES = {
    "elif_chain_ends_inner_arm": [([],), ([0],), ([1],), ([2],), ([3],), ([4, 1],)],
    "for_small_int_return_in_with": [([], False), ([1, 2], False), ([1, 5, 0], False), ([1, 0, 5], True),
                                     ([0], False)],
    "nested_for_const_return_in_with": [([], False), ([1, 2], False), ([1, 4], True), ([2, "x"], True)],
}
