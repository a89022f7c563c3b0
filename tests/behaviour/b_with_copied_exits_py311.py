"""Behaviour suite, 3.11+: ways out of a with body after which the compiler copied the code that
follows (the code after the with statement, or after the loop a `break` leaves: 3.12+ copy small
exit blocks, and a `while True:` left only by `break` has no exit the structurer knows). That code
runs after `__exit__`; read into the with body it would run before it, and `__exit__` would see (and
might suppress) its exceptions. The context managers record every exit and suppress when told.
(<=3.10 keep their readings: see KNOWN_DEFECTS in tests/test_decompile_behaviour.py.)"""

from managers import Sup, check


def compute(log):
    log.append("compute")
    if "fail" in log:
        raise KeyError("compute")
    return len(log)


def break_copied_exit_call(xs, suppress, log):
    # 3.12+ copy the code after the loop (a call) into the `break`, after the exit call: it runs
    # after __exit__ (which must not see its exception), and a suppressed exception loops again
    while xs:
        with Sup(log, suppress):
            check(xs.pop())
            break
    return compute(log)


def break_while_true_then_call(xs, suppress, log):
    # `while True` whose only exit is a `break` out of a with: the code after the loop follows
    # the exit call (copied there on 3.12+), not the with body's
    while True:
        with Sup(log, suppress):
            if check(xs.pop()):
                break
            log.append("more")
    return compute(log)


def break_then_raise(xs, suppress, log):
    while True:
        with Sup(log, suppress):
            check(xs.pop())
            break
    raise ValueError("after")


CASES = {
    "break_copied_exit_call": [(["a", "boom"], True, []), (["a", "boom"], False, []), (["a"], True, ["fail"]), ([], True, [])],
    "break_while_true_then_call": [(["a", "boom"], True, []), (["a", "", "boom"], True, []), (["a", ""], False, []), (["a"], True, ["fail"])],
    "break_then_raise": [(["a", "boom"], True, []), (["a"], False, []), (["boom"], False, [])],
}
