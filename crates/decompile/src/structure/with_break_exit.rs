//! `break` out of a with body inside a loop that has no other way out, and a with body whose last
//! way out is a `break`, 3.11+.
//!
//! The compiler leaves a with body by `break` through a copy of the statement's exit call
//! (`__exit__(None, None, None)` and its result dropped) followed by the jump to the code after
//! the loop; 3.12+ copy a small exit block (`return f()`, `raise E` after the loop) right after
//! that exit call instead of jumping to it. A `while True:` whose only way out is such a `break`
//! has no edge from the loop to the code after it at the loop's own stack depth: the exit call's
//! block is one with statement deeper, outside the natural loop. The code after the exit calls
//! runs after `__exit__` and is no code of the with statement's (a suppressed exception goes on
//! elsewhere: round the loop) nor of the body's (code written in the body runs before the exit
//! call): it is the code after the loop.

use super::{LoopCtx, Structurer};
use crate::ast::{Constant, Expr, Stmt};
use crate::error::DecompileError;
use crate::exprs::{Val, WITH_EXIT};
use crate::flow::{Cfg, EdgeKind, Loop};
use crate::input::{CodeInput, Const};
use framejit_bytecode::{Instr, Item, PyVersion};

/// The index just past the with statements' exit calls that start `ins` (NOPs aside): one or
/// more of `LOAD_CONST None` three times, CALL (3.11: PRECALL first) and POP_TOP. `None` where
/// `ins` does not start so.
pub(super) fn exit_calls_end(code: &CodeInput, ins: &[&Instr]) -> Option<usize> {
    let none = |i: &Instr| {
        i.op.name == "LOAD_CONST"
            && matches!(
                code.consts.get(i.raw_arg() as usize),
                Some(Const::Value(Constant::None))
            )
    };
    let mut k = 0;
    let mut end = None;
    loop {
        while ins.get(k).is_some_and(|i| i.op.name == "NOP") {
            k += 1;
        }
        if !(k..k + 3).all(|j| ins.get(j).is_some_and(|i| none(i))) {
            return end;
        }
        let mut j = k + 3;
        if ins.get(j).is_some_and(|i| i.op.name == "PRECALL") {
            j += 1;
        }
        let call = ins.get(j).is_some_and(|i| i.op.name == "CALL");
        if !call || ins.get(j + 1).is_none_or(|i| i.op.name != "POP_TOP") {
            return end;
        }
        k = j + 2;
        end = Some(k);
    }
}

/// 3.12+: split the block that leaves a `while` loop with no other way out at its own depth
/// through with statements' exit calls followed by a copy of the code after the loop (one such
/// block per loop), after the exit calls: the rest is the loop's exit, the block the `break`
/// goes on to. True where a block was split (the loops must be found again).
pub(super) fn split_break_copies(code: &CodeInput, cfg: &mut Cfg, loops: &[Loop]) -> bool {
    if code.version < PyVersion::V3_12 || loops.is_empty() {
        return false;
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
        let mut outs: Vec<usize> = Vec::new();
        for &x in &l.body {
            for e in &cfg.blocks[x].succs {
                if e.kind != EdgeKind::Exception && !l.body.contains(&e.to) && !outs.contains(&e.to)
                {
                    outs.push(e.to);
                }
            }
        }
        // (the blocks that make exit calls, then leave: `return` / `raise`, no way on; or that
        // make an `async with`'s awaited exit call, whose await loop's way out then leaves: that
        // block is the one split, `async_break.rs`)
        let copies: Vec<(usize, usize, usize)> = outs
            .iter()
            .filter_map(|&y| {
                let ins = block_instrs(cfg, y);
                let Some(k) = exit_calls_end(code, &ins) else {
                    let (e, k) = super::async_break::awaited_break_copy(code, cfg, y)?;
                    return Some((y, e, k));
                };
                let leaves = cfg.blocks[y]
                    .succs
                    .iter()
                    .all(|e| e.kind == EdgeKind::Exception);
                let rest = ins[k..].iter().any(|i| i.op.name != "NOP");
                (leaves && rest && ins.len() == cfg.blocks[y].instrs.len()).then_some((y, y, k))
            })
            .collect();
        let [(y, split, k)] = copies[..] else {
            continue;
        };
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
        // (no other way out at the loop's depth: the code after the loop is only in the copy)
        let other_exit = outs
            .iter()
            .any(|&o| o != y && depth_at(o, 0).is_none_or(|od| od <= d));
        let level = |x: usize| cfg.blocks[x].handler.map(|h| h.0);
        if other_exit
            || depth_at(split, k) != Some(d)
            || depth_at(y, 0).is_none_or(|yd| yd <= d)
            || level(split) != level(l.header)
        {
            continue;
        }
        at.push((split, k));
    }
    at.sort_unstable();
    at.dedup_by_key(|s| s.0);
    for &(b, k) in at.iter().rev() {
        super::with_tail_split::split_block(cfg, b, k);
    }
    !at.is_empty()
}

impl Structurer<'_> {
    /// 3.11+: where a `while` loop (header `header`, blocks `body`) whose ways out are all
    /// deeper than its header goes on: the one place at the header's depth that the blocks
    /// leaving the loop through with statements' exit calls (and nothing else) go on to.
    pub(super) fn with_break_exit(&self, header: usize, body: &[usize]) -> Option<usize> {
        if self.code.version < PyVersion::V3_11 {
            return None;
        }
        let d = self.entry_depth[header]?;
        let mut found: Option<usize> = None;
        for &x in body {
            for e in &self.cfg.blocks[x].succs {
                let y = e.to;
                if e.kind == EdgeKind::Exception || body.contains(&y) {
                    continue;
                }
                if self.entry_depth[y].is_none_or(|yd| yd <= d) {
                    return None;
                }
                let ins = self.instrs(y);
                let z = match exit_calls_end(self.code, &ins) {
                    Some(k) => {
                        let only_jumps = ins[k..].iter().all(|i| {
                            matches!(
                                i.op.name,
                                "NOP"
                                    | "JUMP_FORWARD"
                                    | "JUMP_BACKWARD"
                                    | "JUMP"
                                    | "JUMP_NO_INTERRUPT"
                            )
                        });
                        let on = self
                            .succ(y, EdgeKind::Jump)
                            .or_else(|| self.succ(y, EdgeKind::Fall));
                        on.filter(|_| only_jumps)
                    }
                    // (an `async with`'s awaited exit call: past its await loop, `async_break.rs`)
                    None => super::async_break::awaited_exit_jump(self.code, &self.cfg, y)
                        .map(|(_, z)| z),
                };
                let Some(z) = z else {
                    continue;
                };
                // (at the loop's own depth and try nesting: not the way out of a with statement
                // around the loop, `return` through it)
                let level = |x: usize| self.cfg.blocks[x].handler.map(|h| h.0);
                if body.contains(&z) || self.entry_depth[z] != Some(d) || level(z) != level(header)
                {
                    continue;
                }
                let z = self.resolve_jumps(z);
                if found.is_some_and(|f| f != z) {
                    return None;
                }
                found = Some(z);
            }
        }
        found
    }

    /// The with body's last way out at block `a` (the normal way out, where the code there does
    /// not go on where the suppressed path does): the exit calls of this statement and of
    /// enclosing ones it leaves, then a copy of the exit of loop `lp` ([`Self::with_break_copy`]):
    /// the statements past this statement's own exit call, ending in `break`.
    pub(super) fn with_last_break_copy(
        &mut self,
        a: usize,
        body_base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<Option<Vec<Stmt>>, DecompileError> {
        let exit_call = Stmt::Expr {
            value: Expr::name(WITH_EXIT),
        };
        let Some(mut out) = self.with_break_copy(a, body_base, body_base, lp)? else {
            return Ok(None);
        };
        if out.first() != Some(&exit_call) {
            return Err(
                self.err("a with statement whose code after it differs on the suppressed path")
            );
        }
        out.remove(0);
        Ok(Some(out))
    }
}
