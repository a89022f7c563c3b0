"""Behaviour suite: `if` statements whose arm order and end the decompiler reads from block order.
The body of an `if` is the arm laid out first; a condition folded from several tests whose true
target comes second is written negated (`if not a or b:`), not with the arms swapped. An `else:`
arm that leaves (`return`) placed before the code after the statement is written out, with that
code after the `if`, not nested in the body."""


class _Node:
    def __init__(self, value=None, body=()):
        self.value = value
        self.body = list(body)


def else_returns_then_rest(node, clean=True):
    if isinstance(node, _Node) and isinstance(node.value, str):
        text = node.value
    else:
        return None
    if clean:
        text = text.strip()
    return text


def else_raises_then_rest(x, scale):
    if x > 0:
        y = x * scale
    else:
        raise ValueError(x)
    if scale > 1:
        y += 1
    return y


def not_or_body_first(section, default, table):
    if not section or section == default:
        found = table.get("defaults")
    else:
        try:
            found = table[section]
        except KeyError:
            raise LookupError(section) from None
    return found


def and_not_in_body_first(choices, value):
    if choices is not None and value not in choices:
        value = None
    else:
        value = value * 2
    return value


def not_and_loop(items, skip):
    out = []
    for item in items:
        if (not item or item == ".") and skip:
            out.append("skip")
        else:
            out.append(item)
    return out


def else_returns_in_loop(items):
    total = 0
    for item in items:
        if item >= 0:
            total += item
        else:
            return -1
        if total > 10:
            total -= 10
    return total


def elif_chain_ends_function(log, kind, flag, items):
    if kind == "a":
        log.append("a")
        if flag and not items:
            log.append("a-flag")
    elif kind in ("b", "c"):
        if kind == "c":
            log.append("c")
        log.append("b")
        if flag and items:
            log.append("b-flag")
    else:
        raise TypeError(kind)


def call_elif_chain(kind, flag, items):
    log = []
    try:
        elif_chain_ends_function(log, kind, flag, items)
    except TypeError as e:
        log.append(repr(e))
    return log


def shared_closing_return(option, owner):
    if option and option.get("owner") is not owner:
        return option["owner"]
    return None


CASES = {
    "else_returns_then_rest": [(_Node(" doc "),), (_Node(" doc "), False), (_Node(3),), (None,)],
    "else_raises_then_rest": [(1, 2), (2, 1), (-1, 2), (0, 0)],
    "not_or_body_first": [
        ("", "d", {"defaults": 1}),
        ("d", "d", {"defaults": 2}),
        ("s", "d", {"s": 3}),
        ("t", "d", {"s": 3}),
    ],
    "and_not_in_body_first": [(None, 1), ((1, 2), 2), ((1, 2), 3)],
    "not_and_loop": [(["", ".", "a"], True), (["", ".", "a"], False), ([], True)],
    "else_returns_in_loop": [([1, 2, 3],), ([5, 6, 7],), ([1, -1],), ([],)],
    "shared_closing_return": [(None, 1), ({"owner": 1}, 1), ({"owner": 2}, 1), ({}, None)],
    "elif_chain_ends_function": [
        ([], "a", True, []),
        ([], "a", False, [1]),
        ([], "b", True, [1]),
        ([], "c", True, []),
        ([], "d", True, []),
    ],
}
