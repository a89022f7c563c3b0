"""Make the .pyc fixtures of crates/bytecode/fixtures/marshal/ with the running interpreter.

    python3.X tools/make_marshal_fixtures.py crates/bytecode/fixtures/marshal

writes <out>/3.X/: a few small stdlib modules compiled with py_compile (timestamp pycs, plus one
checked-hash pyc), for each a <name>.facts.tsv written by this interpreter from the code objects
it loads back (so the Rust tests check against CPython, not against hand-typed values), and
VERSION.txt with sys.version.

facts.tsv: one line per code object, pre-order (module first, then each code constant,
recursively, in co_consts order), tab-separated:
  co_name  co_qualname(or -)  co_firstlineno  co_argcount  co_posonlyargcount
  co_kwonlyargcount  co_stacksize  co_flags  len(co_code)  co_names  co_varnames
  co_cellvars  co_freevars
(lists comma-joined, '-' when empty).
"""

import importlib.util
import marshal
import os
import py_compile
import sys
import sysconfig

MODULES = ["keyword", "colorsys", "bisect", "copyreg", "reprlib"]


def code_consts(co):
    for c in co.co_consts:
        if hasattr(c, "co_code"):
            yield c
        elif isinstance(c, (tuple, frozenset)):
            for x in c:
                if hasattr(x, "co_code"):
                    yield x


def walk(co):
    yield co
    for c in code_consts(co):
        yield from walk(c)


def lst(xs):
    return ",".join(xs) if xs else "-"


def facts(co):
    return "\t".join(
        str(x)
        for x in [
            co.co_name,
            getattr(co, "co_qualname", "-"),
            co.co_firstlineno,
            co.co_argcount,
            co.co_posonlyargcount,
            co.co_kwonlyargcount,
            co.co_stacksize,
            co.co_flags,
            len(co.co_code),
            lst(co.co_names),
            lst(co.co_varnames),
            lst(co.co_cellvars),
            lst(co.co_freevars),
        ]
    )


def write_facts(pyc_path):
    with open(pyc_path, "rb") as f:
        data = f.read()
    co = marshal.loads(data[16:])
    with open(pyc_path[: -len(".pyc")] + ".facts.tsv", "w") as f:
        for c in walk(co):
            f.write(facts(c) + "\n")


def main():
    out = os.path.join(sys.argv[1], "%d.%d" % sys.version_info[:2])
    os.makedirs(out, exist_ok=True)
    stdlib = sysconfig.get_paths()["stdlib"]
    for name in MODULES:
        dest = os.path.join(out, name + ".pyc")
        py_compile.compile(os.path.join(stdlib, name + ".py"), cfile=dest, doraise=True)
        write_facts(dest)
    dest = os.path.join(out, "colorsys.checked-hash.pyc")
    py_compile.compile(
        os.path.join(stdlib, "colorsys.py"),
        cfile=dest,
        doraise=True,
        invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH,
    )
    write_facts(dest)
    with open(os.path.join(out, "VERSION.txt"), "w") as f:
        f.write(sys.version + "\n")
        f.write("magic %d\n" % int.from_bytes(importlib.util.MAGIC_NUMBER[:2], "little"))


main()
