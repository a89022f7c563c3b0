"""Behaviour suite: classes defined inside functions (bases, keywords, metaclasses, __class__, super(),
properties, class-level code, decorators) and module-level classes used by functions."""


class Base:
    kind = "base"

    def __init__(self, v):
        self.v = v

    def describe(self):
        return "%s:%r" % (self.kind, self.v)


class Child(Base):
    kind = "child"

    def describe(self):
        return "child<" + super().describe() + ">"


class Meta(type):
    def __new__(mcls, name, bases, ns, **kw):
        ns["created_by"] = "Meta"
        ns["meta_kw"] = sorted(kw.items())
        return super().__new__(mcls, name, bases, ns)

    def __init__(cls, name, bases, ns, **kw):
        super().__init__(name, bases, ns)


def class_simple(x):
    class Point:
        def __init__(self, a, b):
            self.a = a
            self.b = b

        def total(self):
            return self.a + self.b

    p = Point(x, 2)
    return p.total(), type(p).__name__, type(p).__qualname__


def class_attributes(x):
    class C:
        a = 1
        b = a + 1
        c = [a, b]

        def get(self):
            return self.a + self.b

    C.a = x
    return C().get(), C.c, C.b


def class_bases(x):
    class A:
        def who(self):
            return "A"

    class B(A):
        pass

    class C(B, A):
        def who(self):
            return "C" + super().who()

    return C().who(), [k.__name__ for k in C.__mro__], isinstance(C(), A), x


def class_super_explicit(x):
    class P:
        def f(self, v):
            return v + 1

    class Q(P):
        def f(self, v):
            return super(Q, self).f(v) * 2

    return Q().f(x)


def class_dunder_class(x):
    class K:
        def me(self):
            return __class__.__name__

        def super_no_args(self):
            return super().__repr__ is not None

    return K().me(), K().super_no_args(), x


def class_with_metaclass(x):
    class M(Base, metaclass=Meta, flag=x):
        pass

    return M.created_by, M.meta_kw, M(3).describe()


def class_keywords_init_subclass(x):
    class Plugin:
        registry = []

        def __init_subclass__(cls, name=None, **kw):
            super().__init_subclass__(**kw)
            Plugin.registry.append((cls.__name__, name))

    class One(Plugin, name=x):
        pass

    class Two(Plugin):
        pass

    return Plugin.registry


def class_properties(x):
    class Temp:
        def __init__(self):
            self._c = 0

        @property
        def c(self):
            return self._c

        @c.setter
        def c(self, v):
            if v < -273:
                raise ValueError("too cold")
            self._c = v

        @staticmethod
        def unit():
            return "C"

        @classmethod
        def make(cls, v):
            t = cls()
            t.c = v
            return t

    t = Temp.make(x)
    return t.c, Temp.unit(), t.unit()


def class_dunder_methods(a, b):
    class Vec:
        def __init__(self, *xs):
            self.xs = xs

        def __add__(self, other):
            return Vec(*[p + q for p, q in zip(self.xs, other.xs)])

        def __eq__(self, other):
            return self.xs == other.xs

        def __len__(self):
            return len(self.xs)

        def __getitem__(self, i):
            return self.xs[i]

        def __repr__(self):
            return "Vec%r" % (self.xs,)

        __hash__ = None

    v = Vec(*a) + Vec(*b)
    return repr(v), len(v), v[0], v == Vec(*a), list(v)


def class_docstring_and_qualname(x):
    class Doc:
        """The doc."""

        class Inner:
            """Inner doc."""

            def m(self):
                return type(self).__qualname__

    return Doc.__doc__, Doc.Inner.__doc__, Doc.Inner().m(), x


def class_closure_over_function_locals(x):
    factor = x * 2

    class Scaled:
        value = factor

        def scale(self, v):
            return v * factor

    return Scaled.value, Scaled().scale(3)


def class_body_control_flow(x):
    class Cfg:
        if x > 0:
            sign = "pos"
        else:
            sign = "nonpos"
        items = []
        for i in range(3):
            items.append(i * x)
        try:
            inv = 1 / x
        except ZeroDivisionError:
            inv = None
        del i

    return Cfg.sign, Cfg.items, Cfg.inv, hasattr(Cfg, "i")


def class_body_comprehension(x):
    class C:
        base = [1, 2, 3]
        doubled = [v * 2 for v in base]
        names = {str(v): v for v in base}

    return C.doubled, C.names, x


def class_decorator(x):
    def register(cls):
        cls.registered = x
        return cls

    @register
    class R:
        pass

    return R.registered


def class_slots_and_annotations(x):
    class S:
        __slots__ = ("a", "b")
        a: int

        def __init__(self):
            self.a = x

    s = S()
    try:
        s.c = 1
    except AttributeError:
        blocked = True
    else:
        blocked = False
    return s.a, blocked, S.__annotations__ if hasattr(S, "__annotations__") else None


def class_method_defaults_closure(x):
    class C:
        def m(self, a=x, *, b=x + 1):
            return a, b

    return C().m(), C().m(0, b=0)


def class_module_level(x):
    return Child(x).describe(), Base(x).describe()


def class_private_names(x):
    class Priv:
        __secret = "s"

        def __init__(self):
            self.__v = x

        def get(self):
            return self.__v, self.__secret, _Other_helper(self)

    def _Other_helper(obj):
        return sorted(k for k in vars(obj))

    return Priv().get()


def class_exception_subclass(x):
    class MyErr(ValueError):
        def __init__(self, code):
            super().__init__("code %d" % code)
            self.code = code

    try:
        raise MyErr(x)
    except ValueError as e:
        return str(e), e.code


def class_dynamic_type(x):
    T = type("T", (object,), {"v": x, "get": lambda self: self.v * 2})
    return T().get(), T.__name__


def class_nonlocal_from_method(x):
    total = 0

    class Acc:
        def add(self, v):
            nonlocal total
            total += v
            return total

    a = Acc()
    a.add(x)
    a.add(x)
    return total


def class_classmethod_super(x):
    class A:
        @classmethod
        def create(cls, v):
            return (cls.__name__, v)

    class B(A):
        @classmethod
        def create(cls, v):
            return super().create(v + 1)

    return B.create(x), A.create(x)


def class_getattr_protocol(name):
    class Dyn:
        def __getattr__(self, n):
            if n.startswith("x"):
                return n.upper()
            raise AttributeError(n)

    return getattr(Dyn(), name)


def class_iterator_protocol(n):
    class Count:
        def __init__(self, n):
            self.i = 0
            self.n = n

        def __iter__(self):
            return self

        def __next__(self):
            if self.i >= self.n:
                raise StopIteration
            self.i += 1
            return self.i

    return list(Count(n)), sum(Count(n))


def class_cell_with_final_if(x):
    # a class body using __class__ whose last statement is an `if`: 3.11+ copy the body's epilogue
    # (the class cell's store and return) into the ends of its arms
    class Child(Base):
        def describe(self):
            return "child " + super().describe()

        if x > 0:
            kind = "positive"
            twice = x * 2
        elif x == 0:
            kind = "zero"
        else:
            kind = "negative"

    return Child(x).describe(), getattr(Child, "twice", None)


CASES = {
    "class_cell_with_final_if": [(3,), (0,), (-2,)],
    "class_simple": [(1,), ("a",)],
    "class_attributes": [(5,), ("x",)],
    "class_bases": [(0,)],
    "class_super_explicit": [(1,), ("a",)],
    "class_dunder_class": [(1,)],
    "class_with_metaclass": [(1,), ("k",)],
    "class_keywords_init_subclass": [("one",), (None,)],
    "class_properties": [(20,), (-300,), (0,)],
    "class_dunder_methods": [((1, 2), (3, 4)), ((1,), ("a",)), ((), ())],
    "class_docstring_and_qualname": [(0,)],
    "class_closure_over_function_locals": [(2,), ("a",)],
    "class_body_control_flow": [(2,), (0,), (-1,)],
    "class_body_comprehension": [(0,)],
    "class_decorator": [(7,)],
    "class_slots_and_annotations": [(1,)],
    "class_method_defaults_closure": [(1,), ("a",)],
    "class_module_level": [(1,), ("s",)],
    "class_private_names": [(3,)],
    "class_exception_subclass": [(3,), ("x",)],
    "class_dynamic_type": [(4,), ("s",)],
    "class_nonlocal_from_method": [(1,), ("s",)],
    "class_classmethod_super": [(1,), ("s",)],
    "class_getattr_protocol": [("xy",), ("y",), ("__len__",)],
    "class_iterator_protocol": [(3,), (0,), ("a",)],
}
