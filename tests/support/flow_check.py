"""flow_check.py LIST.tsv [REGEX]: the sweep's "different" rows (reason matching REGEX, by default the
kinds whose instructions are the same but for jumps) checked for a different control flow.

The sweep compares instruction sequences; a row it counts as "different" may behave the same (an arm's
order, a jump threaded) or not (session 16 found four silent miscompilations among such rows). Here
each object is decompiled and compiled again as the sweep does (run from the repository root with the
interpreter of the list's version, PYTHONPATH=python), and where both have the same non-jump
instructions in the same order, each one's ways on are compared: unconditional jumps and NOT_TAKEN
followed, a conditional jump as its test and its two ways by truth value, only what control reaches
from the start and the exception handlers' entries, and equal where the code reached to a depth of 8
is the same (copies of a small exit). Prints FLOW-DIFFERS for the rows whose flow differs (read
them: each is a candidate miscompilation) and a count per outcome ("order": other instruction
order, not checked)."""
import os, re, sys, sysconfig, warnings, collections
sys.path.insert(0, "tests/support")
import decompile_sweep as S
from framejit import decompile, DecompileError
warnings.simplefilter("ignore")
tsv = sys.argv[1]
pat = re.compile(sys.argv[2] if len(sys.argv) > 2 else "branches|jump-targets|exits|condition-sense|block-order")
UNCOND = {"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_ABSOLUTE", "JUMP", "JUMP_NO_INTERRUPT", "JUMP_BACKWARD_NO_INTERRUPT"}
TERM = {"RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE"}
def cond_kind(op):
    op = op.replace("_FORWARD", "").replace("_BACKWARD", "")
    return {"POP_JUMP_IF_TRUE": ("truth", True), "POP_JUMP_IF_FALSE": ("truth", False),
            "POP_JUMP_IF_NONE": ("none", True), "POP_JUMP_IF_NOT_NONE": ("none", False)}.get(op)
import dis, bisect
def flow(norm, code):
    L = [x for x in norm if x[0] != S.HANDLERS]
    instrs = S.unfused([i for i in dis.get_instructions(code) if i.opname not in S.IGNORED])
    offs = [(i.offset, k) for k, i in enumerate(instrs) if i.offset >= 0]
    keys = [o for o, _ in offs]
    def target_of(k):
        t = instrs[k].argval
        j = bisect.bisect_left(keys, t)
        return offs[j][1] if j < len(offs) else None
    if len(instrs) == len(L):
        L = [(x[0], ("->", target_of(k))) if (isinstance(x[1], tuple) and len(x[1]) == 2 and x[1][0] == "->") else x
             for k, x in enumerate(L)]
    isjump = lambda x: isinstance(x[1], tuple) and len(x[1]) == 2 and x[1][0] == "->"
    nodes = [k for k, x in enumerate(L) if not (x[0] in UNCOND or x[0] == "NOT_TAKEN" or (isjump(x) and cond_kind(x[0])))]
    pos = {k: n for n, k in enumerate(nodes)}
    def resolve(p, seen):
        if p is None or p >= len(L):
            return ("end",)
        if p in seen:
            return ("loop",)
        seen = seen | {p}
        x = L[p]
        if x[0] == "NOT_TAKEN":
            return resolve(p + 1, seen)
        if x[0] in UNCOND:
            return resolve(x[1][1], seen)
        if isjump(x) and cond_kind(x[0]):
            kind, when = cond_kind(x[0])
            t, f = resolve(x[1][1], seen), resolve(p + 1, seen)
            return ("cond", kind, t, f) if when else ("cond", kind, f, t)
        return ("node", pos[p])
    succ = {}
    for k in nodes:
        x = L[k]
        if x[0] in TERM:
            s = ()
        elif isjump(x):
            s = (resolve(k + 1, frozenset()), resolve(x[1][1], frozenset()))
        else:
            s = (resolve(k + 1, frozenset()),)
        succ[pos[k]] = s
    seq = [(L[k][0], L[k][1] if not isjump(L[k]) else None) for k in nodes]
    # only what control reaches: from the start, and from the exception handlers' entries
    hand = [x for x in norm if x[0] == S.HANDLERS]
    starts = [resolve(0, frozenset())]
    if hand:
        for c in hand[0][1][1]:
            if c is not None and c[0] is not None:
                starts.append(resolve(c[0], frozenset()))
    live = set()
    todo = list(starts)
    while todo:
        t = todo.pop()
        if t[0] == "node":
            if t[1] in live:
                continue
            live.add(t[1])
            todo.extend(succ[t[1]])
        elif t[0] == "cond":
            todo.extend([t[2], t[3]])
    succ = {n: v for n, v in succ.items() if n in live}
    return seq, succ
def same_by_content(fx, fy, depth=8):
    seq = fx[0]
    def sigt(t, succ, d):
        if t[0] == "node":
            return sig(t[1], succ, d)
        if t[0] == "cond":
            return ("cond", t[1], sigt(t[2], succ, d), sigt(t[3], succ, d))
        return t
    def sig(n, succ, d):
        if d == 0:
            return seq[n]
        return (seq[n], tuple(sigt(t, succ, d - 1) for t in succ[n]))
    return fx[1].keys() == fy[1].keys() and all(sig(n, fx[1], depth) == sig(n, fy[1], depth) for n in fx[1])
rows = collections.defaultdict(list)
for line in open(tsv):
    if line.startswith("#"): continue
    p = line.rstrip("\n").split("\t")
    if len(p) < 6 or p[0] != "different" or p[5].startswith("in ") or not pat.search(p[5]): continue
    rows[p[1]].append(p[3])
roots = [sysconfig.get_paths()["stdlib"]] + ["/opt/framejit-stdlib-extra/python%d.%d" % sys.version_info[:2]]
counts = collections.Counter()
for f, quals in rows.items():
    path = next((os.path.join(r, f) for r in roots if os.path.exists(os.path.join(r, f))), None)
    if path is None: continue
    try:
        module = compile(open(path, "rb").read(), path, "exec", dont_inherit=True)
    except Exception: continue
    imported = S.module_imports(module)
    tree = list(S.tree(module))
    parents = {id(k): p for p in tree for k in p.co_consts if hasattr(k, "co_code")}
    for qual in quals:
        found = [c for c in tree if getattr(c, "co_qualname", c.co_name) == qual or c.co_name == qual]
        if not found: continue
        c = found[0]
        try:
            src = decompile(c)
            again_module = compile(S.in_context(c, src, imported, parents.get(id(c))), path, "exec", dont_inherit=True)
            again = S.find_named([k for k in S.tree(again_module) if not k.co_name.startswith("__framejit_ctx")], c.co_name)
            for a, b in zip([c] + S.inline_children(c), [again] + S.inline_children(again)):
                x, y = S.normalized(a), S.normalized(b)
                if x == y: continue
                fx, fy = flow(x, a), flow(y, b)
                if fx[0] != fy[0]:
                    counts["order"] += 1
                elif fx[1] == fy[1]:
                    counts["same-flow"] += 1
                elif same_by_content(fx, fy):
                    counts["same-by-content"] += 1
                else:
                    counts["FLOW-DIFFERS"] += 1
                    diff = [n for n in fx[1] if fx[1][n] != fy[1].get(n)]
                    print("FLOW-DIFFERS", f, qual, a.co_name, "nodes", diff[:5], flush=True)
        except Exception as e:
            counts["error"] += 1
print(dict(counts))
