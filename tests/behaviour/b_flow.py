"""Behaviour suite: control-flow shapes where a structurer can go wrong silently - early returns in
every position, if/elif chains without else inside loops, loops whose last statement is a branch,
nested conditions with shared merges, and-/or-conditions with returns, empty branches."""


def early_return_in_if_in_try(x):
    try:
        if x > 0:
            return "pos"
        r = "nonpos"
    except TypeError:
        return "type"
    return r


def return_in_both_arms_then_dead(x):
    if x:
        return "yes"
    else:
        return "no"


def return_in_elif_only(x):
    r = "start"
    if x == 1:
        r = "one"
    elif x == 2:
        return "two"
    elif x == 3:
        r = "three"
    return r


def if_in_loop_without_else(xs):
    out = []
    for x in xs:
        if x > 0:
            out.append("p")
        elif x < 0:
            out.append("n")
    return out


def loop_body_ends_in_if(xs):
    n = 0
    for x in xs:
        n += 1
        if x:
            n *= 2
    return n


def while_body_ends_in_if_else(n):
    out = []
    while n > 0:
        if n % 2:
            out.append("odd")
        else:
            out.append("even")
        n -= 1
    return out


def nested_if_shared_merge(a, b, c):
    r = []
    if a:
        if b:
            r.append(1)
        elif c:
            r.append(2)
    else:
        if c:
            r.append(3)
    r.append("end")
    return r


def and_or_conditions_with_returns(a, b, c):
    if a and b:
        return 1
    if a or c:
        if not b and c:
            return 2
        return 3
    if not (a or b) and not c:
        return 4
    return 5


def return_inside_while_true(xs):
    i = 0
    while True:
        if i >= len(xs):
            return "end", i
        if xs[i] is None:
            return "none at", i
        i += 1


def return_inside_for_else(xs):
    for x in xs:
        if x == 0:
            break
    else:
        return "no zero"
    return "zero"


def continue_at_end_of_if(xs):
    out = []
    for x in xs:
        if x % 2:
            out.append(x)
            continue
        out.append(-x)
    return out


def break_then_code_after_loop(xs):
    found = False
    for x in xs:
        if x == "k":
            found = True
            break
    if found:
        return "found"
    return "missing"


def if_with_empty_then(x):
    if x > 0:
        pass
    else:
        x = -x
    return x


def if_not_with_else(x):
    if not x:
        r = "falsy"
    else:
        r = "truthy"
    return r


def cond_expr_in_condition(a, b):
    if (a if b else not a):
        return "then"
    return "else"


def return_value_of_and_or(a, b):
    if a:
        return a and b
    return a or b


def try_in_loop_with_return_in_else(xs):
    for x in xs:
        try:
            v = 10 // x
        except ZeroDivisionError:
            continue
        else:
            if v > 3:
                return v
    return None


def nested_loops_with_returns_and_breaks(grid):
    for row in grid:
        for v in row:
            if v is None:
                break
            if v < 0:
                return "negative", v
        else:
            continue
        return "none in row", row
    return "clean"


def if_chain_assigning_in_some_arms(x):
    a = b = 0
    if x > 10:
        a = 1
    elif x > 5:
        b = 1
    elif x > 0:
        a = b = 2
    return a, b


def while_with_complex_exit(xs):
    i = 0
    total = 0
    while i < len(xs) and total < 10 or i == 0 and xs:
        total += xs[i]
        i += 1
    return i, total


def loop_with_if_return_and_final_else(xs):
    for x in xs:
        if x > 100:
            return "big"
        elif x < 0:
            continue
        else:
            pass
    else:
        return "done"


def return_in_try_with_else(x):
    log = []
    try:
        if x:
            log.append("try")
            return log
    except KeyError:
        log.append("except")
    else:
        log.append("else")
    log.append("after")
    return log


def return_in_try_finally_conditional(x):
    log = []
    try:
        if x > 1:
            return "big", log
        log.append("small")
    finally:
        log.append("finally")
    return "end", log


def return_in_handler_conditional(x):
    try:
        raise ValueError(x)
    except ValueError:
        if x:
            return "handler return"
    return "after"


def break_in_try_body_conditional(xs):
    out = []
    for x in xs:
        try:
            if x < 0:
                break
            out.append(x)
        except TypeError:
            out.append("t")
    else:
        out.append("else")
    return out


def continue_in_with_conditional(xs):
    class CM:
        def __enter__(self):
            return self

        def __exit__(self, *a):
            out.append("x")

    out = []
    for x in xs:
        with CM():
            if x:
                continue
            out.append("body")
    return out


def return_in_nested_try_and_with(x):
    log = []

    class CM:
        def __enter__(self):
            log.append("enter")

        def __exit__(self, *a):
            log.append("exit")

    def inner():
        try:
            with CM():
                if x == 1:
                    return "one"
                if x == 2:
                    raise KeyError(x)
        except KeyError:
            return "key"
        return "none"

    return inner(), log


CASES = {
    "early_return_in_if_in_try": [(1,), (0,), ("a",)],
    "return_in_both_arms_then_dead": [(1,), (0,)],
    "return_in_elif_only": [(1,), (2,), (3,), (4,)],
    "if_in_loop_without_else": [([1, -1, 0],), ([],)],
    "loop_body_ends_in_if": [([1, 0, 1],), ([],)],
    "while_body_ends_in_if_else": [(3,), (0,)],
    "nested_if_shared_merge": [(1, 1, 0), (1, 0, 1), (1, 0, 0), (0, 0, 1), (0, 0, 0)],
    "and_or_conditions_with_returns": [(1, 1, 0), (1, 0, 1), (0, 0, 1), (1, 0, 0), (0, 0, 0), (0, 1, 0), (0, 1, 1)],
    "return_inside_while_true": [([1, 2],), ([1, None],), ([],)],
    "return_inside_for_else": [([1, 0],), ([1],)],
    "continue_at_end_of_if": [([1, 2, 3],), ([],)],
    "break_then_code_after_loop": [("abk",), ("ab",)],
    "if_with_empty_then": [(1,), (-2,)],
    "if_not_with_else": [(0,), (1,)],
    "cond_expr_in_condition": [(1, 1), (1, 0), (0, 1), (0, 0)],
    "return_value_of_and_or": [(1, 0), (2, 3), (0, 4), (0, 0)],
    "try_in_loop_with_return_in_else": [([0, 5, 1],), ([0, 20],), ([],)],
    "nested_loops_with_returns_and_breaks": [([[1, 2], [3, None]],), ([[1, -2]],), ([[1]],)],
    "if_chain_assigning_in_some_arms": [(11,), (6,), (1,), (0,)],
    "while_with_complex_exit": [([5, 5, 5],), ([20],), ([],), ([1, 2, 3, 4, 5],)],
    "loop_with_if_return_and_final_else": [([1, 200],), ([-1, 1],), ([],)],
    "return_in_try_with_else": [(0,), (1,)],
    "return_in_try_finally_conditional": [(0,), (2,)],
    "return_in_handler_conditional": [(0,), (1,)],
    "break_in_try_body_conditional": [([1, -1, 2],), ([1, 2],), ([],)],
    "continue_in_with_conditional": [([0, 1, 0],), ([],)],
    "return_in_nested_try_and_with": [(0,), (1,), (2,)],
}
