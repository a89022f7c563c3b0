"""Behaviour suite: list/set/dict comprehensions and generator expressions, nested, with conditions,
closures and walrus inside them."""

OFFSET = 100


def list_comp(xs):
    return [x * 2 for x in xs]


def list_comp_if(xs):
    return [x for x in xs if x % 2 if x > 2]


def list_comp_ifelse(xs):
    return [x if x > 0 else -x for x in xs]


def list_comp_nested_for(n):
    return [(i, j) for i in range(n) for j in range(i) if (i + j) % 2]


def list_comp_nested_comp(n):
    return [[i * j for j in range(n)] for i in range(n)]


def set_comp(xs):
    return sorted({x % 5 for x in xs})


def set_comp_cond(words):
    return sorted({w[0] for w in words if w})


def dict_comp(xs):
    return {x: x * x for x in xs}


def dict_comp_cond_swap(d):
    return {v: k for k, v in d.items() if v is not None}


def dict_comp_nested(n):
    return {i: {j: i * j for j in range(i)} for i in range(n)}


def genexpr_sum(xs):
    return sum(x * x for x in xs if x)


def genexpr_lazy(xs):
    g = (10 // x for x in xs)
    out = []
    try:
        for v in g:
            out.append(v)
    except ZeroDivisionError:
        out.append("zde")
    return out


def genexpr_first_iter_eager(xs):
    try:
        g = (x for x in xs)
    except TypeError:
        return "eager TypeError"
    return list(g)


def genexpr_nested(rows):
    return list(x for row in rows for x in row if x is not None)


def genexpr_as_arg(xs):
    return max((len(str(x)), x) for x in xs)


def comp_closure_over_local(xs, k):
    return [x + k for x in xs], [x + OFFSET for x in xs]


def comp_uses_outer_in_condition(xs, limit):
    return [x for x in xs if x < limit]


def comp_lambda_inside(n):
    fs = [lambda: i for i in range(n)]
    return [f() for f in fs]


def comp_iteration_variable_does_not_leak(xs):
    x = "outer"
    _ = [x for x in xs]
    return x


def comp_with_walrus(xs):
    out = [y for x in xs if (y := x * 2) > 4]
    return out, y if xs else None


def comp_unpack_targets(pairs):
    return [a * b for a, b in pairs], {a: b for (a, b) in pairs}


def comp_star_unpack_target(rows):
    return [rest for first, *rest in rows]


def comp_in_comp_condition(rows):
    return [r for r in rows if any(v < 0 for v in r)]


def comp_dict_from_zip(keys, values):
    return {k: v for k, v in zip(keys, values)}


def comp_set_of_tuples(n):
    return sorted({(i % 2, i % 3) for i in range(n)})


def comp_over_string(s):
    return [c.upper() for c in s if c.isalpha()], {c for c in s} == set(s)


def comp_nested_closure(n):
    def make(k):
        return [[k * i + j for j in range(i)] for i in range(n)]

    return make(n)


def genexpr_send_none(xs):
    g = (x + 1 for x in xs)
    return next(g, "empty"), list(g)


def comp_method_calls(words):
    return [w.strip().lower() for w in words if w.strip()]


def comp_ternary_key(xs):
    return {("even" if x % 2 == 0 else "odd"): x for x in xs}


def comp_exception_inside(xs):
    try:
        return [1 / x for x in xs]
    except ZeroDivisionError as e:
        return str(e)


def comp_async_free_generator_expression_in_call(xs):
    return "".join(str(x) for x in xs), tuple(x for x in xs), sorted((x for x in xs), reverse=True)


def comp_class_scope(n):
    class K:
        size = n
        rows = [i for i in range(size)]

    return K.rows


def comp_deep_nesting(n):
    return [[[(a, b, c) for c in range(b)] for b in range(a)] for a in range(n)]


CASES = {
    "list_comp": [([1, 2],), ([],), ("ab",), (None,)],
    "list_comp_if": [([1, 2, 3, 5, 6],), ([],)],
    "list_comp_ifelse": [([-1, 0, 2],), (["a"],)],
    "list_comp_nested_for": [(4,), (0,)],
    "list_comp_nested_comp": [(3,), (0,)],
    "set_comp": [([1, 6, 11, 3],), ([],)],
    "set_comp_cond": [(["ab", "", "ac", "b"],), ([1],)],
    "dict_comp": [([1, 2, 3],), ([],), ([[1]],)],
    "dict_comp_cond_swap": [({"a": 1, "b": None},), ({},)],
    "dict_comp_nested": [(3,), (0,)],
    "genexpr_sum": [([1, 0, 2],), ([],), (["a"],)],
    "genexpr_lazy": [([1, 2, 0, 5],), ([5],)],
    "genexpr_first_iter_eager": [([1],), (5,)],
    "genexpr_nested": [([[1, None], [2]],), ([],)],
    "genexpr_as_arg": [([1, 22, 3],), ([],)],
    "comp_closure_over_local": [([1, 2], 3), ([], 0), (["a"], 1)],
    "comp_uses_outer_in_condition": [([1, 5, 3], 4), ([], 0)],
    "comp_lambda_inside": [(3,), (0,)],
    "comp_iteration_variable_does_not_leak": [([1, 2],)],
    "comp_with_walrus": [([1, 2, 3],), ([1],), ([],)],
    "comp_unpack_targets": [([(1, 2), (3, 4)],), ([(1,)],)],
    "comp_star_unpack_target": [([[1, 2, 3], [4]],), ([[]],)],
    "comp_in_comp_condition": [([[1, -1], [2]],), ([],)],
    "comp_dict_from_zip": [("abc", [1, 2, 3]), ("", [])],
    "comp_set_of_tuples": [(7,), (0,)],
    "comp_over_string": [("a1b2",), ("",)],
    "comp_nested_closure": [(3,), (0,)],
    "genexpr_send_none": [([1, 2, 3],), ([],)],
    "comp_method_calls": [([" A ", "", "b "],), ([1],)],
    "comp_ternary_key": [([1, 2, 3, 4],), ([],)],
    "comp_exception_inside": [([1, 2],), ([1, 0],)],
    "comp_async_free_generator_expression_in_call": [([3, 1, 2],), ([],)],
    "comp_class_scope": [(3,)],
    "comp_deep_nesting": [(3,), (0,)],
}
