"""Behaviour suite: evaluation order and stack discipline - tuple assignments whose right side reads
the targets (swaps, rotations), walrus inside expressions that also read the name, double negation,
augmented assignment evaluating its target once, call forms with */** only, return inside with."""


def swap_names(a, b):
    a, b = b, a
    return a, b


def rotate_names(a, b, c):
    a, b, c = b, c, a
    return a, b, c


def fib_pair(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def swap_attributes(x, y):
    class P:
        pass

    p = P()
    p.x, p.y = x, y
    p.x, p.y = p.y, p.x
    return p.x, p.y


def swap_subscripts(xs):
    xs[0], xs[-1] = xs[-1], xs[0]
    return xs


def swap_four(a, b, c, d):
    a, b, c, d = d, c, b, a
    return a, b, c, d


def walrus_reads_old_value(a):
    return a, (a := a + 1), a


def walrus_in_binop(a):
    b = a + (a := 10)
    return a, b


def store_then_pending_use(a):
    t = (a, a)
    a = 0
    return t, a


def double_negation(a):
    return not not a, not (not a), (not a) == (not not a)


def negation_in_condition(a, b):
    if not not a and not b:
        return "a only"
    return "else"


def augmented_target_once(k):
    calls = []

    def key():
        calls.append(k)
        return k

    d = {k: 1}
    d[key()] += 10
    lst = [0, 0]
    lst[key() % 2] -= 1
    return d, lst, len(calls)


def augmented_attr_once(v):
    calls = []

    class O:
        n = 0

    def obj():
        calls.append(1)
        return o

    o = O()
    obj().n += v
    return o.n, len(calls)


def call_kwargs_only(**kw):
    def inner(a=0, b=0, **rest):
        return a, b, sorted(rest)

    return inner(**kw)


def call_args_only(*args):
    def inner(*a):
        return a

    return inner(*args), inner(*args, *args)


def call_method_star_forms(xs, kw):
    class C:
        def m(self, *a, **k):
            return a, sorted(k.items())

    c = C()
    return c.m(*xs), c.m(**kw), c.m(*xs, **kw), c.m(0, *xs, z=1, **kw)


def call_wrapper_forwarding(x):
    def target(*a, **k):
        return a, sorted(k)

    def wrapper(*a, **k):
        return target(*a, **k)

    return wrapper(x), wrapper(x, y=x), wrapper(**{"q": x})


def return_inside_with_if(x):
    class CM:
        def __init__(self, log):
            self.log = log

        def __enter__(self):
            self.log.append("enter")

        def __exit__(self, *a):
            self.log.append("exit")

    log = []

    def inner():
        with CM(log):
            if x:
                return "early"
            log.append("late")
        return "end"

    return inner(), log


def return_inside_with_if_else(x):
    log = []

    class CM:
        def __enter__(self):
            log.append("enter")

        def __exit__(self, *a):
            log.append("exit")

    def inner():
        with CM():
            if x > 0:
                return "pos"
            else:
                log.append("nonpos")
        return "after"

    return inner(), log


def evaluation_order_of_call_args(x):
    log = []

    def f(tag):
        log.append(tag)
        return tag

    def g(*a, **k):
        return a, sorted(k.items())

    r = g(f(1), *[f(2)], k=f(3), **{"j": f(4)})
    return r, log


def subscript_store_order(x):
    log = []

    def f(tag, v):
        log.append(tag)
        return v

    d = {}
    f("container", d)[f("key", "k")] = f("value", x)
    return d, log


def chained_assign_order(x):
    log = []

    class L(list):
        def __setitem__(self, k, v):
            log.append(k)
            super().__setitem__(k, v)

    a = L([0, 0, 0])
    a[0] = a[1] = a[2] = x
    return a, log


def comp_shadows_name_in_expression(a, xs):
    return a, [a * 2 for a in xs], a


def comp_after_pending_value(a, xs):
    return a + sum([x + a for x in xs]), a


def augmented_with_walrus(a):
    a += (a := 5)
    return a


def call_args_with_walrus(a):
    def f(*args):
        return args

    return f(a, (a := a + 1), a)


def attributes_cross_assign(x):
    class O:
        pass

    o = O()
    o.x, o.y = x, -x
    o.x, o.y = o.y + 1, o.x
    return o.x, o.y


def target_order_subscript_then_name(k):
    d = {}
    k, d[k] = k + 1, "v"
    d[k], k = "w", k * 10
    return d, k


def loop_swap_accumulate(xs):
    lo, hi = 0, 0
    for x in xs:
        if x < lo:
            lo, hi = x, lo
        elif x > hi:
            hi, lo = x, hi
    return lo, hi


def conditional_walrus(a):
    r = (a := a * 2) if a > 0 else (a := -a)
    return r, a


CASES = {
    "swap_names": [(1, 2), ("a", None)],
    "rotate_names": [(1, 2, 3), ("a", "b", "c")],
    "fib_pair": [(0,), (1,), (10,)],
    "swap_attributes": [(1, 2), ("a", "b")],
    "swap_subscripts": [([1, 2, 3],), ([1],), ([],)],
    "swap_four": [(1, 2, 3, 4)],
    "walrus_reads_old_value": [(1,), ("a",)],
    "walrus_in_binop": [(1,), (5,)],
    "store_then_pending_use": [(1,), ("a",)],
    "double_negation": [(1,), (0,), ("",), ([1],)],
    "negation_in_condition": [(1, 0), (0, 0), (1, 1)],
    "augmented_target_once": [(2,), (3,)],
    "augmented_attr_once": [(2,), ("a",)],
    "call_kwargs_only": [(), {"args": (), "kw": {"a": 1, "c": 3}}, {"args": (), "kw": {"b": 2}}],
    "call_args_only": [(), (1, 2)],
    "call_method_star_forms": [([1, 2], {"k": 3}), ([], {})],
    "call_wrapper_forwarding": [(1,), ("s",)],
    "return_inside_with_if": [(0,), (1,)],
    "return_inside_with_if_else": [(0,), (1,)],
    "evaluation_order_of_call_args": [(0,)],
    "subscript_store_order": [(1,)],
    "chained_assign_order": [(5,)],
    "comp_shadows_name_in_expression": [(1, [2, 3]), ("a", [])],
    "comp_after_pending_value": [(1, [2, 3]), (0, [])],
    "augmented_with_walrus": [(1,), (10,)],
    "call_args_with_walrus": [(1,), (5,)],
    "attributes_cross_assign": [(1,), (3,)],
    "target_order_subscript_then_name": [(1,), (5,)],
    "loop_swap_accumulate": [([3, -1, 5, -4],), ([],)],
    "conditional_walrus": [(2,), (-3,), (0,)],
}
