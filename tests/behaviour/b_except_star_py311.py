"""Behaviour suite (3.11+): more except* shapes - as names in several clauses, else with finally,
break / continue / return in the try body inside loops, loops and nested try statements inside a
clause, a clause binding a global, and except* at module level."""

LOG = []

try:
    raise ExceptionGroup("module", [ValueError("m1"), TypeError("m2")])
except* ValueError as module_eg:
    LOG.append(("module v", len(module_eg.exceptions)))
except* TypeError:
    LOG.append("module t")


def _raise(spec):
    kinds = {"v": ValueError, "t": TypeError, "k": KeyError}
    if not spec:
        return "clean"
    raise ExceptionGroup("eg", [kinds[c](i) for i, c in enumerate(spec)])


def es_names(spec):
    out = []
    try:
        _raise(spec)
    except* ValueError as v:
        out.append(("v", [str(e) for e in v.exceptions]))
    except* TypeError as t:
        out.append(("t", [str(e) for e in t.exceptions]))
    except* KeyError:
        out.append("k")
    return out


def es_else_finally(spec):
    out = []
    try:
        out.append(_raise(spec))
    except* ValueError:
        out.append("v")
    else:
        out.append("else")
    finally:
        out.append("finally")
    return out


def es_loop_break_return(specs):
    out = []
    for spec in specs:
        try:
            if spec == "stop":
                break
            if spec == "ret":
                return out + ["returned"]
            _raise(spec)
        except* ValueError as e:
            out.append(len(e.exceptions))
    return out


def es_loop_in_clause(spec):
    out = []
    try:
        _raise(spec)
    except* ValueError as e:
        for sub in e.exceptions:
            out.append(str(sub))
        else:
            out.append("all")
    except* TypeError:
        n = 0
        while n < 3:
            n += 1
        out.append(n)
    return out


def es_nested(spec):
    out = []
    try:
        try:
            _raise(spec)
        except* ValueError:
            out.append("inner v")
            raise
        except* TypeError as t:
            try:
                raise KeyError("from t")
            except KeyError as k:
                out.append(("inner t", str(k)))
    except* ValueError as v:
        out.append(("outer v", len(v.exceptions)))
    except* KeyError:
        out.append("outer k")
    return out


def es_global(spec):
    global ES_LAST
    ES_LAST = None
    try:
        _raise(spec)
    except* ValueError as ES_LAST:
        pass
    return "ES_LAST" in globals()


def es_propagates(spec):
    try:
        try:
            _raise(spec)
        except* ValueError:
            pass
    except ExceptionGroup as rest:
        return sorted(type(e).__name__ for e in rest.exceptions)
    return "nothing left"


CASES = {
    "es_names": [("",), ("v",), ("vt",), ("vvtk",), ("k",)],
    "es_else_finally": [("",), ("v",), ("vv",)],
    "es_loop_break_return": [(["v", "", "stop", "v"],), (["vv", "ret"],), ([],)],
    "es_loop_in_clause": [("",), ("vv",), ("t",), ("vt",)],
    "es_nested": [("",), ("v",), ("t",), ("vt",), ("k",)],
    "es_global": [("",), ("v",)],
    "es_propagates": [("",), ("v",), ("vt",), ("tk",)],
}
