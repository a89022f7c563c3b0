"""Behaviour suite: a `break` or the end of an except clause whose way on the compiler copied a
small exit block into (3.11+: `return y` after the construct). The copy comes right after the
construct's unwinding pop (the loop's iterator, the clause's POP_EXCEPT), where a `return` written
inside the construct would have computed its value before the pop: a `break` of a `for` loop with
statements before it, of a `for ... else:` (whose `else:` part the `break` skips, or whose code
after the statement exists only in the copies), of a `while` loop out of an `except ... as name:`
clause, an `if` arm that ends an except clause with code after the `if`, a try statement ending an
except clause whose normal path runs the copy, a try statement ending a try body whose clauses copy
the code after the enclosing statement. And shapes that must
keep their reading: a `return` written inside the loop with the same code after the loop, a loop
with a `break` of its own besides the copy."""


def for_break_after_statements(items, limit):
    result = []
    for i in range(len(items), 0, -1):
        part = items[:i]
        if sum(part) <= limit:
            result.extend([len(part), i])
            break
    return result


def for_else_break_tail(xs, ys):
    y = list(ys)
    for a, b in zip(xs, y):
        if a is not b:
            y = tuple(y)
            break
    else:
        y = xs
    return y


def for_else_nested_if_call(names, env):
    for name in names:
        value = env.get(name, None)
        if value:
            if name == "LANGUAGE":
                value = value.split(":")[0]
            break
    else:
        value = "C"
    return str.upper(value)


def for_else_raise_tail_only_in_copy(tokens, debug, log):
    for t in tokens:
        if t > 3:
            if debug:
                log.append(t)
            break
    else:
        raise ValueError(len(log))
    return log[-1] if log else t


def for_else_break_first(counts, goal):
    found = 0
    out = [0] * len(counts)
    for i in range(len(counts)):
        if found == goal:
            break
        if counts[i] % 2:
            continue
        found += 1
        out[i] = counts[i]
    else:
        for j in range(len(out)):
            if not out[j]:
                out[j] = -1
    return out


def while_break_from_named_clause(values, bad):
    seen = set()
    path = 0
    while path not in seen:
        seen.add(path)
        try:
            path = values[path]
            if path < 0:
                path = -path
                break
        except IndexError as ex:
            if str(ex) in bad:
                break
            raise
        except KeyError:
            break
    return path


def clause_arm_ends_clause(catalog, key, n, fallback):
    try:
        msg = catalog[key, n]
    except KeyError:
        if fallback:
            return fallback(key, n)
        if n == 1:
            msg = key
        else:
            msg = key + "s"
    return msg


def clause_arm_ends_named_clause(catalog, key, n):
    try:
        msg = catalog[key]
    except KeyError as e:
        if n == 1:
            msg = str(e)
        elif n == 2:
            msg = repr(e)
        else:
            msg = "?"
    return msg


def clause_try_else_copies(loader, name, log):
    try:
        path = loader(name)
    except AttributeError:
        log.append("attr")
        return None
    except ImportError:
        try:
            path = loader()
        except TypeError:
            log.append("type")
            return None
    return path


def inner_try_clause_copy(link, rename, log):
    try:
        try:
            link(log)
        except (AttributeError, PermissionError):
            rename(log)
        else:
            log.append("linked")
    except OSError as e:
        log.append(type(e).__name__)
        raise
    return log


def inner_try_clause_copy_no_else(data, names):
    try:
        raw = data.encode("ascii")
        try:
            data = raw.decode(names[0])
        except LookupError:
            data = raw.decode("ascii")
    except UnicodeEncodeError:
        pass
    return data


def return_inside_loop_same_as_after(xs, y):
    for x in xs:
        if x > 2:
            y = x
            return y
    return y


def for_own_break_and_copy(xs):
    total = 0
    for x in xs:
        if x < 0:
            total = -1
            break
        if x == 0:
            total += 100
            return total
        total += x
    return total


def nested_for_break_tails(rows, goal):
    hit = None
    for row in rows:
        for v in row:
            if v == goal:
                hit = v
                break
        else:
            continue
        break
    return hit


CASES = {
    "for_break_after_statements": [([1, 2, 3], 3), ([5], 1), ([], 0), ([1, 1], 9)],
    "for_else_break_tail": [((1, 2), (1, 2)), ((1, 2), (1, 3)), ((), ())],
    "for_else_nested_if_call": [
        (["A", "LANGUAGE"], {"LANGUAGE": "de:en"}),
        (["A"], {"A": "fr"}),
        (["A", "B"], {}),
    ],
    "for_else_raise_tail_only_in_copy": [([1, 5], True, []), ([1, 5], False, []), ([1], True, [])],
    "for_else_break_first": [([2, 4, 1, 6], 2), ([1, 3], 1), ([], 0), ([2, 2], 5)],
    "while_break_from_named_clause": [
        ([1, 2, 0], ()),
        ([1, -3, 0, 0], ()),
        ([5], ("list index out of range",)),
        ({0: 1}, ()),
    ],
    "clause_arm_ends_clause": [
        ({("a", 1): "x"}, "a", 1, None),
        ({}, "a", 1, None),
        ({}, "a", 2, None),
        ({}, "a", 2, lambda k, n: k * n),
    ],
    "clause_arm_ends_named_clause": [({"a": 1}, "a", 1), ({}, "a", 1), ({}, "a", 2), ({}, "b", 3)],
    "clause_try_else_copies": [
        (lambda *a: "p" + str(len(a)), "x", []),
        (lambda *a: a[0].no_such, "x", []),
        (lambda *a: __import__("no_such_module_tailcopy") if a else "q", "x", []),
        (lambda *a: __import__("no_such_module_tailcopy") if a else len(), "x", []),
    ],
    "inner_try_clause_copy": [
        (list.append, list.append, []),
        (lambda log: log.no_such, list.append, []),
        (lambda log: open("/no/such/dir/tailcopy"), list.append, []),
    ],
    "inner_try_clause_copy_no_else": [("abc", ["utf-8"]), ("abc", ["no-such-codec"]), ("\u00e9", ["ascii"])],
    "return_inside_loop_same_as_after": [([1, 3], 0), ([], 5), ([1], 2)],
    "for_own_break_and_copy": [([1, 2],), ([1, -1, 2],), ([1, 0],), ([],)],
    "nested_for_break_tails": [([[1, 2], [3]], 3), ([[1]], 4), ([], 1)],
}
