//! 3.10: `break` out of a try body inside a `while` loop, whose way on is a copy of the code
//! after the loop.
//!
//! 3.10 copies a small block that leaves (the code after the loop, `return log, i`: at most four
//! instructions ending in RETURN_VALUE) into every jump to it. A `break` in a try body pops the
//! try's block (POP_BLOCK, on the `break`'s line) and jumps to the loop's exit: that jump becomes
//! the copy, laid out right after the POP_BLOCK, outside the protected range. A `return v` written
//! in the try body computes v *before* its POP_BLOCK (inside the range, where the clauses catch
//! what it raises); code computed after the POP_BLOCK that returns is no `return` of the body.
//! Nor is it the body's normal end (that is the range's last POP_BLOCK, which goes on to the code
//! after the try statement). So a block the try body reaches right after a POP_BLOCK of its own
//! range, outside it, with the same instructions as the loop's exit (both leaving), where the loop
//! holds the whole try statement, is the `break` (the exit's code is the code after the loop).

use super::{LoopCtx, Structurer};
use crate::flow::EdgeKind;
use framejit_bytecode::PyVersion;

impl Structurer<'_> {
    /// Is `b`, reached in the body of the innermost ≤3.10 try statement, a `break` of loop `lp`
    /// whose copy of the loop's exit follows the body's POP_BLOCK (see the module's comment)?
    pub(super) fn legacy_try_break_copy(&self, b: usize, lp: Option<&LoopCtx>) -> bool {
        let (Some(_), Some(&(h, _)), Some(ctx)) = (&self.legacy, self.try_body.last(), lp) else {
            return false;
        };
        let Some(exit) = ctx.exit else {
            return false;
        };
        if self.code.version != PyVersion::V3_10
            || b == exit
            || !super::legacy_copy_flow::in_exit_copy(self, b, h)
            || !super::legacy_copy_flow::in_exit_copy(self, ctx.header, h)
            || !self.only_leaves(b)
            || !self.only_leaves(exit)
        {
            return false;
        }
        // (reached only from the range's POP_BLOCKs, falling in)
        let preds = &self.cfg.blocks[b].preds;
        let popped = !preds.is_empty()
            && preds.iter().all(|&p| {
                self.cfg.blocks[p].handler.map(|x| x.0) == Some(h)
                    && self
                        .instrs(p)
                        .last()
                        .is_some_and(|i| i.op.name == "POP_BLOCK")
                    && self.cfg.blocks[p]
                        .succs
                        .iter()
                        .any(|e| e.to == b && e.kind == EdgeKind::Fall)
            });
        let (ins, xi) = (self.instrs(b), self.instrs(exit));
        popped
            && !xi.is_empty()
            && xi.len() <= 4
            && ins.len() == xi.len()
            && xi.last().is_some_and(|i| i.op.name == "RETURN_VALUE")
            && ins
                .iter()
                .zip(&xi)
                .all(|(x, y)| super::same_code_instr(x, y))
    }
}
