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
}
