"""Behaviour suite: ≤3.10 ways out of loops inside try statements (branch beh310f).

`return CONSTANT` out of `for` loops inside try bodies (the iterators popped, then POP_BLOCK, then
the constant loaded; 3.10 copies a constant `return` after a `for ... else:` into its `break`), and
`return x` through a finally body whose copy stores to x (x is read before the copy runs).
"""


def first_negative(xs, log):
    try:
        for x in xs:
            if x < 0:
                return "negative"
            log.append(10 // x)
    except ZeroDivisionError:
        return "zero"
    except TypeError:
        log.append("type")
    return "none"


def scan_nested(rows, log):
    try:
        for row in rows:
            for x in row:
                if x is None:
                    return "hole"
                log.append(x + 1)
        return "full"
    except TypeError:
        return "type"


def for_else_return_in_try(xs, log):
    try:
        for x in xs:
            if x == "stop":
                break
            log.append(len(x))
        else:
            return "no stop"
    except TypeError:
        return "type"
    return "stopped"


def for_else_raise_in_try(xs, log):
    try:
        for x in xs:
            if x == "stop":
                break
            log.append(len(x))
        else:
            raise LookupError("no stop")
        return "stopped"
    except (LookupError, TypeError) as e:
        return type(e).__name__


def return_in_loop_finally(xs, log):
    try:
        try:
            for x in xs:
                if not x:
                    return "empty"
                log.append(x[0])
        except IndexError:
            return "index"
    finally:
        log.append("finally")
    return "end"


def return_rebound_in_finally(x, log):
    try:
        return x
    finally:
        if x:
            x = [x]
            log.append(x)


CASES = {
    "first_negative": [([1, 2, -1], []), ([0, -1], []), ([1, "a"], []), ([], []), ([5, 2], [])],
    "scan_nested": [([[1, 2], [3]], []), ([[1], [None, 2]], []), ([[1, "a"]], []), ([], [])],
    "for_else_return_in_try": [(["a", "stop", 1], []), (["ab", "c"], []), (["a", 1], []), ([], [])],
    "for_else_raise_in_try": [(["a", "stop"], []), (["ab"], []), ([1], []), ([], [])],
    "return_in_loop_finally": [(["ab", ""], []), ([[]], []), (["a", "b"], []), ([], [])],
    "return_rebound_in_finally": [(0, []), (3, []), ("", []), ("a", [])],
}


def while_break_in_clause_in_for(xs, log):
    total = 0
    for x in xs:
        if x:
            while x > 0:
                try:
                    total += 10 // (x - 2)
                except ZeroDivisionError:
                    total -= 100
                    break
                finally:
                    x -= 1
        else:
            log.append(total)
    return total


CASES["while_break_in_clause_in_for"] = [([3, 0, 1], []), ([2, 5], []), ([], []), ([0, 0], [])]


def nested_as_returns(d, k):
    try:
        return d[k]
    except KeyError as a:
        try:
            return d[k + 1]
        except KeyError as b:
            try:
                return d[k + 2]
            except KeyError as c:
                try:
                    return d[k + 3]
                except KeyError as e:
                    return [a.args, b.args, c.args, e.args]


CASES["nested_as_returns"] = [({1: 1}, 1), ({2: 2}, 1), ({4: 4}, 1), ({}, 1), ({}, "x")]
