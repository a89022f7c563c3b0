//! Loop-body layouts (3.12+ mostly; some 3.10+) that decide how an `if` inside a loop reads back.
//!
//! 3.12+ conditional jumps go forward only, and the jump back that ends a loop body (it has no
//! line of its own) is copied into each place that goes there: a test that is false at the end of
//! a loop body jumps over its own copy. An explicit `continue` has a line: it stays one block that
//! every test going there jumps (or falls) to. So:
//!
//! ```text
//! if a and b:              a; POP_JUMP_IF_TRUE L1; JUMP_BACKWARD      (a copy per test)
//!     B                L1: b; POP_JUMP_IF_TRUE L2; JUMP_BACKWARD
//!                      L2: B
//!
//! if not a or not b:       a; POP_JUMP_IF_FALSE C                      (one shared block)
//!     continue             b; POP_JUMP_IF_TRUE L
//! B                     C: JUMP_BACKWARD
//!                       L: B
//! ```
//!
//! (3.11 lays out the shared `continue` the same way.) And a `break` whose loop exit the compiler
//! copied into it (a small `return x` after a `while True:` loop; 3.10+) is laid out right after
//! its test: `if c: break` then the rest of the body, not `if not c: <rest>` with the `break` after.

use super::{LoopCtx, Structurer};
use framejit_bytecode::PyVersion;

impl Structurer<'_> {
    /// A block that only jumps back to the loop's header and that several ways reach, one of them
    /// by a jump: an explicit `continue` statement, shared by the tests of one condition; or a
    /// `continue` that the jump's target shows (`Self::nop_continue`).
    fn shared_continue(&self, x: usize, ctx: &LoopCtx) -> bool {
        let preds = &self.cfg.blocks[x].preds;
        self.is_latch(x, ctx)
            && preds.len() >= 2
            && preds
                .iter()
                .any(|&p| self.succ(p, super::EdgeKind::Jump) == Some(x))
            // (or one jump written to a `while True:` loop's NOP header: `nop_header.rs`)
            || self.is_latch(x, ctx) && self.nop_continue(x, ctx)
    }

    /// 3.11+: the branch (true to `fall`, else to `taken`, or the other way) is
    /// `if <test to the latch>: continue` followed by the other arm, laid out right after the
    /// shared `continue` block. Which arm is the `continue` (true: `taken`). (3.11 jumps forward
    /// to that block from all but a lone test, which jumps back to the header itself; ≤3.10 jump
    /// back from every test.)
    pub(super) fn continue_then_rest(
        &self,
        fall: usize,
        taken: usize,
        lp: Option<&LoopCtx>,
    ) -> Option<bool> {
        let ctx = lp?;
        if self.code.version < PyVersion::V3_11 {
            return None;
        }
        if taken + 1 == fall && self.shared_continue(taken, ctx) {
            Some(true)
        } else if fall + 1 == taken && self.shared_continue(fall, ctx) {
            Some(false)
        } else {
            None
        }
    }

    /// 3.12 / 3.13 `if a not in b: continue` leading the rest of a loop body, the `continue` a
    /// lone copy of the jump back laid out right after the test (`fall`) and the rest right after
    /// it (`taken`). `if a in b: <rest>` compiles to the same layout, but through the `in` the
    /// other reading needs: the AST optimiser folds a `not` on an `in` / `is` comparison into its
    /// operator, so only `continue` keeps the operator the bytecode tests. `fall_test`: the test
    /// under which control falls into the `continue`.
    pub(super) fn continue_keeps_operator(
        &self,
        fall: usize,
        taken: usize,
        fall_test: &crate::ast::Expr,
        lp: Option<&LoopCtx>,
    ) -> bool {
        use crate::ast::{CmpOp, Expr};
        let Some(ctx) = lp else { return false };
        let in_or_is = matches!(fall_test, Expr::Compare { ops, .. }
            if matches!(ops.as_slice(), [CmpOp::In | CmpOp::NotIn | CmpOp::Is | CmpOp::IsNot]));
        self.code.version >= PyVersion::V3_12
            && super::cond_sense::folds_not()
            && in_or_is
            && !(super::cond_sense::none_jumps() && super::cond_sense::none_test(fall_test))
            && fall + 1 == taken
            && self.is_latch(fall, ctx)
            && self.cfg.blocks[fall].preds.len() == 1
    }

    /// 3.12+ `if a and b: B` ending a loop body: the condition's false target `taken` is one of the
    /// copies of the jump back (reached only by its test's fall-through), and another copy is laid
    /// out right before B (`fall`). The `if` ends at the copy: B is its body.
    pub(super) fn ends_body_over_copies(
        &self,
        fall: usize,
        taken: usize,
        lp: Option<&LoopCtx>,
    ) -> bool {
        let Some(ctx) = lp else { return false };
        if self.code.version < PyVersion::V3_12 || fall == 0 || fall - 1 == taken {
            return false;
        }
        let copy = |x: usize| self.is_latch(x, ctx) && self.cfg.blocks[x].preds.len() == 1;
        copy(taken) && copy(fall - 1)
    }

    /// 3.10+ `if c: break` in a loop whose exit the compiler copied into the `break`, laid out
    /// right after the test (`fall`): the loop's ways meet only at that exit, which is not where
    /// the `if` ends; its body is the `break` and the code after it is `taken`. (3.10 and 3.11
    /// copy a `return` after the loop into the `break` of `while True:`; ≤3.9 jump to it.)
    pub(super) fn break_then_rest(&self, fall: usize, taken: usize, lp: Option<&LoopCtx>) -> bool {
        let Some(ctx) = lp else { return false };
        self.code.version >= PyVersion::V3_10
            && fall < taken
            && ctx.exit == Some(fall)
            && ctx.cond.is_none()
            && self
                .loop_at(ctx.header)
                .is_some_and(|l| l.body.contains(&taken))
    }
}

impl Structurer<'_> {
    /// 3.12+: both arms of the branch ending block `b` go back to the loop's header (through
    /// their own copies of the jump back) and neither reaches the other: the `if` ends the loop
    /// body and the arm laid out second is its `else:` (`if c: A  elif d: B` as the body's last
    /// statement, B sometimes raising), not the code after `if c: A; continue`. The merge: the
    /// header.
    pub(super) fn arms_end_body(
        &self,
        b: usize,
        fall: usize,
        taken: usize,
        lp: Option<&LoopCtx>,
    ) -> Option<usize> {
        let ctx = lp?;
        if self.code.version < PyVersion::V3_12 || ctx.cond.is_some() {
            return None;
        }
        let walls = [Some(b), Some(ctx.header), ctx.exit];
        let (rf, rt) = (
            self.reach_within(fall, &walls),
            self.reach_within(taken, &walls),
        );
        let apart = !rf[taken] && !rt[fall];
        // (a jump straight to a jump back is an explicit `continue`, which has a line of its
        // own: `if c: A; continue` then B, A ending with `if d: raise`)
        let explicit =
            (0..rf.len()).any(|x| rf[x] && x != ctx.header && self.explicit_continue(x, ctx));
        (apart && !explicit && rf[ctx.header] && rt[ctx.header]).then_some(ctx.header)
    }
}

impl Structurer<'_> {
    /// 3.12+: are `x` and `y` copies of one small exit block (`return None`, `return v` of a
    /// constant or a variable), which the compiler writes into each jump to it? Tests that go to
    /// such copies go to the same place: `while a and b:` whose guard tests leave by two copies.
    /// (A copy starting with a line's NOP is a statement's, a `break` into the exit: not these.)
    pub(super) fn exit_copies(&self, x: usize, y: usize) -> bool {
        if self.code.version < PyVersion::V3_12 || x == y {
            return false;
        }
        let real = |b: usize| -> Vec<_> {
            self.instrs(b)
                .iter()
                .filter(|i| i.op.name != "NOT_TAKEN")
                .cloned()
                .collect()
        };
        let (a, b) = (real(x), real(y));
        // (`return None` the compiler wrote, with no line of its own: each copy has the line of
        // the test that goes there; a `return` statement has its own)
        let small_return = match a.as_slice() {
            [r] => r.op.name == "RETURN_CONST",
            [l, r] => r.op.name == "RETURN_VALUE" && l.op.name == "LOAD_CONST",
            _ => false,
        };
        let line_of_test = |b: usize| {
            let preds = &self.cfg.blocks[b].preds;
            // (3.14's NOT_TAKEN on the fall-through edge has the test's line, not the exit's)
            let first = self
                .instrs(b)
                .iter()
                .filter(|i| i.op.name != "NOT_TAKEN")
                .find_map(|i| i.loc.line);
            let test = preds
                .first()
                .and_then(|&p| self.instrs(p).iter().rev().find_map(|i| i.loc.line));
            preds.len() == 1 && first.is_some() && first == test
        };
        let leaves = |b: usize| {
            self.cfg.blocks[b]
                .succs
                .iter()
                .all(|e| e.kind == super::EdgeKind::Exception)
        };
        small_return
            && self.returns_none(&a)
            && line_of_test(x)
            && line_of_test(y)
            && a.len() == b.len()
            && a.iter().zip(&b).all(|(p, q)| super::same_code_instr(p, q))
            && leaves(x)
            && leaves(y)
            && self.cfg.blocks[x].handler == self.cfg.blocks[y].handler
            && self.entry_depth[x] == self.entry_depth[y]
    }
}

/// A single `in` / `not in` / `is` / `is not` comparison (CPython compiles `not (a in b)` as
/// `a not in b`), or one negated (`cond_sense`).
pub(super) fn is_in_or_is(e: &crate::ast::Expr) -> bool {
    use crate::ast::{CmpOp, Expr, UnaryOp};
    match e {
        Expr::UnaryOp {
            op: UnaryOp::Not,
            operand,
        } => matches!(&**operand, Expr::Compare { ops, .. }
            if ops.len() == 1 && matches!(ops[0], CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn)),
        Expr::Compare { ops, .. } => {
            ops.len() == 1 && matches!(ops[0], CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn)
        }
        _ => false,
    }
}

impl Structurer<'_> {
    /// 3.12+: is block `x`, a lone jump back to the loop's header, an explicit `continue` rather
    /// than a copy of the jump that ends the body? Copies are made one per jump to them (one
    /// predecessor, the line of the test that goes there); 3.12 lays each right after its test
    /// (no jump goes to it), 3.13+ may put it after the arm. A `continue` has a line of its own.
    fn explicit_continue(&self, x: usize, ctx: &LoopCtx) -> bool {
        if !self.is_latch(x, ctx) {
            return false;
        }
        let preds = &self.cfg.blocks[x].preds;
        let jumped: Vec<usize> = preds
            .iter()
            .copied()
            .filter(|&p| self.succ(p, super::EdgeKind::Jump) == Some(x))
            .collect();
        if preds.len() >= 2 {
            return !jumped.is_empty() || self.code.version >= PyVersion::V3_13;
        }
        let Some(&p) = jumped.first() else {
            return false;
        };
        if self.code.version < PyVersion::V3_13 {
            return true;
        }
        let line = |b: usize, last: bool| {
            let ins = self.instrs(b);
            let found = if last {
                ins.iter()
                    .rev()
                    .find(|i| i.loc.line.is_some())
                    .map(|i| i.loc.line)
            } else {
                ins.iter()
                    .find(|i| i.loc.line.is_some())
                    .map(|i| i.loc.line)
            };
            found.flatten()
        };
        matches!((line(x, false), line(p, true)), (Some(a), Some(b)) if a != b)
    }
}

impl Structurer<'_> {
    /// Do the instructions `ins` (`RETURN_CONST` or `LOAD_CONST; RETURN_VALUE`) return None?
    fn returns_none(&self, ins: &[&framejit_bytecode::Instr]) -> bool {
        let Some(first) = ins.first() else {
            return false;
        };
        let framejit_bytecode::Arg::Raw(k) = first.arg else {
            return false;
        };
        matches!(
            self.code.consts.get(k as usize),
            Some(crate::input::Const::Value(crate::ast::Constant::None))
        )
    }
}
