//! 3.12+ `break` out of a `for` loop whose way out runs code first: the copy of a `finally:` body
//! the break leaves (or the statements before the break in the same block), then the pop of the
//! loop's iterator, then the code after the loop, which the compiler copies into the break (a
//! small exit block) or places there (the break is its only way in). That block reads as the
//! statements, `break`, and the code after the loop: read as a `return` after the statements, the
//! returned value would be computed before a `finally:` body's copy that it runs after
//! (`finally: log = log + ["f"]`, then `return log` after the loop).

use super::{LoopCtx, Structurer};
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// Where in block `b` (that leaves the code) a `break` of the `for` loop `lp` pops the
    /// iterator before running a copy of the loop's exit: the code before that POP_TOP /
    /// POP_ITER, with the iterator on top of the loop body's stack, ends by `break`; the code
    /// after it is the exit's (past the exit's own pops of a loop that ran out). `None` where the
    /// block is no such way out.
    pub(super) fn popped_break_copy(&self, b: usize, lp: Option<&LoopCtx>) -> Option<usize> {
        let ctx = lp?;
        let exit = ctx.exit?;
        if self.code.version < framejit_bytecode::PyVersion::V3_12
            || self.instrs(ctx.header).first().map(|i| i.op.name) != Some("FOR_ITER")
            || b == exit
        {
            return None;
        }
        let leaves = |x: usize| {
            self.cfg.blocks[x]
                .succs
                .iter()
                .all(|e| e.kind == EdgeKind::Exception)
        };
        if !leaves(b) || !leaves(exit) {
            return None;
        }
        // (the block starts at the loop body's depth: the iterator on top)
        let (Some(d0), Some(dh)) = (self.entry_depth[b], self.entry_depth[ctx.header]) else {
            return None;
        };
        if d0 != dh {
            return None;
        }
        let ins = self.instrs(b);
        let xi = self.instrs(exit);
        // the exit's code after the pops of a loop that ran out
        let own_pops = match xi.first() {
            Some(i) if i.op.name == "END_FOR" => xi
                .iter()
                .take_while(|i| matches!(i.op.name, "END_FOR" | "POP_TOP" | "POP_ITER"))
                .count(),
            _ => 0,
        };
        let code = &xi[own_pops..];
        if code.is_empty() {
            return None;
        }
        let mut depth = i64::from(d0);
        for (k, i) in ins.iter().enumerate() {
            // (nothing below the iterator is popped on the way)
            if depth < i64::from(dh) {
                return None;
            }
            if depth == i64::from(dh) && matches!(i.op.name, "POP_TOP" | "POP_ITER") {
                let tail = &ins[k + 1..];
                let copied = tail.len() == code.len()
                    && tail
                        .iter()
                        .zip(code)
                        .all(|(x, y)| super::same_code_instr(x, y));
                return copied.then_some(k);
            }
            depth += i64::from(i.op.stack_effect(i.raw_arg(), Some(false)));
        }
        None
    }
}
