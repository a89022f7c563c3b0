//! 3.8 / 3.9: a loop body whose last statement ends with an explicit `continue`.
//!
//! The compiler ends every loop body with a jump back to the header, and the peephole optimizer
//! drops dead code only after a `return`: where the body's last statement ends with `continue`
//! (`else: del x; continue`), that `continue`'s JUMP_ABSOLUTE is followed by the body's own
//! closing JUMP_ABSOLUTE, which nothing reaches (the jumps past the statement's other arms are
//! threaded straight to the header). Without the `continue` the closing jump is the arm's way
//! back, and there is one jump fewer. Both run the same.

use super::{LoopCtx, Structurer};
use crate::ast::Stmt;
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// The loop at `ctx.header` ends with its closing jump back to the header unreachable, right
    /// after a reached block that jumps there too, and laid out last in the loop (what follows is
    /// not in the body: a jump past an `else:` threaded to the header would have the `else:` part
    /// after it).
    pub(super) fn legacy_dead_latch(&self, ctx: &LoopCtx) -> bool {
        if self.code.version > framejit_bytecode::PyVersion::V3_9 {
            return false;
        }
        let Some(lp) = self.loop_at(ctx.header) else {
            return false;
        };
        let Some(&last) = lp.body.iter().max() else {
            return false;
        };
        let dead = last + 1;
        if dead >= self.cfg.blocks.len()
            || !self.cfg.blocks[dead].preds.is_empty()
            || self.cfg.blocks[last].preds.is_empty()
            || Some(dead) == ctx.exit
        {
            return false;
        }
        let to_header = |x: usize| {
            self.instrs(x)
                .last()
                .is_some_and(|i| i.op.name == "JUMP_ABSOLUTE")
                && self.succ(x, EdgeKind::Jump) == Some(ctx.header)
        };
        let lone = self.instrs(dead).len() == 1;
        lone && to_header(dead) && to_header(last)
    }
}

/// Give back the `continue` that `strip_tail_continue` took from the end of the last arm laid out
/// in a loop body (see [`Structurer::legacy_dead_latch`]): the body's last plain statement, or the
/// end of the final `if`'s `else:` / `elif` chain (of its body, where it has no `else:`: the closing
/// jump being dead, the test's jump past the body went straight to the header). A compound
/// statement of another kind last: left as it is.
pub(super) fn restore_last_continue(stmts: &mut Vec<Stmt>) {
    if matches!(stmts[..], [Stmt::Pass]) {
        stmts[0] = Stmt::Continue;
        return;
    }
    match stmts.last_mut() {
        None | Some(Stmt::Continue) => {}
        Some(Stmt::If { orelse, .. }) if !orelse.is_empty() => restore_last_continue(orelse),
        // (its test's jump past the body threaded to the header: the body is laid out last)
        Some(Stmt::If { body, .. }) => restore_last_continue(body),
        Some(
            Stmt::For { .. }
            | Stmt::While { .. }
            | Stmt::Try { .. }
            | Stmt::TryStar { .. }
            | Stmt::With { .. }
            | Stmt::AsyncWith { .. }
            | Stmt::AsyncFor { .. }
            | Stmt::Match { .. }
            | Stmt::Return { .. }
            | Stmt::Raise { .. }
            | Stmt::Break,
        ) => {}
        Some(_) => stmts.push(Stmt::Continue),
    }
}
