"""Behaviour suite: more ≤3.10 shapes (block-stack bytecode), session 11.

- a lambda whose conditional arms meet at a shared RETURN_VALUE (3.8 / 3.9 return from one arm in
  place and jump to the shared return from another: spill temporaries);
- (the crossed if-expression condition, `if (a if b else not a):`, is b_flow.cond_expr_in_condition:
  refused on 3.11 still, which would refuse this module's code there too);
- try/except inside try/finally whose clauses all leave (`return`, `break`): 3.9 lays the normal
  path's finally copy after the POP_BLOCK closing the finally's range, and after a clause's
  `break` writes a dead POP_EXCEPT and jump to that normal exit;
- 3.10 try/except whose body jumps to the code after the statement through a jump block, while a
  clause (its `as` name unbound) jumps there directly.
"""


def lam_nested(x, v):
    f = lambda w: (1 if w else 2) if x else 3  # noqa: E731
    return f(v)


def lam_three_arms(a):
    f = lambda x: ("neg" if x < 0 else ("zero" if x == 0 else "pos")) if a else None  # noqa: E731
    return [f(n) for n in (-2, 0, 3)]


def clause_returns_in_finally(xs, log):
    try:
        log.append(xs + 1)
    except TypeError:
        return None
    finally:
        log.append("f")
    log.append("after")
    return log


def clause_returns_in_loop_finally(xs, log):
    for x in xs:
        try:
            log.append(10 // x)
        except ZeroDivisionError:
            return "zero"
        except TypeError:
            log.append("type")
            return None
        finally:
            log.append("f")
        log.append("next")
    return log


def clause_breaks_in_finally(xs):
    out = []
    for x in xs:
        try:
            out.append(10 // x)
        except ZeroDivisionError:
            out.append("z")
            break
        finally:
            out.append(".")
    return out


def clause_as_returns_or_goes_on(d, k):
    try:
        v = d[k]
    except KeyError as e:
        if e.args == (1,):
            return "one", len(d)
        v = -1
    return v, len(d)


CASES = {
    "lam_nested": [(1, 1), (1, 0), (0, 1), (0, 0), ("", "x")],
    "lam_three_arms": [(1,), (0,), ("x",)],
    "clause_returns_in_finally": [(1, []), ("a", []), (None, [])],
    "clause_returns_in_loop_finally": [([1, 2], []), ([1, 0, 3], []), ([2, "a"], []), ([], [])],
    "clause_breaks_in_finally": [([1, 2],), ([1, 0, 2],), ([],), ([0],)],
    "clause_as_returns_or_goes_on": [({1: "a"}, 1), ({}, 1), ({}, 2), ({2: 0}, 3)],
}


