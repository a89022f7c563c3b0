//! 3.10 try statements with except clauses: where the statement ends when the clauses never come
//! back to the normal path (3.10 copies the code after the statement into the clauses).

use super::Structurer;
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// The body's normal path from `e` goes on to where the region holding the statement stops
    /// (the merge of an enclosing `if`, say): the statement ends there, everything before it on
    /// that path being its `else:` part (the clauses' copies of the code after it, if any, are
    /// compared with the code there). `None`: it does not get there.
    pub(super) fn legacy_try_to_stop(&self, e: usize) -> Option<usize> {
        let stop = self.stops.last().copied().flatten()?;
        (e != stop && self.reach_within(e, &[Some(stop)])[stop]).then_some(stop)
    }

    /// 3.9 try/except (handler `h`) taken to end at `end`, where the body's normal exit `after`
    /// goes: the POP_BLOCK closing an enclosing protected range (`try: ... except T: return ...
    /// finally:`, a try/except inside a try/finally), which no clause reaches (they all leave).
    /// Then the statement runs on to where the enclosing region stops, or to the end of the
    /// enclosing body (`None`), the POP_BLOCK being its `else:` part, as 3.10 reads it (3.10
    /// copies the code after the statement into the clauses; 3.9 lays it out after the finally
    /// body's copy). `None`: not that shape.
    pub(super) fn legacy_end_at_pop_block(
        &self,
        h: usize,
        end: Option<usize>,
        after: Option<usize>,
    ) -> Option<Option<usize>> {
        let (e, a) = (end?, after?);
        // (3.9 only: 3.8's lowering lays finally bodies out alike, but was not swept with it)
        if self.code.version != framejit_bytecode::PyVersion::V3_9 || self.resolve_jumps(a) != e {
            return None;
        }
        let from_clause = self.cfg.blocks[e].preds.iter().any(|&p| p >= h);
        let pops = self
            .instrs(e)
            .first()
            .is_some_and(|i| i.op.name == "POP_BLOCK");
        if from_clause || !pops {
            return None;
        }
        // (where the enclosing region stops at that POP_BLOCK, an `if` ending there, say, the
        // statement ends there too)
        match self.stops.last().copied().flatten() {
            None => Some(None),
            Some(stop) if stop == e => None,
            Some(_) => self.legacy_try_to_stop(e).map(Some),
        }
    }

    /// Is `n`, the block after the last POP_BLOCK of the try / with statement whose handler is
    /// `h`, a `break` out of the `for` loop `lp` (its iterator popped, a jump to the loop's exit),
    /// laid out before the handler? Then it leaves the body, which never completes: the normal
    /// way on would jump past the handler, and no jump is threaded into a POP_TOP.
    pub(super) fn legacy_break_after_pop_block(
        &self,
        n: usize,
        h: usize,
        lp: Option<&super::LoopCtx>,
    ) -> bool {
        let Some(ctx) = lp else { return false };
        let Some(exit) = ctx.exit else { return false };
        if n >= h || self.instrs(ctx.header).first().map(|i| i.op.name) != Some("FOR_ITER") {
            return false;
        }
        let names: Vec<&str> = self.instrs(n).iter().map(|i| i.op.name).collect();
        let to_exit = self
            .succ(n, crate::flow::EdgeKind::Jump)
            .is_some_and(|t| self.resolve_jumps(t) == self.resolve_jumps(exit));
        matches!(names[..], ["POP_TOP", "JUMP_ABSOLUTE" | "JUMP_FORWARD"]) && to_exit
    }

    /// 3.10 try/except whose statement was taken to end at the body's normal exit `after` (a
    /// short `return`), while the except clauses all go on to the same other code (`alike`): that
    /// `return` is the statement's `else:`, structured here, where it leaves on every path;
    /// `None` where it does not (nothing structured).
    pub(super) fn legacy_else_leaves(
        &mut self,
        after: Option<usize>,
        end: Option<usize>,
        alike: bool,
        base: &[super::Val],
        lp: Option<&super::LoopCtx>,
    ) -> Result<Option<Vec<crate::ast::Stmt>>, crate::error::DecompileError> {
        let Some(a) = after.filter(|&a| end == Some(a) && alike) else {
            return Ok(None);
        };
        if self.code.version != framejit_bytecode::PyVersion::V3_10 {
            return Ok(None);
        }
        let saved = (self.visits.clone(), self.emitted.clone(), self.work);
        let rest = self.region(a, None, base, lp).ok();
        if let Some(rest) = rest.filter(|r| super::finally_exits::ends_by_leaving(r)) {
            Ok(Some(rest))
        } else {
            (self.visits, self.emitted, self.work) = saved;
            Ok(None)
        }
    }

    /// 3.10 try/except whose body's normal path `e` is a plain `return` (which the tail rules
    /// would take for a copy of the code after the statement) while the except clauses of handler
    /// `h` all go on to code that is not a return: the `return` is the statement's `else:`, and the
    /// statement ends where the region stops, or where the clauses go on (`Some(None)`: runs to
    /// the end, the clauses' copies compared as the code after it). `None`: not that shape.
    pub(super) fn legacy_else_return(
        &self,
        h: usize,
        e: usize,
        lp: Option<&super::LoopCtx>,
    ) -> Option<Option<usize>> {
        let exits = self.clause_exits(h, lp);
        let returns = |x: usize| {
            let r = self.resolve_jumps(x);
            let ins = self.instrs(r);
            ins.len() <= 3 && ins.last().is_some_and(|i| i.op.name == "RETURN_VALUE")
        };
        if exits.is_empty() || exits.iter().any(|&x| returns(x) || x == e) {
            return None;
        }
        if let Some(stop) = self.legacy_try_to_stop(e) {
            return Some(Some(stop));
        }
        match exits.as_slice() {
            [one] => Some(Some(*one)),
            _ => Some(None),
        }
    }
}

/// Did going from stack `base` to `left` pop only loop iterators (at least one), keeping the rest?
pub(super) fn only_iters_popped(base: &[crate::exprs::Val], left: &[crate::exprs::Val]) -> bool {
    let k = left.len();
    base.get(k..).is_some_and(|popped| {
        !popped.is_empty()
            && popped
                .iter()
                .all(|v| matches!(v, crate::exprs::Val::Iter(_)))
            && left == &base[..k]
    })
}

/// The RERAISE marker statement (a finally handler's closing re-raise).
fn is_reraise(s: &crate::ast::Stmt) -> bool {
    matches!(s, crate::ast::Stmt::Expr { value: crate::ast::Expr::Name { id, .. } } if id == crate::exprs::RERAISE)
}

/// A ≤3.10 finally handler's body `fin`, its final RERAISE already taken off: 3.10 copies that
/// RERAISE into the ways of a final `if` (each arm re-raises where it ends), so an arm ending in
/// the re-raise is the arm without it followed by the re-raise after the `if`, the same code.
/// Also where `fin` ends with a try/finally (finally body F) whose body ends with an `if`: the
/// RERAISE is copied after F's normal-path copy at the ends of that `if`'s arms (each arm leaves
/// the inner body, runs F, re-raises), the same code as the arm going on out of the inner try.
/// An `if` whose arm ends with the RERAISE copy, before the end of the handler: also the same
/// code as an `if` whose `else:` is the code after it (`if_elif_reraise_copies`).
pub(super) fn strip_reraise_copies(fin: &mut Vec<crate::ast::Stmt>) {
    use crate::ast::Stmt;
    super::legacy_fin_arms::if_elif_reraise_copies(fin);
    if let Some(Stmt::Try {
        body,
        handlers,
        orelse,
        finalbody,
    }) = fin.last_mut()
    {
        if handlers.is_empty() && orelse.is_empty() && !finalbody.is_empty() {
            strip_reraise_after_finally(body, finalbody);
        }
        return;
    }
    if let Some(Stmt::If { body, orelse, .. }) = fin.last_mut() {
        for arm in [body, orelse] {
            if arm.last().is_some_and(is_reraise) {
                arm.pop();
            }
            strip_reraise_copies(arm);
        }
        if let Some(Stmt::If { body, .. }) = fin.last_mut() {
            if body.is_empty() {
                body.push(Stmt::Pass);
            }
        }
    }
}

/// A ≤3.10 finally handler's body `fin` ending with a try/except (no finally) whose ways on, the
/// end of its body or `else:` and the end of each clause that completes, all end with the
/// handler's RERAISE: 3.10 copies that small exit into each of them. The same code as the
/// try/except followed by the RERAISE, which this makes it (false: not that shape, nothing
/// changed).
pub(super) fn hoist_reraise_copies(fin: &mut Vec<crate::ast::Stmt>) -> bool {
    use crate::ast::{Expr, Stmt};
    let Some(Stmt::Try {
        body,
        handlers,
        orelse,
        finalbody,
    }) = fin.last()
    else {
        return false;
    };
    if handlers.is_empty() || !finalbody.is_empty() {
        return false;
    }
    let normal = if orelse.is_empty() { body } else { orelse };
    if !normal.last().is_some_and(is_reraise) {
        return false;
    }
    let clause_ok = |b: &Vec<Stmt>| {
        b.last().is_some_and(is_reraise) || super::finally_exits::ends_by_leaving(b)
    };
    if !handlers.iter().all(|h| clause_ok(&h.body)) {
        return false;
    }
    let Some(Stmt::Try {
        body,
        handlers,
        orelse,
        ..
    }) = fin.last_mut()
    else {
        return false;
    };
    if orelse.is_empty() {
        body.pop();
        if body.is_empty() {
            body.push(Stmt::Pass);
        }
    } else {
        orelse.pop();
    }
    for h in handlers.iter_mut() {
        if h.body.last().is_some_and(is_reraise) {
            h.body.pop();
            if h.body.is_empty() {
                h.body.push(Stmt::Pass);
            }
        }
    }
    let reraise = Stmt::Expr {
        value: Expr::name(crate::exprs::RERAISE),
    };
    fin.push(reraise);
    true
}

/// [`strip_reraise_copies`] inside a try/finally's body `stmts` (finally body `f`): the arms of
/// its final `if` that end with f's copy and the re-raise end without them.
fn strip_reraise_after_finally(stmts: &mut [crate::ast::Stmt], f: &[crate::ast::Stmt]) {
    use crate::ast::Stmt;
    let Some(Stmt::If { body, orelse, .. }) = stmts.last_mut() else {
        return;
    };
    for arm in [body, orelse] {
        let n = arm.len();
        if n > f.len() && arm.last().is_some_and(is_reraise) && arm[n - 1 - f.len()..n - 1] == *f {
            arm.truncate(n - 1 - f.len());
        }
        strip_reraise_after_finally(arm, f);
    }
    if let Some(Stmt::If { body, .. }) = stmts.last_mut() {
        if body.is_empty() {
            body.push(Stmt::Pass);
        }
    }
}

/// 3.10: the normal-path copy of a finally body that ends with a try/finally whose body ends with
/// an `if`, followed by the way out X (`return v`) the compiler copies after it: X is copied into
/// the arms of that `if` too (each arm leaves the inner body through the inner finally body, then
/// X). The copy without those: `None` where `rest` is not that shape.
pub(super) fn hoist_exit_out_of_try(rest: &[crate::ast::Stmt]) -> Option<Vec<crate::ast::Stmt>> {
    use crate::ast::{Expr, Stmt};
    let [.., Stmt::Try { .. }, exit] = rest else {
        return None;
    };
    if !matches!(
        exit,
        Stmt::Return {
            value: None | Some(Expr::Name { .. } | Expr::Constant { .. })
        }
    ) {
        return None;
    }
    let mut out = rest.to_vec();
    let n = out.len();
    let Stmt::Try {
        body,
        handlers,
        orelse,
        finalbody,
    } = &mut out[n - 2]
    else {
        return None;
    };
    if !handlers.is_empty() || !orelse.is_empty() || finalbody.is_empty() {
        return None;
    }
    let last = body.last_mut()?;
    drop_exit_from_arms(last, exit).then_some(out)
}

/// `if c: B; X` followed by the way out X (`return v`, `break`, `continue`) is `if c: B`
/// followed by X: 3.10 copies a way out through a finally body into the end of the copy's final
/// `if` (and the other arm, where there is one). Rewrites `stmts[i - 1]` so; false where it has
/// no such copy (nothing changed).
pub(super) fn hoist_exit_copy(stmts: &mut [crate::ast::Stmt], i: usize) -> bool {
    let Some((exit, before)) = stmts[..=i].split_last_mut() else {
        return false;
    };
    before
        .last_mut()
        .is_some_and(|s| drop_exit_from_arms(s, exit))
}

/// `if_stmt` an `if` whose arm (both arms, where it has an `else:`) ends with the way out `exit`
/// after code of its own: takes `exit` off them (false: not so, nothing changed).
fn drop_exit_from_arms(if_stmt: &mut crate::ast::Stmt, exit: &crate::ast::Stmt) -> bool {
    use crate::ast::Stmt;
    let Stmt::If { body, orelse, .. } = if_stmt else {
        return false;
    };
    let ends = |arm: &Vec<Stmt>| arm.len() > 1 && arm.last() == Some(exit);
    if !ends(body) || !(orelse.is_empty() || ends(orelse)) {
        return false;
    }
    body.pop();
    orelse.pop();
    true
}

impl Structurer<'_> {
    /// A block leaving `for` loops with `return x` through a finally body's copy: the loops'
    /// iterators, the last values of the body's base `base`, are popped and x swapped into the
    /// first one's place (`left`), and the code it goes on to (`next`: the copy, then RETURN_VALUE) never
    /// comes back into the loop. `Some(next)`: go on there with that stack.
    pub(super) fn return_past_iter(
        &self,
        base: &[crate::exprs::Val],
        left: &[crate::exprs::Val],
        next: Option<usize>,
        lp: Option<&super::LoopCtx>,
    ) -> Option<usize> {
        use crate::exprs::Val;
        let (n, header) = (next?, lp?.header);
        // (out of nested loops: every iterator popped, x in the first one's place)
        let k = super::finally_wait::popped_iters(base, left)?;
        let swapped = left.len() == k + 1 && matches!(left.last(), Some(Val::Expr(_)));
        let reach = self.reach_within(n, &[]);
        // (every way on ends in a return: nothing else could take the value)
        let returns = reach.iter().enumerate().filter(|(_, &r)| r).all(|(x, _)| {
            !self.cfg.blocks[x].succs.is_empty()
                || self
                    .instrs(x)
                    .last()
                    .is_some_and(|i| i.op.name == "RETURN_VALUE")
        });
        (swapped && !reach[header] && returns).then_some(n)
    }
}

impl Structurer<'_> {
    /// ≤3.10 `return CONSTANT` inside `for` loops inside try bodies: the compiler pops the loops'
    /// iterators, then each enclosing try's block (POP_BLOCK, which ends a block), runs the copy
    /// of a finally body it leaves through, then loads the constant and returns (a `return` of
    /// any other value computes it before the pops). Block `b` popped iterators, the last values
    /// of `base` (`left` is what stays), and ends with a POP_BLOCK; `next` is that way out (see
    /// [`Self::const_return_chain`]). `Some(next)`: go on there with `left`. (3.10 copies a small
    /// exit into a `break` too: the code after the loop, a constant `return`, runs the same
    /// there.)
    pub(super) fn const_return_past_iter(
        &self,
        b: usize,
        base: &[crate::exprs::Val],
        left: &[crate::exprs::Val],
        next: Option<usize>,
    ) -> Option<usize> {
        let n = next?;
        let Some(lg) = self.legacy.as_ref() else {
            return self.const_return_out_of_range(b, base, left, n);
        };
        if self.instrs(b).last()?.op.name != "POP_BLOCK" {
            return None;
        }
        if !only_iters_popped(base, left) {
            return None;
        }
        // (not where an enclosing try body is taken to complete: the region would end there,
        // with the iterators' pops lost)
        let chain = self.const_return_chain(b)?;
        let normal = |x: &usize| lg.exits.iter().any(|&(_, m)| m == Some(*x));
        (!chain.iter().any(normal)).then_some(n)
    }

    /// 3.11+ `return CONSTANT` inside `for` loops inside try bodies: as above,
    /// with no POP_BLOCK instruction: block `b` ends where its pops of the loops' iterators end
    /// the exception range, and the block it falls into, outside that range, reached from `b`
    /// alone, only loads the constant and returns. (A `break` into the copy of an implicit
    /// `return None` ending the function runs the same instructions, and does the same.)
    fn const_return_out_of_range(
        &self,
        b: usize,
        base: &[crate::exprs::Val],
        left: &[crate::exprs::Val],
        n: usize,
    ) -> Option<usize> {
        if self.instrs(b).last()?.op.name != "POP_TOP"
            || self.succ(b, EdgeKind::Fall) != Some(n)
            || self.cfg.blocks[n].preds != [b]
        {
            return None;
        }
        if !only_iters_popped(base, left) {
            return None;
        }
        let (hb, hn) = (self.cfg.blocks[b].handler, self.cfg.blocks[n].handler);
        let ins = self.instrs(n);
        // (or first the exit call of the with statements it leaves, `with_exits.rs` reads it, or
        // the POP_EXCEPT of the except clauses it leaves, each with the unbinding of its
        // `except ... as name:` name: `unbind_len`)
        let mut k = 0;
        loop {
            let names: Vec<&str> = ins[k..].iter().take(6).map(|i| i.op.name).collect();
            k += match names.as_slice() {
                ["LOAD_CONST", "LOAD_CONST", "LOAD_CONST", "PRECALL", "CALL", "POP_TOP", ..] => 6,
                ["LOAD_CONST", "LOAD_CONST", "LOAD_CONST", "CALL", "POP_TOP", ..] => 5,
                ["POP_EXCEPT", ..] => 1 + self.unbind_len(&ins[k + 1..]),
                _ => break,
            };
        }
        let rest: Vec<&str> = ins[k..].iter().map(|i| i.op.name).collect();
        let returns = matches!(
            rest.as_slice(),
            // (3.14 loads small integers by LOAD_SMALL_INT)
            ["LOAD_CONST" | "LOAD_SMALL_INT", "RETURN_VALUE"] | ["RETURN_CONST"]
        ) && self.cfg.blocks[n]
            .succs
            .iter()
            .all(|e| e.kind == EdgeKind::Exception);
        (hb.is_some() && hb.map(|h| h.0) != hn.map(|h| h.0) && returns).then_some(n)
    }

    /// From the block after `b` (which ends with a POP_BLOCK): blocks of a lone POP_BLOCK falling
    /// on, then LOAD_CONST; RETURN_VALUE, or, where the last POP_BLOCK closes a try/finally body,
    /// straight code (the finally body's copy, which the statement checks and takes off) ending
    /// so. The blocks on that way (`None`: not such a way).
    fn const_return_chain(&self, b: usize) -> Option<Vec<usize>> {
        let mut chain = Vec::new();
        let mut last = b;
        for _ in 0..8 {
            let x = self.succ(last, EdgeKind::Fall)?;
            chain.push(x);
            let ins = self.instrs(x);
            if matches!(&ins[..], [only] if only.op.name == "POP_BLOCK") {
                last = x;
                continue;
            }
            let n = ins.len();
            let returns = n >= 2
                && ins[n - 2].op.name == "LOAD_CONST"
                && ins[n - 1].op.name == "RETURN_VALUE"
                && self.cfg.blocks[x]
                    .succs
                    .iter()
                    .all(|e| e.kind == EdgeKind::Exception);
            let straight = n == 2 || self.closes_finally(last) || self.closes_with(last, x);
            return (returns && straight).then_some(chain);
        }
        None
    }

    /// 3.9 / 3.10: does the POP_BLOCK ending block `x` close a with body (its handler starting
    /// with WITH_EXCEPT_START), block `y` after it being the statement's exit call (`None` passed
    /// three times), then LOAD_CONST; RETURN_VALUE?
    fn closes_with(&self, x: usize, y: usize) -> bool {
        let Some(h) = self.cfg.blocks[x].handler.map(|t| t.0) else {
            return false;
        };
        if self.instrs(h).first().map(|i| i.op.name) != Some("WITH_EXCEPT_START") {
            return false;
        }
        let names: Vec<&str> = self.instrs(y).iter().map(|i| i.op.name).collect();
        names
            == [
                "LOAD_CONST",
                "DUP_TOP",
                "DUP_TOP",
                "CALL_FUNCTION",
                "POP_TOP",
                "LOAD_CONST",
                "RETURN_VALUE",
            ]
    }

    /// Does the POP_BLOCK ending block `x` close a try/finally body (its handler opened by
    /// SETUP_FINALLY, and no except clause's match or bare clause)?
    fn closes_finally(&self, x: usize) -> bool {
        let Some(h) = self.cfg.blocks[x].handler.map(|t| t.0) else {
            return false;
        };
        let by_finally = self.cfg.blocks[h].preds.iter().any(|&p| {
            self.cfg.blocks[p]
                .succs
                .iter()
                .any(|e| e.to == h && e.kind == EdgeKind::Exception)
                && self
                    .instrs(p)
                    .last()
                    .is_some_and(|i| i.op.name == "SETUP_FINALLY")
        });
        let clause = matches!(
            self.instrs(h).first().map(|i| i.op.name),
            Some("DUP_TOP" | "POP_TOP")
        );
        by_finally && !clause
    }

    /// ≤3.10: does block `x`, in a try body whose stack depth is `depth`, end with POP_TOPs and a
    /// POP_BLOCK that pop as many values over the body's stack, going on to a constant `return`
    /// (`return CONSTANT` out of `for` loops: their iterators are the values a try body keeps
    /// over its own stack that POP_TOPs right before its POP_BLOCK take off)? Such a POP_BLOCK
    /// is a way out, never the body's normal end.
    pub(super) fn loop_const_return(&self, x: usize, depth: u32) -> bool {
        let ins = self.instrs(x);
        let Some(d0) = self.entry_depth[x] else {
            return false;
        };
        let n = ins.len();
        if n < 2 || ins[n - 1].op.name != "POP_BLOCK" {
            return false;
        }
        let m = ins[..n - 1]
            .iter()
            .rev()
            .take_while(|i| i.op.name == "POP_TOP")
            .count();
        let mut d = i64::from(d0);
        for i in &ins[..n - 1 - m] {
            d += i64::from(i.op.stack_effect(i.raw_arg(), Some(false)));
        }
        // (entered with values over the body's stack: inside a loop, not an expression
        // statement's value popped at the body's end)
        m > 0
            && d0 > depth
            && d == i64::from(depth) + m as i64
            && self.const_return_chain(x).is_some()
    }
}

impl super::Structurer<'_> {
    /// 3.8 / 3.9 try/except whose body's normal exit `after` (the block its last POP_BLOCK falls
    /// into) is `return CONSTANT`: a `return` of a constant ending the body unwinds the body's
    /// block first (POP_BLOCK, then LOAD_CONST; RETURN_VALUE), while an `else:` is laid out after
    /// the except clauses, reached by the JUMP_FORWARD that would follow the POP_BLOCK (3.10 lays
    /// the `else:` out there instead). So the `return` is the body's last statement. Returns the
    /// block to structure into the body.
    pub(super) fn legacy_body_const_return(&self, after: Option<usize>) -> Option<usize> {
        if self.code.version > framejit_bytecode::PyVersion::V3_9 {
            return None;
        }
        let a = after?;
        let ins = self.instrs(a);
        let const_return = ins.len() == 2
            && ins[0].op.name == "LOAD_CONST"
            && ins[1].op.name == "RETURN_VALUE"
            && self.cfg.blocks[a].preds.len() == 1;
        const_return.then_some(a)
    }
}

impl super::Structurer<'_> {
    /// 3.8 / 3.9 try/except (handler `h`) whose body's own way out, the POP_BLOCK; JUMP_FORWARD
    /// before the handler, is dead after a `return`: the peephole optimizer drops the code after a
    /// RETURN_VALUE up to the next label only, so the body ends in a statement with an end of its
    /// own that nothing reaches (`if c: return x  else: return y`). The body is written so (see
    /// `legacy_layout::close_final_if`) where that is how it was structured.
    pub(super) fn legacy_dead_body_exit(&self, h: usize) -> bool {
        if self.code.version > framejit_bytecode::PyVersion::V3_9 || h < 3 {
            return false;
        }
        // (the jump's one way in is the dead POP_BLOCK's fall)
        let dead = |x: usize, op: &str| {
            self.cfg.blocks[x].preds.iter().all(|&p| p == h - 2)
                && matches!(self.instrs(x)[..], [i] if i.op.name == op)
        };
        dead(h - 1, "JUMP_FORWARD")
            && dead(h - 2, "POP_BLOCK")
            && !self.cfg.blocks[h - 3].preds.is_empty()
            && self
                .instrs(h - 3)
                .last()
                .is_some_and(|i| i.op.name == "RETURN_VALUE")
    }
}

/// 3.8 / 3.9 try/finally whose normal path's copy of the finally body runs on, before the handler,
/// into `tail`: where that is one `return` of a constant, it is the body's last statement (a
/// `return` of a constant unwinds the block, POP_BLOCK and the copy, then LOAD_CONST;
/// RETURN_VALUE), not code after the statement, which the copy reaches by a jump past the
/// handler. (3.10 copies a `return` after the statement into the copy's end.)
pub(super) fn legacy_finally_body_return(
    version: framejit_bytecode::PyVersion,
    tail: &[crate::ast::Stmt],
) -> bool {
    use crate::ast::{Expr, Stmt};
    version <= framejit_bytecode::PyVersion::V3_9
        && matches!(
            tail,
            [Stmt::Return {
                value: None | Some(Expr::Constant { .. })
            }]
        )
}
