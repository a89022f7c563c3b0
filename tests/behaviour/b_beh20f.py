"""Behaviour suite (session 20, helper beh20f): ≤3.10 try/finally shapes. A finally body ending in
if / elif / else (3.10 copies the handler's RERAISE and the normal path's `return` into each arm);
named except clauses whose arms each end with the clause's cleanup and the copied `return`;
`return v` through a finally body holding a try statement (its copy entered with v waiting on the
stack); `break` out of a try body in a loop whose normal way out is the jump back (3.10: the code
after the loop copied into the `break`). Only shapes read on every version 3.9-3.14 are here; those
still refused on 3.11+ (`return v` through a finally body holding a try, 3.12+ a finally body's
`elif` arms before a final `raise`, 3.14 `while True:` left by a try body's `break`) are in
tests/support/beh20f_cases.py with their refusals listed."""


def fin_elif_chain(xs, log):
    try:
        log.append(10 // len(xs))
    finally:
        if not xs:
            log.append("none")
        elif len(xs) > 3:
            log.append("big")
        elif xs[0] == 0:
            log.append("zero")
        else:
            log.append("small")
    return log



def named_clause_elif_arms(xs, n):
    try:
        msg = xs[3]
    except IndexError as e:
        if n == 1:
            msg = str(e)
        elif n == 2:
            msg = repr(e)
        else:
            msg = "?"
    return msg



def return_through_fin_if_try(xs, log):
    got = False
    try:
        if not xs:
            got = True
        elif xs[0] <= 1:
            got = xs
        else:
            got = not xs
        return got
    finally:
        if not got:
            try:
                log.remove(xs[0])
            except (ValueError, AttributeError, IndexError):
                log.append("gone")


def try_break_in_while(xs):
    log = []
    i = 0
    while i < len(xs):
        i += 1
        try:
            if xs[i - 1] == 9:
                break
            log.append(10 // xs[i - 1])
        except ZeroDivisionError:
            log.append("zd")
    return log, i



CASES = {
    "fin_elif_chain": [([1, 2], []), ([], []), ([0], []), ([1, 2, 3, 4], [])],
    "named_clause_elif_arms": [([1, 2, 3, 4], 1), ([], 1), ([], 2), ([], 3)],
    "return_through_fin_if_try": [([], [5]), ([1], [1]), ([5], [5, 2]), ([2], [])],
    "try_break_in_while": [([1, 2, 9, 3],), ([0, 5],), ([],)],
}
