"""Behaviour suite: constants that need care to print - infinities, negative zero, NaN, complex numbers,
huge and folded integers, escapes in str/bytes, surrogates, frozenset constants of 'in {...}', nested
constant tuples; and scoping facts that leave no instructions behind (a name assigned only in dead code
is still local)."""

G = "global"


def const_inf_nan(x):
    big = 1e400
    vals = (1e400, -1e400, -0.0, 0.0)
    return big, vals, repr(-0.0), x * 1e400


def const_negative_zero(x):
    return -0.0, (0.0, -0.0), [-0.0], x == -0.0, str(-0.0 * x)


def const_complex(x):
    return 1 + 2j, -0j, 2j * x, (1 - 1j) ** 2, complex(-0.0, -0.0), -(0j)


def const_big_int(x):
    return 2 ** 100, 10 ** 30 + x, -(2 ** 63), 0xFFFF_FFFF_FFFF_FFFF_FFFF


def const_float_repr(x):
    return 0.1 + 0.2, 1e-320, 5e-324, 1.7976931348623157e308, 1 / 3, x / 7


def const_strings(x):
    return "a'b\"c", 'line\nbreak\ttab\\', "\x00\x7f\u00ff\u0100\U0001F600", "\ud800", x + "\r"


def const_bytes(x):
    return b"\x00\xff'\"\\", bytes(range(5)), b"" + x


def const_frozenset_membership(x):
    return x in {1, 2, 3}, x not in {"a", "b"}, x in (1, "a", None), x in [1.5, -0.0]


def const_folded_expressions(x):
    return 2 * 3 + x, "ab" * 3, (1, 2) + (3,), -(-5), not True, ~0, 1 << 10


def const_nested_tuples(x):
    return ((1, (2, (3, (-0.0, "s")))), frozenset({1}), x)


def const_ellipsis_none_bool(x):
    return (..., None, True, False) if x else (x,)


def const_long_string(x):
    s = "0123456789" * 50
    return len(s + x), s[-3:]


def const_unicode_identifiers(x):
    café = x
    π = 3.14
    return café, π


def scope_dead_store_is_local(x):
    if False:
        G = 1  # noqa: F841
    try:
        return G
    except UnboundLocalError as e:
        return "local: " + type(e).__name__


def scope_dead_while_is_local(x):
    while 0:
        G = 2  # noqa: F841
    try:
        return G
    except NameError as e:
        return type(e).__name__


def scope_del_only_is_local(x):
    try:
        del G  # noqa: F821
    except NameError as e:
        return type(e).__name__
    return "deleted"


def scope_global_read_in_nested(x):
    def inner():
        return G

    G2 = inner()
    return G2, x


def scope_class_body_global(x):
    class C:
        G = "class attr"
        seen = G

        def m(self):
            return G

    return C.seen, C().m(), x


def scope_dead_after_return(x):
    return G
    G = 5  # noqa: F841


def scope_debug_constant(x):
    if __debug__:
        return "debug", x
    return "optimised"


def scope_dead_if_store_plain(x):
    if False:
        G = 1  # noqa: F841
    return G


def scope_del_only_plain(x):
    if x:
        del G  # noqa: F821
    return x


CASES = {
    "const_inf_nan": [(1,), (-1,)],
    "const_negative_zero": [(0,), (1,)],
    "const_complex": [(1,), (1j,)],
    "const_big_int": [(1,), (-1,)],
    "const_float_repr": [(1,), (2.5,)],
    "const_strings": [("x",), (1,)],
    "const_bytes": [(b"q",), ("s",)],
    "const_frozenset_membership": [(1,), ("a",), (None,), (-0.0,), ([],)],
    "const_folded_expressions": [(1,), ("s",)],
    "const_nested_tuples": [(1,)],
    "const_ellipsis_none_bool": [(1,), (0,)],
    "const_long_string": [("x",), (1,)],
    "const_unicode_identifiers": [(1,)],
    "scope_dead_store_is_local": [(1,)],
    "scope_dead_while_is_local": [(1,)],
    "scope_del_only_is_local": [(1,)],
    "scope_global_read_in_nested": [(1,)],
    "scope_class_body_global": [(1,)],
    "scope_dead_after_return": [(1,)],
    "scope_debug_constant": [(1,)],
    "scope_dead_if_store_plain": [(1,)],
    "scope_del_only_plain": [(0,), (1,)],
}
