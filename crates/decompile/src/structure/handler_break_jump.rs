//! 3.11+ `while True:` left by a `break` in an except clause and by a `break` of the body
//! (`while 1: try: c = f()  except E: break;  if c: break;  g(c)`): the body's `break` jumps to
//! the code after the loop from a block laid out amid the loop's blocks (its own jump, the end
//! of the arm it ends: `elif c: x = c; break`, or a test before it whose other arm raises:
//! `if not ok: raise E` then `break`); the except clause's `break` jumps there too, after its
//! POP_EXCEPT. The natural loop holds neither the handler nor the ways out, so the one edge out
//! of the loop's blocks was taken for the code after the loop: the except clause's jump then
//! ended the try statement there, and the code after the loop came out twice.

use super::Structurer;
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// The loop headed by `header` (blocks `body`) goes on at `exit`, one edge out of its
    /// blocks: where `exit` is laid out before the end of the loop's blocks (no code after a
    /// loop is laid out before the loop's end: it is an arm of the body that leaves, by `break`
    /// or by `raise` before it), the except clauses of the body's handlers leave the loop to one
    /// place laid out after the loop's blocks, and `exit` gets there (its `break`), the code
    /// after the loop is that place.
    pub(super) fn clause_break_exit(
        &self,
        header: usize,
        body: &[usize],
        exit: usize,
    ) -> Option<usize> {
        let last = body.iter().copied().max()?;
        if self.code.version < framejit_bytecode::PyVersion::V3_11 || exit >= last {
            return None;
        }
        let to = self.handler_break_exit(header, body)?;
        (to > last && self.leads_to(exit, to, body)).then_some(to)
    }

    /// Does control get from block `x` to block `to` without going through `body`'s blocks
    /// (exception edges aside)?
    fn leads_to(&self, x: usize, to: usize, body: &[usize]) -> bool {
        let mut seen = vec![x];
        let mut todo = vec![x];
        while let Some(b) = todo.pop() {
            if b == to {
                return true;
            }
            for e in &self.cfg.blocks[b].succs {
                if e.kind != EdgeKind::Exception && !body.contains(&e.to) && !seen.contains(&e.to) {
                    seen.push(e.to);
                    todo.push(e.to);
                }
            }
        }
        false
    }
}
