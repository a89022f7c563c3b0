"""Behaviour suite: ways out of except clauses (return, break, continue, raise, with and without
`as name`, nested handlers, in loops), a try nested in an except clause, and code after a try
statement that observes whether an exception is still being handled (3.12+ copy small exits into
the clauses: printed there it would run inside the handler)."""

import sys


def _exc_name():
    """The exception being handled where this is called, by type name (None when there is none)."""
    t = sys.exc_info()[0]
    return None if t is None else t.__name__


def ep_return_value(d, k):
    try:
        return d[k]
    except KeyError:
        return "missing"


def ep_return_local(d, k):
    default = len(d)
    try:
        return d[k]
    except KeyError:
        return default


def ep_return_as_name(d, k):
    try:
        return d[k]
    except KeyError as e:
        return e.args


def ep_return_call_as_name(d, k):
    try:
        return d[k]
    except KeyError as e:
        return repr(e) + str(len(d))
    except TypeError as e:
        return type(e).__name__


def ep_return_in_for(xs):
    for x in xs:
        try:
            x = 10 // x
        except ZeroDivisionError:
            return x
        except TypeError as e:
            return str(e)[:5], x
    return "done"


def ep_break_continue(xs):
    out = []
    for x in xs:
        try:
            out.append(10 // x)
        except ZeroDivisionError:
            break
        except TypeError:
            out.append("t")
            continue
        out.append("after")
    return out


def ep_break_continue_as(xs):
    out = []
    for x in xs:
        try:
            out.append(10 // x)
        except ZeroDivisionError as e:
            out.append(type(e).__name__)
            break
        except TypeError as e:
            if x is None:
                continue
            out.append(str(e)[:3])
    else:
        out.append("no break")
    return out


def ep_nested_try_in_clause(d, k):
    try:
        v = d[k]
    except KeyError:
        try:
            v = d[str(k)]
        except KeyError:
            v = None
    return v


def ep_nested_try_return(d, k):
    try:
        v = d[k]
    except KeyError:
        try:
            v = d[str(k)]
        except KeyError as e:
            return "inner " + repr(e)
    return v


def ep_nested_as_names(d, k):
    try:
        return d[k]
    except KeyError as outer:
        try:
            return d[str(k)]
        except KeyError as inner:
            return [outer.args, inner.args]


def ep_print_then_nested(d, k):
    try:
        v = d[k]
    except KeyError:
        print("first miss")
        try:
            v = d[str(k)]
        except KeyError:
            print("second miss")
            v = -1
    return v


def ep_raise_from(d, k):
    try:
        return d[k]
    except KeyError as e:
        raise ValueError(k) from e
    except TypeError:
        raise


def ep_after_try_sees_no_exception(d):
    try:
        v = d[1]
    except KeyError:
        v = 2
    return _exc_name()


def ep_after_try_value_and_state(d):
    try:
        v = d[1]
    except KeyError:
        v = "k"
    except TypeError:
        v = "t"
    return v, _exc_name()


def ep_inside_clause_sees_exception(d):
    try:
        v = d[1]
    except KeyError:
        return _exc_name()
    return v


def ep_conditional_return_as(d):
    try:
        v = d[1]
    except KeyError as e:
        if e.args == (1,):
            return "one", _exc_name()
        v = 3
    return v, _exc_name()


def ep_while_clause_exits(items):
    log = []
    while items:
        try:
            v = items.pop()
            log.append(10 // v)
        except ZeroDivisionError as e:
            log.append(str(e)[:4])
            if len(items) > 2:
                continue
            break
        except TypeError:
            return log, "type"
    return log, _exc_name()


def ep_finally_after_clause_return(d):
    log = []
    try:
        try:
            return d[1]
        except KeyError:
            log.append("k")
            return "missing"
    finally:
        log.append("fin")
        print(log)


_state = {"busy": False}


def ep_except_raise_finally(mod):
    _state["busy"] = True
    try:
        value = {"zlib": 1, "os": 2}[mod]
    except KeyError:
        print("unavailable", _state["busy"])
        raise ValueError("no " + str(mod))
    finally:
        _state["busy"] = False
    print("available", _state["busy"], _exc_name())
    return value


def ep_return_through_finally(d):
    try:
        return d[1]
    finally:
        print("fin", _exc_name())


def ep_else_returns_after_try(d):
    try:
        a, b = d
    except (TypeError, ValueError):
        pass
    else:
        print("pair")
        return a + b
    return _exc_name()


def ep_break_copies_return(items):
    out = []
    for k in items:
        if k is None:
            break
        try:
            v = {1: "a", 2: "b"}[k]
        except KeyError:
            break
        else:
            out.append(v)
    return tuple(out), _exc_name()


class _Sock:
    def __init__(self, fail):
        self.fail = fail
        self.log = []

    def shutdown(self):
        self.log.append("shutdown")
        if self.fail == "os":
            raise OSError(self.fail)
        if self.fail == "value":
            raise ValueError(self.fail)

    def close(self):
        self.log.append("close")


def ep_try_in_finally(fail, body_fails):
    sock = _Sock(fail)
    try:
        try:
            if body_fails:
                raise KeyError("body")
            sock.log.append("body")
        finally:
            if sock is not None:
                try:
                    try:
                        sock.shutdown()
                    except OSError as exc:
                        if fail != "os":
                            raise
                        sock.log.append(str(exc))
                finally:
                    sock.close()
    except (KeyError, ValueError) as e:
        sock.log.append(type(e).__name__)
    return sock.log


def ep_except_in_finally(x):
    log = []
    try:
        try:
            log.append(10 // x)
        finally:
            try:
                log.append(len(x))
            except TypeError:
                log.append("no len")
    except ZeroDivisionError:
        log.append("zero")
    return log


def ep_finally_raises(x):
    try:
        try:
            first = TypeError(x)
            if x:
                raise first
            print("no error")
        finally:
            second = ValueError(x)
            raise second
    except Exception as e:
        caught = e
    return repr(caught), repr(caught.__context__)


def ep_finally_raises_in_if(x):
    try:
        try:
            print(10 // x)
        finally:
            if x == 1:
                raise ValueError(x)
            raise KeyError(x)
    except Exception as e:
        return repr(e), repr(e.__context__)


def ep_return_through_raising_finally(x):
    try:
        try:
            return 10 // x
        finally:
            raise ValueError(x)
    except ValueError as e:
        return repr(e), repr(e.__context__)


CASES = {
    "ep_return_value": [({1: 2}, 1), ({}, 1), ([], "a")],
    "ep_return_local": [({1: 2}, 1), ({2: 3}, 1), ([], "a")],
    "ep_return_as_name": [({1: 2}, 1), ({}, 5), ([], "a")],
    "ep_return_call_as_name": [({1: 2}, 1), ({}, 5), ([], "a"), (None, 1)],
    "ep_return_in_for": [([1, 2],), ([1, 0, 3],), ([1, "a"],), ([],)],
    "ep_break_continue": [([1, 2],), ([1, 0, 3],), ([1, "a", 5],), ([],)],
    "ep_break_continue_as": [([1, 2],), ([1, 0, 3],), ([1, "a", None, 5],), ([],)],
    "ep_nested_try_in_clause": [({1: 2}, 1), ({"1": 3}, 1), ({}, 1), (None, 1)],
    "ep_nested_try_return": [({1: 2}, 1), ({"1": 3}, 1), ({}, 1)],
    "ep_nested_as_names": [({1: 2}, 1), ({"1": 3}, 1), ({}, 1)],
    "ep_print_then_nested": [({1: 2}, 1), ({"1": 3}, 1), ({}, 1)],
    "ep_raise_from": [({1: 2}, 1), ({}, 1), ([], "a"), (None, 1)],
    "ep_after_try_sees_no_exception": [({1: 2},), ({},), (None,)],
    "ep_after_try_value_and_state": [({1: 2},), ({},), ([],), (None,)],
    "ep_inside_clause_sees_exception": [({1: 2},), ({},)],
    "ep_conditional_return_as": [({1: 2},), ({},)],
    "ep_while_clause_exits": [([1, 2, 0],), ([0, 0, 0, 0, 1],), (["a", 1],), ([],)],
    "ep_finally_after_clause_return": [({1: 2},), ({},)],
    "ep_except_raise_finally": [("zlib",), ("nope",)],
    "ep_return_through_finally": [({1: 2},), ({},)],
    "ep_else_returns_after_try": [((1, 2),), (5,), ((1, 2, 3),)],
    "ep_break_copies_return": [([1, 2],), ([1, 3, 2],), ([2, None, 1],), ([],)],
    "ep_try_in_finally": [("", False), ("os", False), ("value", False), ("", True), ("os", True)],
    "ep_except_in_finally": [(2,), (0,), ("ab",)],
    "ep_finally_raises": [(0,), (1,)],
    "ep_finally_raises_in_if": [(1,), (2,), (0,)],
    "ep_return_through_raising_finally": [(1,), (0,)],
}
