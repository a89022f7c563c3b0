"""PEP 695 type parameters and `type` aliases (3.12-3.14; PEP 696 defaults 3.13+): generic
functions and classes (bounds, constraints, TypeVarTuple, ParamSpec, defaults and keyword defaults,
decorators, keywords and metaclass, generic methods of generic classes, private names, async), type
aliases with and without parameters, in module, function and class scopes. Each case module
(tests/support/type_params_cases.py) is decompiled under that interpreter, recompiled, and compared
with the original: every code object's instruction sequence (the `<generic parameters of X>` scopes
and the lazily evaluated bound / constraint / default / value functions among them) and the
behaviour of `run` (`__type_params__`, evaluated bounds, constraints, defaults, alias `__value__`,
calls). Shapes the decompiler does not know must be refused, never guessed."""

from __future__ import annotations

import pytest

from conftest import interpreter, run_json

MINORS = [12, 13, 14]


@pytest.fixture(scope="module", params=MINORS)
def report(request) -> tuple:
    exe = interpreter(request.param)
    return request.param, run_json(exe, "tests/support/type_params_cases.py")


def test_cases_round_trip_and_behave(report) -> None:
    minor, results = report
    cases = results["cases"]
    assert len(cases) >= (10 if minor >= 13 else 9)
    bad = [r for r in cases if not r["ok"]]
    assert not bad, f"3.{minor}: " + "\n".join(
        f"{r['case']}: {r.get('error') or r.get('differing') or r.get('results')}\n{r.get('source')}" for r in bad
    )


def test_sources_spell_type_parameters(report) -> None:
    minor, results = report
    src = {r["case"]: r["source"] for r in results["cases"]}
    assert "def f[T: int, U: (str, bytes), *Ts, **P](a: T, b: U, *rest: *Ts) -> tuple[T, U]:" in src[
        "bounds_constraints_kinds"], src["bounds_constraints_kinds"]
    assert "def g[T](a: T=1, b=[2], *, k: T=3, j=None) -> T:" in src["defaults_and_kwdefaults"].replace(" = ", "="), \
        src["defaults_and_kwdefaults"]
    assert "@wrap\n@tag\ndef h[T](a: T) -> T:" in src["decorated"], src["decorated"]
    assert "class Box[T, *Ts, **P](Base, metaclass=Meta, flag=1):" in src["generic_class"], src["generic_class"]
    assert "def typed[S: (int, str)](self, v: S) -> tuple[T, S]:" in src["generic_class"], src["generic_class"]
    assert "__type_params__ =" not in src["generic_class"]
    aliases = src["type_aliases"].replace("[*Vs,]", "[*Vs]")
    for line in ("type Pair = tuple[int, int]", "type Lazy[T] = list[T] | None", "type Later = Undefined",
                 "type Multi[K, *Vs, **P] = dict[K, tuple[*Vs]]"):
        assert line in aliases, aliases
    scoped = src["in_function_and_class_scope"]
    assert "    type Local[T] = dict[str, T]" in scoped and "        type Member = list[U]" in scoped, scoped
    assert "def __hidden[T](self, v: T) -> T:" in src["async_and_private"]
    assert "async def co[T](v: T) -> T:" in src["async_and_private"]
    if minor >= 13:
        d = src["type_param_defaults"]
        assert ("def f[T = int, U: str = 's', V: (int, str) = str, *Ts = *tuple[int, ...], **P = [int, str]](a: T) -> T:"
                in d), d
        assert "class C[T = list[int], *Ts = *tuple[()]]:" in d, d
        assert "type A[K = str, **P = ...] = dict[K, int]" in d, d


def test_unknown_shapes_are_refused(report) -> None:
    minor, results = report
    assert results["refused"], "no refusal case ran"
    bad = [r for r in results["refused"] if not r["ok"]]
    assert not bad, f"3.{minor}: decompiled instead of refused: {bad}"
    for r in results["refused"]:
        assert "type-parameter scope" in r["error"], r["error"]
