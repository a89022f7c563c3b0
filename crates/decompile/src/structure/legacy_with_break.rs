//! 3.10 `break` out of a with body inside a `while` loop.
//!
//! The compiler leaves a with body by `break` through POP_BLOCK, a copy of the statement's exit
//! call (`LOAD_CONST None`, DUP_TOP, DUP_TOP, CALL_FUNCTION 3, for `async with` the result
//! awaited: GET_AWAITABLE, `LOAD_CONST None`, YIELD_FROM; then POP_TOP), then the jump to the
//! code after the loop; 3.10 copies a small block that leaves (`return f()`, `raise E` after
//! the loop) right there instead of jumping to it. The code after the exit call runs after
//! `__exit__` returned: it is no code of the body's (a `return` written in the body computes its
//! value before the exit call, a `raise` there goes to the handler) nor of the statement's (a
//! suppressed exception goes on elsewhere: round the loop); where it is the loop's exit, or the
//! same instructions, the body's way out is `break`.
//!
//! A `while True:` loop whose only ways out are such `break`s has no edge to the code after it
//! at its own stack depth (the with bodies are deeper, and 3.10's block stack gives them no
//! edge back into the loop): [`split_break_copies`] splits the one copy off after its exit call,
//! and [`Structurer::legacy_with_break_exit`] finds the place the exit calls go on to.

use super::with_tail_split::split_block;
use super::{LoopCtx, Structurer};
use crate::ast::{Constant, Expr, Stmt};
use crate::error::DecompileError;
use crate::exprs::{Val, WITH_EXIT};
use crate::flow::{Cfg, EdgeKind};
use crate::input::{CodeInput, Const};
use framejit_bytecode::{Instr, Item, PyVersion};

fn block_instrs<'c>(code: &'c CodeInput, cfg: &Cfg, b: usize) -> Vec<&'c Instr> {
    cfg.blocks[b]
        .instrs
        .iter()
        .filter_map(|&i| match code.bytecode.items.get(i) {
            Some(Item::Instr(ins)) => Some(ins),
            _ => None,
        })
        .collect()
}

/// The index just past the 3.10 with statement's exit call that starts `ins` (NOPs aside):
/// `LOAD_CONST None`, DUP_TOP, DUP_TOP, CALL_FUNCTION 3, awaited for `async with`
/// (GET_AWAITABLE, `LOAD_CONST None`, YIELD_FROM), POP_TOP. `None` where `ins` does not start so.
fn exit_call_end(code: &CodeInput, ins: &[&Instr]) -> Option<usize> {
    let none = |i: &Instr| {
        i.op.name == "LOAD_CONST"
            && matches!(
                code.consts.get(i.raw_arg() as usize),
                Some(Const::Value(Constant::None))
            )
    };
    let k = ins.iter().position(|i| i.op.name != "NOP")?;
    let names: Vec<&str> = ins[k..].iter().map(|i| i.op.name).collect();
    if !ins.get(k).is_some_and(|i| none(i))
        || names.get(1..4) != Some(&["DUP_TOP", "DUP_TOP", "CALL_FUNCTION"][..])
        || ins[k + 3].raw_arg() != 3
    {
        return None;
    }
    let mut j = k + 4;
    if names.get(4..7) == Some(&["GET_AWAITABLE", "LOAD_CONST", "YIELD_FROM"][..]) {
        if !none(ins[k + 5]) {
            return None;
        }
        j += 3;
    }
    (ins.get(j).map(|i| i.op.name) == Some("POP_TOP")).then_some(j + 1)
}

/// The blocks reached from the loop's ways out (edges out of `body`) that are deeper than the
/// loop's header (depth `d`: inside statements the loop's body opened), and the blocks at the
/// header's depth or above that those reach: (deeper blocks, (from, to) of the edges up).
fn deeper_region(
    cfg: &Cfg,
    body: &[usize],
    d: u32,
    entry: &dyn Fn(usize) -> Option<u32>,
) -> (Vec<usize>, Vec<(usize, usize)>) {
    let mut seen: Vec<usize> = Vec::new();
    let mut up: Vec<(usize, usize)> = Vec::new();
    let mut todo: Vec<(usize, usize)> = Vec::new();
    for &x in body {
        for e in &cfg.blocks[x].succs {
            if !body.contains(&e.to) {
                todo.push((x, e.to));
            }
        }
    }
    while let Some((from, y)) = todo.pop() {
        if body.contains(&y) || seen.contains(&y) || up.contains(&(from, y)) {
            continue;
        }
        if entry(y).is_none_or(|yd| yd <= d) {
            up.push((from, y));
            continue;
        }
        seen.push(y);
        if seen.len() > 256 {
            break;
        }
        for e in &cfg.blocks[y].succs {
            todo.push((y, e.to));
        }
    }
    (seen, up)
}

/// 3.10: split the block that leaves a `while` loop with no other way out at its own depth
/// through a with statement's exit call followed by a copy of the code after the loop (one such
/// block per loop), after the exit call: the rest is the loop's exit, the block the `break`
/// goes on to. True where a block was split (the loops must be found again).
pub(super) fn split_break_copies(code: &CodeInput, cfg: &mut Cfg) -> bool {
    if code.version != PyVersion::V3_10 {
        return false;
    }
    // (only code with a with statement; the loops found before the block-stack walk, which
    // knows the blocks by their index: split first)
    let with = code.bytecode.items.iter().any(|i| {
        matches!(i, Item::Instr(ins) if matches!(ins.op.name, "SETUP_WITH" | "SETUP_ASYNC_WITH"))
    });
    if !with {
        return false;
    }
    let loops = cfg.loops();
    let mut depths: Option<Vec<Option<u32>>> = None;
    let mut at: Vec<(usize, usize)> = Vec::new();
    for l in &loops {
        let first = block_instrs(code, cfg, l.header).first().map(|i| i.op.name);
        if first == Some("FOR_ITER") {
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
        let (region, up) = deeper_region(cfg, &l.body, d, &|b| depth_at(b, 0));
        // (no way out at the loop's depth: the code after the loop is only in the copy)
        if !up.is_empty() {
            continue;
        }
        let copies: Vec<(usize, usize)> = region
            .iter()
            .filter_map(|&y| {
                let ins = block_instrs(code, cfg, y);
                let k = exit_call_end(code, &ins)?;
                let leaves = cfg.blocks[y]
                    .succs
                    .iter()
                    .all(|e| e.kind == EdgeKind::Exception);
                let rest = ins[k..].iter().any(|i| i.op.name != "NOP");
                (leaves
                    && rest
                    && ins.len() == cfg.blocks[y].instrs.len()
                    && depth_at(y, k) == Some(d))
                .then_some((y, k))
            })
            .collect();
        if let [c] = copies[..] {
            at.push(c);
        }
    }
    at.sort_unstable();
    at.dedup_by_key(|s| s.0);
    for &(b, k) in at.iter().rev() {
        split_block(cfg, b, k);
    }
    !at.is_empty()
}

impl Structurer<'_> {
    /// 3.10: where a `while` loop (header `header`, blocks `body`) with no way out at its
    /// header's depth goes on: the one place at that depth that the blocks making a with
    /// statement's exit call (and nothing else, but jumps) go on to, reached from the loop's ways
    /// out through deeper blocks only.
    pub(super) fn legacy_with_break_exit(&self, header: usize, body: &[usize]) -> Option<usize> {
        if self.code.version != PyVersion::V3_10 {
            return None;
        }
        if self.instrs(header).first().map(|i| i.op.name) == Some("FOR_ITER") {
            return None;
        }
        let d = self.entry_depth[header]?;
        let (_, up) = deeper_region(&self.cfg, body, d, &|b| self.entry_depth[b]);
        let mut found: Option<usize> = None;
        for &(y, z) in &up {
            let ins = self.instrs(y);
            let k = exit_call_end(self.code, &ins)?;
            let only_jumps = ins[k..]
                .iter()
                .all(|i| matches!(i.op.name, "NOP" | "JUMP_FORWARD" | "JUMP_ABSOLUTE"));
            let level = |x: usize| self.legacy.as_ref().and_then(|l| l.running[x]);
            if !only_jumps || self.entry_depth[z] != Some(d) || level(z) != level(header) {
                return None;
            }
            let z = self.resolve_jumps(z);
            if found.is_some_and(|f| f != z) {
                return None;
            }
            found = Some(z);
        }
        found
    }

    /// 3.10: the with body's last way out at block `a` (the normal way out, where the code there
    /// does not go on where the suppressed path does): the exit calls, then a copy of loop `lp`'s
    /// exit: the statements past this statement's own exit call, ending in `break`.
    pub(super) fn legacy_with_last_break(
        &mut self,
        a: usize,
        body_base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<Option<Vec<Stmt>>, DecompileError> {
        if self.code.version != PyVersion::V3_10 {
            return Ok(None);
        }
        let Some(out) = self.with_last_break_copy(a, body_base, lp)? else {
            return Ok(None);
        };
        // (nothing past the exit calls of the with statements it leaves but the `break`: a
        // finally body's copy there is no reading of this)
        let exit_call = Stmt::Expr {
            value: Expr::name(WITH_EXIT),
        };
        let only_calls = match out.split_last() {
            Some((Stmt::Break, calls)) => calls.iter().all(|c| *c == exit_call),
            _ => false,
        };
        if !only_calls {
            return Err(
                self.err("a with statement whose code after it differs on the suppressed path")
            );
        }
        Ok(Some(out))
    }
}
