"""Integer constants as the bridge writes them: those that fit a C long are formatted in Rust, the
rest by str(). Values on both sides of the 32- and 64-bit bounds (and a tuple holding them) are
decompiled, the source run, and the value it returns compared with the original's.
Prints JSON: {"checked": N, "wrong": [...]}."""

import json
import sys

import framejit

VALUES = [
    0, 1, -1, 7, -5, 255, 256, -256, 2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**32,
    2**62, 2**63 - 1, -(2**63), 2**63, -(2**63) - 1, 2**64 - 1, 2**64, -(2**64), 10**30, -(10**30),
]


def main():
    checked, wrong = 0, []
    for v in VALUES:
        for expr in (repr(v), f"({v!r}, 1)"):
            ns = {}
            exec(compile(f"def f():\n    return {expr}\n", "<case>", "exec"), ns)
            src = framejit.decompile(ns["f"])
            out = {}
            exec(compile(src, "<decompiled>", "exec"), out)
            got, want = out["f"](), ns["f"]()
            checked += 1
            if got != want or type(got) is not type(want) or repr(v) not in src:
                wrong.append(f"{expr}: {src!r}")
    print(json.dumps({"checked": checked, "wrong": wrong[:20]}))


if __name__ == "__main__":
    sys.exit(main())
