"""Behaviour suite: statements whose code the compiler copies (3.12+ copy a small exit block into
each jump to it) or lays out so that a naive reading changes the layout: code after a try
statement copied into its except clauses, `break` into a copy of the code after a loop, a `for
... else:` whose code after the statement exists only in that copy, a returned conditional
expression, an `if` ending a loop body, `while c:` tested at the top (3.14) and rotated into a
guard and a bottom test (3.10-3.13), and a lambda whose conditional expression returns in each
arm."""


def try_then_return(f):
    try:
        y = f()
    except ZeroDivisionError:
        y = None
    return y


def try_two_clauses(f):
    try:
        y = f()
    except ZeroDivisionError:
        y = None
    except ValueError:
        raise
    return y


def try_return_in_clause(f):
    try:
        y = f()
    except ZeroDivisionError:
        y = None
        return y
    return y


def try_named_clause(f):
    try:
        y = f()
    except ZeroDivisionError as e:
        y = type(e).__name__
    return y


def try_returns_clause_goes_on(d, key, default):
    try:
        return d[key]
    except KeyError:
        d[key] = default
    return default


def try_returns_clause_returns(d, key, default):
    try:
        return d[key]
    except KeyError:
        d[key] = default
        return default


def if_not_in_ends_loop(xs, other):
    for x in xs:
        if x not in other:
            return False
    return True


def if_raise_ends_loop(xs):
    n = 0
    for x in xs:
        n += 1
        if x is None:
            raise ValueError(n)
    return n


def break_then_return(xs, hint):
    n = 0
    lines = []
    for line in xs:
        lines.append(line)
        n += len(line)
        if n >= hint:
            break
    return lines


def for_else_break_copy(xs):
    for x in xs:
        if x:
            break
    else:
        return None
    return x


def break_from_clause(xs, f):
    for x in xs:
        try:
            f(x)
        except ValueError:
            break
    return xs


def and_test_ends_loop(vs, cfg, env):
    out = []
    for cv in vs:
        if cv in cfg and cv not in env:
            out.append(cfg[cv])
    return out


def continues_then_body(vs, cfg, env):
    out = []
    for cv in vs:
        if cv not in cfg:
            continue
        if cv in env:
            continue
        out.append(cv)
    return out


def returned_ifexp(x, y):
    return 0 if x == y else 1 if x > y else -1


def returned_ifexp_str(x, y):
    return "a" if x else y


def while_break(n):
    i = 0
    while i < n:
        i += 1
        if i == 5:
            break
    return i


def while_plain(n):
    i = 0
    while i < n:
        i += 1
    return i


def while_break_middle(n):
    i = 0
    while i < n:
        i += 1
        if i == 5:
            break
        i += 2
    return i


def while_else_return(n):
    i = 0
    while i < n:
        if i == 5:
            break
        i += 2
    else:
        return None
    return i


def lambda_ifexp(x):
    f = lambda v: "pos" if v > 0 else ("zero" if v == 0 else "neg")  # noqa: E731
    return f(x)


def lambda_nested_ifexp(x):
    f = lambda v: (1 if v else 2) if x else 3  # noqa: E731
    return f(x)



def if_in_ends_loop(d, keys):
    # 3.12+: `if k in d: B` ending a loop body tests `in` and jumps to B over a copy of the
    # jump back (read before as `if k not in d: pass else: B`, which recompiles to `not in`)
    out = []
    for k in keys:
        if k in d:
            out.append(d[k])
    return out


def if_is_none_ends_loop(xs):
    n = 0
    for x in xs:
        if x is None:
            n += 1
    return n


def return_in_for_in_if(xs):
    # 3.12+: the `return True` pops the iterator first, and the code after the loop is also where
    # the outer `if` goes on: not a `for ... else:` whose `break` runs a copy of it
    if xs:
        for x in xs:
            if x:
                return True
    return False


def break_or_continue_ends_loop(xs):
    for i, x in enumerate(xs):
        if x != " ":
            break
    else:
        i = -1
    return i


def if_pass_else(cls):
    # an arm written empty has a block of its own (a jump past the other arm): not `if c: B`
    names = []
    if not hasattr(cls, "__slots__"):
        pass
    else:
        names.append(cls.__slots__)
    return names


def if_and_pass_else(x, y):
    if x and y:
        pass
    else:
        x = 2
    return x


class _Delimit:
    def __init__(self, out, swallow=False):
        self.out = out
        self.swallow = swallow

    def __enter__(self):
        self.out.append("(")

    def __exit__(self, *exc):
        self.out.append(")")
        return self.swallow


def with_arm_then_else(value, swallow, out):
    # 3.11 copies the function's closing `return None` into the with's ways out (the one after a
    # swallowed exception too): an `if`/`elif`/`else`, not a `return` after the with
    if isinstance(value, tuple):
        with _Delimit(out, swallow):
            out.append(6 // len(value))
    elif value is ...:
        out.append("...")
    else:
        out.append(repr(value))

CASES = {
    "with_arm_then_else": [((1, 2), False, []), ((), True, []), ((), False, []), (..., False, []), (3, True, [])],
    "if_pass_else": [(int,), (type("S", (), {"__slots__": ("a",)}),)],
    "if_and_pass_else": [(0, 1), (1, 1), (1, 0)],
    "if_in_ends_loop": [({1: "a", 2: "b"}, [1, 3, 2]), ({}, [1]), ({1: 1}, [])],
    "if_is_none_ends_loop": [([None, 1, None],), ([],), ([0, 0],)],
    "return_in_for_in_if": [([],), ([0, 0],), ([0, 3],), ("ab",)],
    "break_or_continue_ends_loop": [("  x",), ("",), ("   ",), ("y",)],
    "try_then_return": [(lambda: 1,), (lambda: 1 // 0,)],
    "try_two_clauses": [(lambda: 2,), (lambda: 1 // 0,), (lambda: int("x"),)],
    "try_return_in_clause": [(lambda: 3,), (lambda: 1 // 0,)],
    "try_named_clause": [(lambda: 4,), (lambda: 1 // 0,)],
    "try_returns_clause_goes_on": [({"a": 1}, "a", 0), ({}, "a", 2)],
    "try_returns_clause_returns": [({"a": 1}, "a", 0), ({}, "a", 2)],
    "if_not_in_ends_loop": [([1, 2], [1, 2, 3]), ([1, 5], [1]), ([], [])],
    "if_raise_ends_loop": [([1, 2],), ([1, None, 2],)],
    "break_then_return": [(["ab", "cde", "f"], 4), (["ab"], 10), ([], 1)],
    "for_else_break_copy": [([0, 0, 3],), ([0, 0],), ([],)],
    "break_from_clause": [([1, 2, 3], lambda v: v), ([1, 2, 3], lambda v: int("x" * v))],
    "and_test_ends_loop": [("abc", {"a": 1, "b": 2}, "b"), ("", {}, "")],
    "continues_then_body": [("abc", {"a": 1, "b": 2}, "b"), ("x", {}, "")],
    "returned_ifexp": [(1, 1), (2, 1), (1, 2)],
    "returned_ifexp_str": [(1, "y"), (0, "y")],
    "while_break": [(3,), (9,), (0,)],
    "while_plain": [(3,), (0,)],
    "while_break_middle": [(3,), (9,), (20,)],
    "while_else_return": [(3,), (9,), (0,)],
    "lambda_ifexp": [(3,), (0,), (-2,)],
    "lambda_nested_ifexp": [(1,), (0,)],
}
