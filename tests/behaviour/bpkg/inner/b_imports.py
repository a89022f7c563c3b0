"""Behaviour suite: relative imports of every level, inside a package (bpkg.inner), plus absolute
import forms inside functions."""

from . import sibling
from .. import helper as top_helper
from ..helper import HELPER


def rel_from_dot(x):
    from . import sibling

    return sibling.SIBLING, x


def rel_from_dot_module(x):
    from .sibling import SIBLING as S

    return S, x


def rel_from_dotdot(x):
    from .. import helper

    return helper.helper_fn(x)


def rel_from_dotdot_module(x):
    from ..helper import HELPER, helper_fn

    return HELPER, helper_fn(x)


def rel_from_dotdot_package(x):
    from .. import PKG_VALUE

    return PKG_VALUE, x


def rel_beyond_top(x):
    try:
        from ... import anything  # noqa: F401
    except ImportError as e:
        return "beyond: " + type(e).__name__
    return "imported"


def rel_missing_name(x):
    try:
        from .sibling import NOPE  # noqa: F401
    except ImportError as e:
        return "missing: " + str(e).split(" (")[0]
    return "found"


def module_level_relatives(x):
    return sibling.SIBLING, top_helper.HELPER, HELPER, x


def import_star_is_module_only(x):
    ns = {}
    exec("from os.path import *", ns)
    return "join" in ns, x


def absolute_import_forms(x):
    import importlib.util
    import xml.dom.minidom as minidom
    from importlib import import_module as im

    return importlib.util.__name__, minidom.__name__, im("json").__name__, x


CASES = {
    "rel_from_dot": [(1,)],
    "rel_from_dot_module": [(1,)],
    "rel_from_dotdot": [(1,)],
    "rel_from_dotdot_module": [(2,)],
    "rel_from_dotdot_package": [(3,)],
    "rel_beyond_top": [(0,)],
    "rel_missing_name": [(0,)],
    "module_level_relatives": [(0,)],
    "import_star_is_module_only": [(0,)],
    "absolute_import_forms": [(0,)],
}
