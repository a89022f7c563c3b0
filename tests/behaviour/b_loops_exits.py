"""Behaviour suite: loops whose `if` arms leave by `continue` / `break` (copies of jumps to the
header, a `while` guard's test, copies of the loop's exit), and the 3.12+ copied tails around them."""


class _Err(Exception):
    pass


def elif_else_continue(xs):
    # the arms that do not continue meet before print: the merge is inside the loop body
    out = []
    for x in xs:
        if x == 1:
            y = "one"
        elif x == 2:
            y = "two"
        else:
            continue
        out.append(y)
    return out


def while_guard_continue(xs):
    # 3.11+: `continue` jumps back to the guard's test, the body's end to the bottom test
    i = 0
    out = []
    while i < len(xs):
        if xs[i]:
            i += 1
            continue
        out.append(i)
        i += 2
    return out, i


def while_guard_continue_break(n):
    x = 0
    seen = []
    while x < n:
        x += 1
        if x == 3:
            continue
        if x == 7:
            break
        seen.append(x)
    return x, seen


def while_guard_continue_return(n):
    x = 0
    while x < n:
        x += 1
        if x == 5:
            continue
        if x == 7:
            return "seven", x
    return "end", x


def while_guard_if_else_continue(xs):
    # both arms go back to the test: one by `continue`, one by the (copied) bottom test
    i = 0
    out = []
    while i < len(xs):
        if xs[i] % 2:
            i += 1
            continue
        else:
            out.append(xs[i])
            i += 3
    return out


def while_compound_guard(seq, value, stop):
    # a compound test at the top and (copied, jumps duplicated) at the bottom
    i = 0
    while stop is None or i < stop:
        try:
            v = seq[i]
        except IndexError:
            break
        if v is value or v == value:
            return i
        i += 1
    raise ValueError("not found")


def for_break_in_except(xs):
    # 3.12+: the `break` from the except clause copies the code after the loop
    out = []
    for x in xs:
        try:
            v = x[0]
        except (IndexError, TypeError):
            break
        out.append(v)
    return len(out), out


def while_true_breaks(parts):
    # several breaks (each a copy of the jump to the loop's exit) and a try in an if arm
    data = None
    parts = list(parts)
    while True:
        if parts and parts[0] == "eof":
            parts.pop(0)
            if not parts:
                break
            try:
                data = int(parts.pop(0))
            except ValueError:
                break
        else:
            if not parts:
                raise _Err("ran out")
            data = parts.pop(0)
        if data:
            break
    if not data:
        return "nothing", parts
    return data, parts


def try_last_in_arm(flag, value):
    out = []
    if not flag:
        try:
            out.append(int(value))
        except ValueError:
            pass
    out.append("done")
    return out


def nested_elif_break(rows):
    total = 0
    for row in rows:
        if row is None:
            continue
        elif row < 0:
            if row < -10:
                break
            total -= 1
        else:
            total += row
        total *= 2
    return total


CASES = {
    "elif_else_continue": [([1, 2, 3, 1],), ([],), ([3, 3],), ([2, "a", 1],)],
    "while_guard_continue": [([1, 0, 1, 0, 0],), ([],), ([0, 0, 0],), ([1, 1],)],
    "while_guard_continue_break": [(0,), (3,), (5,), (10,)],
    "while_guard_continue_return": [(0,), (5,), (6,), (9,)],
    "while_guard_if_else_continue": [([1, 2, 3, 4, 5, 6, 7],), ([],), ([2, 2, 2],), ([1, "x"],)],
    "while_compound_guard": [([1, 2, 3], 2, None), ([1, 2, 3], 3, 2), ([1, 2, 3], 9, None), ([], 1, 5)],
    "for_break_in_except": [([[1], [2], [], [3]],), ([],), ([[1], 5, [2]],), ([[4], [5]],)],
    "while_true_breaks": [(["eof"],), (["eof", "3"],), (["eof", "x"],), ([0, "a"],), ([],), (["eof", "0", 0, 5],)],
    "try_last_in_arm": [(0, "3"), (0, "x"), (1, "3")],
    "nested_elif_break": [([1, None, -1, 2],), ([],), ([3, -20, 5],), ([None, None],)],
}
