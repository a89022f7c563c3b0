"""Behaviour suite (branch twice310): ≤3.10 shapes that came out twice. A try/except whose body's
way on and whose clauses' way on (after POP_EXCEPT) meet at the code after the statement (that code
running once, after the body or after a clause, never inside a clause and again after it); a
try/except/else inside an `if` whose clauses go on to the `if`'s merge; chained comparisons as
parts of `or` / `and` conditions, whose cleanup 3.10 ends with a copy of the exit after the `if`.
"""


class Skip(Exception):
    pass


def compute(x, log):
    log.append(("compute", x))
    if x == 0:
        raise KeyError(x)
    if x == "v":
        raise ValueError(x)
    return 100 // x


def clause_reraise_then_raise(x):
    log = []
    try:
        compute(x, log)
    except (KeyError, ValueError) as e:
        if not isinstance(e, KeyError):
            raise
        log.append("caught")
    raise Skip(len(log), log[0])


def clause_reraise_then_if(x, flag):
    log = []
    try:
        log.append(compute(x, log))
    except KeyError as e:
        if e.args[0] != 0:
            raise
        log.append("zero")
    if flag:
        log.append("flag")
    return log


def clause_returns_or_assigns(x):
    log = []
    try:
        v = compute(x, log)
    except KeyError:
        if not log:
            return "never"
        v = "zero"
    except ValueError:
        v = "value"
    if v == 100:
        return "hundred", log
    return v, log


def clause_pass_else_if_return(x, orig):
    log = []
    try:
        sw = compute(x, log)
    except KeyError:
        pass
    else:
        if sw is not orig:
            if sw > 50:
                raise Skip(sw)
            log.append(("sw", sw))
            return log
    log.append("impl")
    return log


def if_clause_pass_else_return(x, flag):
    log = []
    if flag:
        name = "n%s" % (x,)
        try:
            v = compute(x, log)
        except KeyError:
            pass
        else:
            log.append(name)
            return v, log
    return "generic", log


def or_chain(x, y):
    n = [x]
    if y is None or 0 <= x < 10:
        n += [1, 2]
    return n


def chain_or_chain(x, y):
    n = [x]
    if 0 <= x < 3 or y < x <= 10:
        n.append("in")
    return n


def nested_or_chain(x, v):
    n = (x,)
    if x >= 1:
        if v >= (8, 6) or (8, 5, 8) <= v < (8, 6):
            n += (2**63, -2**63)
    return n


def chain_and_pass_else(x, y):
    log = []
    if x == 1 == y and -1 < x < 2:
        pass
    else:
        log.append("not one")
    if float(x) == x and -5 <= x <= 5 and y:
        pass
    else:
        log.append("other")
    return log


CASES = {
    "clause_reraise_then_raise": [(1,), (0,), ("v",), (200,)],
    "clause_reraise_then_if": [(1, True), (0, False), (0, True), (5, False)],
    "clause_returns_or_assigns": [(1,), (0,), ("v",), (3,)],
    "clause_pass_else_if_return": [(1, None), (0, None), (2, None), (4, 25)],
    "if_clause_pass_else_return": [(1, True), (0, True), (1, False)],
    "or_chain": [(3, 1), (30, None), (30, 1), (-1, 2)],
    "chain_or_chain": [(1, 5), (5, 2), (5, 7), (11, 0), (-1, -5)],
    "nested_or_chain": [(1, (8, 6, 1)), (1, (8, 5, 9)), (1, (8, 5, 0)), (0, (9,))],
    "chain_and_pass_else": [(1, 1), (1, 0), (0, 1), (2, 2), (6, 1), (-3, 0)],
}
