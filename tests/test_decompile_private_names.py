"""Private names in a class (`__x`, which the compiler stores as `_C__x` in the class body and in
every function, lambda and comprehension in it) come back as written: `self.__x`, `def __f`,
`class __Inner`, a keyword-only `__k=1`. Compiled again inside the class they are mangled to the same
names, and 3.13+ record `self.__x` in `__static_attributes__` as `__x`, as the original did (before
2026-11-22 the decompiler wrote the mangled names, and 3.13+ class bodies with private attributes came
back with other constants; a private class nested in a class was refused)."""

from __future__ import annotations

import pytest

from conftest import LIVE_MINORS, interpreter, run_json


@pytest.mark.parametrize("minor", LIVE_MINORS)
def test_private_names_round_trip_and_run_the_same(minor: int) -> None:
    rep = run_json(interpreter(minor), "tests/support/private_names_checks.py")
    for name, r in rep.items():
        assert r["same_code"], (name, r["source"])
        assert r["results"][0] == r["results"][1], (name, r["results"], r["source"])
        assert not r["results"][0].startswith(("AttributeError", "NameError", "TypeError")), (name, r["results"])
    src = rep["attributes_and_methods"]["source"]
    for written in ("self.__owner = owner", "def __log(self, what):", "__rate = 3", "*, __limit=10",
                    "__note: str = ''"):
        assert written in src, (written, src)
    assert "_Account__" not in src.replace("_Account__limit=20", "")
    assert "class __Inner:" in rep["nested_private_class"]["source"]
    # a name written mangled in the source is the same name: it may come back either way
    assert "__v" in rep["written_mangled"]["source"]
