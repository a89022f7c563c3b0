//! `if c: break` in the middle of a loop body, the `break` a jump of its own to the loop's exit
//! (or a NOP of its line falling into it) laid out right after the test, the rest of the body at
//! the test's jump target:
//!
//! ```text
//! while a:
//!     A
//!     if c:
//!         break
//!     B
//! ```
//!
//! The branch's arms meet nowhere inside the loop; the whole graph's post-dominator is the loop's
//! exit, which read as the `if`'s end gave `if not c: B; continue` then `break` (the same, in
//! another layout). The arm laid out first (the `break`) is the `if`'s body, the code after it
//! starts at the other arm.

use super::{LoopCtx, Structurer};
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// Is `fall` only a `break` of loop `lp` (jumps or markers that lead to its exit, reached only
    /// from the branch ending block `b`), laid out before the branch's other arm `taken`, which
    /// stays in the loop? Then the `if` ends at `taken`.
    pub(super) fn break_laid_first(
        &self,
        b: usize,
        fall: usize,
        taken: usize,
        lp: Option<&LoopCtx>,
    ) -> bool {
        let Some(ctx) = lp else { return false };
        let Some(exit) = ctx.exit else { return false };
        if fall >= taken || fall == exit || Some(taken) == ctx.exit || taken == ctx.header {
            return false;
        }
        let only_jump = self.instrs(fall).iter().all(|i| {
            matches!(
                i.op.name,
                "NOP" | "NOT_TAKEN" | "JUMP_FORWARD" | "JUMP_BACKWARD" | "JUMP"
            )
        });
        let preds = &self.cfg.blocks[fall].preds;
        let in_loop = self
            .loop_at(ctx.header)
            .is_some_and(|l| l.body.contains(&taken));
        only_jump
            && preds.len() == 1
            && preds[0] == b
            && self.resolve_jumps(fall) == self.resolve_jumps(exit)
            && self.succ(fall, EdgeKind::Exception).is_none()
            && in_loop
    }
}

impl Structurer<'_> {
    /// 3.11+: is `fall` a `break` of the `for` loop `lp` inside a try body (the iterator's
    /// POP_TOP and a jump to the loop's exit, reached only from the branch ending block `b`),
    /// laid out before the branch's other arm `taken`, which stays in the loop? The arms meet
    /// nowhere but at the loop's exit; read as an `if` ending there, the other arm would run on
    /// past the end of the try body (3.11 jumps from there over the handler to the code after
    /// the statement), so the `if` ends at `taken`, as `if c: break` then the rest.
    pub(super) fn for_break_laid_first(
        &self,
        b: usize,
        fall: usize,
        taken: usize,
        lp: Option<&LoopCtx>,
    ) -> bool {
        let Some(ctx) = lp else { return false };
        let Some(exit) = ctx.exit else { return false };
        if self.try_body.is_empty()
            || self.code.version < framejit_bytecode::PyVersion::V3_11
            || fall >= taken
            || taken == ctx.header
            || Some(taken) == ctx.exit
            || self.instrs(ctx.header).first().map(|i| i.op.name) != Some("FOR_ITER")
        {
            return false;
        }
        let names: Vec<&str> = self
            .instrs(fall)
            .iter()
            .map(|i| i.op.name)
            .filter(|n| !matches!(*n, "NOP" | "NOT_TAKEN"))
            .collect();
        let pops_and_jumps = matches!(
            names.as_slice(),
            ["POP_TOP", "JUMP_FORWARD" | "JUMP_BACKWARD" | "JUMP"]
        );
        // (the POP_TOP pops the iterator: the block starts at the loop body's depth)
        let at_body_depth = matches!(
            (self.entry_depth[fall], self.entry_depth[ctx.header]),
            (Some(d), Some(h)) if d == h
        );
        let to_exit = self
            .succ(fall, EdgeKind::Jump)
            .is_some_and(|t| self.resolve_jumps(t) == self.resolve_jumps(exit));
        let preds = &self.cfg.blocks[fall].preds;
        let in_loop = self
            .loop_at(ctx.header)
            .is_some_and(|l| l.body.contains(&taken));
        pops_and_jumps && at_body_depth && to_exit && preds.len() == 1 && preds[0] == b && in_loop
    }
}
