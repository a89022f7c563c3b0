//! 3.10 with statements whose body never completes normally, inside a `while c:` loop (or
//! followed by an `if`): the code after the statement ends in a conditional jump (the loop's
//! rotated bottom test, an `if` test) and nothing but the handler's suppressed path reaches it,
//! so the compiler lays it out in the suppressed path's block, right after its pops
//! (POP_TOP ×3, POP_EXCEPT, POP_TOP). Where the body does complete, its way out jumps there and
//! that code starts a block of its own. Splitting the block after the pops gives the layout the
//! `with` structuring reads (the code after the statement where the suppressed path goes on).
//!
//! 3.10 copies only small blocks that leave (ending in RETURN_VALUE / RAISE_VARARGS / RERAISE)
//! into a way that jumps to them, never a block ending in a conditional jump: code there ending
//! so is the code after the statement itself, not a copy (those stay as they are: the handler's
//! reading compares them with the body's normal way out).

use super::with_tail_split::split_block;
use crate::flow::{Cfg, EdgeKind};
use crate::input::CodeInput;
use framejit_bytecode::{Item, PyVersion};

/// Split each 3.10 with handler's suppressed-path block whose pops are followed, in the same
/// block, by code ending in a conditional jump, after the pops.
pub(super) fn split_suppressed_tests(code: &CodeInput, cfg: &mut Cfg) {
    if code.version != PyVersion::V3_10 {
        return;
    }
    let name = |i: usize| match code.bytecode.items.get(i) {
        Some(Item::Instr(ins)) => Some(ins.op.name),
        _ => None,
    };
    let names = |b: usize| -> Vec<&str> {
        cfg.blocks[b]
            .instrs
            .iter()
            .filter_map(|&i| name(i))
            .collect()
    };
    let mut at = Vec::new();
    for (b, blk) in cfg.blocks.iter().enumerate() {
        // (the handler's test: WITH_EXCEPT_START, for `async with` its result awaited, then
        // POP_JUMP_IF_TRUE to the suppressed path)
        let test = names(b);
        let handler_test = matches!(
            test[..],
            ["WITH_EXCEPT_START", "POP_JUMP_IF_TRUE"]
                | [
                    "WITH_EXCEPT_START",
                    "GET_AWAITABLE",
                    "LOAD_CONST",
                    "YIELD_FROM",
                    "POP_JUMP_IF_TRUE"
                ]
        );
        if !handler_test {
            continue;
        }
        let Some(x) = blk
            .succs
            .iter()
            .find(|e| e.kind == EdgeKind::Jump)
            .map(|e| e.to)
        else {
            continue;
        };
        let sup = names(x);
        let pops = ["POP_TOP", "POP_TOP", "POP_TOP", "POP_EXCEPT", "POP_TOP"];
        if sup.len() <= pops.len()
            || sup[..pops.len()] != pops
            || cfg.blocks[x].preds.len() != 1
            || cfg.blocks[x].instrs.len() != sup.len()
        {
            continue;
        }
        let rest = &sup[pops.len()..];
        let ends_in_test = rest.last().is_some_and(|n| {
            matches!(
                *n,
                "POP_JUMP_IF_TRUE"
                    | "POP_JUMP_IF_FALSE"
                    | "JUMP_IF_TRUE_OR_POP"
                    | "JUMP_IF_FALSE_OR_POP"
            )
        });
        let leaves = rest
            .iter()
            .any(|n| matches!(*n, "RETURN_VALUE" | "RAISE_VARARGS" | "RERAISE"));
        if ends_in_test && !leaves {
            at.push((x, pops.len()));
        }
    }
    at.sort_unstable();
    at.dedup_by_key(|s| s.0);
    for &(b, k) in at.iter().rev() {
        split_block(cfg, b, k);
    }
}

/// 3.10 with statements whose body completes by several ways, each the body's POP_BLOCK then a
/// copy of the statement's exit call and of the code after the statement (a small block that
/// leaves, `return f()`), which 3.10 copies onto each jump to it. Blocks with the same
/// instructions, entered with the same stack, do the same: each such way out is made to go on to
/// the last of them (the one after the body's last POP_BLOCK, which the statement's reading
/// takes as its normal way out), as the jumps the compiler replaced did. Only the ways out of
/// one statement's body (found by following its block stack from the body's start), each a
/// block of its own with that one way in.
fn copy_moves(code: &CodeInput, cfg: &Cfg) -> Vec<(usize, usize, usize)> {
    let instr = |i: usize| match code.bytecode.items.get(i) {
        Some(Item::Instr(ins)) => Some(ins),
        _ => None,
    };
    let setups = ["SETUP_WITH", "SETUP_ASYNC_WITH"];
    let any_with = cfg.blocks.iter().any(|b| {
        b.instrs
            .last()
            .and_then(|&i| instr(i))
            .is_some_and(|ins| setups.contains(&ins.op.name))
    });
    if !any_with {
        return Vec::new();
    }
    let mut depths: Option<Vec<Option<u32>>> = None;
    let mut moves: Vec<(usize, usize, usize)> = Vec::new();
    for s in 0..cfg.blocks.len() {
        let last = cfg.blocks[s].instrs.last().and_then(|&i| instr(i));
        if !last.is_some_and(|ins| setups.contains(&ins.op.name)) {
            continue;
        }
        let Some(start) = cfg.blocks[s]
            .succs
            .iter()
            .find(|e| e.kind == EdgeKind::Fall)
            .map(|e| e.to)
        else {
            continue;
        };
        // (the block stack's depth above the with's entry, at each block's entry)
        let mut level: Vec<Option<i32>> = vec![None; cfg.blocks.len()];
        let mut todo = vec![(start, 1i32)];
        let mut outs: Vec<(usize, usize)> = Vec::new();
        let mut ok = true;
        while let Some((b, l)) = todo.pop() {
            match level[b] {
                Some(x) if x == l => continue,
                Some(_) => {
                    ok = false;
                    break;
                }
                None => level[b] = Some(l),
            }
            let mut l = l;
            for &i in &cfg.blocks[b].instrs {
                let Some(ins) = instr(i) else { continue };
                if ins.op.name.starts_with("SETUP_") {
                    l += 1;
                } else if ins.op.name == "POP_BLOCK" {
                    l -= 1;
                }
            }
            for e in &cfg.blocks[b].succs {
                if e.kind == EdgeKind::Exception {
                    continue;
                }
                if l == 0 {
                    outs.push((b, e.to));
                } else if l > 0 {
                    todo.push((e.to, l));
                }
            }
            if l < 0 || level.iter().flatten().count() > 512 {
                ok = false;
                break;
            }
        }
        if !ok {
            continue;
        }
        // (ways out: a block ending in the POP_BLOCK, falling into a block of its own that
        // starts with the exit call and leaves)
        let names = |b: usize| -> Vec<(&str, u32)> {
            cfg.blocks[b]
                .instrs
                .iter()
                .filter_map(|&i| instr(i))
                .map(|i| (i.op.name, i.raw_arg()))
                .collect()
        };
        let copies: Vec<(usize, usize)> = outs
            .iter()
            .copied()
            .filter(|&(p, x)| {
                let pi = names(p);
                let xi = names(x);
                let leaves = cfg.blocks[x].succs.is_empty();
                let starts = xi
                    .iter()
                    .map(|n| n.0)
                    .skip_while(|n| *n == "NOP")
                    .take(4)
                    .eq(["LOAD_CONST", "DUP_TOP", "DUP_TOP", "CALL_FUNCTION"]);
                // (not a constant returned after the exit call: the body's own `return C`
                // compiles so too, and reads as it is)
                let rest: Vec<&str> = xi
                    .iter()
                    .map(|n| n.0)
                    .filter(|n| *n != "NOP")
                    .skip(5)
                    .collect();
                pi.last().map(|n| n.0) == Some("POP_BLOCK")
                    && rest != ["LOAD_CONST", "RETURN_VALUE"]
                    && cfg.blocks[x].preds == [p]
                    && cfg.blocks[p]
                        .succs
                        .iter()
                        .all(|e| e.kind == EdgeKind::Exception || e.to == x)
                    && leaves
                    && starts
            })
            .collect();
        let Some(&(_, a)) = copies.iter().max_by_key(|c| c.1) else {
            continue;
        };
        let depths = depths.get_or_insert_with(|| {
            framejit_bytecode::assemble::instruction_depths(&code.bytecode).unwrap_or_default()
        });
        let depth = |b: usize| {
            cfg.blocks[b]
                .instrs
                .first()
                .and_then(|&i| depths.get(i).copied().flatten())
        };
        for &(p, x) in &copies {
            let same = x != a
                && names(x)
                    .into_iter()
                    .filter(|n| n.0 != "NOP")
                    .eq(names(a).into_iter().filter(|n| n.0 != "NOP"))
                && depth(x).is_some()
                && depth(x) == depth(a);
            if same {
                moves.push((p, x, a));
            }
        }
    }
    moves
}

pub(super) fn merge_exit_copies(code: &CodeInput, cfg: &mut Cfg) {
    if code.version != PyVersion::V3_10 {
        return;
    }
    let moves = copy_moves(code, cfg);
    if moves.is_empty() {
        return;
    }
    // (first each block ending in such a POP_BLOCK split before it, so that the POP_BLOCK is a
    // block of its own: the ways into the copies' POP_BLOCKs then go on to the kept one's, one
    // place where the body ends, as the one POP_BLOCK written there)
    let pop_only = |cfg: &Cfg, b: usize| {
        let mut it = cfg.blocks[b]
            .instrs
            .iter()
            .filter_map(|&i| match code.bytecode.items.get(i) {
                Some(Item::Instr(ins)) => Some(ins),
                _ => None,
            })
            .filter(|i| i.op.name != "NOP");
        it.next().is_some_and(|i| i.op.name == "POP_BLOCK") && it.next().is_none()
    };
    let mut at: Vec<(usize, usize)> = Vec::new();
    for &(p, _, a) in &moves {
        let ps = [Some(p), cfg.blocks[a].preds.first().copied()];
        for q in ps.into_iter().flatten() {
            if !pop_only(cfg, q) {
                at.push((q, cfg.blocks[q].instrs.len() - 1));
            }
        }
    }
    at.sort_unstable();
    at.dedup_by_key(|s| s.0);
    for &(b, k) in at.iter().rev() {
        split_block(cfg, b, k);
    }
    let moves = copy_moves(code, cfg);
    for (p, _, a) in moves {
        let [pa] = cfg.blocks[a].preds[..] else {
            continue;
        };
        if pa == p || !pop_only(cfg, p) || !pop_only(cfg, pa) {
            continue;
        }
        let froms: Vec<usize> = cfg.blocks[p].preds.clone();
        for q in froms {
            for e in cfg.blocks[q].succs.iter_mut() {
                if e.to == p && e.kind != EdgeKind::Exception {
                    e.to = pa;
                }
            }
            if cfg.blocks[q].succs.iter().all(|e| e.to != p) {
                cfg.blocks[p].preds.retain(|&r| r != q);
            }
            if !cfg.blocks[pa].preds.contains(&q) {
                cfg.blocks[pa].preds.push(q);
            }
        }
    }
}
