"""Tuple assignments with a nested target (`(a, b), (c, d) = x, y`), run under one interpreter (see
tests/test_decompile_nested_tuple_assign.py): each function is decompiled, compiled again and run
against the original on its inputs. Prints JSON {case: {"source": ... or None, "error": ..., "results": [...]}}."""

from __future__ import annotations

import copy
import json

from decompile_sweep import normalized
from framejit import DecompileError, decompile

CASES = {
    # the second value reads a name the first unpacking stores: evaluated before the stores
    "second_reads_stored": ("def run(x, a):\n    (a, b), (c, d) = x, a\n    return a, b, c, d\n",
                            [((1, 2), (3, 4)), ((5, 6), "xy")]),
    "plain_second_reads_stored": ("def run(x, a):\n    (a, b), c = x, a\n    return a, b, c\n",
                                  [((1, 2), 9), ([3, 4], None)]),
    # the second value has effects: evaluated before the first unpacking (which may raise)
    "second_has_effects": ("def run(x, log):\n    (a, b), c = x, log.append(1)\n    return a, b, c, len(log)\n",
                           [((1, 2), []), (5, [])]),
    "plain_first_then_nested": ("def run(x, a):\n    a, (b, c) = x, a\n    return a, b, c\n",
                                [(1, (2, 3)), (4, "yz")]),
    "independent": ("def run(x, y):\n    [a, b], [c, d] = x, y\n    return a, b, c, d\n",
                    [((1, 2), (3, 4)), ("ab", "cd")]),
    # the second target is an attribute: its object is loaded after the values were swapped into
    # their order, so no STORE follows the first store right away (written as two statements
    # until session 15, which recompiled without the SWAP)
    "attribute_second": ("def run(node):\n    parent, node.parent = node.parent, None\n    return parent, node.parent\n",
                         [(type("N", (), {"parent": 3})(),), (None,)]),
    "item_second": ("def run(heap, item):\n    item, heap[0] = heap[0], item\n    return item, heap\n",
                    [([5, 1], 2), ([], 1)]),
    "three_values": ("def run(x, y, a):\n    (a, b), c, (d, *e) = x, a, y\n    return a, b, c, d, e\n",
                     [((1, 2), (3, 4, 5), 6), ("ab", "cde", None)]),
}


def outcome(f, args):
    try:
        return repr(f(*copy.deepcopy(args)))
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"


def main() -> None:
    report = {}
    for name, (src, inputs) in CASES.items():
        ns: dict = {}
        exec(compile(src, name, "exec"), ns)
        try:
            text = decompile(ns["run"].__code__)
        except DecompileError as e:
            report[name] = {"source": None, "error": str(e), "results": []}
            continue
        again: dict = {}
        exec(compile(text, name, "exec"), again)
        report[name] = {
            "source": text,
            "error": None,
            "same_code": normalized(ns["run"].__code__) == normalized(again["run"].__code__),
            "results": [[outcome(ns["run"], a), outcome(again["run"], a)] for a in inputs],
        }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
