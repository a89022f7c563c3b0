//! 3.12+: `break` out of an except clause of a `while` loop that has no other way out, into the
//! code after the loop that the compiler copied after the clause's end.
//!
//! `while True: try: ... except E: ...; break` followed by `return f(x)`: the clause's `break`
//! ends the clause (POP_EXCEPT, the unbinding of an `as` name), runs the copy of an enclosing
//! finally body of the loop's try statement, then goes to the code after the loop, which 3.12+
//! copy there when it is a small block that leaves. The loop has no block of its own for that
//! code: no edge from the loop's blocks leaves it at its depth (the handler is reached by an
//! exception edge only), so nothing says where the loop ends and the copy reads as the clause's.
//!
//! Code past the clause's end (and past the finally body's copy) that computes a value or runs
//! statements is not the clause's own `return`: a `return` written in the clause computes its
//! value before POP_EXCEPT and keeps it across the finally body's copy; only a constant is loaded
//! after them (`return CONSTANT`, which reads the same either way and is left as it is). With no
//! other way out of the loop at its depth, that code is where the clause's `break` goes: the
//! block is split there, and the rest is the loop's exit. (Where the try body never completes,
//! `except E: X` followed by that code after the try statement, inside the loop, compiles to the
//! same instructions and does the same: either reading runs X, then the code, once.)

use super::Structurer;
use crate::flow::{Cfg, EdgeKind, Loop};
use crate::input::CodeInput;
use framejit_bytecode::{Instr, Item, PyVersion};

/// Split the blocks described above (one per loop). Returns the exit blocks made (their final
/// indices), empty where none was split.
pub(super) fn split_clause_breaks(code: &CodeInput, cfg: &mut Cfg, loops: &[Loop]) -> Vec<usize> {
    if code.version < PyVersion::V3_12 || loops.is_empty() {
        return Vec::new();
    }
    let instr = |i: usize| match code.bytecode.items.get(i) {
        Some(Item::Instr(ins)) => Some(ins),
        _ => None,
    };
    let block_instrs = |cfg: &Cfg, b: usize| -> Vec<&Instr> {
        cfg.blocks[b]
            .instrs
            .iter()
            .filter_map(|&i| instr(i))
            .collect()
    };
    let mut depths: Option<Vec<Option<u32>>> = None;
    let mut at: Vec<(usize, usize)> = Vec::new();
    for l in loops {
        let header_first = block_instrs(cfg, l.header).first().map(|i| i.op.name);
        if header_first == Some("FOR_ITER") {
            continue;
        }
        let depths = depths.get_or_insert_with(|| {
            framejit_bytecode::assemble::instruction_depths(&code.bytecode).unwrap_or_default()
        });
        let depth_at = |b: usize, k: usize| {
            cfg.blocks[b]
                .instrs
                .get(k)
                .and_then(|&i| depths.get(i).copied().flatten())
        };
        let Some(d) = depth_at(l.header, 0) else {
            continue;
        };
        let level = |x: usize| cfg.blocks[x].handler.map(|h| h.0);
        // (no way out of the loop at its depth or above it, but blocks that leave (`return`,
        // `raise` written in the body), checked below against the copy)
        let mut other_exit = false;
        let mut leaving_outs: Vec<usize> = Vec::new();
        for &x in &l.body {
            for e in &cfg.blocks[x].succs {
                if e.kind == EdgeKind::Exception
                    || l.body.contains(&e.to)
                    || depth_at(e.to, 0).is_some_and(|od| od > d)
                {
                    continue;
                }
                let leaves = cfg.blocks[e.to]
                    .succs
                    .iter()
                    .all(|e| e.kind == EdgeKind::Exception);
                if leaves {
                    leaving_outs.push(e.to);
                } else {
                    other_exit = true;
                }
            }
        }
        // (a loop with another inside it: the inner loop's ways out, threaded to this loop's
        // header or exit, are read with this loop's exit as found before; not split)
        let nested = loops
            .iter()
            .any(|m| m.header != l.header && l.body.contains(&m.header));
        if other_exit || nested {
            continue;
        }
        // the blocks of the handlers of the loop's blocks, outside the loop, by normal edges
        let mut todo: Vec<usize> = l
            .body
            .iter()
            .filter_map(|&b| level(b))
            .filter(|h| !l.body.contains(h))
            .collect();
        let mut seen: Vec<usize> = Vec::new();
        let mut found: Vec<(usize, usize)> = Vec::new();
        while let Some(y) = todo.pop() {
            if seen.contains(&y) || l.body.contains(&y) || seen.len() > 64 {
                continue;
            }
            seen.push(y);
            for e in &cfg.blocks[y].succs {
                if e.kind != EdgeKind::Exception {
                    todo.push(e.to);
                }
            }
            let leaves = cfg.blocks[y]
                .succs
                .iter()
                .all(|e| e.kind == EdgeKind::Exception);
            let ins = block_instrs(cfg, y);
            if !leaves || level(y) != level(l.header) || ins.len() != cfg.blocks[y].instrs.len() {
                continue;
            }
            let Some(k) = clause_end(cfg, y, &ins, &block_instrs) else {
                continue;
            };
            let rest: Vec<&str> = ins[k..]
                .iter()
                .map(|i| i.op.name)
                .filter(|n| !matches!(*n, "NOP" | "NOT_TAKEN"))
                .collect();
            let constant_return = matches!(
                rest.as_slice(),
                ["RETURN_CONST"] | ["LOAD_CONST" | "LOAD_SMALL_INT", "RETURN_VALUE"]
            );
            if rest.is_empty() || constant_return || depth_at(y, k) != Some(d) {
                continue;
            }
            found.push((y, k));
        }
        // (a block the body leaves for with the same code is another copy of the code after
        // the loop, a `break` of the body: which one is the loop's own is not told, left as is)
        // (3.14 loads a local by LOAD_FAST_BORROW in one copy and LOAD_FAST in another)
        let code_of = |ins: &[&Instr]| -> Vec<(String, u32)> {
            ins.iter()
                .filter(|i| !matches!(i.op.name, "NOP" | "NOT_TAKEN"))
                .map(|i| (i.op.name.replace("_BORROW", ""), i.raw_arg()))
                .collect()
        };
        if let [(y, k)] = found[..] {
            let ins = block_instrs(cfg, y);
            let rest = code_of(&ins[k..]);
            if !leaving_outs
                .iter()
                .any(|&o| code_of(&block_instrs(cfg, o)) == rest)
            {
                at.push((y, k));
            }
        }
    }
    at.sort_unstable();
    at.dedup_by_key(|s| s.0);
    for &(b, k) in at.iter().rev() {
        super::with_tail_split::split_block(cfg, b, k);
    }
    // (each split before a block moves it on by one)
    at.iter()
        .enumerate()
        .map(|(j, &(b, _))| b + j + 1)
        .collect()
}

/// Where the clause's end ends in block `y` (instructions `ins`): past a POP_EXCEPT that starts
/// it (markers aside) and the unbinding of an `as` name; or, where `y` is reached only by falling
/// from a block that ends with the clause's POP_EXCEPT under a finally body's handler, past the
/// copy of that finally body that starts `y`.
fn clause_end<'c>(
    cfg: &Cfg,
    y: usize,
    ins: &[&Instr],
    block_instrs: &dyn Fn(&Cfg, usize) -> Vec<&'c Instr>,
) -> Option<usize> {
    let names: Vec<&str> = ins.iter().map(|i| i.op.name).collect();
    let marks = names
        .iter()
        .take_while(|n| matches!(**n, "NOP" | "NOT_TAKEN"))
        .count();
    if names.get(marks) == Some(&"POP_EXCEPT") {
        let k = marks + 1;
        let unbind = match names.get(k..k + 3) {
            Some(["LOAD_CONST", s, dl]) if s.starts_with("STORE_") && dl.starts_with("DELETE_") => {
                3
            }
            _ => 0,
        };
        return Some(k + unbind);
    }
    // (the POP_EXCEPT in the block falling into `y`, under a finally body's handler)
    let [q] = cfg.blocks[y].preds[..] else {
        return None;
    };
    let falls = cfg.blocks[q]
        .succs
        .iter()
        .filter(|e| e.kind != EdgeKind::Exception)
        .map(|e| (e.to, e.kind))
        .collect::<Vec<_>>();
    if falls != [(y, EdgeKind::Fall)] {
        return None;
    }
    let qi = block_instrs(cfg, q);
    let ends_clause = qi.iter().rev().take(4).any(|i| i.op.name == "POP_EXCEPT");
    let f = cfg.blocks[q].handler.map(|h| h.0)?;
    if !ends_clause {
        return None;
    }
    // the finally body: its handler block, PUSH_EXC_INFO, the body, RERAISE 0 (straight code)
    let fi = block_instrs(cfg, f);
    let body = match fi.as_slice() {
        [first, body @ .., last]
            if first.op.name == "PUSH_EXC_INFO" && last.op.name == "RERAISE" =>
        {
            body
        }
        _ => return None,
    };
    if body.is_empty()
        || body
            .iter()
            .any(|i| i.op.name.starts_with("POP_JUMP") || i.op.name == "CHECK_EXC_MATCH")
    {
        return None;
    }
    let same = |a: &Instr, b: &Instr| {
        let norm = |n: &'static str| match n {
            "LOAD_FAST_BORROW" => "LOAD_FAST",
            "LOAD_FAST_BORROW_LOAD_FAST_BORROW" => "LOAD_FAST_LOAD_FAST",
            n => n,
        };
        norm(a.op.name) == norm(b.op.name) && a.raw_arg() == b.raw_arg()
    };
    let n = body.len();
    (ins.len() > n && ins.iter().zip(body.iter()).all(|(a, b)| same(a, b))).then_some(n)
}

impl Structurer<'_> {
    /// The exit of the loop headed by `header` (blocks `body`) split off by
    /// [`split_clause_breaks`]: where its except clauses go on after POP_EXCEPT.
    pub(super) fn clause_break_exit_of(&self, header: usize, body: &[usize]) -> Option<usize> {
        if self.clause_break_exits.is_empty() {
            return None;
        }
        self.handler_break_exit(header, body)
            .filter(|x| self.clause_break_exits.contains(x))
    }
}
