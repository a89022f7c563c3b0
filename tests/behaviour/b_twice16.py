"""Behaviour suite (session 16, branch twice16): `while True:` loops with a written `continue`
(3.11-3.13 jump to the loop's NOP header, the `while` line: the only way to its block, after
statements in an arm, after a `with` in an arm, ending the body) and loops left by a `break` in an
except clause and a `break` of the body (structure/nop_header.rs, structure/handler_break_jump.rs).
Shapes of test_tarfile's test_compare_members, lib2to3's _detect_future_features, wave's
Wave_read.initfp, concurrent.futures.thread's _worker."""


class Recorder:
    def __init__(self, log, fail=False):
        self.log = log
        self.fail = fail

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, typ, exc, tb):
        self.log.append(("exit", typ.__name__ if typ else None))
        return self.fail


def compare_members(pairs, log):
    # test_compare_members: `with` then `continue` in an arm, `if v is None: continue` after
    it = iter(pairs)
    try:
        while True:
            t1 = next(it, None)
            if t1 is None:
                break
            if t1 < 0:
                with Recorder(log, fail=t1 == -2):
                    if t1 == -2:
                        raise KeyError(t1)
                    log.append("neg")
                continue
            v1 = t1 % 3
            if v1 == 0:
                continue
            log.append(("member", t1, v1))
    finally:
        log.append("closed")
    return len(log)


def future_features(tokens):
    # lib2to3 _detect_future_features: `if tp in skip: continue` then tests that break
    have_docstring = False
    features = set()
    it = iter(tokens)
    try:
        while True:
            tp, value = next(it)
            if tp == "skip":
                continue
            elif tp == "doc":
                if have_docstring:
                    break
                have_docstring = True
            elif tp == "name" and value == "from":
                tp, value = next(it)
                if value != "__future__":
                    break
                features.add(next(it)[1])
            else:
                break
    except StopIteration:
        pass
    return sorted(features), have_docstring


def _take(it):
    chunk = next(it, "end")
    if chunk in ("bad", "end"):
        raise EOFError(chunk)
    return chunk


def read_chunks(chunks):
    # wave Wave_read.initfp: `except EOFError: break`, an `elif` arm ending in `break`
    state = {"fmt": 0, "data": None, "seen": []}
    it = iter(chunks)
    while 1:
        state["seen"].append("round")
        try:
            chunk = _take(it)
        except EOFError:
            break
        if chunk == "fmt":
            state["fmt"] = 1
        elif chunk == "data":
            if not state["fmt"]:
                raise ValueError("data before fmt")
            state["data"] = chunk
            break
        state["seen"].append(chunk)
    if not state["fmt"] or not state["data"]:
        return "missing", state
    return "ok", state


def worker(items, log):
    # concurrent.futures.thread _worker: `if item is not None: run; del item; continue`
    it = iter(items)
    while True:
        item = next(it, "stop")
        if item is not None and item != "stop":
            log.append(item * 2)
            del item
            continue
        if item == "stop":
            log.append("stopped")
            return len(log)
        log.append("none")


def continue_ends_body(n):
    out = []
    i = 0
    while True:
        if i >= n:
            break
        i += 1
        if i % 2:
            out.append(i)
            continue
        out.append(-i)
        continue
    return out


CASES = {
    "compare_members": [
        ([1, 2, 3, -1, 4, 6], []),
        ([], []),
        ([-2, 5], []),
        ([-1, -1, 7], []),
    ],
    "future_features": [
        ([("skip", ""), ("doc", ""), ("name", "from"), ("x", "__future__"), ("x", "annotations")],),
        ([("doc", ""), ("doc", "")],),
        ([("name", "from"), ("x", "os")],),
        ([("other", "")],),
        ([],),
    ],
    "read_chunks": [
        (["fmt", "x", "data", "y"],),
        (["x", "bad", "fmt"],),
        (["data"],),
        (["fmt", "y"],),
        ([],),
    ],
    "worker": [([1, None, 3], []), ([], []), ([None, None], [])],
    "continue_ends_body": [(0,), (1,), (5,)],
}
