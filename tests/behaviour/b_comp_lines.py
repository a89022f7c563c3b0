"""Behaviour suite: comprehensions written over several lines. 3.12+ thread an `if` clause's jump
on to the loop's jump back only where both are on one line, so a clause on a line of its own must
stay there (structure/comp_lines.rs); 3.14 fuses a store and a load on one line, and borrows the
load only when they are apart."""


class _Item:
    def __init__(self, name, strings):
        self.name = name
        self.option_strings = strings


def if_on_own_line(items):
    return [item.name
            for item in items
            if item.option_strings]


def if_on_for_line(items):
    return [item.name
            for item in items if item.option_strings]


def genexpr_if_apart(xs):
    return sum(x for x in xs
               if x > 0)


def two_ifs_apart(xs):
    return [x for x in xs
            if x
            if x % 2]


def nested_for_if_apart(rows):
    return {r: c for r in rows
            for c in r
            if c}


def set_if_apart(words):
    return {w.lower() for w in words
            if w.isalpha()}


def one_line(xs):
    return [x * 2 for x in xs if x]


CASES = {
    "if_on_own_line": [([_Item("a", ["-a"]), _Item("b", [])],), ([],)],
    "if_on_for_line": [([_Item("a", ["-a"]), _Item("b", [])],), ([],)],
    "genexpr_if_apart": [([1, -2, 3],), ([],)],
    "two_ifs_apart": [([0, 1, 2, 3, 5],), ([],)],
    "nested_for_if_apart": [(("ab", "c", ""),), ((),)],
    "set_if_apart": [(["Ab", "1x", "cD"],), ([],)],
    "one_line": [([0, 1, 2],), ([],)],
}
