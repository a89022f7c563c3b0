//! Coroutines and generators in the structurer:
//! - the handler every 3.12+ generator and coroutine body is wrapped in (StopIteration becomes
//!   RuntimeError) is the compiler's own, not a `try`;
//! - the await / yield-from loop (SEND; YIELD_VALUE; back to SEND; 3.12+ CLEANUP_THROW for `throw()`)
//!   collapses into the expression it stands for, recognised by its control flow: a loop headed by
//!   SEND whose other blocks only yield and resume, entered with the receiver and `None` on the stack,
//!   left only by SEND's jump;
//! - `async for`: a loop headed by GET_ANEXT, left through its exception handler (END_ASYNC_FOR).

use super::{or_pass, strip_tail_continue, LoopCtx, Next, Structurer};
use crate::ast::{Constant, Expr, Stmt};
use crate::error::DecompileError;
use crate::exprs::awaits::AITER_ITEM;
use crate::exprs::Val;
use crate::flow::{Cfg, EdgeKind};
use crate::input::{flags, CodeInput};
use framejit_bytecode::opcode::ArgKind;
use framejit_bytecode::{Arg, Item};

/// The names of a block's instructions.
fn names(code: &CodeInput, cfg: &Cfg, b: usize) -> Vec<&'static str> {
    cfg.blocks[b]
        .instrs
        .iter()
        .filter_map(|&i| match code.bytecode.items.get(i) {
            Some(Item::Instr(ins)) => Some(ins.op.name),
            _ => None,
        })
        .collect()
}

/// 3.12+: a generator's or coroutine's body is covered by a handler that turns a StopIteration
/// escaping the body into RuntimeError (`CALL_INTRINSIC_1 INTRINSIC_STOPITERATION_ERROR; RERAISE`).
/// The compiler adds it to every such body, so the source has nothing for it: drop its ranges.
/// Returns which blocks are that handler.
pub fn strip_generator_wrapper(code: &CodeInput, cfg: &mut Cfg) -> Vec<bool> {
    let generator = flags::GENERATOR | flags::COROUTINE | flags::ASYNC_GENERATOR;
    if code.flags & generator == 0 {
        return vec![false; cfg.blocks.len()];
    }
    let is_wrapper = |b: usize| {
        let ins: Vec<_> = cfg.blocks[b]
            .instrs
            .iter()
            .filter_map(|&i| match code.bytecode.items.get(i) {
                Some(Item::Instr(ins)) => Some(ins),
                _ => None,
            })
            .collect();
        match ins.as_slice() {
            [call, reraise] => {
                let intrinsic = match (call.op.arg, call.arg) {
                    (ArgKind::Named { names, shift }, Arg::Raw(raw)) => {
                        names.get((raw >> shift) as usize).copied()
                    }
                    _ => None,
                };
                call.op.name == "CALL_INTRINSIC_1"
                    && intrinsic == Some("INTRINSIC_STOPITERATION_ERROR")
                    && reraise.op.name == "RERAISE"
            }
            _ => false,
        }
    };
    let n = cfg.blocks.len();
    let wrappers: Vec<bool> = (0..n).map(is_wrapper).collect();
    for b in 0..n {
        let Some((h, depth, _)) = cfg.blocks[b].handler else {
            continue;
        };
        if !wrappers[h] || depth != 0 {
            continue;
        }
        cfg.blocks[b].handler = None;
        cfg.blocks[b]
            .succs
            .retain(|e| !(e.kind == EdgeKind::Exception && e.to == h));
        cfg.blocks[h].preds.retain(|&p| p != b);
    }
    wrappers
}

/// Post-dominators where an `async for` leaves its loop: through its header's exception edge to
/// END_ASYNC_FOR, which is the loop's exit as FOR_ITER's jump is a `for` loop's.
pub fn post_dominators(code: &CodeInput, cfg: &Cfg) -> Vec<Option<usize>> {
    let first = |b: usize| {
        cfg.blocks[b]
            .instrs
            .iter()
            .find_map(|&i| match code.bytecode.items.get(i) {
                Some(Item::Instr(ins)) => Some(ins.op.name),
                _ => None,
            })
    };
    let turned = |b: usize| match cfg.blocks[b].handler {
        Some((h, _, _)) => first(b) == Some("GET_ANEXT") && first(h) == Some("END_ASYNC_FOR"),
        None => legacy_async_for_end(code, cfg, b).is_some(),
    };
    // (the graph is copied only where an `async for` is there to change)
    let turn: Vec<usize> = (0..cfg.blocks.len()).filter(|&b| turned(b)).collect();
    if turn.is_empty() {
        return cfg.post_dominators();
    }
    let mut exits = cfg.clone();
    let mut changed = false;
    for b in turn {
        let Some(h) = exits.blocks[b]
            .handler
            .map(|x| x.0)
            .or_else(|| legacy_async_for_end(code, cfg, b))
        else {
            continue;
        };
        for e in exits.blocks[b].succs.iter_mut() {
            if e.kind == EdgeKind::Exception && e.to == h {
                e.kind = EdgeKind::Jump;
                changed = true;
            }
        }
    }
    if changed {
        exits.post_dominators()
    } else {
        cfg.post_dominators()
    }
}

/// ≤3.10: the END_ASYNC_FOR handler of the `async for` headed by `b`, a block of SETUP_FINALLY
/// alone (where the loop goes round to) whose handler starts with END_ASYNC_FOR and whose body
/// starts with GET_ANEXT: the protected range is the awaited `__anext__()` alone.
pub fn legacy_async_for_end(code: &CodeInput, cfg: &Cfg, b: usize) -> Option<usize> {
    if code.bytecode.version.minor() > 10 {
        return None;
    }
    if names(code, cfg, b) != ["SETUP_FINALLY"] {
        return None;
    }
    let to = |kind: EdgeKind| {
        cfg.blocks[b]
            .succs
            .iter()
            .find(|e| e.kind == kind)
            .map(|e| e.to)
    };
    // (the setup's edge to its handler is an exception edge once the block stack is followed)
    let h = to(EdgeKind::Exception).or_else(|| to(EdgeKind::Jump))?;
    let body = to(EdgeKind::Fall)?;
    let starts = |x: usize, op: &str| names(code, cfg, x).first() == Some(&op);
    (starts(h, "END_ASYNC_FOR") && starts(body, "GET_ANEXT")).then_some(h)
}

impl Structurer<'_> {
    /// ≤3.10: the handler covering `b` that a try statement can have: an `async for`'s own
    /// END_ASYNC_FOR handler (around its `__anext__()` await) stands for the one covering the loop.
    pub(super) fn legacy_try_cover(&self, b: usize) -> Option<usize> {
        let h = self.cfg.blocks[b].handler.map(|x| x.0)?;
        let setup = self.cfg.blocks[h]
            .preds
            .iter()
            .copied()
            .find(|&p| legacy_async_for_end(self.code, &self.cfg, p) == Some(h));
        match setup {
            Some(p) => self.cfg.blocks[p].handler.map(|x| x.0),
            None => Some(h),
        }
    }

    /// One arm of an `if`: the region from `start` to `merge`. An arm that stops because it leaves
    /// the try body it is in, somewhere other than the merge, does not go on to the merge as an
    /// `if` arm would (the compiler copied the code after the try into it): refused.
    /// Its first block starts with `carry` over `base` (spill mode: values kept across the branch).
    pub(super) fn arm_carry(
        &mut self,
        start: usize,
        merge: Option<usize>,
        base: &[Val],
        carry: Vec<Val>,
        lp: Option<&LoopCtx>,
    ) -> Result<Vec<Stmt>, DecompileError> {
        let saved = self.try_end_stop.take();
        let out = self.region_taking_carry(start, merge, base, carry, lp)?;
        // (a stop in a try nested in the arm is that try's business)
        if let Some((depth, x)) = self.try_end_stop {
            let at_merge = merge.is_some_and(|m| m == x || self.same_exit_copy(m, x));
            // (≤3.10 arms that reach the try's end are the block stack's business: legacy_blocks)
            if depth == self.try_body.len() && !at_merge && self.legacy.is_none() {
                return Err(self.err("an if arm that leaves its try body"));
            }
        }
        self.try_end_stop = saved;
        Ok(out)
    }

    /// Is block `b` inside the range of handler `h`: covered by it, or by a handler whose own code
    /// it covers (a loop's END_ASYNC_FOR, a nested statement's handler)?
    pub(super) fn covered_by(&self, b: usize, h: usize) -> bool {
        let mut x = self.cfg.blocks[b].handler.map(|x| x.0);
        for _ in 0..16 {
            match x {
                Some(y) if y == h => return true,
                Some(y) => x = self.cfg.blocks[y].handler.map(|x| x.0),
                None => return false,
            }
        }
        false
    }

    /// Are blocks `x` and `y` the same code that leaves the function (the compiler's copies of a
    /// `return` after a statement, one per path)? The code may run through a few blocks first,
    /// each falling into the next (≤3.10: `POP_BLOCK` then a `with` statement's exit call and the
    /// `return`, a block each, all copied).
    pub(super) fn same_exit_copy(&self, x: usize, y: usize) -> bool {
        let exits = |b: usize| {
            self.cfg.blocks[b]
                .succs
                .iter()
                .all(|e| e.kind == EdgeKind::Exception)
        };
        let (mut x, mut y) = (x, y);
        for _ in 0..4 {
            if exits(x) && exits(y) {
                return self.copy_of_block(x, 0, y);
            }
            let (Some(nx), Some(ny)) = (self.only_fall(x), self.only_fall(y)) else {
                return false;
            };
            let (ix, iy) = (self.instrs(x), self.instrs(y));
            let same = ix.len() == iy.len()
                && ix.iter().zip(iy).all(|(a, b)| super::same_code_instr(a, b));
            if !same || nx == ny {
                return false;
            }
            (x, y) = (nx, ny);
        }
        false
    }

    /// The block `b` falls into, where that is its only way on (exceptions aside).
    pub(super) fn only_fall(&self, b: usize) -> Option<usize> {
        let mut ways = self.cfg.blocks[b]
            .succs
            .iter()
            .filter(|e| e.kind != EdgeKind::Exception);
        match (ways.next(), ways.next()) {
            (Some(e), None) if e.kind == EdgeKind::Fall => Some(e.to),
            _ => None,
        }
    }

    /// Does block `b` start an await / yield-from loop (its first instruction is SEND)?
    pub(super) fn is_send(&self, b: usize) -> bool {
        self.instrs(b).first().map(|i| i.op.name) == Some("SEND")
    }

    /// Where control goes from block `b`, past blocks that only jump.
    fn through_jumps(&self, b: usize) -> Option<usize> {
        let mut cur = self
            .succ(b, EdgeKind::Jump)
            .or_else(|| self.succ(b, EdgeKind::Fall))?;
        for _ in 0..4 {
            let only_jumps = self.instrs(cur).iter().all(|i| {
                i.op.flow == framejit_bytecode::opcode::Flow::Jump
                    || matches!(i.op.name, "NOP" | "NOT_TAKEN")
            });
            if !only_jumps {
                break;
            }
            cur = self.succ(cur, EdgeKind::Jump)?;
        }
        Some(cur)
    }

    /// The await / yield-from loop headed by SEND block `s`, entered with `stack` (the receiver,
    /// then `None`, on top): the block where it ends and the stack there (its value on top).
    pub(super) fn send_loop(
        &mut self,
        s: usize,
        mut stack: Vec<Val>,
    ) -> Result<(usize, Vec<Val>), DecompileError> {
        let send = *self
            .instrs(s)
            .first()
            .ok_or_else(|| self.err("an empty block"))?;
        if self.instrs(s).len() != 1 {
            return Err(self.err("a SEND block that does more than send"));
        }
        if let Some((h, _, _)) = self.cfg.blocks[s].handler {
            if !self.active.iter().any(|&(lo, hi)| (lo..=hi).contains(&h)) {
                return Err(self.err("an exception handler this decompiler does not structure yet"));
            }
        }
        let before = stack.len() as i64;
        match stack.pop() {
            Some(Val::Expr(Expr::Constant {
                value: Constant::None,
                ..
            })) => {}
            _ => return Err(self.err("an await loop that does not start by sending None")),
        }
        let value = match stack.pop() {
            Some(Val::Send(e)) => e,
            other => return Err(self.err(format!("SEND to {other:?}"))),
        };
        let done = self
            .succ(s, EdgeKind::Jump)
            .ok_or_else(|| self.err("SEND without its exit"))?;
        let first = self
            .succ(s, EdgeKind::Fall)
            .ok_or_else(|| self.err("SEND without its yield"))?;
        let lp = self
            .loop_at(s)
            .cloned()
            .ok_or_else(|| self.err("a SEND that does not loop"))?;
        if !lp.body.contains(&first) || lp.body.contains(&done) {
            return Err(self.err("an await loop of a shape this decompiler does not know"));
        }
        // The loop's other blocks yield the value SEND produced and resume, nothing else; a throw()
        // into the yield goes to CLEANUP_THROW, which continues where the loop ends.
        let mut yields = 0;
        let mut cleanups = Vec::new();
        for &x in lp.body.iter().filter(|&&x| x != s) {
            for n in names(self.code, &self.cfg, x) {
                match n {
                    "YIELD_VALUE" => yields += 1,
                    "RESUME" | "JUMP_BACKWARD_NO_INTERRUPT" | "NOP" | "CACHE" | "EXTENDED_ARG" => {}
                    _ => return Err(self.err(format!("{n} inside an await loop"))),
                }
            }
            for e in &self.cfg.blocks[x].succs {
                if e.kind != EdgeKind::Exception && !lp.body.contains(&e.to) {
                    return Err(self.err("an await loop left other than by SEND"));
                }
            }
            match self.cfg.blocks[x].handler {
                None => {}
                Some((h, _, _)) if Some(h) == self.cfg.blocks[s].handler.map(|x| x.0) => {}
                Some((h, _, _)) => {
                    let cleanup = names(self.code, &self.cfg, h);
                    let back = self.through_jumps(h);
                    if cleanup.first() != Some(&"CLEANUP_THROW") || back != Some(done) {
                        return Err(self.err("an await loop's yield with a handler of its own"));
                    }
                    cleanups.push(h);
                }
            }
        }
        if yields != 1 {
            return Err(self.err("an await loop without exactly one yield"));
        }
        for &x in &lp.body {
            if std::mem::replace(&mut self.emitted[x], true) {
                return Err(self.err("an await loop that would come out twice"));
            }
            self.visits[x] += 1;
        }
        for h in cleanups {
            self.emitted[h] = true;
        }
        // SEND's jump leaves the result on top (3.11: in place of the receiver; 3.12+: over it,
        // for END_SEND to drop)
        let after = before + i64::from(send.op.stack_effect(send.raw_arg(), Some(true)));
        while (stack.len() as i64) + 1 < after {
            stack.push(Val::Null);
        }
        if (stack.len() as i64) + 1 != after {
            return Err(self.err("an await loop whose stack effect is not understood"));
        }
        stack.push(Val::Expr(value));
        Ok((done, stack))
    }

    /// `async for TARGET in ITER:` headed by GET_ANEXT (≤3.10: by the SETUP_FINALLY protecting
    /// it); the async iterator is on top of `stack`.
    pub(super) fn async_for_stmt(
        &mut self,
        header: usize,
        stack: Vec<Val>,
        outer: Option<&LoopCtx>,
    ) -> Result<(Vec<Stmt>, Next), DecompileError> {
        let iter = match stack.last() {
            Some(Val::Iter(e)) | Some(Val::Expr(e)) => e.clone(),
            _ => return Err(self.err("GET_ANEXT without an async iterator on the stack")),
        };
        // ≤3.10: the body starts after the setup, with GET_ANEXT
        let legacy = legacy_async_for_end(self.code, &self.cfg, header);
        let first = match legacy {
            Some(_) => self
                .succ(header, EdgeKind::Fall)
                .ok_or_else(|| self.err("an async for without its body"))?,
            None => header,
        };
        let end = legacy
            .or_else(|| self.cfg.blocks[header].handler.map(|x| x.0))
            .ok_or_else(|| self.err("an async for without its END_ASYNC_FOR handler"))?;
        let end_names = names(self.code, &self.cfg, end);
        if end_names.first() != Some(&"END_ASYNC_FOR") {
            return Err(self.err("an async for without its END_ASYNC_FOR handler"));
        }
        // `break` goes just past END_ASYNC_FOR, where a block of its own ends the loop (with code
        // after END_ASYNC_FOR in its block, nothing jumps there: a `break` would be refused), or,
        // with an `else:` part after END_ASYNC_FOR, past that part
        // (3.12+: the code after the loop is reached by a jump after END_ASYNC_FOR, in its block
        // or in one of its own, where `break` jumps straight)
        let is_jump = |i: &&framejit_bytecode::Instr| {
            i.op.flow == framejit_bytecode::opcode::Flow::Jump && !i.op.name.starts_with("SETUP")
        };
        let end_ins = self.instrs(end);
        // (`after_end`: where the loop goes on; `brk`: where `break` jumps, past a lone jump)
        let (after_end, brk) = match end_ins.get(1..) {
            Some([]) => {
                let x = self.succ(end, EdgeKind::Fall);
                let through = x.filter(|&x| matches!(&self.instrs(x)[..], [j] if is_jump(j)));
                (x, through.and_then(|x| self.succ(x, EdgeKind::Jump)).or(x))
            }
            Some([j]) if is_jump(j) => {
                let x = self.succ(end, EdgeKind::Jump);
                (x, x)
            }
            _ => (None, None),
        };
        let alone = after_end.is_some();
        let depth = self.entry_depth[header].and_then(|d| d.checked_sub(1));
        let else_brk = self.else_break_target(header, after_end.unwrap_or(end), depth, outer);
        let ctx = LoopCtx {
            header,
            exit: else_brk.or(brk),
            else_at: else_brk.and(Some(end)),
            cond: None,
            guard: None,
        };
        self.active.push((end, end));
        let body = if legacy.is_some() {
            if std::mem::replace(&mut self.emitted[header], true) {
                return Err(self.err("control flow this decompiler does not structure yet (a block would come out twice)"));
            }
            self.region_with_carry(first, &stack, Vec::new(), &ctx)
        } else {
            // (the header is the body's first block, not a `continue`)
            let saved = self.entering_header.replace(header);
            let body = self.region_with_carry(header, &stack, Vec::new(), &ctx);
            self.entering_header = saved;
            body
        };
        self.active.pop();
        let mut body = body?;
        let target = match body.first() {
            Some(Stmt::Assign {
                targets,
                value: Expr::Name { id, .. },
            }) if id == AITER_ITEM && targets.len() == 1 => targets[0].clone(),
            _ => return Err(self.err("the async for target is not a plain store")),
        };
        body.remove(0);
        strip_tail_continue(&mut body);
        let under = stack[..stack.len().saturating_sub(1)].to_vec();
        // END_ASYNC_FOR pops the iterator and the StopAsyncIteration (≤3.10: the exception's
        // three values and the three saved under it): values the block it starts is given
        let end_ins = self
            .instrs(end)
            .first()
            .copied()
            .ok_or_else(|| self.err("an async for without its END_ASYNC_FOR handler"))?;
        let pops = -end_ins.op.stack_effect(end_ins.raw_arg(), Some(false));
        let pops = usize::try_from(pops)
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| self.err("END_ASYNC_FOR whose stack effect is not understood"))?;
        let mut carry = under.clone();
        carry.extend(std::iter::repeat_n(Val::Null, pops));
        let (orelse, next) = match else_brk {
            Some(t) => {
                let orelse =
                    self.loop_else(end, t, &under, carry[under.len()..].to_vec(), outer)?;
                let next = Next {
                    block: Some(t),
                    carry: under,
                };
                (orelse, next)
            }
            None if alone => {
                if std::mem::replace(&mut self.emitted[end], true) {
                    return Err(self.err("an END_ASYNC_FOR shared by two loops"));
                }
                let next = Next {
                    block: after_end,
                    carry: under,
                };
                (Vec::new(), next)
            }
            None => {
                let next = Next {
                    block: Some(end),
                    carry,
                };
                (Vec::new(), next)
            }
        };
        let stmt = Stmt::AsyncFor {
            target,
            iter,
            body: or_pass(body),
            orelse,
        };
        Ok((vec![stmt], next))
    }
}

/// An async generator cannot `return` a value, not even `None`: its returns are bare.
pub fn bare_returns(body: &mut [Stmt]) {
    for s in body.iter_mut() {
        if let Stmt::Return {
            value:
                value @ Some(Expr::Constant {
                    value: Constant::None,
                    ..
                }),
        } = s
        {
            *value = None;
        }
        for b in s.bodies_mut() {
            bare_returns(b);
        }
    }
}

/// A generator whose every `yield` the compiler dropped as dead code (`return; yield`) is still a
/// generator: the flag comes from the source. Its body gets an `if False: yield` (which compiles to
/// nothing) when the bytecode has no yield left that the output would show.
pub fn keep_generator(code: &CodeInput, body: &mut Vec<Stmt>) {
    let is_gen = code.flags & flags::GENERATOR != 0;
    let is_async_gen = code.flags & flags::ASYNC_GENERATOR != 0;
    if !is_gen && !is_async_gen {
        return;
    }
    let wraps = framejit_bytecode::PyVersion::V3_11 <= code.version;
    let yields = code.bytecode.items.iter().any(|item| {
        let Item::Instr(ins) = item else {
            return false;
        };
        let intrinsic = match (ins.op.arg, ins.arg) {
            (ArgKind::Named { names, shift }, Arg::Raw(raw)) => {
                names.get((raw >> shift) as usize).copied()
            }
            _ => None,
        };
        match ins.op.name {
            // 3.11+ async generators wrap what they yield; their other YIELD_VALUEs are awaits
            "ASYNC_GEN_WRAP" => true,
            "CALL_INTRINSIC_1" => intrinsic == Some("INTRINSIC_ASYNC_GEN_WRAP"),
            "YIELD_VALUE" => is_gen || !wraps,
            "YIELD_FROM" => is_gen,
            _ => false,
        }
    });
    if !yields {
        body.push(Stmt::If {
            test: Expr::constant(Constant::Bool(false)),
            body: vec![Stmt::Expr {
                value: Expr::Yield { value: None },
            }],
            orelse: Vec::new(),
        });
    }
}
