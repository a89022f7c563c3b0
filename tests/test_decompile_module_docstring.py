"""A module's docstring (`__doc__ = '...'` first in its code) comes back as a docstring, so a
`from __future__` import after it still compiles; 3.14's `__conditional_annotations__ = set()`
(made by the compiler where annotations stand inside compound statements, under `from __future__
import annotations` too) is not written out. Before 2026-11-22 both came out as assignments, and a
module with a docstring and a future import did not compile again."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_module_docstrings_round_trip(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/module_docstring_checks.py")
    for name, r in rep.items():
        assert r["same_code"], (name, r["source"])
        assert r["doc"][0] == r["doc"][1], (name, r)
        assert r["docs"][0] == r["docs"][1], (name, r)
        assert r["split"][:2] == r["split"][2:], (name, r)
    assert rep["doc_then_future"]["source"].startswith('"""The module."""\nfrom __future__ import annotations\n')
    assert "__doc__ = 'late'" in rep["doc_assigned_later"]["source"]
    # the declaration goes after the docstring and the future import, before the first use
    assert rep["global_in_function"]["source"].startswith(
        '"""Doc."""\nfrom __future__ import annotations\nglobal _cache\n_cache = {}\n'
    )
    assert rep["fstring_statements"]["docs"][0] == {"g": None, "h": None, "K": None}
    assert rep["global_in_function"]["split"][:2] == [["_cache"], ["__doc__", "annotations", "get"]]
    if minor >= 14:
        for name in ("conditional_future", "conditional_lazy"):
            assert "__conditional_annotations__" not in rep[name]["source"], rep[name]["source"]
