//! `while c:` loops (tested at the top and again at the bottom, 3.10+): `continue` jumps to the
//! test, and the bottom test goes back to the body's first block. Any other jump back to that block
//! is the jump back of a loop inside the body that starts there too (`while c: while True: ...`,
//! the inner loop's line a NOP that the outer test's jump passes, or not: pyrepl
//! `UnixConsole.get_event`). Read as one loop, that jump was `continue` of the outer one, which
//! tests `c` again where the inner loop goes straight on: refused.

use super::Structurer;
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// Does a block of `body` jump back to `header`, the first block of a `while c:` loop's body,
    /// other than the loop's bottom test (a conditional jump back, or the lone jump its false way
    /// falls into)?
    pub(super) fn untested_jump_back(&self, header: usize, body: &[usize]) -> bool {
        let cond_jump = |u: usize| {
            self.instrs(u)
                .iter()
                .rev()
                .find(|i| !matches!(i.op.name, "NOP" | "NOT_TAKEN"))
                .is_some_and(|i| {
                    i.op.name.starts_with("POP_JUMP") || i.op.name.starts_with("JUMP_IF")
                })
        };
        self.cfg.blocks[header].preds.iter().any(|&u| {
            if !body.contains(&u) || cond_jump(u) {
                return false;
            }
            let jumps_here = self.cfg.blocks[u]
                .succs
                .iter()
                .any(|e| e.to == header && e.kind == EdgeKind::Jump);
            let preds = &self.cfg.blocks[u].preds;
            let after_test = self
                .lone_instr(u)
                .is_some_and(|i| i.op.name.starts_with("JUMP"))
                && preds.len() == 1
                && cond_jump(preds[0]);
            jumps_here && !after_test
        })
    }
}
