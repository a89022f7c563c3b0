//! 3.12 / 3.13: which of a loop's ways out is the code after the loop.
//!
//! The compiler emits a loop's body, then the code after the loop; that order stays (only blocks
//! that exceptions alone reach move to the end). A `break` jumps to the code after the loop, and
//! 3.12+ copy that code into the `break` only where it is one block that leaves (returns or
//! raises) of at most four instructions (MAX_COPY_SIZE), or (rarely) an exit block without a
//! line number of its own, compiler-made code such as the implicit `return None`. So a way out
//! laid out before the loop's last block, that is one block that returns and holds more than four
//! instructions, was written in the body (`if c: x = 1; return y` inside `while True:`), and is
//! not where `break` goes. (Either reading runs the same code on each way out; the layout is
//! what tells them apart.)

use super::Structurer;
use crate::flow::EdgeKind;
use framejit_bytecode::PyVersion;

impl Structurer<'_> {
    /// Is exit `x` of the loop whose blocks are `body` code written in the body (3.12+), not the
    /// code after the loop or a copy of it?
    pub(super) fn exit_written_in_body(&self, x: usize, body: &[usize]) -> bool {
        // (3.14 tests a `while` at its top and lays its exits out otherwise: not there)
        if !(PyVersion::V3_12..=PyVersion::V3_13).contains(&self.code.version) {
            return false;
        }
        // (the loop's last block among those reached without exceptions: the handlers in the
        // body, with their jumps back, lie after all the others)
        let warm = self.warm_blocks();
        let last = body
            .iter()
            .copied()
            .filter(|&b| warm.get(b).copied().unwrap_or(false))
            .max();
        if last.is_none_or(|last| x > last) {
            return false;
        }
        // one block that leaves by returning (a `raise` is left to the general choice, as
        // `return_in_body` leaves it for 3.10 / 3.11)
        if !self.only_leaves(x) {
            return false;
        }
        let returns = self
            .instrs(x)
            .iter()
            .rev()
            .find(|i| !matches!(i.op.name, "NOP" | "NOT_TAKEN"))
            .is_some_and(|i| matches!(i.op.name, "RETURN_VALUE" | "RETURN_CONST"));
        if !returns {
            return false;
        }
        let real = self
            .instrs(x)
            .iter()
            .filter(|i| !matches!(i.op.name, "NOP" | "NOT_TAKEN" | "EXTENDED_ARG" | "CACHE"))
            .count();
        real > 4
    }

    /// Blocks reached from the entry block without exception edges (the compiler's "warm"
    /// ones, laid out before every handler).
    fn warm_blocks(&self) -> Vec<bool> {
        let n = self.cfg.blocks.len();
        let mut seen = vec![false; n];
        let mut todo = vec![0usize];
        while let Some(b) = todo.pop() {
            if b >= n || std::mem::replace(&mut seen[b], true) {
                continue;
            }
            todo.extend(
                self.cfg.blocks[b]
                    .succs
                    .iter()
                    .filter(|e| e.kind != EdgeKind::Exception)
                    .map(|e| e.to),
            );
        }
        seen
    }
}

impl Structurer<'_> {
    /// ≤3.9: is exit `x` of the loop whose blocks are `body` a `return` written in the body? The
    /// compiler leaves a loop by a jump only (`break` is a JUMP_ABSOLUTE, a `while c:` test jumps
    /// past the body, whose last instruction jumps back) and copies no code after a loop, so a
    /// block that every way in reaches by falling through from the body (a conditional jump's
    /// other arm) and that returns is a statement of the body, not where `break` goes.
    pub(super) fn legacy_fall_return(&self, x: usize, body: &[usize]) -> bool {
        if self.legacy.is_none() || self.code.version > PyVersion::V3_9 {
            return false;
        }
        let preds = &self.cfg.blocks[x].preds;
        let fallen_into = !preds.is_empty()
            && preds.iter().all(|&p| {
                body.contains(&p)
                    && self.cfg.blocks[p]
                        .succs
                        .iter()
                        .filter(|e| e.to == x)
                        .all(|e| e.kind == EdgeKind::Fall)
            });
        if !fallen_into {
            return false;
        }
        let end = self.fall_chain_end(x);
        self.only_leaves(end)
            && self
                .instrs(end)
                .iter()
                .rev()
                .find(|i| i.op.name != "NOP")
                .is_some_and(|i| i.op.name == "RETURN_VALUE")
    }
}
