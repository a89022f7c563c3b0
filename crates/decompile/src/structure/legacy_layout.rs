//! 3.8 / 3.9 jump layouts: where the compiler's own layout, not a join of the arms, says where an
//! `if` statement ends.

use super::{LoopCtx, Structurer};

impl Structurer<'_> {
    /// A branch whose arms never meet, the taken arm going straight back to the loop's header: the
    /// `if` is the last statement of the loop body (the body's closing jump to the header is where
    /// the false arm goes, threaded by the peephole optimizer) and its body, laid out first, leaves.
    /// `if c: return x` at the end of a loop body, not `if not c: continue` followed by `return x`
    /// (which compiles a jump of its own to the header).
    pub(super) fn legacy_taken_continues(&self, taken: usize, lp: Option<&LoopCtx>) -> bool {
        self.code.version <= framejit_bytecode::PyVersion::V3_9
            && lp.is_some_and(|c| c.header == taken)
    }

    /// `if c: B` whose body B, laid out first, ends by raising and whose arms never meet: the
    /// compiler writes a jump past the `else:` after the body's last instruction even when that is
    /// a `raise` (only a `return` loses it), so where the raise is the last instruction before the
    /// taken arm there was no `else:` and the taken arm is the code after the statement. (Where
    /// the jump is there, dead, the taken arm is the `else:`.) Both read the same: B never comes
    /// back.
    pub(super) fn legacy_raise_without_else(&self, fall: usize, taken: usize) -> bool {
        if self.code.version > framejit_bytecode::PyVersion::V3_9 || fall >= taken {
            return false;
        }
        let before = taken - 1;
        if before < fall || self.cfg.blocks[before].preds.is_empty() {
            return false;
        }
        self.instrs(before)
            .last()
            .is_some_and(|i| i.op.name == "RAISE_VARARGS")
    }

    /// The join `local` found for a branch inside a loop (where the arms' ways out meet, or the
    /// enclosing region's stop), overridden by the layout: the compiler writes a jump past an
    /// `else:` after a body that ends by raising, `break` or `continue` (dead, and kept: the
    /// peephole optimizer drops dead code only after a `return`), so such a body's last
    /// instruction right before the taken arm means there was none, and the taken arm is the code
    /// after the statement (`if b: raise X` / `if b: continue` then `y()` in a loop body's `if`,
    /// not `else: y()`). Both readings run the same; only the jumps differ.
    pub(super) fn legacy_leaving_ends_if(
        &self,
        fall: usize,
        taken: usize,
        local: Option<usize>,
        lp: Option<&LoopCtx>,
    ) -> Option<usize> {
        // (not a raise / jump inside an except clause the body opened: its own dead end after it,
        // and the dead jump past an `else:`, are gone from 3.8's lowering with the clauses' dead
        // END_FINALLY)
        let same_handler = self
            .legacy
            .as_ref()
            .is_some_and(|lg| taken > fall && lg.running.get(taken - 1) == lg.running.get(fall));
        match local {
            Some(m)
                if m > taken
                    && same_handler
                    && (self.legacy_raise_without_else(fall, taken)
                        || self.legacy_break_without_else(fall, taken, None, lp)
                        || self.legacy_continue_without_else(fall, taken, m, lp)) =>
            {
                Some(taken)
            }
            l => l,
        }
    }

    /// ≤3.9 `if c: B  else: pass`: B's last block, laid out right before the taken arm, ends with
    /// a JUMP_FORWARD to it, the next instruction. The compiler writes that jump past an `else:`
    /// only (3.8 / 3.9 keep it though it goes nowhere; 3.10 removes it): the `else:` compiled to
    /// nothing. Written without it, the jump is not there.
    pub(super) fn legacy_empty_else(&self, fall: usize, taken: usize) -> bool {
        if self.code.version > framejit_bytecode::PyVersion::V3_9 || fall >= taken {
            return false;
        }
        let before = taken - 1;
        if before < fall || (self.cfg.blocks[before].preds.is_empty() && before != fall) {
            return false;
        }
        // (B's own block, entered from B: not the cleanup of a chained comparison in the test,
        // POP_TOP and a jump to the next instruction, entered from the test's blocks)
        let in_body = before == fall
            || self.cfg.blocks[before]
                .preds
                .iter()
                .all(|&p| p >= fall && p < before);
        // (nor a clause's or a try body's own way out, POP_EXCEPT / POP_BLOCK and the jump to the
        // statement's end: 3.8's lowering drops the dead END_FINALLY after a bare `except:` that
        // stood between)
        let names: Vec<&str> = self.instrs(before).iter().map(|i| i.op.name).collect();
        let own_jump = match names[..] {
            [.., "POP_EXCEPT" | "POP_BLOCK", "JUMP_FORWARD"] => false,
            [.., "JUMP_FORWARD"] => true,
            _ => false,
        };
        in_body && own_jump && self.succ(before, crate::flow::EdgeKind::Jump) == Some(taken)
    }

    /// ≤3.9 `if c: ... continue` with no `else:`: the block laid out right before the taken arm,
    /// reached, ends with the body's jump back to the loop's header. (With an `else:`, the
    /// compiler's jump past it would follow, dead.) Only where the arms were found to meet at a
    /// block inside the loop body (`merge`, an enclosing statement's end, not the body's closing
    /// jump back to the header): an `if c: X  else: E`
    /// ending the loop body has its jump past E threaded to the header, the same instructions
    /// as `if c: X; continue` then E, and is read as the former.
    fn legacy_continue_without_else(
        &self,
        fall: usize,
        taken: usize,
        merge: usize,
        lp: Option<&LoopCtx>,
    ) -> bool {
        let Some(ctx) = lp else { return false };
        if self.code.version > framejit_bytecode::PyVersion::V3_9
            || fall >= taken
            || self.resolve_jumps(merge) == ctx.header
            || Some(merge) == ctx.exit
            || Some(merge) == ctx.else_at
            || self
                .loop_at(ctx.header)
                .is_none_or(|l| !l.body.contains(&merge))
        {
            return false;
        }
        let before = taken - 1;
        if before < fall || (self.cfg.blocks[before].preds.is_empty() && before != fall) {
            return false;
        }
        self.instrs(before)
            .last()
            .is_some_and(|i| i.op.name == "JUMP_ABSOLUTE")
            && self
                .succ(before, crate::flow::EdgeKind::Jump)
                .is_some_and(|t| self.resolve_jumps(t) == ctx.header)
    }

    /// `if c: B  else: E` whose body B, laid out first, ends by raising (or jumping): the jump past E the
    /// compiler writes after the raise is there, dead, right before E (3.9 keeps it, and
    /// legacy_layout38 keeps it for 3.8). Where the arms never meet: `Some(merge)`, E being the
    /// `else:` and the statement ending where that jump goes (where E goes on to it; else E runs to
    /// its own end, `Some(None)`). `None`: not that layout.
    pub(super) fn legacy_raise_then_else(
        &self,
        fall: usize,
        taken: usize,
        lp: Option<&LoopCtx>,
    ) -> Option<Option<usize>> {
        if self.code.version > framejit_bytecode::PyVersion::V3_9 || fall + 2 > taken {
            return None;
        }
        let (jump, raise) = (taken - 1, taken - 2);
        let dead_jump = self.cfg.blocks[jump].preds.is_empty()
            && matches!(
                self.instrs(jump)[..],
                [j] if matches!(j.op.name, "JUMP_FORWARD" | "JUMP_ABSOLUTE")
            );
        // (or leaves by `continue` / `break`: the jump past E is dead after theirs too; after a
        // `return` the peephole optimizer removes it, unless a label sits between them: B's last
        // statement is then one with an end of its own that nothing reaches, see
        // `legacy_return_then_else`)
        let last = self.instrs(raise).last().map(|i| i.op.name);
        let raises = !self.cfg.blocks[raise].preds.is_empty()
            && matches!(
                last,
                Some("RAISE_VARARGS" | "JUMP_ABSOLUTE" | "JUMP_FORWARD" | "RETURN_VALUE")
            )
            // (a try statement whose clauses all leave ends with the RERAISE after them, dead
            // after a bare `except:`)
            || last == Some("RERAISE");
        if !dead_jump || !raises {
            return None;
        }
        let end = self.succ(jump, crate::flow::EdgeKind::Jump);
        // (not where the dead jump is the loop's own closing jump back to its header and the
        // branch is the loop's test, `while c:` whose body ends in a statement whose end nothing
        // reaches: the test leaves the loop, or is the header's own, whose loop shares its header
        // with an enclosing `while True:`)
        let closing = lp.is_some_and(|c| {
            let leaves_loop = self
                .loop_at(c.header)
                .is_some_and(|l| !l.body.contains(&taken));
            end.is_some_and(|t| self.resolve_jumps(t) == c.header)
                && (leaves_loop
                    || c.exit == Some(taken)
                    || c.else_at == Some(taken)
                    || self.succ(c.header, crate::flow::EdgeKind::Jump) == Some(taken))
        });
        if closing {
            return None;
        }
        // (E goes on to it, not around the loop)
        let reached = |t: usize| {
            let walls = [Some(t), lp.map(|c| c.header), lp.and_then(|c| c.exit)];
            self.reach_within(taken, &walls)[t]
        };
        Some(end.filter(|&t| (t > taken && reached(t)) || self.loop_edge(t, lp)))
    }

    /// `if c: B  else: E` read by [`Self::legacy_raise_then_else`] where B's last instruction
    /// before the dead jump past E is a `return`: the peephole optimizer drops the code after a
    /// RETURN_VALUE up to the next label only, so a label was there: B ends in a statement whose
    /// own end nothing reaches (`if d: return x  else: return y`). Written so, B compiles to that
    /// label again (see [`close_final_if`]).
    pub(super) fn legacy_return_then_else(&self, fall: usize, taken: usize) -> bool {
        taken >= fall + 2
            && self
                .instrs(taken - 2)
                .last()
                .is_some_and(|i| i.op.name == "RETURN_VALUE")
    }

    /// The end of a ≤3.9 try statement with except clauses, found on its normal path `reference`
    /// (`e` its first block) when no clause's post-dominator chain meets it: where `e` is only the
    /// jump the compiler writes after the body's POP_BLOCK, the clauses' own way out (POP_EXCEPT;
    /// JUMP_FORWARD) goes straight to its target, the same point of the code. The clauses stop
    /// there, not after running into it.
    pub(super) fn legacy_exit_jump(&self, e: usize, reference: &[usize]) -> usize {
        if self.code.version > framejit_bytecode::PyVersion::V3_9 {
            return e;
        }
        let lone_jump = matches!(
            self.instrs(e)[..],
            [j] if matches!(j.op.name, "JUMP_FORWARD" | "JUMP_ABSOLUTE")
        );
        match (lone_jump, self.succ(e, crate::flow::EdgeKind::Jump)) {
            (true, Some(t)) if reference.get(1) == Some(&t) => t,
            _ => e,
        }
    }

    /// A ≤3.9 try statement with except clauses whose normal path `e` (after the body's
    /// POP_BLOCK and its jump) no clause's post-dominators meet: the compiler lays the `else:` part
    /// out first and the clauses jump past it (POP_EXCEPT; JUMP_FORWARD) to the code after the
    /// statement. Where they all go to one block laid out after `e`, that is where the statement
    /// ends, whether or not the `else:` part gets there (it may leave, or get there on some arms
    /// only): the code there is the statement's successor, not the clauses'.
    pub(super) fn legacy_else_past(&self, e: usize, clause_exits: &[usize]) -> Option<usize> {
        if self.code.version > framejit_bytecode::PyVersion::V3_9 {
            return None;
        }
        match clause_exits {
            [x] if *x > e => Some(*x),
            _ => None,
        }
    }

    /// ≤3.9 tests a `while` loop at its top: where the loop's header block ends with a conditional
    /// jump out of the loop, that is the loop's own exit (where `while c:` goes when c is false),
    /// not another way out of the body (`return` inside an `if`) that comes first in code order.
    pub(super) fn legacy_header_exit(&self, header: usize, exits: &[usize]) -> Option<usize> {
        if self.code.version > framejit_bytecode::PyVersion::V3_9 {
            return None;
        }
        let conditional = self
            .instrs(header)
            .last()
            .is_some_and(|i| matches!(i.op.name, "POP_JUMP_IF_FALSE" | "POP_JUMP_IF_TRUE"));
        let target = self.succ(header, crate::flow::EdgeKind::Jump)?;
        // (where most ways out go elsewhere, `while c: B else: E` with its breaks past E, the
        // general choice stands)
        let places: Vec<usize> = exits.iter().map(|&x| self.resolve_jumps(x)).collect();
        let to = self.resolve_jumps(target);
        let elsewhere = places
            .iter()
            .any(|&p| p != to && places.iter().filter(|&&q| q == p).count() > 1);
        (conditional && !elsewhere && exits.contains(&target)).then_some(target)
    }
}

/// `B` of [`Structurer::legacy_return_then_else`], as the arms were structured: where it ends
/// with `if d: X` (X leaving, no `else:`) followed by statements that end by leaving, those go
/// into that `if`'s `else:` (the same instructions, and the statement's end label the compiler
/// kept before the dead jump). Anything else is left as it is.
pub(super) fn close_final_if(body: &mut Vec<crate::ast::Stmt>) {
    use crate::ast::Stmt;
    let leaves = |b: &[Stmt]| {
        matches!(
            b.last(),
            Some(Stmt::Return { .. } | Stmt::Raise { .. } | Stmt::Break | Stmt::Continue)
        )
    };
    if !leaves(body) {
        return;
    }
    let Some(i) = body.iter().rposition(|s| matches!(s, Stmt::If { .. })) else {
        return;
    };
    let open =
        matches!(&body[i], Stmt::If { body: arm, orelse, .. } if orelse.is_empty() && leaves(arm));
    if !open || i + 1 >= body.len() {
        return;
    }
    let rest: Vec<Stmt> = body.drain(i + 1..).collect();
    if let Some(Stmt::If { orelse, .. }) = body.last_mut() {
        *orelse = rest;
    }
}
