"""Decompile whole stdlib modules, execute the decompiled source as the module, and run workloads:
results must equal the original module's. Prints JSON: per module "equal", "different: ..." or
"not decompiled: <reason>"."""

from __future__ import annotations

import importlib
import json
import sys
import types

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from roundtrip_sweep import WORKLOADS  # noqa: E402

from framejit import DecompileError  # noqa: E402
from framejit.decompiler import decompile_with_constants  # noqa: E402


def main() -> None:
    results = {}
    for modname, expr in WORKLOADS.items():
        try:
            orig = importlib.import_module(modname)
        except ImportError:
            continue
        path = orig.__file__
        code = compile(open(path, "rb").read(), path, "exec", dont_inherit=True)
        try:
            source, constants = decompile_with_constants(code)
        except DecompileError as e:
            results[modname] = f"not decompiled: {str(e)[-120:]}"
            continue
        mod = types.ModuleType(orig.__name__)
        mod.__file__ = path
        mod.__package__ = orig.__package__
        mod.__dict__.update(constants)
        sys.modules[orig.__name__] = mod
        try:
            exec(compile(source, path, "exec"), mod.__dict__)
        except Exception as e:
            results[modname] = f"different: executing failed: {type(e).__name__}: {e}"
            continue
        finally:
            sys.modules[orig.__name__] = orig

        def run(m):
            try:
                return repr(eval(expr, {"m": m}))
            except Exception as e:
                return f"{type(e).__name__}: {e}"

        want, got = run(orig), run(mod)
        results[modname] = "equal" if want == got else f"different: {want[:150]} != {got[:150]}"
    print(json.dumps(results))


main()
