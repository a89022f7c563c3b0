"""Behaviour suite: signatures, defaults, annotations, *args/**kwargs, decorators, lambdas, closures,
nonlocal and global."""

import functools

COUNTER = 0
REGISTRY = []


def sig_positional(a, b, c=3):
    return a, b, c


def sig_posonly(a, b, /, c, d=4):
    return a, b, c, d


def sig_posonly_defaults(a=1, b=2, /, *, c=3):
    return a, b, c


def sig_kwonly(a, *, b, c=10):
    return a, b, c


def sig_kwonly_after_args(*args, sep="-", end="!"):
    return sep.join(map(str, args)) + end


def sig_varargs_kwargs(a, *args, **kwargs):
    return a, args, sorted(kwargs.items())


def sig_everything(a, b=2, /, c=3, *args, d, e=5, **kw):
    return a, b, c, args, d, e, sorted(kw.items())


def sig_annotated(a: int, b: "str" = "x", *args: float, c: list = None, **kw: dict) -> tuple:
    return a, b, args, c, kw


def sig_mutable_default(x, acc=[]):  # noqa: B006
    acc.append(x)
    return len(acc) > 0, x


def sig_default_expression(x, y=2 ** 10, z=(1, "a", None), w=-1.5, v=frozenset()):
    return x, y, z, w, v


def sig_call_forms(a, b):
    def f(*args, **kw):
        return args, sorted(kw.items())

    rest = [a, b]
    opts = {"k": a}
    return (
        f(a, b),
        f(*rest),
        f(a, *rest, b),
        f(k=a, **{"j": b}),
        f(*rest, **opts),
        f(a, *rest, x=1, **opts),
        f(**opts, z=b),
    )


def decorator_simple(x):
    def deco(fn):
        def wrapper(*a):
            return ("wrapped", fn(*a))

        return wrapper

    @deco
    def g(v):
        return v * 2

    return g(x)


def decorator_stack(x):
    log = []

    def tag(name):
        def deco(fn):
            log.append(name)

            def w(*a):
                return name + "(" + str(fn(*a)) + ")"

            return w

        return deco

    @tag("outer")
    @tag("inner")
    def h(v):
        return v + 1

    return h(x), log


def decorator_expression(x):
    decos = {"dbl": lambda f: lambda v: f(v) * 2}

    @decos["dbl"]
    def k(v):
        return v - 1

    return k(x)


def decorator_functools(x):
    @functools.lru_cache(maxsize=None)
    def fib(n):
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    return fib(x), fib.cache_info().hits > 0


def decorator_wraps(x):
    def deco(fn):
        @functools.wraps(fn)
        def w(*a, **k):
            return fn(*a, **k)

        return w

    @deco
    def documented(v):
        """Docs."""
        return v

    return documented(x), documented.__name__, documented.__doc__


def lambda_basic(x):
    sq = lambda v: v * v  # noqa: E731
    add = lambda a, b=1: a + b  # noqa: E731
    return sq(x), add(x), add(x, x)


def lambda_varargs(x):
    f = lambda *a, **k: (a, sorted(k))  # noqa: E731
    g = lambda a, /, b, *, c: (a, b, c)  # noqa: E731
    return f(x, x, y=x), g(x, b=2, c=3)


def lambda_closure(n):
    fs = [lambda v, i=i: v + i for i in range(n)]
    gs = [lambda v: v + i for i in range(n)]
    return [f(10) for f in fs], [g(10) for g in gs]


def lambda_in_sort(words):
    return sorted(words, key=lambda w: (-len(w), w))


def lambda_conditional(x):
    f = lambda v: "pos" if v > 0 else ("zero" if v == 0 else "neg")  # noqa: E731
    return f(x)


def lambda_nested(x):
    adder = lambda a: lambda b: lambda c: a + b + c  # noqa: E731
    return adder(x)(2)(3)


def closure_counter(n):
    def make():
        count = 0

        def inc(step=1):
            nonlocal count
            count += step
            return count

        return inc

    c = make()
    return [c() for _ in range(n)], c(10)


def closure_cell_shared(x):
    value = x

    def get():
        return value

    def set_(v):
        nonlocal value
        value = v

    before = get()
    set_(x * 3)
    return before, get(), value


def closure_arg_cell(a, b):
    def inner():
        return a * b

    a += 1
    return inner()


def closure_three_levels(x):
    def l1():
        y = x + 1

        def l2():
            z = y * 2

            def l3():
                return x, y, z

            return l3()

        return l2()

    return l1()


def closure_late_binding(n):
    fs = []
    for i in range(n):
        def f():
            return i

        fs.append(f)
    return [f() for f in fs]


def closure_nonlocal_in_loop(xs):
    total = 0

    def add(v):
        nonlocal total
        total += v

    for x in xs:
        add(x)
    return total


def closure_unbound_free(flag):
    def inner():
        return val

    if flag:
        val = "set"
    return inner()


def global_read(x):
    return COUNTER + x


def global_write(x):
    global COUNTER
    COUNTER = x
    COUNTER += 1
    return COUNTER


def global_declared_not_assigned(x):
    global REGISTRY
    REGISTRY.append(x)
    return len(REGISTRY) > 0


def global_del(x):
    global TEMP_GLOBAL
    TEMP_GLOBAL = x
    v = TEMP_GLOBAL
    del TEMP_GLOBAL
    try:
        return v, TEMP_GLOBAL
    except NameError as e:
        return v, str(e)


def global_in_nested(x):
    def setter():
        global COUNTER
        COUNTER = x * 2

    setter()
    return COUNTER


def recursion(n):
    def fact(k):
        return 1 if k <= 1 else k * fact(k - 1)

    return fact(n)


def default_evaluated_once(n):
    calls = []

    def d():
        calls.append(1)
        return len(calls)

    def f(x=d()):
        return x

    return [f() for _ in range(n)], len(calls)


def function_attributes(x):
    def f(a, b=x, *, c=x):
        """doc of f"""
        return a

    return f.__name__, f.__doc__, f.__defaults__, f.__kwdefaults__, f.__code__.co_argcount


def nested_annotations(x):
    def f(a: int, b: "q" = 2) -> str:
        return str(a + b)

    return f(x), sorted(f.__annotations__)


def kwargs_passthrough(**kw):
    def inner(a=0, b=0, **rest):
        return a, b, sorted(rest)

    return inner(**kw)


def args_passthrough(*args):
    def inner(a, b=None, *rest):
        return a, b, rest

    return inner(*args)


def decorator_and_default_evaluation_order(x):
    log = []

    def note(tag, value=None):
        log.append(tag)
        return value

    def deco(tag):
        log.append("deco " + tag)

        def apply(fn):
            log.append("apply " + tag)
            return fn

        return apply

    @deco("outer")
    @deco("inner")
    def f(a=note("default a", x), *, b=note("default b", 2)):
        return a, b

    return f(), log


def class_bases_keywords_evaluation_order(x):
    log = []

    def note(tag, value):
        log.append(tag)
        return value

    class Meta(type):
        def __new__(m, name, bases, ns, **kw):
            log.append("meta " + ",".join(sorted(kw)))
            return super().__new__(m, name, bases, ns)

    class K(note("base", object), metaclass=note("metaclass", Meta), flag=note("flag", x)):
        log.append("body")

    return log


CASES = {
    "sig_positional": [(1, 2), (1, 2, 4), (1,), (1, 2, 3, 4)],
    "sig_posonly": [(1, 2, 3), (1, 2, 3, 5), (1, 2), {"args": (1, 2), "kw": {"c": 3}}, {"args": (1,), "kw": {"b": 2, "c": 3}}],
    "sig_posonly_defaults": [(), (9,), (9, 8), {"args": (), "kw": {"c": 0}}, {"args": (), "kw": {"a": 0}}],
    "sig_kwonly": [(1,), (1, 2), {"args": (1,), "kw": {"b": 2}}, {"args": (1,), "kw": {"b": 2, "c": 3}}],
    "sig_kwonly_after_args": [(1, 2, 3), ()],
    "sig_varargs_kwargs": [(1,), (1, 2, 3), (), {"args": (1,), "kw": {"x": 1, "a": 2}}, {"args": (1,), "kw": {"y": 1}}],
    "sig_everything": [(1,), (1, 2, 3, 4, 5), {"args": (1, 2, 3, 4, 5), "kw": {"d": 6, "z": 7}}, {"args": (1,), "kw": {"d": 0, "e": 1}}],
    "sig_annotated": [(1,), (1, "b", 2.0, 3.0), {"args": (1,), "kw": {"c": [1], "d": {}}}],
    "sig_mutable_default": [(1,), ("x",)],
    "sig_default_expression": [(0,), (1, 2, 3, 4, 5)],
    "sig_call_forms": [(1, 2), ("a", "b")],
    "decorator_simple": [(3,), ("s",)],
    "decorator_stack": [(1,), ("s",)],
    "decorator_expression": [(5,), ("s",)],
    "decorator_functools": [(10,), (1,)],
    "decorator_wraps": [(1,)],
    "lambda_basic": [(3,), ("a",), (None,)],
    "lambda_varargs": [(1,), ("z",)],
    "lambda_closure": [(3,), (0,)],
    "lambda_in_sort": [(["bb", "a", "ccc", "aa"],), ([],), ([1],)],
    "lambda_conditional": [(1,), (0,), (-1,), ("s",)],
    "lambda_nested": [(1,), ("a",)],
    "closure_counter": [(3,), (0,)],
    "closure_cell_shared": [(1,), ("a",)],
    "closure_arg_cell": [(2, 3), ("a", 2)],
    "closure_three_levels": [(1,), ("a",)],
    "closure_late_binding": [(3,), (0,)],
    "closure_nonlocal_in_loop": [([1, 2, 3],), ([],), (["a"],)],
    "closure_unbound_free": [(1,), (0,)],
    "global_read": [(1,), ("s",)],
    "global_write": [(5,), (10,), ("s",)],
    "global_declared_not_assigned": [(1,)],
    "global_del": [(3,)],
    "global_in_nested": [(4,)],
    "recursion": [(5,), (0,), ("a",)],
    "default_evaluated_once": [(3,), (0,)],
    "function_attributes": [(1,)],
    "nested_annotations": [(1,), ("a",)],
    "kwargs_passthrough": [(), ({"a": 1},), {"args": (), "kw": {"a": 1, "c": 3}}, {"args": (), "kw": {"b": 2}}],
    "args_passthrough": [(1,), (1, 2, 3, 4), ()],
    "decorator_and_default_evaluation_order": [(1,)],
    "class_bases_keywords_evaluation_order": [(1,)],
}
