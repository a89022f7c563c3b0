//! 3.11 `with cm: B` whose body never completes normally (`with cm: return x`), followed by more
//! code: the compiler lays the code after the statement out right after the handler's
//! suppressed path (POP_TOP, POP_EXCEPT, POP_TOP, POP_TOP) in the same block, as nothing else
//! jumps there. Where the body does complete, its way out jumps to that code, which then starts
//! a block of its own. Splitting the block after the suppressed path's pops gives the layout the
//! `with` structuring reads (the code after the statement where the suppressed path goes on),
//! which then runs for a suppressed exception, as it does in the bytecode.

use crate::flow::{Block, Cfg, Edge, EdgeKind};
use crate::input::CodeInput;
use framejit_bytecode::{Item, PyVersion};

/// Split, for each with statement's handler, the block where its suppressed path's pops end and
/// more code follows, at that point.
pub(super) fn split_suppressed_tails(code: &CodeInput, cfg: &mut Cfg) {
    // (3.12+ structure their layouts as they are)
    if code.version != PyVersion::V3_11 {
        return;
    }
    let name = |i: usize| match code.bytecode.items.get(i) {
        Some(Item::Instr(ins)) => Some(ins.op.name),
        _ => None,
    };
    let mut at = Vec::new();
    for blk in &cfg.blocks {
        // (exactly these three, read in place: no list of names made per block)
        let mut names = blk
            .instrs
            .iter()
            .filter_map(|&i| name(i))
            .filter(|n| !matches!(*n, "NOP" | "NOT_TAKEN" | "TO_BOOL"));
        let handler_test = names.next() == Some("PUSH_EXC_INFO")
            && names.next() == Some("WITH_EXCEPT_START")
            && names
                .next()
                .is_some_and(|j| j.starts_with("POP_JUMP") && j.ends_with("IF_TRUE"))
            && names.next().is_none();
        let jump = |b: &Block| {
            b.succs
                .iter()
                .find(|e| e.kind == EdgeKind::Jump)
                .map(|e| e.to)
        };
        let x = match handler_test {
            true => jump(blk),
            // (`async with`: the exit call's result awaited first, its await loop's way out
            // the test, `async_test`)
            false => async_test(code, cfg, blk).and_then(|t| jump(&cfg.blocks[t])),
        };
        let Some(x) = x else {
            continue;
        };
        if let Some(split) = pops_end(code, cfg, x) {
            at.push(split);
        }
    }
    // (from the last, so that the indices of those before stay)
    at.sort_unstable();
    at.dedup_by_key(|s| s.0);
    for &(b, k) in at.iter().rev() {
        split_block(cfg, b, k);
    }
}

/// 3.11 `async with`'s handler block `blk`: PUSH_EXC_INFO, WITH_EXCEPT_START, GET_AWAITABLE,
/// LOAD_CONST, falling into the await loop's SEND block: the block its way out goes to, where
/// that is the test of the awaited result alone (a POP_JUMP ... IF_TRUE).
fn async_test(code: &CodeInput, cfg: &Cfg, blk: &Block) -> Option<usize> {
    let names = |b: &Block| -> Vec<&str> {
        b.instrs
            .iter()
            .filter_map(|&i| match code.bytecode.items.get(i) {
                Some(Item::Instr(ins)) => Some(ins.op.name),
                _ => None,
            })
            .filter(|n| *n != "NOP")
            .collect()
    };
    let on = |b: &Block, kind: EdgeKind| b.succs.iter().find(|e| e.kind == kind).map(|e| e.to);
    let head = [
        "PUSH_EXC_INFO",
        "WITH_EXCEPT_START",
        "GET_AWAITABLE",
        "LOAD_CONST",
    ];
    if names(blk) != head {
        return None;
    }
    let s = on(blk, EdgeKind::Fall)?;
    if names(&cfg.blocks[s]) != ["SEND"] {
        return None;
    }
    let t = on(&cfg.blocks[s], EdgeKind::Jump)?;
    match names(&cfg.blocks[t])[..] {
        [j] if j.starts_with("POP_JUMP") && j.ends_with("IF_TRUE") => Some(t),
        _ => None,
    }
}

/// From block `x` (the suppressed path's first POP_TOP), along fall-through blocks that do not
/// jump: the block and the index in it right after the pops (POP_TOP, POP_EXCEPT, then the
/// POP_TOPs of the with's values), where more instructions follow in that block.
fn pops_end(code: &CodeInput, cfg: &Cfg, x: usize) -> Option<(usize, usize)> {
    let name = |i: usize| match code.bytecode.items.get(i) {
        Some(Item::Instr(ins)) => Some(ins.op.name),
        _ => None,
    };
    let mut seen = Vec::new();
    let mut b = x;
    for _ in 0..4 {
        for (k, &i) in cfg.blocks[b].instrs.iter().enumerate() {
            let n = name(i)?;
            if n == "NOP" {
                continue;
            }
            let fits = match seen.len() {
                0 => n == "POP_TOP",
                1 => n == "POP_EXCEPT",
                _ => n == "POP_TOP",
            };
            if fits {
                seen.push(n);
                continue;
            }
            // (POP_TOP, POP_EXCEPT and at least two POP_TOPs: the with's values)
            if seen.len() < 4 || k == 0 {
                return None;
            }
            return Some((b, k));
        }
        let blk = &cfg.blocks[b];
        if blk.succs.iter().any(|e| e.kind == EdgeKind::Jump) {
            return None;
        }
        b = blk.succs.iter().find(|e| e.kind == EdgeKind::Fall)?.to;
        if cfg.blocks[b].preds.len() != 1 {
            return None;
        }
    }
    None
}

/// Split block `b` before its `k`-th instruction: the rest becomes block `b + 1`, reached by
/// falling through; the blocks after move up one.
pub(super) fn split_block(cfg: &mut Cfg, b: usize, k: usize) {
    if k == 0 || k >= cfg.blocks[b].instrs.len() || cfg.blocks[b].succs.iter().any(|e| e.to == b) {
        return;
    }
    let up = |x: usize| if x > b { x + 1 } else { x };
    for blk in cfg.blocks.iter_mut() {
        for e in blk.succs.iter_mut() {
            e.to = up(e.to);
        }
        for p in blk.preds.iter_mut() {
            *p = up(*p);
        }
        if let Some(h) = blk.handler.as_mut() {
            h.0 = up(h.0);
        }
    }
    let rest = cfg.blocks[b].instrs.split_off(k);
    let succs = std::mem::take(&mut cfg.blocks[b].succs);
    let handler = cfg.blocks[b].handler;
    let exc: Vec<Edge> = succs
        .iter()
        .copied()
        .filter(|e| e.kind == EdgeKind::Exception)
        .collect();
    // the first part falls into the rest (and keeps its handler)
    cfg.blocks[b].succs = std::iter::once(Edge {
        to: b + 1,
        kind: EdgeKind::Fall,
    })
    .chain(exc.iter().copied())
    .collect();
    let moved: Vec<Edge> = succs.clone();
    cfg.blocks.insert(
        b + 1,
        Block {
            instrs: rest,
            labels: Vec::new(),
            succs,
            preds: vec![b],
            handler,
        },
    );
    // the rest's successors now come from it (the first part keeps its exception edge)
    for e in &moved {
        let Some(to) = cfg.blocks.get_mut(e.to) else {
            continue;
        };
        if e.kind != EdgeKind::Exception {
            to.preds.retain(|&p| p != b);
        }
        if !to.preds.contains(&(b + 1)) {
            to.preds.push(b + 1);
        }
    }
}

impl super::Structurer<'_> {
    /// The code after a with statement whose body never completes, where the suppressed path of
    /// handler `h` goes on to it (a block of its own, [`split_suppressed_tails`]): the block after
    /// the one ending the pops, which holds nothing else and is the only way there.
    pub(super) fn suppressed_runs_on(&self, h: usize) -> Option<usize> {
        let n = self.with_suppressed_next(h)?;
        let [p] = self.cfg.blocks[n].preds.as_slice() else {
            return None;
        };
        let only_pops = self
            .instrs(*p)
            .iter()
            .all(|i| matches!(i.op.name, "POP_TOP" | "POP_EXCEPT" | "NOP"));
        let pops_end = self.instrs(*p).iter().any(|i| i.op.name == "POP_EXCEPT")
            || self.cfg.blocks[*p]
                .preds
                .iter()
                .any(|&q| self.instrs(q).iter().any(|i| i.op.name == "POP_EXCEPT"));
        (only_pops && pops_end && *p >= h).then_some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(instrs: Vec<usize>, succs: Vec<(usize, EdgeKind)>, preds: Vec<usize>) -> Block {
        Block {
            instrs,
            labels: Vec::new(),
            succs: succs
                .into_iter()
                .map(|(to, kind)| Edge { to, kind })
                .collect(),
            preds,
            handler: None,
        }
    }

    #[test]
    fn split_moves_the_rest_and_renumbers() {
        // 0 -> 1 (jump) / 2 (fall); 1 handled by 3; 2 -> 3
        let mut cfg = Cfg {
            blocks: vec![
                block(
                    vec![0],
                    vec![(1, EdgeKind::Jump), (2, EdgeKind::Fall)],
                    vec![],
                ),
                block(vec![1, 2, 3], vec![(3, EdgeKind::Exception)], vec![0]),
                block(vec![4], vec![(3, EdgeKind::Fall)], vec![0]),
                block(vec![5], vec![], vec![1, 2]),
            ],
        };
        cfg.blocks[1].handler = Some((3, 0, false));
        split_block(&mut cfg, 1, 2);
        assert_eq!(cfg.blocks.len(), 5);
        assert_eq!(cfg.blocks[1].instrs, vec![1, 2]);
        assert_eq!(cfg.blocks[2].instrs, vec![3]);
        let to = |b: usize| -> Vec<(usize, EdgeKind)> {
            cfg.blocks[b].succs.iter().map(|e| (e.to, e.kind)).collect()
        };
        assert_eq!(to(0), vec![(1, EdgeKind::Jump), (3, EdgeKind::Fall)]);
        assert_eq!(to(1), vec![(2, EdgeKind::Fall), (4, EdgeKind::Exception)]);
        assert_eq!(to(2), vec![(4, EdgeKind::Exception)]);
        assert_eq!(to(3), vec![(4, EdgeKind::Fall)]);
        assert_eq!(cfg.blocks[2].preds, vec![1]);
        assert_eq!(cfg.blocks[2].handler.map(|h| h.0), Some(4));
        let mut p = cfg.blocks[4].preds.clone();
        p.sort_unstable();
        assert_eq!(p, vec![1, 2, 3]);
    }

    #[test]
    fn no_split_at_the_ends() {
        let mut cfg = Cfg {
            blocks: vec![block(vec![0, 1], vec![], vec![])],
        };
        split_block(&mut cfg, 0, 0);
        split_block(&mut cfg, 0, 2);
        assert_eq!(cfg.blocks.len(), 1);
    }
}
