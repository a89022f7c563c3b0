"""Behaviour suite (3.13+): type-parameter defaults (PEP 696) on functions, classes and aliases,
with bounds and constraints, decorated generic defs, generic methods of generic classes, and
defaults evaluated lazily."""


def tpd_function_defaults(x):
    def f[T = int, U: str = "s", V: (int, str) = str, *Ts = *tuple[int, ...], **P = [int, str]](a: T = x) -> T:
        return a

    ps = f.__type_params__
    return f(), f(x), [p.__name__ for p in ps], [p.has_default() for p in ps], ps[1].__bound__, ps[2].__constraints__, ps[0].__default__


def tpd_class_defaults(x):
    class Box[T = list[int], *Ts = *tuple[()]]:
        def __init__(self, v: T):
            self.v = v

        def pair[S = T](self, s: S) -> tuple[T, S]:
            return self.v, s

    ps = Box.__type_params__
    m = Box.pair.__type_params__[0]
    return Box(x).pair(x), [repr(p.__default__) for p in ps], m.__default__ is ps[0]


def tpd_alias_defaults(x):
    type A[K = str, **P = ..., *Vs = *tuple[int]] = dict[K, tuple[*Vs]]
    return A.__name__, [repr(p.__default__) for p in A.__type_params__], repr(A.__value__), x


def tpd_lazy_default(x):
    def f[T = Missing]():  # noqa: F821
        return x

    try:
        return f(), f.__type_params__[0].__default__
    except NameError as e:
        return "lazy default: " + str(e)


def tpd_decorated(x):
    calls = []

    def deco(f):
        calls.append(f.__name__)
        return f

    @deco
    def g[T = bytes](a: T, *, k: int = 2) -> list[T]:
        return [a] * k

    @deco
    class K[T = float]:
        pass

    return g(x), g(x, k=1), calls, K.__type_params__[0].__default__


def tpd_closure(x):
    base = [x]

    def outer[T = int](v: T):
        def inner():
            return base + [v]

        return inner()

    return outer(1), outer(x)


CASES = {
    "tpd_function_defaults": [(1,), ("a",)],
    "tpd_class_defaults": [(1,), ([2],)],
    "tpd_alias_defaults": [(0,)],
    "tpd_lazy_default": [(0,)],
    "tpd_decorated": [(1,), ("ab",)],
    "tpd_closure": [(2,), ("a",)],
}
