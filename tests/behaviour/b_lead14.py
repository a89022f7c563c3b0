"""Behaviour suite (session 14, lead): loops with two ways out, a `return` written in the loop and
a `break`, inside or around a try statement. 3.12+ copy a small exit into the jump that reaches it,
so the code after the loop (`return a.after()`) can stand inline at the `break`, beside the
`return`: the decompiler took the wrong one for the code after the loop, and read the other into
the try body, where the handler caught its exceptions (`a.after()` raising ValueError returned
"value error"). The exception table tells them apart: the `break`'s copy lies outside the handler's
range."""

from b_lead13 import Feed


def return_then_break_in_try(a, w):
    a, w = Feed(a), Feed(w)
    try:
        while True:
            if w():
                return "returned", a.calls, w.calls
            if a():
                break
    except ValueError:
        return "value error", a.calls
    a.after()
    return "after", a.calls, w.calls


def break_then_return_in_try_small_tail(a, w):
    a, w = Feed(a), Feed(w)
    try:
        while True:
            if a():
                break
            if w():
                return "returned"
    except ValueError:
        return "value error"
    return a.after()


def return_then_break_in_try_small_tail(a, w):
    a, w = Feed(a), Feed(w)
    try:
        while True:
            if w():
                return "returned"
            if a():
                break
    except ValueError:
        return "value error"
    return a.after()


def try_in_loop_small_tail(a, w):
    a, w = Feed(a), Feed(w)
    while True:
        try:
            if w():
                return "returned"
            if a():
                break
        except ValueError:
            return "value error"
    return a.after()


def try_in_loop_tail(a, w):
    a, w = Feed(a), Feed(w)
    while True:
        try:
            if w():
                return "returned"
            if a():
                break
        except ValueError:
            return "value error"
    a.after()
    return "after", a.calls, w.calls


def return_then_break_in_finally(a, w):
    a, w = Feed(a), Feed(w)
    log = []
    try:
        while True:
            if w():
                return 1, log
            if a():
                break
            log.append("more")
    finally:
        log.append("fin")
    a.after()
    log.append("after")
    return log


def try_else_continue_in_loop(rest, kinds, reads):
    # (3.14 read the `else:` part, which ends with `continue`, into the try body: an
    # AttributeError there, from a target that is None, was caught; posixpath.realpath's shape)
    rest = list(rest)
    path = "/"
    while rest:
        name = rest.pop()
        newpath = path + name
        try:
            kind = kinds.get(name)
            if kind is None:
                path = newpath
                continue
            elif kind == 1:
                path = newpath
                continue
            target = reads[name]
        except (AttributeError, KeyError):
            pass
        else:
            if target.startswith("/"):
                path = "/"
            rest.extend(target.split("/")[1:])
            continue
        path = newpath + "!"
    return path


def raise_arms_then_code_after_try(version, limit):
    # (a reduced form of http.server.BaseHTTPRequestHandler.parse_request, whose code after the
    # try statement 3.12 / 3.13 read into the `if` chain's last arm inside the try body, so that
    # its exceptions would be caught; this form comes back right, the stdlib one not yet)
    try:
        if not version.startswith("HTTP/"):
            raise ValueError
        parts = version[5:].split(".")
        if len(parts) != 2:
            raise ValueError
        number = int(parts[0]), int(parts[1])
    except (ValueError, IndexError):
        return False
    if number >= (1, 1):
        limit = int(limit)
    return number, limit


_INPUTS = [
    ([1], [0]),
    ([1, "boom"], [0]),
    ([0, 1], [0, 0]),
    ([0, 1, "boom"], [0, 0]),
    ([0], [1]),
    ([ValueError], [0]),
    ([0], [KeyError]),
]

CASES = {
    "return_then_break_in_try": _INPUTS,
    "break_then_return_in_try_small_tail": [([1], []), ([1, "boom"], []), ([0, 1], [0]), ([0], [1]), ([ValueError], [])],
    "return_then_break_in_try_small_tail": _INPUTS,
    "try_in_loop_small_tail": _INPUTS,
    "try_in_loop_tail": _INPUTS,
    "return_then_break_in_finally": _INPUTS,
    "raise_arms_then_code_after_try": [
        ("HTTP/1.0", "5"),
        ("HTTP/1.1", "5"),
        ("HTTP/1.1", "x"),
        ("HTTP/1", "5"),
        ("FTP/1.1", "5"),
        ("HTTP/a.b", "5"),
    ],
    "try_else_continue_in_loop": [
        (["a", "b"], {}, {}),
        (["a", "b"], {"a": 1, "b": 2}, {}),
        (["a"], {"a": 2}, {"a": "/x/y"}),
        (["a"], {"a": 2}, {"a": None}),
        (["a"], {"a": 2}, {}),
    ],
}
