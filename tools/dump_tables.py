#!/usr/bin/env python3
"""Dump the line tables and exception tables of every stdlib code object.

Stdlib only; runs under CPython 3.8 to 3.14.  For every ``.py`` file of the
running interpreter's ``Lib/`` (site-packages excluded) that ``compile()``
accepts, every code object (recursively through ``co_consts``) is written as
one line of tab-separated fields:

    qualname  firstlineno  code_units  sizes  linetable  exceptiontable  locations

- ``code_units``: ``len(co_code) // 2``.
- ``sizes``: comma-separated size in code units of each instruction (``SxN``
  for N instructions of size S in a row), found by
  walking ``co_code``: ``EXTENDED_ARG`` prefixes belong to the instruction
  they prefix, 3.11+ inline ``CACHE`` units to the instruction before them.
- ``linetable``: hex of ``co_lnotab`` (3.8, 3.9) or ``co_linetable`` (3.10+).
- ``exceptiontable``: hex of ``co_exceptiontable`` (3.11+), else ``-``.
- ``locations``: what the interpreter itself reports per code unit,
  run-length encoded as ``count:line:end_line:col:end_col`` joined by ``,``,
  ``_`` for ``None``.  3.8/3.9: ``dis.findlinestarts`` filled forward (only
  ``line``); 3.10: ``co_lines()`` (only ``line``); 3.11+: ``co_positions()``.

The first line is ``#`` followed by ``sys.version``; ``#file <path>`` lines
mark the source file of the code objects that follow.

Usage:
    python dump_tables.py OUT [--fixture FIXTURE_OUT [--budget BYTES]]

``--fixture`` also writes a small, deterministic selection (code objects with
unusual table features first, then a sample) of at most ``--budget`` bytes.
"""

import dis
import opcode
import os
import sys
import sysconfig
import warnings

V = sys.version_info[:2]
EXTENDED_ARG = opcode.opmap["EXTENDED_ARG"]


def cache_counts():
    """Inline cache units per opcode number (all zero before 3.11)."""
    counts = [0] * 256
    entries = getattr(opcode, "_inline_cache_entries", None)
    if entries is None:
        return counts
    if isinstance(entries, dict):  # 3.13+: keyed by opname
        for name, n in entries.items():
            op = opcode.opmap.get(name)
            if op is not None and op < 256:
                counts[op] = n
    else:  # 3.11, 3.12: list indexed by opcode
        for op, n in enumerate(entries):
            counts[op] = n
    return counts


CACHES = cache_counts()


def instruction_sizes(code):
    raw = code.co_code
    n = len(raw) // 2
    sizes = []
    i = 0
    while i < n:
        start = i
        while i < n and raw[2 * i] == EXTENDED_ARG:
            i += 1
        if i < n:
            i += 1 + CACHES[raw[2 * i]]
        sizes.append(min(i, n) - start)
        i = min(i, n)
    return sizes


def unit_locations(code):
    n = len(code.co_code) // 2
    if V >= (3, 11):
        locs = [tuple(p) for p in code.co_positions()]
        return locs[:n] + [(None,) * 4] * (n - len(locs))
    locs = [(None,) * 4] * n
    if V >= (3, 10):
        for start, end, line in code.co_lines():
            for u in range(start // 2, min(end // 2, n)):
                locs[u] = (line, None, None, None)
        return locs
    starts = list(dis.findlinestarts(code))
    for k, (off, line) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else 2 * n
        for u in range(off // 2, min(end // 2, n)):
            locs[u] = (line, None, None, None)
    return locs


def fmt(v):
    return "_" if v is None else str(v)


def rle(locs):
    out = []
    prev = None
    count = 0
    for loc in locs:
        if loc == prev:
            count += 1
            continue
        if prev is not None:
            out.append(":".join([str(count)] + [fmt(x) for x in prev]))
        prev, count = loc, 1
    if prev is not None:
        out.append(":".join([str(count)] + [fmt(x) for x in prev]))
    return ",".join(out) or "-"


def rle_sizes(sizes):
    out = []
    k = 0
    while k < len(sizes):
        j = k
        while j < len(sizes) and sizes[j] == sizes[k]:
            j += 1
        out.append(str(sizes[k]) if j - k == 1 else "%dx%d" % (sizes[k], j - k))
        k = j
    return ",".join(out) or "-"


def record(code):
    table = code.co_linetable if V >= (3, 10) else code.co_lnotab
    exc = code.co_exceptiontable.hex() if V >= (3, 11) else "-"
    name = getattr(code, "co_qualname", code.co_name)
    name = name.replace("\t", " ").replace("\n", " ") or "?"
    return "\t".join(
        [
            name,
            str(code.co_firstlineno),
            str(len(code.co_code) // 2),
            rle_sizes(instruction_sizes(code)),
            table.hex() or "-",
            exc or "-",
            rle(unit_locations(code)),
        ]
    )


def synthetic_source():
    """Edge cases the stdlib lacks or has few of: long bytecode deltas (a statement of more than
    255 bytes), line jumps of hundreds of lines both ways, lines past 2**16, big exception table
    values, long lines (columns past 127)."""
    names = ", ".join("n%d" % i for i in range(130))
    big = ", ".join("m%d" % i for i in range(20))
    gap = "\n" * 300
    src = [
        "def long_statement():",
        "    x = [%s]" % names,
        "    y = 1",
        "    return x, y",
        "",
        "def jumps():",
        "    a = 1" + gap,
        "    b = 2",
        "    f(1," + gap,
        "      2)",
        "    g(3,",
        "      4," + "\n" * 130,
        "      5)",
        "    return a",
        "",
        "def big_try():",
        "    try:",
        "        x = [%s]" % big,
        "    except ValueError:",
        "        return 1",
        "    return x",
        "",
        "def long_line():",
        "    return " + " + ".join("v%d" % i for i in range(30)),
        "",
    ]
    src.append("\n" * 100000)
    src += [
        "def far_away():",
        "    p = (1,",
        "         2)",
        "    return p",
    ]
    return "\n".join(src) + "\n"


def walk(code):
    yield code
    for c in code.co_consts:
        if hasattr(c, "co_code"):
            for sub in walk(c):
                yield sub


def source_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in ("site-packages", "dist-packages", "__pycache__"))
        for f in sorted(filenames):
            if f.endswith(".py"):
                yield os.path.join(dirpath, f)


def interest(line):
    """How unusual a record's tables are: rough score for the fixture selection."""
    f = line.split("\t")
    table = bytes.fromhex(f[4]) if f[4] != "-" else b""
    sizes = [int(s.split("x")[0]) for s in f[3].split(",")] if f[3] != "-" else []
    score = 0
    if any(s > 8 for s in sizes):
        score += 3
    if V < (3, 11):
        pairs = list(zip(table[0::2], table[1::2]))
        if any(b in (254, 255) for b, _ in pairs):
            score += 3
        if any(d in (127, 128, 129) for _, d in pairs):
            score += 3
        if any(b == 0 for b, _ in pairs[1:]):
            score += 2
        if any(d == 0 and b != 255 for b, d in pairs):
            score += 1
        if V < (3, 10) and any(d >= 128 for _, d in pairs):
            score += 1
    else:
        codes = {(b >> 3) & 15 for b in table if b & 0x80}
        score += len(codes & {13, 14, 15})
        if f[5] != "-" and len(f[5]) > 40:
            score += 1
    return score


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    out_path = argv[1]
    fixture_path = None
    budget = 40000
    if "--fixture" in argv:
        fixture_path = argv[argv.index("--fixture") + 1]
    if "--budget" in argv:
        budget = int(argv[argv.index("--budget") + 1])
    root = sysconfig.get_paths()["stdlib"]
    warnings.simplefilter("ignore")
    header = "# " + sys.version.replace("\n", " ")
    records = []  # (file, line)
    nfiles = ncodes = nfail = 0
    synthetic = []
    with open(out_path, "w") as out:
        out.write(header + "\n")
        out.write("#file <synthetic>\n")
        for code in walk(compile(synthetic_source(), "<synthetic>", "exec", dont_inherit=True)):
            line = record(code)
            out.write(line + "\n")
            synthetic.append(line)
            ncodes += 1
        for path in source_files(root):
            try:
                with open(path, "rb") as fh:
                    src = fh.read()
                top = compile(src, path, "exec", dont_inherit=True)
            except Exception:
                nfail += 1
                continue
            nfiles += 1
            rel = os.path.relpath(path, root)
            out.write("#file " + rel + "\n")
            for code in walk(top):
                line = record(code)
                out.write(line + "\n")
                ncodes += 1
                if fixture_path:
                    records.append((rel, line))
    sys.stderr.write("%s: %d files (%d not compiled), %d code objects\n" % (V, nfiles, nfail, ncodes))
    if fixture_path:
        # unusual tables first (small ones first), then a sample of ordinary small ones
        lens = [len(line) + 1 for _, line in records]
        ranked = sorted(
            (k for k in range(len(records)) if interest(records[k][1]) > 0 and lens[k] <= 1500),
            key=lambda k: (-interest(records[k][1]), lens[k], k),
        )
        chosen = set()
        size = len(header) + 1 + sum(len(line) + 1 for line in synthetic)
        for k in ranked:
            if size + lens[k] > budget // 3:
                break
            chosen.add(k)
            size += lens[k]
        small = [k for k in range(len(records)) if lens[k] <= 300 and k not in chosen]
        avg = sum(lens[k] for k in small) / max(1, len(small))
        stride = max(1, int(len(small) * avg / max(1, budget - size)))
        for k in small[::stride]:
            if size + lens[k] > budget:
                break
            chosen.add(k)
            size += lens[k]
        chosen = sorted(chosen)
        with open(fixture_path, "w") as fx:
            fx.write(header + "\n")
            fx.write("#file <synthetic>\n")
            for line in synthetic:
                fx.write(line + "\n")
            last = None
            for k in chosen:
                rel, line = records[k]
                if rel != last:
                    fx.write("#file " + rel + "\n")
                    last = rel
                fx.write(line + "\n")
        sys.stderr.write("fixture: %d code objects, %d bytes\n" % (len(chosen), size))


if __name__ == "__main__":
    main(sys.argv)
