//! 3.11+ `while True:` left by a `break` in an except clause and by a `break` of the body
//! (`while 1: try: c = f()  except E: break;  if c: break;  g(c)`): the body's `break` is a
//! jump to the code after the loop, at the end of a block laid out amid the loop's blocks (its
//! own, or the end of the arm it ends: `elif c: x = c; break`);
//! the except clause's `break` jumps there too, after its POP_EXCEPT (placed after the loop's
//! blocks: 3.12+ after the code's end). The natural loop does not hold the handler, so the one
//! edge out of the loop's blocks is the body's `break` block, which was taken for the code
//! after the loop: the except clause's jump then ended the try statement there, and the code
//! after the loop came out twice.

use super::Structurer;
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// The loop headed by `header` (blocks `body`) goes on at `exit`, one edge out of its
    /// blocks: where `exit` ends in a jump and is laid out before the end of the loop's blocks
    /// (no code after a loop is laid out before the loop's end: it is an arm of the body that
    /// ends in `break`, or the `break`'s lone jump), and the
    /// except clauses of the body's handlers leave the loop to that jump's target, the code
    /// after the loop is that target.
    pub(super) fn clause_break_exit(
        &self,
        header: usize,
        body: &[usize],
        exit: usize,
    ) -> Option<usize> {
        let last = body.iter().copied().max()?;
        let jump = self
            .instrs(exit)
            .last()
            .is_some_and(|i| matches!(i.op.name, "JUMP_FORWARD" | "JUMP_BACKWARD" | "JUMP"));
        if self.code.version < framejit_bytecode::PyVersion::V3_11 || exit >= last || !jump {
            return None;
        }
        let to = self.succ(exit, EdgeKind::Jump)?;
        (to != exit && !body.contains(&to) && self.handler_break_exit(header, body) == Some(to))
            .then_some(to)
    }
}
