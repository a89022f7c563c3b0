"""Decompile each function of match_cases.py, recompile the source, run original and recompiled on
every subject (results and exceptions compared) and compare normalized instruction sequences.
Prints one JSON object: {function: {"error"|"results_equal", "code_equal", "first_diff", "source"}}."""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import match_cases  # noqa: E402
from decompile_sweep import IGNORED, unfused, normalized  # noqa: E402

from framejit import DecompileError, decompile  # noqa: E402


def resolved(code) -> list:
    """`normalized`, with a jump to an ignored instruction (the NOP `case _:` leaves for its line)
    counted as a jump to the next instruction kept."""
    import dis

    # (superinstructions as the two instructions `normalized` compares them as)
    kept = unfused([i for i in dis.get_instructions(code) if i.opname not in IGNORED])
    index = {i.offset: k for k, i in enumerate(kept) if i.offset >= 0}
    # `normalized` gives None for a jump to an ignored instruction: resolve it here
    out = []
    for (op, arg), i in zip(normalized(code), kept):
        if arg[:1] == ("->",) and arg[1] is None:
            off = i.argval
            nxt = min((j.offset for j in kept if j.offset >= 0 and j.offset >= off), default=None)
            arg = ("->", index.get(nxt))
        out.append((op, arg))
    return out


def outcome(fn, args):
    try:
        return ("ok", repr(fn(*args)))
    except Exception as e:  # the exception type and message are part of the behaviour
        return ("raised", type(e).__name__, str(e))


def main() -> None:
    report = {}
    subjects = match_cases.SUBJECTS
    pairs = [(a, b) for a in (0, 1, "s") for b in (0, 2, None)]
    for name in match_cases.FUNCTIONS:
        fn = getattr(match_cases, name)
        entry = report[name] = {}
        try:
            source = decompile(fn)
        except DecompileError as e:
            entry["error"] = str(e)
            continue
        entry["source"] = source
        namespace = dict(vars(match_cases))
        try:
            module = compile(source, match_cases.__file__, "exec", dont_inherit=True)
            exec(module, namespace)
        except SyntaxError as e:
            entry["error"] = f"does not compile: {e}"
            continue
        new = namespace[name]
        args = pairs if fn.__code__.co_argcount == 2 else [(s,) for s in subjects]
        mismatches = [
            (repr(a), outcome(fn, a), outcome(new, a)) for a in args if outcome(fn, a) != outcome(new, a)
        ]
        entry["results_equal"] = not mismatches
        entry["mismatches"] = [str(m) for m in mismatches[:3]]
        entry["raised"] = sum(outcome(fn, a)[0] == "raised" for a in args)
        before, after = resolved(fn.__code__), resolved(new.__code__)
        entry["code_equal"] = before == after
        if before != after:
            k = next((i for i, (x, y) in enumerate(zip(before, after)) if x != y), min(len(before), len(after)))
            entry["first_diff"] = [str(before[k : k + 3]), str(after[k : k + 3])]
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
