//! ≤3.9: the `else:` part of a try/except whose body never completes.
//!
//! `try: raise E  except T: ...  else: S` (the body ends by raising or returning on every way):
//! 3.8 / 3.9 still write the body's normal way out after its last statement, POP_BLOCK and a
//! jump to the `else:` part, which nothing reaches, and lay the `else:` part out after the
//! handler, before the statement's end where the clauses go. The structurer found no normal way
//! out of the body and dropped S, dead code but the source's own. The dead jump names where the
//! `else:` starts: when nothing else goes there, and the clauses' ways out (live, or the dead
//! ones 3.9 writes after a clause that left) all go further on, to the statement's end, S is
//! read from there to that end. Without an `else:` the dead jump goes where the clauses go.

use super::{LoopCtx, Structurer};
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// The block where the `else:` part of the try/except whose handler is `h` starts, when its
    /// body never completes: block `h - 1` a lone JUMP_FORWARD reached only from `h - 2`, a lone
    /// POP_BLOCK nothing reaches, the jump going past the handler to a block only it goes to,
    /// laid out before every place the clauses go on to.
    pub(super) fn legacy_dead_else(&self, h: usize, lp: Option<&LoopCtx>) -> Option<usize> {
        if self.code.version > framejit_bytecode::PyVersion::V3_9 || h < 3 {
            return None;
        }
        let alone = |x: usize, op: &str| matches!(self.instrs(x)[..], [i] if i.op.name == op);
        let jump = h - 1;
        let pop = h - 2;
        if !alone(jump, "JUMP_FORWARD")
            || !alone(pop, "POP_BLOCK")
            || !self.cfg.blocks[pop].preds.is_empty()
            || self.cfg.blocks[jump].preds.iter().any(|&p| p != pop)
        {
            return None;
        }
        // (the body's last statement leaves: a raise or a return ends the block before)
        let leaves = self
            .instrs(h - 3)
            .last()
            .is_some_and(|i| matches!(i.op.name, "RAISE_VARARGS" | "RERAISE" | "RETURN_VALUE"));
        let to = self.succ(jump, EdgeKind::Jump)?;
        if !leaves || to <= h || self.cfg.blocks[to].preds != [jump] {
            return None;
        }
        let mut ends = self.clause_exits(h, lp);
        ends.extend(self.legacy_dead_clause_exits(h, lp));
        (!ends.is_empty() && ends.iter().all(|&e| e > to)).then_some(to)
    }
}
