"""Behaviour suite (session 13, lead): a loop inside a try body with two ways out, a `break` to the
code after the try and a `return` written in the loop (≤3.9 read the `return` as the code after the
loop and dropped the `break`: the loop went round again); a `break` out of an inner `for` whose
jump the compiler threaded on to the outer loop's header (the code after the inner loop is only
that jump), behind a test of its own."""


class Feed:
    """Calls return the next value of a list; a class in the list is raised; an empty list raises."""

    def __init__(self, values):
        self.values = list(values)
        self.calls = 0

    def __call__(self):
        self.calls += 1
        if not self.values:
            raise RuntimeError("exhausted")
        v = self.values.pop(0)
        if isinstance(v, type):
            raise v("fed")
        return v

    def after(self):
        """Raises ValueError where "boom" is left to feed: code after a try statement that catches
        ValueError must not be read inside it."""
        if "boom" in self.values:
            raise ValueError("after")
        self.x = None


def break_or_return_in_try(a, w):
    a, w = Feed(a), Feed(w)
    try:
        while True:
            if a():
                break
            if w():
                return "returned", a.calls, w.calls
    except ValueError:
        return "value error", a.calls
    a.after()
    return "after", a.calls, w.calls


def break_or_return_value_in_try(a, w):
    a, w = Feed(a), Feed(w)
    try:
        while True:
            if a():
                break
            if w():
                return 1
    except ValueError:
        pass
    return "after", a.calls, w.calls


def loop_in_else_arm_in_try(a, w, first):
    a, w = Feed(a), Feed(w)
    s = None
    try:
        if first:
            s = a()
        else:
            while True:
                r = a()
                if r:
                    break
                if w():
                    return "returned", a.calls
    except ValueError:
        return "value error", s
    return "after", s, a.calls, w.calls


def while_cond_return_in_try(a, w):
    a, w = Feed(a), Feed(w)
    try:
        while a():
            if w():
                return "returned"
    except ValueError:
        return "value error"
    return "after", a.calls


def check_methods(mro, methods):
    for method in methods:
        for b in mro:
            if method in b:
                if b[method] is None:
                    return "none", method
                break
        else:
            return "missing", method
    return True


def inner_break_no_else(mro, methods):
    seen = []
    for method in methods:
        for b in mro:
            if method in b:
                if b[method] is None:
                    return "none", seen
                break
            seen.append(len(b))
    return seen


def inner_break_then_code(rows):
    out = []
    for row in rows:
        for x in row:
            if x < 0:
                if x < -10:
                    return "very negative", out
                break
            out.append(x)
        out.append("|")
    return out


def clause_return_in_loop_in_try(items, done, errors):
    # ≤3.10 read the clause's `return` (POP_EXCEPT, the outer try's POP_BLOCK, return None) as the
    # end of the outer try body, i.e. `pass`: the loop never ended (refused now)
    queue = list(items)
    try:
        while True:
            try:
                s = queue.pop(0)
            except IndexError:
                return
            done.append(10 // s)
    except Exception as e:
        errors.append(type(e).__name__)
        raise


CASES = {
    "break_or_return_in_try": [
        ([1], []),
        ([0, 1], [0]),
        ([0], [1]),
        ([ValueError], []),
        ([0], [KeyError]),
        ([1, "boom"], []),
    ],
    "break_or_return_value_in_try": [([1], []), ([0, 0, 1], [0, 0]), ([0], [1]), ([ValueError], [])],
    "loop_in_else_arm_in_try": [
        ([1], [], False),
        ([0, 1], [0], False),
        ([0], [1], False),
        ([ValueError], [], False),
        ([5], [], True),
        ([ValueError], [], True),
    ],
    "while_cond_return_in_try": [([1, 1, 0], [0, 0]), ([1], [1]), ([ValueError], []), ([0], [])],
    "check_methods": [
        ([{"a": 1}, {"b": None}], ["a"]),
        ([{"a": 1}, {"b": None}], ["a", "b"]),
        ([{"a": 1}], ["a", "c"]),
        ([], []),
        ([{}], ["x"]),
    ],
    "inner_break_no_else": [
        ([{"a": 1}, {"b": None}], ["a", "b"]),
        ([{"x": 1, "y": 2}, {"a": 1}], ["a", "q"]),
        ([], ["a"]),
    ],
    "inner_break_then_code": [([[1, 2, -1, 3], [4]],), ([[1, -20]],), ([],), ([[], [5, 6]],)],
    "clause_return_in_loop_in_try": [([1, 2, 5], [], []), ([], [], []), ([1, 0], [], [])],
}
