//! A chained comparison as the test of a conditional expression, `x if a < b < c else y`: the
//! compiler tests `a < b` keeping `b`, jumps on false to a cleanup block that pops `b` and goes to
//! the `else` arm, and goes on with `b < c` when true. 3.11 lays out both arms up to one merge
//! that carries the value (3.12+ and ≤3.10 copy a `return` after it into each arm, an `if`
//! statement, which the condition structuring reads already). The comparison is read as a
//! condition ([`Structurer::chain_cond`]), grown by the tests after it (`and c2`), and its two arms
//! as values up to the merge.

use super::{Structurer, Val};
use crate::ast::Expr;
use crate::error::DecompileError;
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// Block `b` ends a chained comparison's first test (`test`, with the middle operand kept on
    /// `left`) whose arms merge with a value on the stack: the merge's stack and where it is.
    /// `None` where the arms do not merge deeper (a statement's condition).
    pub(super) fn chain_ifexp(
        &mut self,
        b: usize,
        test: &Expr,
        left: &[Val],
    ) -> Result<Option<(Vec<Val>, usize)>, DecompileError> {
        let Some(under) = left.len().checked_sub(1) else {
            return Ok(None);
        };
        if !self.merges_deeper(b, under) {
            return Ok(None);
        }
        let Some(merge) = self.ipdom[b] else {
            return Ok(None);
        };
        let under = left[..under].to_vec();
        // (where it is not of this shape, the statement's reading goes on as before)
        let saved = (self.visits.clone(), self.emitted.clone(), self.work);
        let arms = self.chain_arms(b, test, left, under, merge);
        if arms.is_err() {
            (self.visits, self.emitted, self.work) = saved;
            return Ok(None);
        }
        arms.map(Some)
    }

    /// [`Self::chain_ifexp`]'s reading: the comparison as a condition, its arms as values up to
    /// `merge` on the stack `under`.
    fn chain_arms(
        &mut self,
        b: usize,
        test: &Expr,
        left: &[Val],
        under: Vec<Val>,
        merge: usize,
    ) -> Result<(Vec<Val>, usize), DecompileError> {
        let mut cond = self.chain_cond(b, test.clone(), left.to_vec(), &under)?;
        // (the last comparison, when true, jumps over the cleanup: a block that only jumps, which
        // the tests after it (`and c2`) are folded through)
        let over = cond.fall;
        let only_jump = self
            .lone_instr(over)
            .is_some_and(|i| matches!(i.op.name, "JUMP_FORWARD" | "JUMP"));
        if only_jump
            && !self.emitted[over]
            && self.cfg.blocks[over]
                .preds
                .iter()
                .all(|p| cond.members.contains(p))
        {
            if let Some(to) = self.succ(over, EdgeKind::Jump) {
                self.emitted[over] = true;
                cond.members.push(over);
                cond.fall = to;
            }
        }
        let (test, jump_if, fall, taken) = self.compound_test(
            cond.members,
            &under,
            cond.test,
            cond.jump_if,
            cond.fall,
            cond.taken,
            None,
        );
        self.expr_arms(test, jump_if, false, false, (fall, taken), under, merge)
    }
}
