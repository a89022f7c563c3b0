"""Round-trip every code object of this interpreter's stdlib through framejit.bytecode, and run modules
rebuilt from the round-tripped code. Runs under any interpreter 3.9-3.14 with PYTHONPATH pointing at
framejit's ``python/`` directory; prints one JSON object.

    python tests/support/roundtrip_sweep.py [--limit N] [--run-only]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import sysconfig
import time
import types
import warnings

from framejit.bytecode import Bytecode, BytecodeError

LINETABLE = "co_linetable" if sys.version_info >= (3, 10) else "co_lnotab"
MODERN = sys.version_info >= (3, 11)


def stdlib_files() -> list[str]:
    root = sysconfig.get_paths()["stdlib"]
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in ("site-packages", "dist-packages", "__pycache__"))
        for f in sorted(filenames):
            if f.endswith(".py"):
                out.append(os.path.join(dirpath, f))
    return out


def walk(code: types.CodeType):
    yield code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from walk(c)


def shown_lines(code: types.CodeType):
    """What dis shows of the line table."""
    if MODERN:
        return list(code.co_positions())
    if sys.version_info >= (3, 10):
        return list(code.co_lines())
    import dis

    return list(dis.findlinestarts(code))


STDLIB = sysconfig.get_paths()["stdlib"]


def where(code: types.CodeType) -> tuple[str, str]:
    return os.path.relpath(code.co_filename, STDLIB), getattr(code, "co_qualname", code.co_name)


def check(code: types.CodeType, stats: dict, failures: list) -> None:
    stats["code_objects"] += 1
    path, qualname = where(code)
    try:
        bc = Bytecode.from_code(code)
        co_code, linetable, exctable, stacksize = bc.assemble()
        rebuilt = bc.to_code()
    except BytecodeError as e:
        stats["errors"] += 1
        failures.append({"kind": "error", "file": path, "code": qualname, "detail": str(e)})
        return
    bad = []
    if co_code != code.co_code:
        bad.append(("co_code", ""))
    if exctable != (code.co_exceptiontable if MODERN else b""):
        bad.append(("exceptiontable", ""))
    if stacksize != code.co_stacksize:
        if stacksize < code.co_stacksize and sys.version_info < (3, 10) and rebuilt.co_stacksize == code.co_stacksize:
            # 3.8/3.9 size the stack before the peephole optimizer folds constants; to_code keeps the
            # larger original value, and this counts how often the final code needs less.
            stats["stacksize_below_peephole"] += 1
        else:
            bad.append(("stacksize", f"{stacksize} != {code.co_stacksize}"))
    if bc.assemble(keep_source_linetable=False)[1] != getattr(code, LINETABLE):
        # the encoder alone does not give CPython's bytes (3.8/3.9 peephole leftovers): counted here
        stats["linetable_fresh_encoding_diff"] += 1
    if linetable != getattr(code, LINETABLE):
        stats["linetable_bytes_diff"] += 1
        if shown_lines(rebuilt) != shown_lines(code):
            bad.append(("linetable_shown", f"{linetable.hex()} != {getattr(code, LINETABLE).hex()}"))
    if not bad and linetable == getattr(code, LINETABLE) and rebuilt != code:
        bad.append(("code_object_unequal", ""))
    for kind, detail in bad:
        stats[kind + "_diff"] += 1
        failures.append({"kind": kind, "file": path, "code": qualname, "detail": detail})
    if not bad:
        stats["ok"] += 1


def rebuild(code: types.CodeType) -> types.CodeType:
    """Round-trip ``code`` and every code object nested in it."""
    consts = tuple(rebuild(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    if any(a is not b for a, b in zip(consts, code.co_consts)):
        code = code.replace(co_consts=consts)
    out = Bytecode.from_code(code).to_code()
    assert isinstance(out, types.CodeType)
    return out


# Modules executed from rebuilt code, each with a workload whose result must equal the original's.
WORKLOADS = {
    "textwrap": "m.fill('The quick brown fox jumps over the lazy dog ' * 5, width=23) + m.dedent('  a\\n  b\\n')",
    "fnmatch": "[m.fnmatch('framejit.py', p) for p in ('*.py', '?rame*', '[!f]*', 'x*')] + [m.translate('a*[bc]?')]",
    "colorsys": "[m.rgb_to_hsv(0.2, 0.4, 0.4), m.hls_to_rgb(0.5, 0.5, 0.5), m.rgb_to_yiq(1, 0.5, 0)]",
    "heapq": "m.nsmallest(3, [5, 1, 4, 1, 5, 9, 2, 6]) + list(m.merge([1, 3, 5], [2, 4], [0]))",
    "bisect": "[m.bisect_left([1, 2, 2, 3], 2), m.bisect_right([1, 2, 2, 3], 2)]",
    "shlex": "m.split('a \"b c\" d\\\\ e # x', comments=True) + [m.quote(\"it's\")]",
    "json.encoder": "m.JSONEncoder(indent=2, sort_keys=True).encode({'b': [1, 2.5, None, True], 'a': 'é\\n'})",
    "json.decoder": "m.JSONDecoder().decode('{\"a\": [1, 2.5e3, null, \"x\\\\u00e9\"], \"b\": {}}')",
    "string": "m.capwords('hello  wide world') + m.Template('$a-${b}').substitute(a=1, b=2)",
    "statistics": "[m.median([3, 1, 4, 1, 5]), m.mean([1, 2, 3, 4]), m.pstdev([1.5, 2.5, 2.5, 2.75, 3.25, 4.75])]",
    "difflib": "list(m.unified_diff(['a\\n', 'b\\n', 'c\\n'], ['a\\n', 'c\\n', 'd\\n']))",
    "base64": "[m.b64encode(b'framejit'), m.b32decode(m.b32encode(b'xyz')), m.a85encode(b'hello')]",
    "posixpath": "[m.normpath('/a/./b/../c//d'), m.join('a', 'b', '/c', 'd'), m.splitext('x.tar.gz'), m.relpath('/a/b/c', '/a/d')]",
    "fractions": "[str(m.Fraction(3, 4) + m.Fraction('1/6')), str(m.Fraction(0.75).limit_denominator(10))]",
    "ipaddress": "[str(n) for n in m.ip_network('10.0.0.0/29').hosts()] + [m.ip_address('::1').is_loopback]",
    "_pydecimal": "[str(m.Decimal('1.1') + m.Decimal('2.2')), str(m.Decimal(2).sqrt()), str(m.Decimal('7').quantize(m.Decimal('0.01')))]",
    "tokenize": "[(t.type, t.string) for t in m.generate_tokens(__import__('io').StringIO('x = (1 +\\n 2) # c\\n').readline)]",
    "calendar": "m.TextCalendar().formatmonth(2026, 11)",
    "csv": "list(m.reader(['a,b,\"c,d\"', '1,2,3']))",
    "ast": "m.dump(m.parse('x = [i async for i in y] if z else {**w}', mode='exec'))[:200]",
    "pprint": "m.pformat({'k%d' % i: list(range(i)) for i in range(6)}, width=40)",
    "contextlib": "(lambda s: [s.enter_context(m.nullcontext(1)), s.close()])(m.ExitStack())",
    "functools": "[m.reduce(lambda a, b: a * b, range(1, 8)), m.lru_cache(maxsize=2)(lambda x: x * 2)(21)]",
    "enum": "[list(m.Enum('Color', 'RED GREEN')), m.Flag('P', 'R W X').R | m.Flag('Q', 'A B').A and 1]",
    "dataclasses": "repr(m.make_dataclass('P', [('x', int), ('y', int, m.field(default=2))])(1))",
}


def run_workloads(stats: dict, failures: list) -> None:
    import importlib

    for modname, expr in WORKLOADS.items():
        try:
            orig = importlib.import_module(modname)
        except ImportError:
            continue
        path = orig.__file__
        if not path or not path.endswith(".py"):
            continue
        with open(path, "rb") as f:
            source = f.read()
        code = compile(source, path, "exec", dont_inherit=True)
        try:
            new_code = rebuild(code)
        except BytecodeError as e:
            stats["workload_errors"] += 1
            failures.append({"kind": "workload", "file": modname, "code": "", "detail": str(e)})
            continue
        mod = types.ModuleType(orig.__name__)
        mod.__file__ = path
        mod.__package__ = orig.__package__
        # enum.global_enum and friends write into sys.modules[__name__] while the module runs
        sys.modules[orig.__name__] = mod
        try:
            exec(new_code, mod.__dict__)
        except Exception as e:
            stats["workload_errors"] += 1
            failures.append(
                {"kind": "workload", "file": modname, "code": "", "detail": f"executing: {type(e).__name__}: {e}"}
            )
            continue
        finally:
            sys.modules[orig.__name__] = orig
        try:
            want = repr(eval(expr, {"m": orig}))
        except Exception as e:  # the workload itself is wrong on this version
            want = f"{type(e).__name__}: {e}"
        try:
            got = repr(eval(expr, {"m": mod}))
        except Exception as e:
            got = f"{type(e).__name__}: {e}"
        stats["workloads"] += 1
        if got == want:
            stats["workloads_equal"] += 1
        else:
            failures.append({"kind": "workload", "file": modname, "code": "", "detail": f"{want[:300]} != {got[:300]}"})


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=0, help="only the first N files")
    args = ap.parse_args()
    stats = dict.fromkeys(
        [
            "files",
            "files_skipped",
            "code_objects",
            "ok",
            "errors",
            "co_code_diff",
            "exceptiontable_diff",
            "stacksize_diff",
            "stacksize_below_peephole",
            "linetable_bytes_diff",
            "linetable_fresh_encoding_diff",
            "linetable_shown_diff",
            "code_object_unequal_diff",
            "workloads",
            "workloads_equal",
            "workload_errors",
        ],
        0,
    )
    failures: list = []
    t0 = time.perf_counter()
    files = stdlib_files()
    if args.limit:
        files = files[: args.limit]
    warnings.simplefilter("ignore")
    for path in files:
        try:
            with open(path, "rb") as f:
                code = compile(f.read(), path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, UnicodeDecodeError, OSError):
            stats["files_skipped"] += 1
            continue
        stats["files"] += 1
        for c in walk(code):
            check(c, stats, failures)
    stats["sweep_seconds"] = round(time.perf_counter() - t0, 2)
    run_workloads(stats, failures)
    print(json.dumps({"version": sys.version, "stats": stats, "failures": failures}))


if __name__ == "__main__":
    main()
