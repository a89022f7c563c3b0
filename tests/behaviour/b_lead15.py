"""Behaviour suite (session 15, lead): try bodies whose `else:` part (or the code after the
statement) follows an `if` inside the body whose other arms leave (`raise`, `continue`, `return`).
The body's region ended only where its own top level left the handler's range; the `if`'s open arm
ran on past that end, and the `else:` part came out inside the try body, so its exceptions were
caught by the clauses (inspect.classify_class_attrs on 3.11-3.14, http.server's parse_request on
3.12-3.13, posixpath.realpath on 3.14). Each input below makes the `else:` part raise what the
clause catches: the original propagates it."""


def raise_arm_then_else(names, values):
    # inspect.classify_class_attrs' shape: `if k == x: raise` in the body, the else part after
    out = []
    for name in names:
        found = None
        if name not in out:
            try:
                if name == "skip":
                    raise Exception("special")
                found = values[name]
            except Exception:
                pass
            else:
                found = found.upper()
                if found == "X":
                    found = None
        out.append((name, found))
    return out


def raise_tests_then_else(words):
    # http.server parse_request's shape: tests that raise in the body, the code after the
    # statement (the clause returns) reads what the body computed
    version = None
    if len(words) >= 2:
        version = words[-1]
        try:
            if not version.startswith("V/"):
                raise ValueError
            parts = version[2:].split(".")
            if len(parts) != 2:
                raise ValueError
            number = int(parts[0]), int(parts[1])
        except (ValueError, IndexError):
            return "bad", version
        if number >= (1, 1) and words[0] > "b":
            version = number
        if number >= (2, 0):
            return "too new", number[5]
    return "ok", version


def continue_arms_then_else(items, table):
    # posixpath.realpath's shape on 3.14: `if: continue elif: continue` then the rest of the body
    out = []
    for item in items:
        try:
            kind = table.get(item)
            if kind is None:
                out.append("none")
                continue
            elif kind == 1:
                out.append("one")
                continue
            target = table[item + "!"]
        except (KeyError, AttributeError):
            out.append("missing")
        else:
            out.append(target.strip())
            continue
        out.append("after")
    return out


def return_arm_then_else(x, table):
    # the open arm next to a `return` arm
    try:
        if x is None:
            return "none"
        v = table[x]
    except KeyError:
        return "missing"
    else:
        w = table[v]
    return "found", w


def assert_then_forever(seq, kinds):
    # test_coroutines.run_async's shape: an assert, then code that only leaves (a `while True:`
    # left by `return`); 3.12+ read it as `if T: <the rest>` then `assert False`
    gen = iter(seq)
    assert type(gen).__name__ in kinds, "not an iterator of these kinds"
    out = []
    while True:
        try:
            out.append(next(gen))
        except StopIteration:
            return out


def assert_then_return(x, limit):
    assert x < limit
    if x:
        return x * 2
    return -x


def return_through_finally_around_except(x, log):
    # test_sys' _run_remote_exec_test (3.14): the `return` value waits through the copy of the
    # enclosing finally body, which lies outside the except statement's range too; it is no end
    # of that try body (a first version of the session-15 rule read it as one and refused)
    try:
        try:
            v = 10 // x
            return v, len(log)
        except ZeroDivisionError:
            log.append("zero")
    finally:
        if log:
            log.append("fin")
    return "after", log


CASES = {
    "raise_arm_then_else": [
        (["a", "skip", "b"], {"a": "x", "b": "y"}),
        (["a"], {}),
        (["a"], {"a": 3}),
        (["a", "a"], {"a": "q"}),
    ],
    "raise_tests_then_else": [
        (["a", "V/1.0"],),
        (["c", "V/1.1"],),
        (["c", "V/2.0"],),
        (["c", "X/1.0"],),
        (["c", "V/1"],),
        (["c", "V/1.x"],),
        (["z"],),
    ],
    "continue_arms_then_else": [
        (["a", "b", "c"], {"a": None, "b": 1, "c": 2, "c!": " t "}),
        (["c"], {"c": 2}),
        (["c"], {"c": 2, "c!": 5}),
        ([], {}),
    ],
    "assert_then_forever": [
        ([1, 2], ("list_iterator",)),
        ((1, 2), ("list_iterator",)),
        ("ab", ("str_ascii_iterator", "str_iterator", "tuple_iterator")),
    ],
    "assert_then_return": [(1, 5), (0, 5), (6, 5)],
    "return_through_finally_around_except": [(2, []), (0, []), (5, ["x"]), (0, ["y"]), ("a", [])],
    "return_arm_then_else": [
        (None, {}),
        ("a", {}),
        ("a", {"a": "b", "b": 7}),
        ("a", {"a": "c"}),
    ],
}
