//! ≤3.10: a `for` loop's `break` whose jump the compiler threaded past the loop's exit.
//!
//! Where the block FOR_ITER leaves for when the iterator is exhausted is nothing but an
//! unconditional jump (the loop ends an `if` arm that has an `else:` part, or ends a finally body
//! whose normal copy jumps past the handler's copy), the compiler's jump threading sends a `break`
//! (POP_TOP of the iterator, then a jump to that exit) on to where the exit jumps, or to a block on
//! the way there that is itself one jump (threading takes one step per jump: a `break` at the end
//! of an `if` arm nested in an outer loop's body goes to the outer `if`'s closing jump back). The
//! blocks between have no code of their own, so popping the iterator and jumping there runs what
//! popping it and going through the exit runs: such a way out is a `break`.

use super::{LoopCtx, Structurer};

impl Structurer<'_> {
    /// Is a way out of `c`'s `for` loop to block `n` a `break` threaded past the loop's exit, a
    /// block of one unconditional jump (≤3.10)? `n` is where the exit's jumps lead, or a block of
    /// one unconditional jump leading to the same place.
    pub(super) fn legacy_threaded_break(&self, n: usize, c: &LoopCtx) -> bool {
        if self.legacy.is_none() {
            return false;
        }
        let Some(e) = c.exit else {
            return false;
        };
        let one_jump = |x: usize| {
            self.lone_instr(x)
                .is_some_and(|i| matches!(i.op.name, "JUMP_FORWARD" | "JUMP_ABSOLUTE"))
        };
        if n == e || n == c.header || !one_jump(e) {
            return false;
        }
        let to = self.resolve_jumps(e);
        to != c.header && (n == to || one_jump(n) && self.resolve_jumps(n) == to)
    }
}
