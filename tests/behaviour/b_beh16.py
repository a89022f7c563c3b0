"""Behaviour suite: 3.11+ `break` out of a `while` loop nested last in an outer loop's body, from
an except clause through a finally body's copy (branch beh16, session 16).

The inner loop's exit is then a lone JUMP_BACKWARD to the outer loop's header, and the compiler
threads the clause's `break` (after POP_EXCEPT and the finally copy) straight to that header: only
a `break` gets there from inside the inner loop.
"""


def for_while_clause_break_finally(xs, log):
    for x in xs:
        while x > 0:
            try:
                log.append(10 // (x - 2))
            except ZeroDivisionError:
                log.append("zero")
                break
            finally:
                x -= 1
    return log


def for_while_clause_break(xs, log):
    for x in xs:
        while x > 0:
            try:
                log.append(10 // (x - 2))
                x -= 1
            except ZeroDivisionError:
                break
    return log


def while_while_clause_break_finally(n, log):
    i = 0
    while i < n:
        i += 1
        x = i
        while x > 0:
            try:
                log.append(6 // (x - 2))
            except ZeroDivisionError:
                log.append("zero")
                break
            finally:
                x -= 1
                log.append(x)
    return i


def for_if_while_clause_break_rebinds(xs, log):
    # the finally body rebinds the name the code after the loops reads
    last = None
    for x in xs:
        if x:
            while x > 0:
                try:
                    log.append(10 // (x - 3))
                except ZeroDivisionError:
                    last = "zero"
                    break
                finally:
                    last = x
                    x -= 1
        else:
            log.append("empty")
    return last


CASES = {
    "for_while_clause_break_finally": [([3, 0, 1], []), ([2, 5], []), ([], []), ([4, -1], [])],
    "for_while_clause_break": [([3, 0, 1], []), ([2, 5], []), ([], []), ([4, -1], [])],
    "while_while_clause_break_finally": [(0, []), (1, []), (3, []), (5, [])],
    "for_if_while_clause_break_rebinds": [([4, 0, 1], []), ([3, 5], []), ([], []), ([0, 0], [])],
}
