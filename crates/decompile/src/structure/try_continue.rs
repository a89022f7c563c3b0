//! 3.10: a `continue` written last in a try body.
//!
//! 3.10 compiles `try: A; continue  except E: ...` (in a loop) as POP_BLOCK then the jump back
//! to the loop's header, the POP_BLOCK on the `continue` line. A try body that completes and
//! whose statement ends the loop body compiles to the same two instructions (3.10 threads the
//! jump to the end into the jump back), but there the POP_BLOCK keeps the line of the body's last
//! statement: no line of its own. Read as the body's normal end, the `continue` came out as the
//! statement's `else: continue` (another jump layout) where the clauses go on to more code, and
//! the statement found no end where that code had more statements (pstats `generic`).

use super::{LoopCtx, Structurer};
use crate::flow::EdgeKind;
use framejit_bytecode::PyVersion;

impl Structurer<'_> {
    /// 3.10: is `n`, where the last POP_BLOCK of the try body whose handler is `h` falls, a lone
    /// jump back to the header of the `for` loop `lp`, with that POP_BLOCK starting a
    /// line of its own (the `continue` statement's)? Then the body never completes: its way on
    /// is the `continue`.
    pub(super) fn continue_after_pop_block(
        &self,
        n: usize,
        h: usize,
        lp: Option<&LoopCtx>,
    ) -> bool {
        let Some(ctx) = lp else { return false };
        if self.code.version != PyVersion::V3_10 || n >= h {
            return false;
        }
        // (a `for` loop only: a `while` loop's `continue` goes to its top test, which the loop's
        // own structure reads otherwise; taken there, the body came out twice)
        let for_loop = self.instrs(ctx.header).first().map(|i| i.op.name) == Some("FOR_ITER");
        let back = for_loop
            && matches!(self.instrs(n)[..], [j] if j.op.name == "JUMP_ABSOLUTE")
            && self.succ(n, EdgeKind::Jump) == Some(ctx.header);
        if !back {
            return false;
        }
        // the POP_BLOCK block: the one block falling into `n`
        let [p] = self.cfg.blocks[n].preds[..] else {
            return false;
        };
        if self.succ(p, EdgeKind::Fall) != Some(n) {
            return false;
        }
        let ins = self.instrs(p);
        let Some((pop, before)) = ins.split_last() else {
            return false;
        };
        if pop.op.name != "POP_BLOCK" {
            return false;
        }
        // (the instruction before it: in the block, or the last of the block falling into it)
        let prev_line = match before.last() {
            Some(i) => i.loc.line,
            None => match self.cfg.blocks[p].preds[..] {
                [q] if self.succ(q, EdgeKind::Fall) == Some(p) => {
                    self.instrs(q).last().and_then(|i| i.loc.line)
                }
                _ => return false,
            },
        };
        pop.loc.line.is_some() && prev_line.is_some() && pop.loc.line != prev_line
    }
}
