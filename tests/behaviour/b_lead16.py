"""Behaviour suite (session 16, lead): ways out of loops through except clauses, try and with
bodies. The first is a silent miscompilation found this session (pdb's Pdb.default on 3.11-3.14):
`return` in an except clause in a `while` loop in a with body came out after the try statement,
so the loop returned on the normal path too. The others were refused or read with other
instructions: `break` in an except clause whose loop has a `break` of its own (_pyio
FileIO.readall), `return CONSTANT` out of a `for` loop in a try body or an except clause, a
finally body ending in a loop left by `break`, `for ... else:` left by a clause's `break`. And a
second silent miscompilation found this session (importlib FileLoader.get_data, 3.10-3.14): `if c:
with m: return x  else: with n: return y` lost its `else:`. And a third (tarfile
_FileInFile.read, 3.10-3.13): a `while True:` first in a `while c:` body merged into the outer loop."""

from managers import Sup


def return_in_clause_in_with_loop(xs, suppress):
    # pdb Pdb.default's shape
    log = []
    it = iter(xs)
    buffer = ""
    with Sup(log, suppress):
        while len(buffer) < 4:
            if len(xs) > 1:
                try:
                    line = str(10 // next(it))
                except (ZeroDivisionError, StopIteration):
                    log.append("stop")
                    return None
            else:
                line = "x"
            buffer += line
    return buffer, log


def clause_break_or_return(xs):
    # _pyio FileIO.readall's shape: the clause's `break` goes past the body's own `break`
    it = iter(xs)
    out = []
    while True:
        try:
            v = next(it)
        except StopIteration:
            if out:
                break
            return None
        if v == 0:
            break
        out.append(10 // v)
    return out


def return_const_from_for_in_try(xs):
    out = []
    try:
        for x in xs:
            if x == 0:
                return "zero"
            out.append(10 // x)
    except TypeError:
        return "type"
    return out


def return_const_from_for_in_clause(xs):
    out = []
    try:
        out.append(10 // len(xs))
    except ZeroDivisionError:
        for m in [1, 2, 3]:
            if m == 2:
                return None
            out.append(m)
    out.append("after")
    return out


def finally_loop_break(xs):
    log = []

    def body():
        try:
            log.append(10 // len(xs))
        finally:
            for x in xs + [0]:
                if x == 0:
                    break
                log.append(x)

    try:
        body()
    except ZeroDivisionError:
        log.append("zero")
    return log


def for_else_clause_break(xs):
    log = []
    for n in [1, 2]:
        for x in xs:
            try:
                log.append(n * 10 // x)
            except ZeroDivisionError as e:
                log.append(str(e)[:4])
                break
        else:
            log.append("no break")
    return log


def for_else_clause_break_copied(xs):
    log = []
    for x in xs:
        try:
            log.append(10 // x)
        except ZeroDivisionError:
            log.append(len(log))
            break
    else:
        log.append("no break")
    return log


def with_return_arms(flag, suppress):
    # importlib FileLoader.get_data's shape: each arm a with statement whose body returns; where
    # the manager suppresses, the arm completes and the function returns None (the else: part was
    # dropped on main, so the suppressed path ran the other arm too)
    log = []

    def inner():
        if flag:
            with Sup(log, suppress):
                return 10 // (len(log) - 1)
        else:
            with Sup(log, suppress):
                return 20 // len(log)

    return inner(), log


def with_return_arm_then_rest(flag, suppress):
    # the same with code after the if: an arm without else: whose suppressed path goes on to it
    log = []

    def inner():
        if flag:
            with Sup(log, suppress):
                return 10 // (len(log) - 1)
        log.append("rest")

    return inner(), log


def while_true_first_in_while(n):
    # tarfile _FileInFile.read's shape (3.10-3.13): the inner `while True:` line is a NOP that the
    # outer loop's test jumps back to; the inner loop's own jump back goes past it. The two were
    # merged into one loop, the inner jump back read as `continue` of the outer loop, which tests
    # `n > 0` again (and stops) where the inner loop goes on
    out = []
    while n > 0:
        while True:
            n -= 1
            out.append(n)
            if n % 3 == 2:
                break
        n -= 1
    return out


def while_true_shares_header(n):
    # pyrepl UnixConsole.get_event's shape (3.11-3.13): the inner loop's `continue` and the outer
    # loop's bottom test jump to the same block; read as one loop, the `continue` tested `n > 0`
    out = []
    while n > 0:
        while True:
            try:
                n -= 1
                out.append(10 // n)
            except ZeroDivisionError:
                out.append("z")
                if n < -2:
                    return out
                continue
            else:
                break
    return out


class _Queue:
    """A queue whose get() raises ValueError at its third call (an exception no clause catches)."""

    def __init__(self):
        self.stop = False
        self.calls = 0

    def exit(self):
        raise KeyboardInterrupt

    def get(self):
        self.calls += 1
        if self.calls > 2:
            raise ValueError(self.calls)
        return self.calls


def assert_try_then_endless_loop(argv):
    # idlelib.run main's shape, miscompiled on 3.14 (KNOWN_DEFECTS): the code after the try
    # statement, a loop that never ends, came back inside the try body under `if cond:` (the assert
    # read as an `if`), so the bare `except:` caught the ValueError the loop lets out
    log = []
    q = _Queue()
    try:
        assert len(argv) > 1
        port = int(argv[-1])
    except:
        log.append("no")
        return log
    log.append(port)
    while True:
        try:
            if q.stop:
                try:
                    q.exit()
                except KeyboardInterrupt:
                    continue
            log.append(q.get())
        except KeyboardInterrupt:
            continue
        except SystemExit:
            raise


CASES = {
    "return_in_clause_in_with_loop": [
        ([1, 2, 3], False),
        ([1, 0, 3], False),
        ([1], False),
        ([5, 5], True),
        ([], False),
    ],
    "clause_break_or_return": [([],), ([1, 2, 3],), ([5, 0, 4, 9],), ([2, 2, 7, 1, 0],)],
    "return_const_from_for_in_try": [([],), ([1, 2],), ([5, 0, 4],), (["a"],)],
    "return_const_from_for_in_clause": [([],), ([1, 2],)],
    "finally_loop_break": [([],), ([1, 2],), ([3, 0, 4],)],
    "for_else_clause_break": [([],), ([1, 2],), ([3, 0, 4],)],
    "for_else_clause_break_copied": [([],), ([1, 2],), ([3, 0, 4],)],
    "with_return_arms": [(1, True), (0, True), (1, False), (0, False)],
    "with_return_arm_then_rest": [(1, True), (0, True), (1, False), (0, False)],
    "while_true_first_in_while": [(0,), (1,), (2,), (4,), (7,)],
    "while_true_shares_header": [(0,), (1,), (2,), (3,)],
    "assert_try_then_endless_loop": [(["a", "5"],), (["a"],), (["a", "x"],)],
}
