//! A `return` inside a `for` loop computes its value before it pops the loop's iterator (3.11+:
//! `SWAP 2; POP_TOP` / 3.14 `POP_ITER` under the value); only a constant is loaded after the pop
//! (3.12+ `RETURN_CONST`, 3.11 `LOAD_CONST` after the unwinding). A value computed after the
//! iterator was popped is code that runs once the loop is left: the code after the loop, which the
//! compiler placed right after a `break` (the break's only way on, often after a `finally:` body's
//! copy). Read as a `return` inside the loop it would run before that copy (a silent
//! miscompilation: `for ...: try: if c: break  finally: log.append(1)` then `return len(log)`),
//! so the structurer refuses such a block where it reads it as it is (no `break` taken apart from
//! it first): where the block ran statements (the copy) before the pop.

use super::Sim;
use crate::ast::Expr;
use crate::exprs::Val;

/// Code a block runs after it popped a loop's iterator, ending with `return` (`Sim::late_tail`).
#[derive(Clone, Debug)]
pub struct LateTail {
    /// Where in the block's statements that code starts (it runs to their end).
    pub start: usize,
    /// The stack's length after the pop: where the iterator was.
    pub iter_at: usize,
    /// What the loop iterates (its iterator's expression).
    pub iter: Expr,
}

impl Sim<'_> {
    /// A loop's iterator was popped: after statements of this block (the copy of a `finally:`
    /// body or a with statement's exit that a way out of the loop runs first), remember where.
    /// (A block that starts by popping it is a `break` with the code after the loop copied into
    /// it, which the structurer reads as one.)
    pub(super) fn popped_iter(&mut self, iter: Expr) {
        if self.first_iter_pop.is_none() {
            self.first_iter_pop = Some((self.out.len(), self.stack.len(), iter));
        }
        if !self.out.is_empty() {
            self.iter_popped = Some(self.stack.len());
        }
    }

    /// RETURN_VALUE: note a value other than a constant pushed after this block popped a loop's
    /// iterator (`late_return`).
    pub(super) fn return_after_pop(&mut self) {
        let Some(popped) = self.iter_popped else {
            return;
        };
        let late = self.stack.len() > popped;
        let constant = matches!(self.stack.last(), Some(Val::Expr(Expr::Constant { .. })));
        self.late_return |= late && !constant;
    }

    /// Did this block return a value computed after it popped a loop's iterator, with statements
    /// before the pop? Where the structurer keeps such a block as it reads (no `break` taken
    /// apart from it), it refuses.
    pub fn late_return(&self) -> bool {
        self.late_return
    }

    /// RETURN_VALUE / RETURN_CONST (`constant`: the value is a constant): where the block popped a
    /// loop's iterator and then made statements, or computed the value it returns (other than a
    /// constant, which a `return` inside the loop also loads after the pop), the code from the pop
    /// on is code that runs once the loop is left: a `return` inside the loop computes its value
    /// first and runs nothing between the pop and the return.
    pub(super) fn note_late_tail(&mut self, constant: bool) {
        let Some((start, iter_at, iter)) = self.first_iter_pop.clone() else {
            return;
        };
        let made = self.out.len() > start;
        let late = self.stack.len() > iter_at && !constant;
        if made || late {
            self.late_tail = Some(LateTail {
                start,
                iter_at,
                iter,
            });
        }
    }

    /// The code after this block's pop of a loop's iterator, ending in `return`, when it cannot be
    /// a `return` written inside the loop ([`Self::note_late_tail`]).
    pub fn late_tail(&self) -> Option<&LateTail> {
        self.late_tail.as_ref()
    }
}
