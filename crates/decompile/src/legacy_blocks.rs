//! CPython 3.8-3.10 `try` and `with`: protected ranges opened by block setups (SETUP_FINALLY,
//! SETUP_WITH) and closed by POP_BLOCK, instead of the 3.11+ exception table.
//!
//! The block stack is followed along the flow graph (a setup pushes its handler, POP_BLOCK pops it, a
//! handler is entered with an except-handler entry that POP_EXCEPT pops), so each block gets the
//! innermost handler covering it, as 3.11+ blocks get theirs from the table; the structurer then
//! cuts a try body where the coverage ends. What a handler does decides the statement:
//! - exception-match tests (or a bare clause dropping the exception) at its start: `except` clauses;
//! - WITH_EXCEPT_START: the `with` statement's exit;
//! - otherwise a `finally` body that re-raises, whose copy on the normal path is compared and
//!   dropped, as are its copies before `return` / `break` / `continue` in the body.
//!
//! A handler entered by an exception holds six values more than its setup had (the saved exception
//! and the raised one, three each); the saved ones are not on the symbolic stack (`depth_offset`).

use super::{or_pass, strip_finally_copies, LoopCtx, Structurer};
use crate::ast::{Constant, ExceptHandler, Expr, Stmt, WithItem};
use crate::error::DecompileError;
use crate::exprs::{Exit, Sim, Val, EXC, EXC_MATCH, POP_EXCEPT, RERAISE, WITH_ENTER, WITH_EXIT};
use crate::flow::{Cfg, EdgeKind};
use crate::input::CodeInput;
use framejit_bytecode::Item;

/// Markers for the exception's type and traceback, which a handler entry pushes around the value.
pub(super) const EXC_TYPE: &str = "\u{0}exception-type";
pub(super) const EXC_TB: &str = "\u{0}exception-traceback";

/// An entry of the block stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    /// A setup whose handler is this block.
    Setup(usize),
    /// The handler at this block being run (popped by POP_EXCEPT).
    Handler(usize),
}

/// Block-stack facts of a ≤3.10 code object.
pub(super) struct Legacy {
    /// The innermost handler being run at each block's entry.
    pub(super) running: Vec<Option<usize>>,
    /// The try / with bodies being structured: their handler and normal exit (the block after the
    /// last POP_BLOCK of the range, in code order).
    pub(super) exits: Vec<(usize, Option<usize>)>,
    /// Why the block stack cannot be followed, if it cannot.
    error: Option<String>,
}

/// Statements made, the block where control goes on (`None`: it leaves), and what stays on the stack.
pub(super) type Built = (Vec<Stmt>, Option<usize>, Vec<Val>);

/// Except clauses, and for each the code after the statement that the compiler copied into it.
type Clauses = (Vec<ExceptHandler>, Vec<Option<Vec<Stmt>>>);

const SETUPS: [&str; 3] = ["SETUP_FINALLY", "SETUP_WITH", "SETUP_ASYNC_WITH"];

impl Legacy {
    /// The block-stack walk; records each block's covering handler in `cfg`. `None` for 3.11+.
    pub(super) fn build(code: &CodeInput, cfg: &mut Cfg) -> Option<Legacy> {
        if code.bytecode.version.minor() > 10 {
            return None;
        }
        let n = cfg.blocks.len();
        let items = &code.bytecode.items;
        // 3.10 puts a `while` loop's line number on a NOP before its first block: `continue` jumps
        // to the NOP, the end of the body to the block after it. Both are the same place: let every
        // jump go to the NOP, so the loop has one header.
        for p in 0..n {
            let all_nop = !cfg.blocks[p].instrs.is_empty()
                && cfg.blocks[p].instrs.iter().all(
                    |&i| matches!(items.get(i), Some(Item::Instr(ins)) if ins.op.name == "NOP"),
                );
            let x = p + 1;
            if !all_nop || x >= n || cfg.blocks[p].succs.iter().any(|e| e.to != x) {
                continue;
            }
            // (not an outer loop's test jumping to an inner `while True:` line: `nop_lines.rs`)
            if crate::nop_lines::jump_from_above(code, cfg, p) {
                continue;
            }
            for u in 0..n {
                if u == p {
                    continue;
                }
                let mut moved = false;
                for e in cfg.blocks[u].succs.iter_mut() {
                    if e.to == x && e.kind == EdgeKind::Jump {
                        e.to = p;
                        moved = true;
                    }
                }
                if moved {
                    let still = cfg.blocks[u].succs.iter().any(|e| e.to == x);
                    if !still {
                        cfg.blocks[x].preds.retain(|&q| q != u);
                    }
                    if !cfg.blocks[p].preds.contains(&u) {
                        cfg.blocks[p].preds.push(u);
                    }
                }
            }
        }
        let mut state: Vec<Option<Vec<Entry>>> = vec![None; n];
        let mut error: Option<String> = None;
        let mut reraise_38: Vec<usize> = Vec::new();
        let mut work = Vec::new();
        if n > 0 {
            state[0] = Some(Vec::new());
            work.push(0);
        }
        while let Some(b) = work.pop() {
            let mut st = state[b].clone().unwrap_or_default();
            let mut handler_entry: Option<(usize, Vec<Entry>)> = None;
            let mut after_with_cleanup = false;
            for &i in &cfg.blocks[b].instrs {
                let Some(Item::Instr(ins)) = items.get(i) else {
                    continue;
                };
                let name = ins.op.name;
                if SETUPS.contains(&name) {
                    let h = cfg.blocks[b]
                        .succs
                        .iter()
                        .find(|e| e.kind == EdgeKind::Jump)
                        .map(|e| e.to);
                    match h {
                        Some(h) => {
                            let mut hs = st.clone();
                            hs.push(Entry::Handler(h));
                            handler_entry = Some((h, hs));
                            st.push(Entry::Setup(h));
                        }
                        None => error = Some(format!("{name} without its handler")),
                    }
                } else if name == "POP_BLOCK" {
                    if !matches!(st.pop(), Some(Entry::Setup(_))) {
                        error = Some("POP_BLOCK without a block setup".into());
                    }
                } else if name == "POP_EXCEPT" {
                    if !matches!(st.pop(), Some(Entry::Handler(_))) {
                        error = Some("POP_EXCEPT outside an exception handler".into());
                    }
                } else if name == "WITH_CLEANUP_FINISH" && st.last() == Some(&Entry::Handler(b)) {
                    // 3.8: a with statement's handler (this block) goes on as the normal path
                    // does once __exit__ has suppressed the exception (else END_FINALLY re-raises)
                    st.pop();
                    after_with_cleanup = true;
                } else if name == "END_FINALLY" && std::mem::take(&mut after_with_cleanup) {
                    // (the with handler's END_FINALLY: see WITH_CLEANUP_FINISH)
                } else if name == "END_FINALLY"
                    && matches!(st.last(), Some(Entry::Handler(_)))
                    && cfg.blocks[b].instrs.last() == Some(&i)
                {
                    // 3.8: in an except handler (the exception's type on the stack) END_FINALLY
                    // re-raises: no clause matched
                    reraise_38.push(b);
                } else if name == "END_ASYNC_FOR"
                    && st.last() == Some(&Entry::Handler(b))
                    && cfg.blocks[b].instrs.first() == Some(&i)
                {
                    // `async for`'s handler: StopAsyncIteration ends the loop (its handler entry
                    // popped with the iterator), any other exception is re-raised
                    st.pop();
                } else if matches!(name, "END_FINALLY" | "CALL_FINALLY" | "END_ASYNC_FOR") {
                    error = Some(format!(
                        "{name}: a 3.8 finally body left by return/break/continue, or async for, is not decompiled yet"
                    ));
                }
            }
            if reraise_38.last() == Some(&b) {
                // nothing follows a re-raise
                for e in std::mem::take(&mut cfg.blocks[b].succs) {
                    cfg.blocks[e.to].preds.retain(|&p| p != b);
                }
            }
            for e in cfg.blocks[b].succs.clone() {
                let s = match &handler_entry {
                    Some((h, hs)) if *h == e.to && e.kind == EdgeKind::Jump => hs.clone(),
                    _ => st.clone(),
                };
                match &state[e.to] {
                    None => {
                        state[e.to] = Some(s);
                        work.push(e.to);
                    }
                    Some(old) if *old != s => {
                        error = Some("a block reached with different block stacks".into());
                    }
                    _ => {}
                }
            }
        }
        // the edge from a setup to its handler is an exception edge: post-dominators (where
        // statements end) follow the normal paths, as for 3.11+
        for b in 0..n {
            let last = cfg.blocks[b]
                .instrs
                .last()
                .and_then(|&i| match items.get(i) {
                    Some(Item::Instr(ins)) => Some(ins.op.name),
                    _ => None,
                });
            if last.is_some_and(|l| SETUPS.contains(&l)) {
                for e in cfg.blocks[b].succs.iter_mut() {
                    if e.kind == EdgeKind::Jump {
                        e.kind = EdgeKind::Exception;
                    }
                }
            }
        }
        let mut running = vec![None; n];
        for (b, st) in state.iter().enumerate() {
            let cover = st.as_ref().and_then(|st| {
                st.iter().rev().find_map(|e| match e {
                    Entry::Setup(h) => Some(*h),
                    Entry::Handler(_) => None,
                })
            });
            cfg.blocks[b].handler = cover.map(|h| (h, 0, false));
            running[b] = st.as_ref().and_then(|st| {
                st.iter().rev().find_map(|e| match e {
                    Entry::Handler(h) => Some(*h),
                    Entry::Setup(_) => None,
                })
            });
        }
        Some(Legacy {
            running,
            exits: Vec::new(),
            error,
        })
    }
}

fn is_marker(s: &Stmt, m: &str) -> bool {
    matches!(s, Stmt::Expr { value: Expr::Name { id, .. } } if id == m)
}

/// Remove the POP_EXCEPT markers from an except clause's statements (not in nested functions). After
/// one only what the compiler writes when leaving a handler may follow: the unbinding of the clause's
/// name, a `return` of a constant or a name, `break`, `continue`. Anything else is code from after the
/// statement copied into the clause, which would run with the exception still being handled: false.
fn strip_pop_except(stmts: &mut Vec<Stmt>) -> bool {
    let is_pe = |s: &Stmt| is_marker(s, POP_EXCEPT);
    if let Some(k) = stmts.iter().position(is_pe) {
        let mut rest = past_enclosing_clause_exits(&stmts[k + 1..]);
        if rest.len() >= 2 {
            if let Stmt::Assign { targets, .. } = &rest[0] {
                if let [Expr::Name { id, .. }] = targets.as_slice() {
                    if is_unbind(&rest[..2], id) {
                        rest = &rest[2..];
                    }
                }
            }
        }
        if !super::except_exit::leaving(rest) {
            return false;
        }
        stmts.remove(k);
    }
    for s in stmts.iter_mut() {
        let ok = match s {
            Stmt::If { body, orelse, .. }
            | Stmt::For { body, orelse, .. }
            | Stmt::While { body, orelse, .. } => {
                strip_pop_except(body) && strip_pop_except(orelse)
            }
            Stmt::Try {
                body,
                handlers,
                orelse,
                finalbody,
            } => {
                strip_pop_except(body)
                    && strip_pop_except(orelse)
                    && strip_pop_except(finalbody)
                    && handlers.iter_mut().all(|h| strip_pop_except(&mut h.body))
            }
            Stmt::With { body, .. } => strip_pop_except(body),
            _ => true,
        };
        if !ok {
            return false;
        }
    }
    true
}

/// `rest`, what follows an except clause's POP_EXCEPT marker, past the ways out of enclosing
/// except clauses: a `return` in a clause nested in a clause leaves both, so (after the clause's
/// own unbinding) the enclosing clauses' POP_EXCEPT markers and unbindings may come before the
/// leaving statement; they stay in the statements, for those clauses' own strip to take off. From
/// the last such marker's unbinding on, or `rest` as it is where no marker follows.
fn past_enclosing_clause_exits(rest: &[Stmt]) -> &[Stmt] {
    let past_unbind = |r: &[Stmt]| -> usize {
        match r {
            [Stmt::Assign { targets, .. }, ..] if r.len() >= 2 => match targets.as_slice() {
                [Expr::Name { id, .. }] if is_unbind(&r[..2], id) => 2,
                _ => 0,
            },
            _ => 0,
        }
    };
    let mut out = rest;
    loop {
        let skip = past_unbind(out);
        match out[skip..].split_first() {
            Some((first, more)) if is_marker(first, POP_EXCEPT) && !more.is_empty() => out = more,
            _ => return out,
        }
    }
}

fn is_unbind_any(fin: &[Stmt]) -> bool {
    matches!(fin.first(), Some(Stmt::Assign { targets, .. })
        if matches!(targets.as_slice(), [Expr::Name { id, .. }] if is_unbind(fin, id)))
}

fn is_unbind(fin: &[Stmt], name: &str) -> bool {
    matches!(fin, [Stmt::Assign { targets, value: Expr::Constant { value: Constant::None, .. } }, Stmt::Delete { targets: d }]
        if matches!(targets.as_slice(), [Expr::Name { id, .. }] if id == name)
            && matches!(d.as_slice(), [Expr::Name { id, .. }] if id == name))
}

impl Structurer<'_> {
    /// The block stack could not be followed: refuse the code object.
    pub(super) fn legacy_error(&self) -> Option<DecompileError> {
        let msg = self.legacy.as_ref()?.error.as_ref()?;
        Some(self.err(msg.clone()))
    }

    /// Does block `b` end with a ≤3.10 block setup?
    pub(super) fn legacy_setup_at(&self, b: usize) -> bool {
        self.legacy.is_some()
            && self
                .instrs(b)
                .last()
                .is_some_and(|i| SETUPS.contains(&i.op.name))
            // (an `async for` protects its `__anext__()` await: structure/coroutine.rs)
            && super::coroutine::legacy_async_for_end(self.code, &self.cfg, b).is_none()
    }

    /// In the body of the innermost ≤3.10 try / with, `b` (outside the protected range) is where
    /// a `return`, `break` or `continue` leaves (after the copied `finally` code), not the normal
    /// end of the body.
    pub(super) fn legacy_exit_path(&self, b: usize) -> bool {
        let (Some(lg), Some(&(h, _))) = (&self.legacy, self.try_body.last()) else {
            return false;
        };
        if !matches!(lg.exits.last(), Some(&(lh, n)) if lh == h && n != Some(b)) {
            return false;
        }
        // leaving a try/except body runs nothing of the compiler's own but the way out: anything
        // else here is code outside the protected range, which must not come out inside the body
        // (copies of enclosing finally / __exit__ code are checked where those statements end)
        let except = lg.exits.iter().all(|&(x, _)| {
            matches!(
                self.instrs(x).first().map(|i| i.op.name),
                Some("DUP_TOP" | "POP_TOP")
            )
        });
        !except
            || self.instrs(b).iter().all(|i| {
                matches!(
                    i.op.name,
                    "LOAD_CONST"
                        | "LOAD_FAST"
                        | "RETURN_VALUE"
                        | "POP_TOP"
                        | "ROT_TWO"
                        | "JUMP_ABSOLUTE"
                        | "JUMP_FORWARD"
                        | "POP_BLOCK"
                        | "NOP"
                )
            })
    }

    /// In a ≤3.10 try body, arms that meet only outside the protected range (one leaves the body
    /// through its copied `finally` code) are not joined: each runs until it leaves. A branch `b`
    /// already outside the range (in the copy itself, a return value waiting under it: the
    /// caller's `waiting_branch`) joins.
    pub(super) fn legacy_merge(&self, b: usize, merge: Option<usize>) -> Option<usize> {
        // (and the branches nested in its arms, which run with the value waiting too)
        let waiting = self.waiting_branch;
        let (Some(lg), Some(&(h, None)), Some(m)) = (&self.legacy, self.try_body.last(), merge)
        else {
            return merge;
        };
        // (or nothing waits, the `return CONSTANT` loading its constant after the copy)
        let const_return = || {
            matches!(&self.instrs(m)[..], [l, r] if l.op.name == "LOAD_CONST" && r.op.name == "RETURN_VALUE")
                && self.cfg.blocks[m]
                    .succs
                    .iter()
                    .all(|e| e.kind == EdgeKind::Exception)
        };
        if (waiting || const_return()) && super::legacy_copy_flow::in_exit_copy(self, b, h) {
            return merge;
        }
        let in_body = matches!(lg.exits.last(), Some(&(lh, n)) if lh == h && n != Some(m));
        if in_body && self.cover(m) != Some(h) {
            None
        } else {
            merge
        }
    }

    /// Can `x`, outside the loop headed by `header`, be where the loop's `break` goes? ≤3.10: not
    /// inside a protected range the loop does not have, nor with values on the stack the header
    /// has not (a return value, a raised exception).
    pub(super) fn legacy_loop_exit(&self, header: usize, x: usize) -> bool {
        self.legacy.is_none()
            || (self.cover(x) == self.cover(header)
                && self.entry_depth[x] == self.entry_depth[header])
    }

    /// ≤3.10: an `if` whose arms do not meet and whose body always leaves (return, raise, break,
    /// continue) has its `else` arm after it, as the compiler's input had.
    pub(super) fn legacy_flatten_if(
        &self,
        merge: Option<usize>,
        then: &[Stmt],
        orelse: &mut Vec<Stmt>,
    ) -> Vec<Stmt> {
        let leaves = matches!(
            then.last(),
            Some(Stmt::Return { .. } | Stmt::Raise { .. } | Stmt::Break | Stmt::Continue)
        );
        // (both arms ending alike is a copied tail, which the caller's tail rules handle)
        if self.legacy.is_some() && merge.is_none() && leaves && then.last() != orelse.last() {
            std::mem::take(orelse)
        } else {
            Vec::new()
        }
    }

    /// After an `if`'s first arm in a ≤3.10 try body (`open`: the innermost body before it): if the
    /// arm ran into the body's normal end, the if has no join inside the body: `None`, so the
    /// second arm runs until it leaves instead of being taken for the code after the if.
    pub(super) fn legacy_arm_left(
        &self,
        open: Option<(usize, Option<usize>)>,
        merge: Option<usize>,
    ) -> Option<usize> {
        match (open, self.try_body.last()) {
            (Some((h, None)), Some(&(h2, Some(_)))) if self.legacy.is_some() && h == h2 => None,
            _ => merge,
        }
    }

    fn cover(&self, x: usize) -> Option<usize> {
        self.cfg.blocks[x].handler.map(|t| t.0)
    }

    /// The block after the last POP_BLOCK (in code order) closing `h`'s range: where the body goes on
    /// when it completes (the earlier ones are exits from the body).
    fn legacy_normal_exit(&self, h: usize) -> Option<usize> {
        // (where the last one leaves with a return value on the stack, it leads out by `return`
        // through the enclosing cleanup: the normal path's own was dead code the compiler dropped)
        let body_depth = super::legacy_copy_flow::body_depth(self, h);
        (0..self.cfg.blocks.len())
            .rev()
            .find(|&x| {
                self.cover(x) == Some(h)
                    && self.instrs(x).last().map(|i| i.op.name) == Some("POP_BLOCK")
            })
            // (≤3.10: nor where it is a `return CONSTANT` out of a `for` loop, the iterator
            // popped before it: the normal path's own was dead code the compiler dropped)
            .filter(|&x| !body_depth.is_some_and(|d| self.loop_const_return(x, d)))
            // (nor where code of the body is laid out after it: the compiler lays the body's own
            // end last; that POP_BLOCK is a way out written before the code after it, `if c:
            // return v` then `raise`; the body never completes)
            .filter(|&x| !self.body_code_after(h, x))
            .and_then(|x| self.succ(x, EdgeKind::Fall))
            .filter(|&n| body_depth.is_none_or(|d| self.entry_depth[n].is_none_or(|x| x <= d)))
            .filter(|&n| !self.leaves_enclosing_range(h, n))
    }

    /// Is a block of the body protected by handler `h` laid out after block `x`, one the body's
    /// code before `x` jumps to (not a nested statement's handler, which exceptions reach)?
    fn body_code_after(&self, h: usize, x: usize) -> bool {
        (x + 1..self.cfg.blocks.len()).any(|y| {
            self.cover(y) == Some(h)
                && !self.instrs(y).is_empty()
                && self.cfg.blocks[y].preds.iter().any(|&z| {
                    z < x
                        && self.cfg.blocks[z]
                            .succs
                            .iter()
                            .any(|e| e.to == y && e.kind != EdgeKind::Exception)
                })
        })
    }

    /// ≤3.9 try/except whose handler is `h`: is `n`, where its range's last POP_BLOCK falls, the
    /// POP_BLOCK of an enclosing range, laid out before the handler? The body's normal path jumps
    /// past the handlers (the `else:` and the code after the statement come after them); code
    /// falling on out of the range there is a way out of both (`return CONSTANT` through an
    /// enclosing finally body), and the body never completes.
    fn leaves_enclosing_range(&self, h: usize, n: usize) -> bool {
        self.code.version <= framejit_bytecode::PyVersion::V3_9
            && n < h
            && matches!(
                self.instrs(h).first().map(|i| i.op.name),
                Some("DUP_TOP" | "POP_TOP")
            )
            && self.cover(n).is_some_and(|o| o != h)
            && !self.instrs(n).is_empty()
            && self.instrs(n).iter().all(|i| i.op.name == "POP_BLOCK")
    }

    /// Run block `b` but its last instruction (the setup): its statements and the stack left.
    fn run_prefix(
        &mut self,
        b: usize,
        stack: Vec<Val>,
    ) -> Result<(Vec<Stmt>, Vec<Val>), DecompileError> {
        self.work += 1;
        if self.work > 16 * self.cfg.blocks.len() + 256 {
            return Err(
                self.err("control flow this decompiler does not structure yet (work budget spent)")
            );
        }
        if let Some(h) = self.cover(b) {
            if !self.active.iter().any(|&(lo, hi)| (lo..=hi).contains(&h)) {
                return Err(self.err("an exception handler this decompiler does not structure yet"));
            }
        }
        if std::mem::replace(&mut self.emitted[b], true) {
            return Err(self.err("control flow this decompiler does not structure yet (a block would come out twice)"));
        }
        let all = self.instrs(b);
        let Some((_, prefix)) = all.split_last() else {
            return Err(self.err("an empty block setup"));
        };
        let mut sim = Sim::new(self.code, stack);
        for (k, ins) in prefix.iter().enumerate() {
            sim.next_op = all.get(k + 1).map(|i| i.op.name);
            if sim.step(ins)?.is_some() {
                return Err(self.err("a block goes on after its exit").op(ins.op.name));
            }
        }
        sim.check_copies()?;
        let mut out = sim.out;
        if std::mem::take(&mut self.expect_exit_call) {
            let is_exit_call = matches!(out.first(), Some(Stmt::Expr { value: Expr::Name { id, .. } }) if id == WITH_EXIT);
            if !is_exit_call {
                return Err(self.err("a with statement whose exit call is not where expected"));
            }
            out.remove(0);
        }
        Ok((out, sim.stack))
    }

    /// ≤3.10: block `b` ends with a block setup: the statements up to it and the try or with
    /// statement it opens, the block after the statement and what stays on the stack there.
    /// `None` when `b` does not end with a setup.
    pub(super) fn legacy_stmt(
        &mut self,
        b: usize,
        stack: &[Val],
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<Option<Built>, DecompileError> {
        if !self.legacy_setup_at(b) {
            return Ok(None);
        }
        let kind = self.instrs(b).last().map(|i| i.op.name).unwrap_or_default();
        let h = self
            .succ(b, EdgeKind::Exception)
            .ok_or_else(|| self.err("a block setup without its handler"))?;
        let s = self
            .succ(b, EdgeKind::Fall)
            .ok_or_else(|| self.err("a block setup without its body"))?;
        let (mut out, mut left) = self.run_prefix(b, stack.to_vec())?;
        if kind == "SETUP_ASYNC_WITH" {
            let (stmts, next, carry) = self.legacy_async_with(h, s, left, base, lp)?;
            out.extend(stmts);
            return Ok(Some((out, next, carry)));
        }
        if kind == "SETUP_WITH" {
            let cm = match left.pop() {
                Some(Val::Expr(e)) if left.len() == base.len() => e,
                _ => return Err(self.err("a with statement without its context manager")),
            };
            let (stmts, next, carry) = self.legacy_with(h, s, cm, base, lp)?;
            out.extend(stmts);
            return Ok(Some((out, next, carry)));
        }
        if left.len() != base.len() {
            // (a `return v` through a finally body holding a try statement: the copy's
            // statement runs with v waiting under it, `legacy_fin_arms::try_over_value`)
            if let Some(carry) = super::legacy_fin_arms::try_over_value(&left, base) {
                let (stmts, next) = self.legacy_try(h, s, &left, lp)?;
                out.extend(stmts);
                return Ok(Some((out, next, carry)));
            }
            return Err(self.err("a try statement entered with values on the stack"));
        }
        let (stmts, next) = self.legacy_try(h, s, base, lp)?;
        out.extend(stmts);
        Ok(Some((out, next, Vec::new())))
    }

    /// The body of the try / with statement whose handler is `h`, from block `s`; the block where
    /// the body completes (`None`: it never does).
    fn legacy_body(
        &mut self,
        h: usize,
        s: usize,
        base: &[Val],
        carry: Vec<Val>,
        lp: Option<&LoopCtx>,
    ) -> Result<(Vec<Stmt>, Option<usize>), DecompileError> {
        let normal = self.legacy_normal_exit(h).filter(|&n| {
            !self.legacy_break_after_pop_block(n, h, lp)
                && !self.continue_after_pop_block(n, h, lp)
                && !self.legacy_while_break_after_pop_block(n, h, lp)
        });
        self.active.push((h, h));
        self.try_body.push((h, None));
        self.try_depth.push(self.nesting + 1);
        if let Some(lg) = self.legacy.as_mut() {
            lg.exits.push((h, normal));
        }
        let body = self.region_carry(s, None, base, carry, lp);
        if let Some(lg) = self.legacy.as_mut() {
            lg.exits.pop();
        }
        let after = self.try_body.pop().and_then(|t| t.1);
        self.try_depth.pop();
        self.active.pop();
        let body = body?;
        if after.is_some() && after != normal {
            return Err(self.err("a try body that ends before its last POP_BLOCK"));
        }
        Ok((body, after))
    }

    /// `try:` opened by a SETUP_FINALLY whose handler is `h`, body from `s`.
    fn legacy_try(
        &mut self,
        h: usize,
        s: usize,
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<(Vec<Stmt>, Option<usize>), DecompileError> {
        let (mut body, mut after) = self.legacy_body(h, s, base, Vec::new(), lp)?;
        let first = self.instrs(h).first().map(|i| i.op.name);
        if matches!(first, Some("DUP_TOP" | "POP_TOP")) {
            // (≤3.9: the `else:` part of a body that never completes, after its dead jump)
            if after.is_none() {
                after = self.legacy_dead_else(h, lp);
            }
            // (≤3.9: `return CONSTANT` after the body's last POP_BLOCK ends the body)
            if let Some(r) = self.legacy_body_const_return(after) {
                body.extend(self.region(r, None, base, lp)?);
                after = None;
            }
            // (≤3.9: the body's own way out dead after a `return`, kept behind a label)
            if self.legacy_dead_body_exit(h) {
                super::legacy_layout::close_final_if(&mut body);
            }
            // except clauses; the statement ends where the body's and the clauses' paths meet
            let mut end = self.except_end(h, after, lp);
            // where no clause gets to that point, only the body's normal path does: it is the
            // `else:` (code there must not run after a clause), and nothing follows the statement
            // (3.10 copies the code after the statement into the clauses; 3.8/3.9 lay it out after)
            if let Some(stop) = self.legacy_end_at_pop_block(h, end, after) {
                end = stop;
            } else if end.is_some()
                && end == after
                && self.code.version == framejit_bytecode::PyVersion::V3_10
            {
                let e = end.unwrap_or_default();
                // (a clause may jump straight to where the body's jump goes)
                let r = self.resolve_jumps(e);
                let clause_to = |x: usize| self.cfg.blocks[x].preds.iter().any(|&p| p >= h);
                let from_clause = clause_to(e);
                // (a plain return is the same in either place, and the tail rules below place it)
                let short_return = {
                    let ins = self.instrs(r);
                    ins.len() <= 3 && ins.last().is_some_and(|i| i.op.name == "RETURN_VALUE")
                };
                let plain_return = self.pure_return(r).is_some() || short_return;
                let returns = self
                    .instrs(r)
                    .last()
                    .is_some_and(|i| i.op.name == "RETURN_VALUE");
                if !from_clause && !plain_return {
                    // (where every clause goes on, reached before the enclosing stop, first)
                    end = self
                        .legacy_clause_join(h, e, lp)
                        .or_else(|| self.legacy_try_to_stop(e));
                    if end.is_none() && r != e && clause_to(r) && returns {
                        // (the body jumps to where a clause goes, code that returns: the
                        // statement ends there)
                        end = Some(r);
                    }
                    if end.is_none() {
                        // (or the body's way on, its `else:`, runs into where the clauses go)
                        end = self.legacy_clause_join(h, e, lp);
                    }
                } else if !from_clause {
                    // (unless the clauses go on to other code: then the `return` is the `else:`)
                    end = self.legacy_else_return(h, e, lp).unwrap_or(end);
                }
            }
            self.depth_offset += 3;
            let clauses = self.legacy_clauses(h, end, base, lp);
            self.depth_offset -= 3;
            let (mut handlers, tails) = clauses?;
            let mut orelse = match after {
                Some(a) if Some(a) != end => self.region(a, end, base, lp)?,
                _ => Vec::new(),
            };
            // 3.10 copies a small `return` after the statement onto each path that reaches it
            let mut tail = Vec::new();
            // ... or any code after it, after the clauses' POP_EXCEPT: every way out has it
            let copied: Vec<&Vec<Stmt>> = tails.iter().flatten().collect();
            if let Some(&t) = copied.first() {
                let n = t.len();
                let alike = copied.iter().all(|c| *c == t);
                let in_orelse = orelse.len() >= n && orelse[orelse.len() - n..] == t[..];
                // (where the normal path never gets past the statement, the body or its `else:`
                // leaving, only the clauses go on: their copy is the code after the statement)
                let normal_leaves = match after {
                    None => true,
                    Some(_) => super::finally_exits::ends_by_leaving(&orelse),
                };
                if alike && in_orelse {
                    orelse.truncate(orelse.len() - n);
                    tail.extend(t.iter().cloned());
                } else if alike && end.is_none() && normal_leaves {
                    tail.extend(t.iter().cloned());
                } else {
                    // the statement's end must start with the same code (structured once here to
                    // compare, then again by the caller)
                    let saved = (self.visits.clone(), self.emitted.clone(), self.work);
                    let probe = match end {
                        Some(e) if alike => self.region(e, None, base, lp).ok(),
                        _ => None,
                    };
                    (self.visits, self.emitted, self.work) = saved;
                    if !probe.is_some_and(|p| p.len() >= n && p[..n] == t[..]) {
                        // (3.10: the body's normal path, a `return` taken for the code after the
                        // statement, is its `else:`, and the clauses' copy is that code)
                        match self.legacy_else_leaves(after, end, alike, base, lp)? {
                            Some(rest) => {
                                orelse = rest;
                                end = None;
                                tail.extend(t.iter().cloned());
                            }
                            // (an enclosing statement's cleanup copied before a way out: it goes
                            // back into the clauses, marked, for that statement to take off)
                            None if super::legacy_copy_flow::in_finally_body(self)
                                && super::legacy_copy_flow::enclosing_copies(
                                    &mut handlers,
                                    &tails,
                                ) => {}
                            None => {
                                return Err(self.err(
                                    "code after a try statement copied into an except clause",
                                ))
                            }
                        }
                    }
                }
            }
            let simple_return = |s: &Stmt| {
                matches!(
                    s,
                    Stmt::Return { value: None }
                        | Stmt::Return {
                            value: Some(Expr::Name { .. } | Expr::Constant { .. })
                        }
                )
            };
            let at_end = end.and_then(|e| self.pure_return(e));
            let copied = match &at_end {
                Some(r) => Some(r.clone()),
                None if end.is_none() => orelse.last().cloned(),
                None => None,
            };
            // (≤3.9 copy no `return` into a clause: a clause ending in one wrote it)
            let copies_returns = self.code.version >= framejit_bytecode::PyVersion::V3_10;
            if let Some(t) = copied.filter(|t| {
                copies_returns
                    && simple_return(t)
                    && handlers.iter().all(|h| h.body.last() == Some(t))
            }) {
                if orelse.last() == Some(&t) {
                    orelse.pop();
                }
                if at_end.is_none() {
                    tail.push(t);
                }
                for h in handlers.iter_mut() {
                    h.body.pop();
                    if h.body.is_empty() {
                        h.body.push(Stmt::Pass);
                    }
                }
            }
            let stmt = Stmt::Try {
                body: or_pass(body),
                handlers,
                orelse,
                finalbody: Vec::new(),
            };
            let mut out = vec![stmt];
            out.extend(tail);
            return Ok((out, end));
        }
        // finally: the handler runs the body and re-raises
        // (the raised exception's three values are markers on the stack under the body, which a
        // `return` / `break` / `continue` in it pops before its POP_EXCEPT)
        let mut fin_base = base.to_vec();
        fin_base.extend(super::finally_exits::legacy_exc_markers());
        self.depth_offset += 3;
        let fin = self.region(h, None, &fin_base, lp);
        self.depth_offset -= 3;
        let mut fin = fin?;
        super::finally_exits::drop_leaving_exc(&mut fin);
        // (a finally body that ends by raising never gets to the RERAISE, which is dead code)
        let raises = matches!(fin.last(), Some(Stmt::Raise { exc: Some(_), .. }));
        // (3.10: or the RERAISE copied into the ways out of a final try/except)
        if !raises
            && !fin.last().is_some_and(|s| is_marker(s, RERAISE))
            && !super::legacy_try_end::hoist_reraise_copies(&mut fin)
        {
            return Err(self.err("a finally handler that does not re-raise"));
        }
        if !raises {
            fin.pop();
            super::legacy_try_end::strip_reraise_copies(&mut fin);
        } else if super::legacy_fin_arms::reraise_arm_before_raise(&fin) {
            // (3.10: the arms before a final `raise` re-raise by the RERAISE copied there)
            super::legacy_try_end::strip_reraise_copies(&mut fin);
        }
        // the copy on the normal path lies between the body and the handler
        let (rest, end) = match after {
            Some(a) => {
                let end = self.copy_end(a, h)?;
                (self.region(a, end, base, lp)?, end)
            }
            None => (Vec::new(), None),
        };
        // (in an `except ... as name:` clause the copy follows the clause's POP_EXCEPT)
        let mut rest = rest;
        if rest.first().is_some_and(|s| is_marker(s, POP_EXCEPT)) && is_unbind_any(&fin) {
            rest.remove(0);
        }
        // the copy may run on into code after the statement (a return the compiler duplicated)
        let tail = match after {
            Some(_) => self
                .normal_copy_tails(&rest, &fin, end, base, lp)
                .or_else(|| {
                    // (3.10: the way out after the copy also copied into the copy's nested
                    // try/finally)
                    let hoisted = super::legacy_try_end::hoist_exit_out_of_try(&rest)?;
                    self.normal_copy_tails(&hoisted, &fin, end, base, lp)
                })
                .ok_or_else(|| self.err("a finally block whose normal-path copy differs"))?,
            None => Vec::new(),
        };
        // (that code leaves: nothing after it is the statement's)
        let end = end.filter(|_| !super::finally_exits::ends_by_leaving(&tail));
        // (3.10: the code after the statement copied after the copy, `finally_late_return.rs`)
        self.take_late_finally_returns(h, &mut body, &fin, &tail)?;
        if !strip_finally_copies(&mut body, &fin) {
            return Err(self.err("an exit from a try body without the finally body's copy"));
        }
        // (a finally body that ends by raising ends the code where it is copied: a copy left
        // before a way out would make that way out dead)
        if raises {
            super::finally_exits::drop_raising_tail_copies(&mut body, &fin);
        }
        if raises && super::except_exit::ends_with_copy(&body, &fin) {
            return Err(self.err("a try body left through a finally body that raises"));
        }
        // (≤3.9: a constant `return` right after the normal path's copy, before the handler,
        // is the body's: it unwinds the block and runs the copy first; the code after the
        // statement is reached by a jump past the handler)
        let mut tail = tail;
        if super::legacy_try_end::legacy_finally_body_return(self.code.version, &tail) {
            body.append(&mut tail);
        }
        let fin = or_pass(fin);
        // 3.10 copies the implicit `return None` into the body: it returns the same after the
        // statement
        if let [Stmt::Try { .. }, Stmt::Return { value }] = body.as_slice() {
            let ret = Stmt::Return {
                value: value.clone(),
            };
            if matches!(value, None | Some(Expr::Constant { .. }))
                && (tail.is_empty() || tail == [ret.clone()])
            {
                body.pop();
                tail = vec![ret];
            }
        }
        // `try: ... except: ... finally:` is compiled as a try/except inside a try/finally
        let stmt = match body.as_slice() {
            [Stmt::Try {
                body: inner,
                handlers,
                orelse,
                finalbody,
            }] if finalbody.is_empty() && !handlers.is_empty() => Stmt::Try {
                body: inner.clone(),
                handlers: handlers.clone(),
                orelse: orelse.clone(),
                finalbody: fin,
            },
            _ => Stmt::Try {
                body: or_pass(body),
                handlers: Vec::new(),
                orelse: Vec::new(),
                finalbody: fin,
            },
        };
        let mut out = vec![stmt];
        out.extend(tail);
        Ok((out, end))
    }

    /// The statement of block `b` when it is just `return NAME` or `return CONSTANT` (not emitted).
    fn pure_return(&self, b: usize) -> Option<Stmt> {
        let ins = self.instrs(b);
        if ins.len() != 2 || !ins[0].op.name.starts_with("LOAD_") {
            return None;
        }
        let mut sim = Sim::new(self.code, Vec::new());
        for i in &ins {
            sim.step(i).ok()?;
        }
        match sim.out.as_slice() {
            [s @ Stmt::Return { .. }] => Some(s.clone()),
            _ => None,
        }
    }

    /// Where the normal-path copy of a finally body that starts at `a` goes when it is done: the one
    /// block outside `a..h` it reaches (`None`: it leaves the code).
    fn copy_end(&self, a: usize, h: usize) -> Result<Option<usize>, DecompileError> {
        let mut seen = vec![false; self.cfg.blocks.len()];
        let mut todo = vec![a];
        let mut out: Option<usize> = None;
        while let Some(x) = todo.pop() {
            if !(a..h).contains(&x) {
                // (a jump to a jump: the same place, as a `continue`'s copy and the loop's own)
                if out.is_some_and(|o| self.resolve_jumps(o) != self.resolve_jumps(x)) {
                    return Err(self.err("a finally copy that leaves to several places"));
                }
                out = Some(x);
                continue;
            }
            if std::mem::replace(&mut seen[x], true) {
                continue;
            }
            for e in &self.cfg.blocks[x].succs {
                if e.kind != EdgeKind::Exception {
                    todo.push(e.to);
                }
            }
        }
        Ok(out)
    }

    /// Where a try/except whose handler is `h` ends. With a body that completes (at `after`): the
    /// first block on its post-dominator chain that every clause able to get there passes (the
    /// re-raise of an exception no clause matches leaves the code, so `h` has no post-dominator).
    /// Otherwise: where the clauses go after POP_EXCEPT, other than a loop's header or exit.
    fn except_end(&self, h: usize, after: Option<usize>, lp: Option<&LoopCtx>) -> Option<usize> {
        // (≤3.9: the clauses' way out threaded to the loop's header: the statement ends the body)
        if let Some(e) = self.legacy_clause_closes_body(h, after, lp) {
            return Some(e);
        }
        let in_loop = |x: usize| lp.is_some_and(|c| c.header == x || c.exit == Some(x));
        let chain = |x: usize| {
            let mut out = vec![x];
            let mut cur = x;
            while let Some(p) = self.ipdom[cur] {
                if out.contains(&p) || in_loop(p) {
                    break;
                }
                out.push(p);
                cur = p;
            }
            out
        };
        let Some(a) = after else {
            return match self.clause_exits(h, lp).as_slice() {
                [one] => Some(*one),
                _ => None,
            };
        };
        // the clauses' bodies: after each type test, and a bare clause
        let mut starts = Vec::new();
        let mut cur = Some(h);
        while let Some(c) = cur.filter(|c| !starts.contains(c)) {
            match self.instrs(c).first().map(|i| i.op.name) {
                Some("DUP_TOP") => {
                    starts.extend(self.succ(c, EdgeKind::Fall));
                    cur = self.succ(c, EdgeKind::Jump);
                }
                Some("POP_TOP") => {
                    starts.push(c);
                    cur = None;
                }
                _ => cur = None,
            }
        }
        let reference = chain(a);
        let joining: Vec<Vec<usize>> = starts
            .iter()
            .map(|&c| chain(c))
            .filter(|c| c.iter().any(|x| reference.contains(x)))
            .collect();
        let found = reference
            .iter()
            .copied()
            .find(|e| joining.iter().all(|c| c.contains(e)));
        // (≤3.9: no clause's post-dominators meet it, as a clause that may raise has none)
        match found {
            Some(e) if joining.is_empty() => {
                let e = self.legacy_exit_jump(e, &reference);
                // (≤3.9: the clauses go on past an `else:` part that leaves, or whose arms meet
                // the clauses' way on only there: the statement ends where they go on)
                // (3.9: clauses that all left still name it in their dead ways out)
                let exits = self.clause_exits(h, lp);
                let exits = if exits.is_empty() {
                    self.legacy_dead_clause_exits(h, lp)
                } else {
                    exits
                };
                Some(self.legacy_else_past(e, &exits).unwrap_or(e))
            }
            f => f,
        }
    }

    /// Where the except clauses of handler `h` go on after their POP_EXCEPT (not a loop's header
    /// or exit: `continue` / `break`).
    pub(super) fn clause_exits(&self, h: usize, lp: Option<&LoopCtx>) -> Vec<usize> {
        let in_loop = |x: usize| lp.is_some_and(|c| c.header == x || c.exit == Some(x));
        let mut ends: Vec<usize> = Vec::new();
        let Some(lg) = self.legacy.as_ref() else {
            return ends;
        };
        let body_depth = super::legacy_copy_flow::body_depth(self, h);
        for x in 0..self.cfg.blocks.len() {
            let pops = self.instrs(x).iter().any(|i| i.op.name == "POP_EXCEPT");
            if pops && lg.running[x] == Some(h) {
                for e in &self.cfg.blocks[x].succs {
                    // (a return value on the stack: the clause leaves by `return` through the
                    // enclosing statements' cleanup, not on to the code after the statement)
                    let returning =
                        body_depth.is_some_and(|d| self.entry_depth[e.to].is_some_and(|x| x > d));
                    if e.kind != EdgeKind::Exception
                        && !in_loop(e.to)
                        && !ends.contains(&e.to)
                        && !returning
                    {
                        ends.push(e.to);
                    }
                }
            }
        }
        ends
    }

    /// The except clauses of handler `h`, each up to `end`.
    fn legacy_clauses(
        &mut self,
        h: usize,
        end: Option<usize>,
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<Clauses, DecompileError> {
        let markers = || {
            vec![
                Val::Expr(Expr::name(EXC_TB)),
                Val::Expr(Expr::name(EXC)),
                Val::Expr(Expr::name(EXC_TYPE)),
            ]
        };
        let mut clauses = Vec::new();
        let mut tails = Vec::new();
        let mut cur = h;
        loop {
            let names: Vec<&str> = self.instrs(cur).iter().map(|i| i.op.name).collect();
            match names.first().copied() {
                Some("RERAISE" | "END_FINALLY") if names.len() == 1 && !clauses.is_empty() => {
                    // no clause matched: re-raise
                    if std::mem::replace(&mut self.emitted[cur], true) {
                        return Err(self.err("a handler's re-raise reached twice"));
                    }
                    break;
                }
                Some("POP_TOP") => {
                    // bare `except:`, always last
                    let stmts = self.region_carry(cur, end, base, markers(), lp)?;
                    let (name, body, tail) = self.clause_body(stmts)?;
                    tails.push(tail);
                    if name.is_some() {
                        return Err(self.err("a bare except clause that binds a name"));
                    }
                    clauses.push(ExceptHandler {
                        type_: None,
                        name: None,
                        body: or_pass(body),
                    });
                    break;
                }
                Some("DUP_TOP") => {
                    let mut start = base.to_vec();
                    start.extend(markers());
                    // (T may branch itself: `except (A if c else B):`)
                    let (stmts, exit, left, last) = self.run_past_values(cur, start)?;
                    let test = match exit {
                        Exit::Branch {
                            test,
                            jump_if: false,
                            keep: false,
                            copy: false,
                        } if stmts.is_empty() => test,
                        _ => {
                            return Err(self
                                .err("an except clause of a shape this decompiler does not know"))
                        }
                    };
                    let type_ = match test {
                        Expr::Call { func, mut args, .. }
                            if matches!(func.as_ref(), Expr::Name { id, .. } if id == EXC_MATCH)
                                && args.len() == 1 =>
                        {
                            args.remove(0)
                        }
                        _ => return Err(self.err("an except clause without its exception test")),
                    };
                    let next = self.succ(last, EdgeKind::Jump);
                    let body_start = self
                        .succ(last, EdgeKind::Fall)
                        .ok_or_else(|| self.err("an except clause without a body"))?;
                    let carry = self.above(&left, base)?;
                    let stmts = self.region_carry(body_start, end, base, carry, lp)?;
                    let (name, body, tail) = self.clause_body(stmts)?;
                    tails.push(tail);
                    clauses.push(ExceptHandler {
                        type_: Some(type_),
                        name,
                        body: or_pass(body),
                    });
                    match next {
                        Some(n) if Some(n) != end => cur = n,
                        _ => return Err(self.err("an except clause without what follows it")),
                    }
                }
                _ => {
                    return Err(
                        self.err("an exception handler of a shape this decompiler does not know")
                    )
                }
            }
        }
        Ok((clauses, tails))
    }

    /// An except clause's statements without the drops of the exception's type, value (or its
    /// binding) and traceback that start it, and, for `as name`, the try/finally that unbinds name.
    #[allow(clippy::type_complexity)]
    fn clause_body(
        &self,
        mut stmts: Vec<Stmt>,
    ) -> Result<(Option<String>, Vec<Stmt>, Option<Vec<Stmt>>), DecompileError> {
        let bad = || self.err("an except clause that does not start by taking the exception");
        let mut tail = None;
        if stmts.len() < 3 || !is_marker(&stmts[0], EXC_TYPE) || !is_marker(&stmts[2], EXC_TB) {
            return Err(bad());
        }
        let name = match &stmts[1] {
            s if is_marker(s, EXC) => None,
            Stmt::Assign {
                targets,
                value: Expr::Name { id, .. },
            } if id == EXC => match targets.as_slice() {
                [Expr::Name { id, .. }] => Some(id.clone()),
                _ => return Err(bad()),
            },
            _ => return Err(bad()),
        };
        stmts.drain(..3);
        // 3.10 copies the code after the statement into the clause, after its POP_EXCEPT: kept
        // aside (the caller checks that every way out of the statement has it)
        if let Some(k) = stmts.iter().position(|s| is_marker(s, POP_EXCEPT)) {
            let mut probe = stmts[k..].to_vec();
            if !strip_pop_except(&mut probe) {
                tail = Some(stmts.split_off(k + 1));
            }
        }
        if !strip_pop_except(&mut stmts) {
            return Err(self.err("code after a try statement copied into an except clause"));
        }
        let Some(n) = &name else {
            return Ok((None, stmts, tail));
        };
        // `except T as name:` runs its body in a try/finally that unbinds the name
        let inner = match stmts.first() {
            Some(Stmt::Try {
                body,
                handlers,
                orelse,
                finalbody,
            }) if is_unbind(finalbody, n) => {
                if handlers.is_empty() {
                    body.clone()
                } else {
                    vec![Stmt::Try {
                        body: body.clone(),
                        handlers: handlers.clone(),
                        orelse: orelse.clone(),
                        finalbody: Vec::new(),
                    }]
                }
            }
            _ => return Err(self.err("an except clause binding a name without unbinding it")),
        };
        let mut body: Vec<Stmt> = inner.into_iter().filter(|s| *s != Stmt::Pass).collect();
        body.extend(stmts.drain(1..));
        Ok((name, body, tail))
    }

    /// `with CM [as target]:` opened by a SETUP_WITH whose handler is `h`, body from `s`.
    pub(super) fn legacy_with(
        &mut self,
        h: usize,
        s: usize,
        cm: Expr,
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<Built, DecompileError> {
        let first = self.instrs(h).first().map(|i| i.op.name);
        let v38 = first == Some("WITH_CLEANUP_START");
        if first != Some("WITH_EXCEPT_START") && !v38 {
            return Err(self.err("a with statement of a shape this decompiler does not know"));
        }
        let mut body_base = base.to_vec();
        body_base.push(Val::WithExit);
        let enter = Val::Expr(Expr::Call {
            func: Box::new(Expr::name(WITH_ENTER)),
            args: vec![cm.clone()],
            keywords: Vec::new(),
        });
        let (mut body, mut after) = self.legacy_body(h, s, &body_base, vec![enter], lp)?;
        let is_enter = |e: &Expr| matches!(e, Expr::Call { func, .. } if matches!(func.as_ref(), Expr::Name { id, .. } if id == WITH_ENTER));
        let target = match body.first() {
            Some(Stmt::Assign { targets, value }) if targets.len() == 1 && is_enter(value) => {
                Some(targets[0].clone())
            }
            Some(Stmt::Expr { value }) if is_enter(value) => None,
            _ => return Err(self.err("a with body that does not start with its target")),
        };
        body.remove(0);
        let exit_call = vec![Stmt::Expr {
            value: Expr::name(WITH_EXIT),
        }];
        if !strip_finally_copies(&mut body, &exit_call) {
            return Err(self.err("an exit from a with body without its __exit__ call"));
        }
        if v38 {
            // 3.8: the handler is one block (call __exit__, re-raise unless it says not to); what
            // follows it is where a suppressed exception goes on
            let names: Vec<&str> = self.instrs(h).iter().map(|i| i.op.name).collect();
            if names[..] != crate::legacy38::WITH_CLEANUP[..]
                && names[..] != crate::legacy38::ASYNC_WITH_CLEANUP[..]
                || std::mem::replace(&mut self.emitted[h], true)
            {
                return Err(
                    self.err("a with statement's handler of a shape this decompiler does not know")
                );
            }
            // (the normal way out goes on past its exit call where the suppressed path does: the
            // lowering gives a body that completes the jump there. Where it does not, the body
            // never completes, and the code at its end is its own last way out, as below)
            let on = self.succ(h, EdgeKind::Fall);
            if let (Some(a), Some(o)) = (after, on) {
                if !self.legacy_exit_agrees(after, (o, 0)) {
                    let own = self.body_last_exit_path(a, &body_base, lp)?.ok_or_else(|| {
                        self.err("a with statement whose code after it differs on the suppressed path")
                    })?;
                    body.extend(own);
                    after = None;
                }
            }
            let stmt = Stmt::With {
                items: vec![WithItem {
                    context_expr: cm,
                    optional_vars: target,
                }],
                body: or_pass(body),
            };
            return Ok(match after {
                Some(a) => {
                    self.expect_exit_call = true;
                    (vec![stmt], Some(a), vec![Val::WithExit])
                }
                None => (vec![stmt], self.succ(h, EdgeKind::Fall), Vec::new()),
            });
        }
        // the handler's blocks (call __exit__ with the exception, re-raise unless it says not to,
        // drop the exception when it says so) are the compiler's own; where the last of them goes
        // is where the statement ends for a body that never completes
        let mut blocks: Vec<usize> = Vec::new();
        let mut todo = vec![h];
        let mut suppressed = None;
        while let Some(x) = todo.pop() {
            if blocks.contains(&x) {
                continue;
            }
            if blocks.len() > 8 {
                return Err(
                    self.err("a with statement's handler of a shape this decompiler does not know")
                );
            }
            blocks.push(x);
            if self.instrs(x).iter().any(|i| i.op.name == "POP_EXCEPT") {
                suppressed = Some(x);
                continue;
            }
            todo.extend(
                self.cfg.blocks[x]
                    .succs
                    .iter()
                    .filter(|e| e.kind != EdgeKind::Exception)
                    .map(|e| e.to),
            );
        }
        let sup = suppressed
            .ok_or_else(|| self.err("a with statement's handler that never suppresses"))?;
        let ins = self.instrs(sup);
        let k = ins
            .iter()
            .position(|i| i.op.name == "POP_EXCEPT")
            .unwrap_or_default();
        let mut rest: Vec<_> = ins.get(k + 1..).unwrap_or_default().to_vec();
        if rest.first().map(|i| i.op.name) != Some("POP_TOP") {
            return Err(
                self.err("a with statement's handler of a shape this decompiler does not know")
            );
        }
        rest.remove(0);
        if rest.last().is_some_and(|i| i.op.name.starts_with("JUMP_")) {
            rest.pop();
        }
        // 3.10: the suppressed path can run on into an enclosing statement's POP_BLOCK
        if rest.len() == 1 && rest[0].op.name == "POP_BLOCK" {
            rest.pop();
        }
        let mut tail = Vec::new();
        let end = if rest.is_empty() {
            let end = self
                .succ(sup, EdgeKind::Jump)
                .or_else(|| self.succ(sup, EdgeKind::Fall));
            // (the normal way out must go on there too, past the exit call: by the same block,
            // or by the same instructions, which 3.10 copies when they are a small block that
            // leaves. Where it does not, the body never completes and the code at its end is the
            // body's own last way out, a copy of its exit (`return` / `raise`, `break` /
            // `continue`): it stays in the body, and the statement goes on where the suppressed
            // path does. Read as the code after the statement it would run on the suppressed
            // path. Anything else is refused)
            if after.is_some()
                && end.is_some()
                && !self.legacy_same_after_exit(after, &[], end)
                && !self.legacy_exit_agrees(after, (sup, k + 2))
            {
                let last = match after {
                    // (3.10: `break` with the loop's exit copied after the exit calls,
                    // `legacy_with_break.rs`)
                    Some(a) => match self.legacy_with_last_break(a, &body_base, lp)? {
                        Some(last) => Some(last),
                        None => self.body_last_exit_path(a, &body_base, lp)?,
                    },
                    None => None,
                };
                let last = last.ok_or_else(|| {
                    self.err("a with statement whose code after it differs on the suppressed path")
                })?;
                body.extend(last);
                after = None;
            }
            end
        } else {
            // 3.10 copies a small `return` after the statement into the handler
            let mut sim = Sim::new(self.code, Vec::new());
            let mut last = None;
            for (k, i) in rest.iter().enumerate() {
                sim.next_op = rest.get(k + 1).map(|i| i.op.name);
                last = sim.step(i)?;
            }
            let mut goes_on = None;
            // (3.9 copies nothing into the handler: code after its POP_EXCEPT in the same block
            // is the code after the statement, which no jump reaches, so the body never
            // completes and its normal way out is its own last exit; 3.8 took the path above)
            let copies = self.code.version >= framejit_bytecode::PyVersion::V3_10;
            match sim.out.as_slice() {
                // (where the body's normal way out returns the same: else the body never
                // completes, and the return at its end is its own)
                [r @ Stmt::Return {
                    value: None | Some(Expr::Name { .. } | Expr::Constant { .. }),
                }] if copies && rest.len() == 2 && self.legacy_return_after_exit(after, r)? => {
                    tail.push(r.clone())
                }
                // (a larger copy, such as `return a, b`, where the body's own way out returns
                // the same, or where it has none)
                [r @ Stmt::Return { .. }]
                    if copies && self.legacy_return_after_exit(after, r)? =>
                {
                    tail.push(r.clone())
                }
                // (the code after the statement, copied: the normal way out runs the same)
                out if copies
                    && self.legacy_same_after_exit(
                        after,
                        out,
                        match last {
                            Some(Exit::Exit) => None,
                            _ => self
                                .succ(sup, EdgeKind::Jump)
                                .or_else(|| self.succ(sup, EdgeKind::Fall)),
                        },
                    ) => {}
                // (a body that never completes: the code after the statement, which only a
                // suppressed exception reaches, follows the handler's POP_EXCEPT in its block)
                _ if after.is_none()
                    && sim.stack.is_empty()
                    && matches!(last, None | Some(Exit::Flow | Exit::Exit)) =>
                {
                    sim.check_copies()?;
                    tail.extend(sim.out.iter().cloned());
                    self.mark_closing_return(sup, &mut tail);
                    if !matches!(last, Some(Exit::Exit)) {
                        goes_on = self
                            .succ(sup, EdgeKind::Jump)
                            .or_else(|| self.succ(sup, EdgeKind::Fall));
                    }
                }
                // (the normal way out runs other code than the suppressed path after the exit
                // call, instruction by instruction: the body never completes, and that code is a
                // copy of its exit in front of its own last `return` / `raise` / `break` /
                // `continue`; what follows the handler's POP_EXCEPT is the code after the
                // statement, which only a suppressed exception reaches)
                _ if sim.stack.is_empty()
                    && matches!(last, None | Some(Exit::Flow | Exit::Exit))
                    && (!copies || !self.legacy_exit_agrees(after, (sup, k + 2))) =>
                {
                    let own = match after {
                        Some(a) => self.body_last_exit_path(a, &body_base, lp)?,
                        None => None,
                    };
                    let own = own.ok_or_else(|| {
                        self.err(
                            "a with statement whose code after it differs on the suppressed path",
                        )
                    })?;
                    body.extend(own);
                    after = None;
                    sim.check_copies()?;
                    tail.extend(sim.out.iter().cloned());
                    self.mark_closing_return(sup, &mut tail);
                    if !matches!(last, Some(Exit::Exit)) {
                        goes_on = self
                            .succ(sup, EdgeKind::Jump)
                            .or_else(|| self.succ(sup, EdgeKind::Fall));
                    }
                }
                _ => {
                    return Err(self.err(
                        "a with statement's handler of a shape this decompiler does not know",
                    ))
                }
            }
            goes_on
        };
        for &x in &blocks {
            if std::mem::replace(&mut self.emitted[x], true) {
                return Err(self.err("a with statement's handler reached twice"));
            }
        }
        let stmt = Stmt::With {
            items: vec![WithItem {
                context_expr: cm,
                optional_vars: target,
            }],
            body: or_pass(body),
        };
        match after {
            // the normal way out starts with the exit call, which is part of the statement (it goes
            // on to what the handler's copied return does)
            Some(a) => {
                self.expect_exit_call = true;
                Ok((vec![stmt], Some(a), vec![Val::WithExit]))
            }
            None => {
                let mut out = vec![stmt];
                out.extend(tail);
                Ok((out, end, Vec::new()))
            }
        }
    }
}

impl Structurer<'_> {
    /// ≤3.10: the index in block `after` (a with body's normal way out) just past the with
    /// statement's exit call (`None, None, None` called, 3.8-3.10 async: awaited, and the result
    /// dropped), which opens the block; `None` where the block does not open so.
    fn legacy_exit_call_end(&self, after: usize) -> Option<usize> {
        let ins = self.instrs(after);
        let names: Vec<&str> = ins.iter().map(|i| i.op.name).collect();
        let first = names.iter().position(|n| *n != "NOP")?;
        // (3.8 as lowered: BEGIN_FINALLY, then the handler's cleanup up to POP_FINALLY 0)
        if names[first] == "BEGIN_FINALLY" {
            let k = (first..names.len()).find(|&k| {
                names[k] == "POP_FINALLY"
                    && names.get(k.wrapping_sub(1)) == Some(&"WITH_CLEANUP_FINISH")
            })?;
            return Some(k + 1);
        }
        let call = ["LOAD_CONST", "DUP_TOP", "DUP_TOP", "CALL_FUNCTION"];
        if names.get(first..first + 4) != Some(&call[..]) {
            return None;
        }
        let k = first + 4;
        let awaited = ["GET_AWAITABLE", "LOAD_CONST", "YIELD_FROM", "POP_TOP"];
        if names.get(k..k + 4) == Some(&awaited[..]) {
            return Some(k + 4);
        }
        (names.get(k) == Some(&"POP_TOP")).then_some(k + 1)
    }

    /// The next instruction on the way on from instruction `at.1` of block `at.0` (that one
    /// included): line-number NOPs skipped, unconditional jumps and the ends of blocks followed.
    fn legacy_way_next(
        &self,
        mut at: (usize, usize),
    ) -> Option<((usize, usize), &framejit_bytecode::Instr)> {
        for _ in 0..64 {
            let ins = self.instrs(at.0);
            match ins.get(at.1) {
                None => at = (self.succ(at.0, EdgeKind::Fall)?, 0),
                Some(i) if i.op.name == "NOP" => at.1 += 1,
                Some(i) if matches!(i.op.name, "JUMP_ABSOLUTE" | "JUMP_FORWARD") => {
                    at = (self.succ(at.0, EdgeKind::Jump)?, 0)
                }
                Some(&i) => return Some((at, i)),
            }
        }
        None
    }

    /// ≤3.10: do the ways on from `a` and from `b` (block, instruction index) run the same code:
    /// they reach the same instruction, or run the same instructions (3.10 copies a small block
    /// that leaves onto each way into it) up to a `return` / `raise`, conditional jumps going to
    /// the same place? Where they do, what follows the one is what follows the other.
    fn legacy_same_way(&self, mut a: (usize, usize), mut b: (usize, usize)) -> bool {
        for _ in 0..64 {
            let (Some((pa, ia)), Some((pb, ib))) =
                (self.legacy_way_next(a), self.legacy_way_next(b))
            else {
                return false;
            };
            if pa == pb {
                return true;
            }
            if ia.op.name != ib.op.name {
                return false;
            }
            match (ia.arg, ib.arg) {
                (framejit_bytecode::Arg::Raw(x), framejit_bytecode::Arg::Raw(y)) if x == y => {}
                (framejit_bytecode::Arg::Jump(_), framejit_bytecode::Arg::Jump(_)) => {
                    let to = |p: (usize, usize)| {
                        self.succ(p.0, EdgeKind::Jump)
                            .map(|t| self.resolve_jumps(t))
                    };
                    if to(pa).is_none() || to(pa) != to(pb) {
                        return false;
                    }
                }
                _ => return false,
            }
            if matches!(ia.op.name, "RETURN_VALUE" | "RAISE_VARARGS" | "RERAISE") {
                return true;
            }
            a = (pa.0, pa.1 + 1);
            b = (pb.0, pb.1 + 1);
        }
        false
    }

    /// ≤3.10: does the normal way out of a with body at block `after` go on, past the statement's
    /// exit call, as the handler's suppressed path does from instruction `from.1` of block
    /// `from.0` (past its POP_EXCEPT and the dropped `__exit__` result)? False where there is no
    /// normal way out or it does not open with the exit call.
    fn legacy_exit_agrees(&self, after: Option<usize>, from: (usize, usize)) -> bool {
        let Some(a) = after else { return false };
        self.legacy_exit_call_end(a)
            .is_some_and(|e| self.legacy_same_way((a, e), from))
    }
}
