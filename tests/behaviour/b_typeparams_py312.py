"""Behaviour suite (3.12+): type parameters on functions and classes, bounds, constraints, defaults
of 3.13 are left out (3.12 syntax only), the type statement, and generic classes with methods."""


def tp_generic_function(x):
    def first[T](xs: list[T]) -> T:
        return xs[0]

    return first(x), [p.__name__ for p in first.__type_params__]


def tp_bound_and_constraints(x):
    def f[T: int, U: (str, bytes), *Ts, **P](a: T, b: U) -> tuple[T, U]:
        return a, b

    params = f.__type_params__
    return f(x, "s"), [type(p).__name__ for p in params], params[0].__bound__, params[1].__constraints__


def tp_generic_class(x):
    class Box[T]:
        def __init__(self, item: T):
            self.item = item

        def get(self) -> T:
            return self.item

    return Box(x).get(), [p.__name__ for p in Box.__type_params__], Box[int].__origin__ is Box


def tp_generic_class_bases(x):
    class Base:
        def hello(self):
            return "base"

    class Derived[T](Base):
        value = x

        def get(self):
            return super().hello(), self.value

    return Derived().get(), Derived.__mro__[1].__name__, len(Derived.__type_params__)


def tp_type_alias(x):
    type Pair = tuple[int, int]
    type Lazy[T] = list[T] | None
    return Pair.__name__, repr(Pair.__value__), Lazy.__type_params__[0].__name__, x


def tp_alias_lazy_evaluation(x):
    type Later = Undefined  # noqa: F821
    try:
        return Later.__value__
    except NameError as e:
        return "lazy: " + str(e)


def tp_method_type_params(x):
    class C:
        def m[T](self, v: T) -> list[T]:
            return [v, v]

    return C().m(x), C.m.__type_params__[0].__name__


def tp_closure_over_outer(x):
    scale = x

    def outer[T](v: T):
        def inner():
            return v * scale

        return inner()

    return outer(3)


def tp_class_keywords(x):
    class Meta(type):
        def __new__(m, name, bases, ns, **kw):
            ns["kw"] = kw
            return super().__new__(m, name, bases, ns)

    class K[T](metaclass=Meta, flag=x):
        pass

    return K.kw, K.__type_params__[0].__name__


def tp_bound_lazy(x):
    def f[T: UndefinedBound]():  # noqa: F821
        return 1

    try:
        return f(), f.__type_params__[0].__bound__
    except NameError as e:
        return "lazy bound: " + str(e), x


CASES = {
    "tp_generic_function": [([1, 2],), ([],)],
    "tp_bound_and_constraints": [(1,), ("a",)],
    "tp_generic_class": [(1,)],
    "tp_generic_class_bases": [(2,)],
    "tp_type_alias": [(0,)],
    "tp_alias_lazy_evaluation": [(0,)],
    "tp_method_type_params": [(1,)],
    "tp_closure_over_outer": [(2,), ("a",)],
    "tp_class_keywords": [(1,)],
    "tp_bound_lazy": [(0,)],
}
