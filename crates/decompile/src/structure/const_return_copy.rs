//! 3.11+ `return CONSTANT` out of `for` loops inside a try body with a `finally:`, through the
//! finally body's copy.
//!
//! The compiler pops the loops' iterators (POP_TOP, still in the try body's exception range:
//! the range ends there), then runs the copy of each `finally:` body it leaves (outside every
//! range of those statements), then loads the constant and returns. A `return` of any other value
//! computes it before the pops (`return_past_iter`); `legacy_try_end.rs`
//! `const_return_out_of_range` reads the pops followed by the constant alone. Here code comes
//! between: it is read as statements before the `return` inside the loop, behind a mark that the
//! enclosing try statement takes off with the finally body's copy it strips from before that
//! `return` (`strip_copies`). Code there that is no such copy keeps the mark, which refuses the
//! code object: read in the loop, it would run inside the try bodies' ranges, where in the
//! bytecode it runs outside them.

use super::Structurer;
use crate::ast::{Expr, Stmt};
use crate::exprs::Val;
use crate::flow::EdgeKind;
use framejit_bytecode::PyVersion;

/// The mark before the statements of such a way out, up to its `return`.
const COPY_DUE: &str = "\u{0}finally_copy_due";

/// The mark [`Structurer::const_return_through_copy`] puts before the way out's statements.
pub(super) fn mark() -> Stmt {
    Stmt::Expr {
        value: Expr::name(COPY_DUE),
    }
}

/// Is `s` that mark?
pub(super) fn is_mark(s: &Stmt) -> bool {
    matches!(s, Stmt::Expr { value: Expr::Name { id, .. } } if id == COPY_DUE)
}

impl Structurer<'_> {
    /// Block `b` popped iterators, the last values of `base` (`left` is what stays), and ends
    /// with that POP_TOP where its exception range ends; it falls into `next`, reached from `b`
    /// alone, under another handler, which runs straight code (no jumps) and returns a constant.
    /// `Some(next)`: go on there with `left`, after [`mark`].
    pub(super) fn const_return_through_copy(
        &self,
        b: usize,
        base: &[Val],
        left: &[Val],
        next: Option<usize>,
    ) -> Option<usize> {
        if self.code.version < PyVersion::V3_11 || self.legacy.is_some() {
            return None;
        }
        let n = next?;
        if self.instrs(b).last()?.op.name != "POP_TOP"
            || self.succ(b, EdgeKind::Fall) != Some(n)
            || self.cfg.blocks[n].preds != [b]
        {
            return None;
        }
        if !super::legacy_try_end::only_iters_popped(base, left) {
            return None;
        }
        let (hb, hn) = (self.cfg.blocks[b].handler, self.cfg.blocks[n].handler);
        if hb.is_none() || hb.map(|h| h.0) == hn.map(|h| h.0) {
            return None;
        }
        let ins = self.instrs(n);
        let names: Vec<&str> = ins.iter().map(|i| i.op.name).collect();
        let ret = match names.as_slice() {
            [.., "LOAD_CONST", "RETURN_VALUE"] => 2,
            [.., "RETURN_CONST"] => 1,
            _ => return None,
        };
        let straight = ins[..ins.len() - ret]
            .iter()
            .all(|i| !i.op.is_jump() && i.op.flow != framejit_bytecode::opcode::Flow::Exit);
        let leaves = self.cfg.blocks[n]
            .succs
            .iter()
            .all(|e| e.kind == EdgeKind::Exception);
        (ins.len() > ret && straight && leaves).then_some(n)
    }
}
