//! `break` out of an `async with` body inside a `while` loop, 3.11+.
//!
//! The compiler leaves an `async with` body by `break` through a copy of the statement's exit
//! call, awaited: `LOAD_CONST None` three times, CALL, GET_AWAITABLE, `LOAD_CONST None`, then the
//! await loop (SEND, YIELD_VALUE, RESUME, a jump back to SEND), whose way out is END_SEND (3.12+)
//! and the POP_TOP of the call's result. Then it jumps to the loop's exit (3.11), or 3.12+ copy a
//! small exit block (`return f()`, `raise E` after the loop) right there. This is the awaited
//! form of `with_break_exit.rs`: the code past the POP_TOP runs after `__aexit__` returned, so it
//! is no code of the body's (code written in the body runs before the exit call; a `return`
//! there computes its value first, a `raise` there goes to the handler) nor of the statement's (a
//! suppressed exception goes on elsewhere); where it is the loop's exit, or a copy of it, the
//! body's way out is `break`.

use super::{LoopCtx, Structurer};
use crate::ast::Constant;
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

fn succ(cfg: &Cfg, b: usize, kind: EdgeKind) -> Option<usize> {
    cfg.blocks[b]
        .succs
        .iter()
        .find(|e| e.kind == kind)
        .map(|e| e.to)
}

/// The awaited exit call of a with statement that block `y` starts (NOPs aside): `y` is exactly
/// `LOAD_CONST None` three times, CALL (3.11: PRECALL first), GET_AWAITABLE and `LOAD_CONST
/// None`, and falls into its await loop's SEND block, whose way out is a block that starts with
/// the pop of the call's result (3.12+: END_SEND, then POP_TOP). The SEND block, that block, and
/// the index in it just past the POP_TOP. `None` where `y` is not so.
pub(super) fn awaited_exit(code: &CodeInput, cfg: &Cfg, y: usize) -> Option<(usize, usize, usize)> {
    if code.version < PyVersion::V3_11 {
        return None;
    }
    let none = |i: &Instr| {
        i.op.name == "LOAD_CONST"
            && matches!(
                code.consts.get(i.raw_arg() as usize),
                Some(Const::Value(Constant::None))
            )
    };
    let ins = block_instrs(code, cfg, y);
    let ins: Vec<&Instr> = ins.into_iter().skip_while(|i| i.op.name == "NOP").collect();
    let names: Vec<&str> = ins.iter().map(|i| i.op.name).collect();
    let call: &[&str] = if code.version == PyVersion::V3_11 {
        &["PRECALL", "CALL", "GET_AWAITABLE"]
    } else {
        &["CALL", "GET_AWAITABLE"]
    };
    let n = call.len();
    if ins.len() != n + 4
        || !ins[..3].iter().all(|i| none(i))
        || names[3..3 + n] != *call
        || !none(ins[3 + n])
    {
        return None;
    }
    let s = succ(cfg, y, EdgeKind::Fall)?;
    if block_instrs(code, cfg, s)
        .iter()
        .map(|i| i.op.name)
        .collect::<Vec<_>>()
        != ["SEND"]
    {
        return None;
    }
    let e = succ(cfg, s, EdgeKind::Jump)?;
    let pops: &[&str] = if code.version == PyVersion::V3_11 {
        &["POP_TOP"]
    } else {
        &["END_SEND", "POP_TOP"]
    };
    let on = block_instrs(code, cfg, e);
    let starts = on.len() >= pops.len() && on.iter().zip(pops).all(|(i, p)| i.op.name == *p);
    starts.then_some((s, e, pops.len()))
}

/// Does block `b` leave (no way on but exceptions)?
fn leaves(cfg: &Cfg, b: usize) -> bool {
    cfg.blocks[b]
        .succs
        .iter()
        .all(|e| e.kind == EdgeKind::Exception)
}

/// 3.12+: the block to split, and where, for a `while` loop's way out at block `y` that is an
/// awaited exit call followed by a copy of the code after the loop, which leaves (the loop's
/// exit, for `with_break_exit::split_break_copies`): the await loop's way-out block, past the
/// POP_TOP of the call's result.
pub(super) fn awaited_break_copy(code: &CodeInput, cfg: &Cfg, y: usize) -> Option<(usize, usize)> {
    if code.version < PyVersion::V3_12 {
        return None;
    }
    let (_, e, k) = awaited_exit(code, cfg, y)?;
    let ins = block_instrs(code, cfg, e);
    let rest = ins[k..].iter().any(|i| i.op.name != "NOP");
    (leaves(cfg, e) && rest && ins.len() == cfg.blocks[e].instrs.len()).then_some((e, k))
}

/// Where the awaited exit call at block `y` goes on where nothing but jumps follow its result's
/// pop (the loop's exit, for `with_break_exit`): the awaited call's way-out block and the block
/// it goes on to.
pub(super) fn awaited_exit_jump(code: &CodeInput, cfg: &Cfg, y: usize) -> Option<(usize, usize)> {
    let (_, e, k) = awaited_exit(code, cfg, y)?;
    let ins = block_instrs(code, cfg, e);
    let only_jumps = ins[k..].iter().all(|i| {
        matches!(
            i.op.name,
            "NOP" | "JUMP_FORWARD" | "JUMP_BACKWARD" | "JUMP" | "JUMP_NO_INTERRUPT"
        )
    });
    if !only_jumps {
        return None;
    }
    let z = succ(cfg, e, EdgeKind::Jump).or_else(|| succ(cfg, e, EdgeKind::Fall))?;
    Some((e, z))
}

impl Structurer<'_> {
    /// 3.11+ `async with` in a `while` loop `lp`: the body's last way out at block `a` (where the
    /// code there does not go on where the suppressed path does) is `break` where it is the
    /// statement's own awaited exit call, then the loop's exit: a jump there, or 3.12+ a copy of
    /// it (the same instructions, both leaving, in the same try nesting). The blocks of that way
    /// out, which it takes.
    pub(super) fn async_with_last_break(
        &self,
        a: usize,
        lp: Option<&LoopCtx>,
    ) -> Option<Vec<usize>> {
        let lp = lp?;
        let exit = lp.exit?;
        if self.instrs(lp.header).first().map(|i| i.op.name) == Some("FOR_ITER") {
            return None;
        }
        let (s, e, k) = awaited_exit(self.code, &self.cfg, a)?;
        let level = |x: usize| self.cfg.blocks[x].handler.map(|h| h.0);
        if let Some((_, z)) = awaited_exit_jump(self.code, &self.cfg, a) {
            return (self.resolve_jumps(z) == self.resolve_jumps(exit) && level(z) == level(exit))
                .then_some(vec![a, s, e]);
        }
        let ins = self.instrs(e);
        let xi = self.instrs(exit);
        let same = ins.len() == k + xi.len()
            && ins[k..]
                .iter()
                .zip(xi.iter())
                .all(|(x, y)| x.op.name == y.op.name && x.arg == y.arg);
        let copy = self.code.version >= PyVersion::V3_12
            && same
            && exit != e
            && leaves(&self.cfg, e)
            && leaves(&self.cfg, exit)
            && level(e) == level(exit);
        copy.then_some(vec![a, s, e])
    }
}
