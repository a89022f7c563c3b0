"""A call whose positional tuple or keyword dict is a display the source unpacked (`f(*(1, 2))`,
`f(*[a, b])`, `f(**{'k': 1})`) comes back as written; a tuple or dict the compiler packed (a starred
argument among others, a `**` argument, 3.10+ more than 30 arguments) comes back as the plain
arguments. Before 2026-11-22 every display was spread into plain arguments, which compile to another
call (test_call's *_ext tests, datetimetester's test_subclass_*: `f(**{'extra': 1})`). A class
statement with unpacked bases or keywords (`class C(*bases)`, `class C(**kw)`), which calls
__build_class__ the same way, was refused before."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_call_argument_shapes_round_trip(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/call_shapes_checks.py")
    for name, r in rep.items():
        assert r["same_code"], (name, r["source"])
        assert r["results"][0] == r["results"][1], (name, r["results"], r["source"])
        assert not r["results"][0].startswith(("NameError", "TypeError")), (name, r["results"])
    written = {
        "star_const_tuple": "f(*(1, 2, 3))",
        "star_list_display": "f(*[a0, a1])",
        "star_tuple_display": "f(*(a0, a1))",
        "dstar_display": "f(**{'extra': 1})",
        "positional_then_dstar_display": "f(a0, **{'extra': 1})",
        "packed_star": "f(a0, *seq)",
        "dict_dstar_display": "{**{'a': 1}}",
        "many_consts": "f(0, 1, 2, ",
        "class_star_bases": "class C(*bases):",
        "class_dstar": "class C(**meta):",
        "class_base_star_keyword": "class C(B, *bases, metaclass=M):",
        "class_decorated_dstar": "@deco\nclass C(B, **meta):",
    }
    for name, text in written.items():
        assert text in rep[name]["source"], (name, rep[name]["source"])
