"""Behaviour suite (session 20, branch beh20l): ≤3.10 loop shapes. A `for` loop's `break` that
jump threading sent past the loop's exit (the loop ends an `if` arm with an `else:` part, a finally
body, an arm nested in an outer loop: structure/jumped_break.rs); `for ... else:` whose `break` is
in an except clause, nested in another loop (structure/loop_else.rs `body_clauses`); `while c:`
whose body starts with `while True:` (≤3.9: no guard, structure/loop_exits.rs `guard_header`);
`while True:` left by an except clause's `break` and a `break` after code in an `elif` arm
(3.10: structure/exit_in_body.rs `break_code_exit`). Shapes of enum's `_find_data_type`,
tempfile's `_get_default_tempdir`, tarfile's `_FileInFile.read`, wave's `Wave_read.initfp`."""


class Recorder:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, typ, exc, tb):
        self.log.append(("exit", typ.__name__ if typ else None))
        return False


def break_ends_if_arm(flag, xs):
    log = []
    if flag:
        for x in xs:
            if x == 0:
                break
            log.append(x)
    else:
        log.append("no loop")
    log.append("after")
    return log


def break_ends_finally(xs):
    log = []

    def body():
        try:
            log.append(10 // len(xs))
        finally:
            for x in xs:
                if x < 0:
                    break
                log.append(x)
        return "done"

    try:
        log.append(body())
    except ZeroDivisionError:
        log.append("zero")
    return log


def data_types(chains):
    # enum `_find_data_type`: an elif chain whose arms `break` out of the inner loop, the inner
    # loop the last statement of the outer loop's body
    found = []
    for chain in chains:
        candidate = None
        for base in chain:
            if base == 0:
                continue
            elif base < 0:
                if base != -1:
                    found.append(base)
                    break
            elif base > 100:
                if base > 1000:
                    continue
                found.append(candidate or base)
                break
            else:
                candidate = candidate or base
    return found


def first_usable(dirs, bad):
    # tempfile `_get_default_tempdir`: except clauses that `continue` / `break` the inner loop,
    # whose try body returns
    log = []
    for d in dirs:
        for seq in range(3):
            try:
                if (d, seq) in bad:
                    raise bad[(d, seq)]("no")
                log.append((d, seq))
                return d, log
            except FileExistsError:
                pass
            except PermissionError:
                if seq == 0:
                    continue
                break
            except OSError:
                break
    return None, log


def clause_break_else_nested(xs):
    log = []
    for n in [1, 2]:
        with Recorder(log):
            for x in xs:
                try:
                    log.append(n * 10 // x)
                except ZeroDivisionError as e:
                    log.append(str(e)[:4])
                    break
            else:
                log.append("no break")
    return log


def map_read(spans, size):
    # tarfile `_FileInFile.read`: `while c:` whose body starts with `while True:`
    out = []
    i = 0
    pos = 0
    while size > 0:
        while True:
            start, stop = spans[i]
            if start <= pos < stop:
                break
            else:
                i += 1
                if i == len(spans):
                    i = 0
        n = min(size, stop - pos)
        out.append((pos, n))
        size -= n
        pos += n
    return out


def chunks_until(chunks):
    # wave `Wave_read.initfp`: an except clause's `break`, a `break` after code in an `elif` arm
    state = {"fmt": 0, "data": None, "seen": []}
    it = iter(chunks)
    while True:
        try:
            chunk = next(it)
        except StopIteration:
            break
        if chunk == "fmt":
            state["fmt"] += 1
        elif chunk.startswith("data"):
            if not state["fmt"]:
                raise ValueError("data before fmt")
            state["data"] = chunk[4:]
            break
        state["seen"].append(chunk)
    if not state["fmt"] or state["data"] is None:
        return "missing", state
    return "ok", state


CASES = {
    "break_ends_if_arm": [(True, [1, 2, 0, 3]), (True, [4]), (False, [1]), (True, [])],
    "break_ends_finally": [([1, 2, -1, 3],), ([5, 6],), ([],)],
    "data_types": [
        ([[0, 5, -2], [200, 7], [3, 2000, 150]],),
        ([[-1, 0], [], [4, 500]],),
        ([],),
    ],
    "first_usable": [
        (["a", "b"], {}),
        (["a", "b"], {("a", 0): FileExistsError, ("a", 1): PermissionError}),
        (["a", "b"], {("a", 0): PermissionError, ("a", 1): OSError, ("b", 0): FileExistsError}),
        (["a"], {("a", 0): OSError}),
        (["a"], {("a", 0): KeyError}),
    ],
    "clause_break_else_nested": [([1, 2, 0, 5],), ([3, 4],), ([],), ([0],)],
    "map_read": [([(0, 4), (4, 10)], 7), ([(0, 2), (2, 3), (3, 9)], 8), ([(0, 5)], 0)],
    "chunks_until": [
        (["fmt", "x", "data1", "y"],),
        (["x", "bad", "fmt"],),
        (["data"],),
        (["fmt", "fmt", "data2"],),
        ([],),
    ],
}
