//! 3.11+: the code a try statement's body holds lies in its handler's range. The compiler covers
//! every instruction of the body with the handler, and leaves uncovered only what follows the
//! body's way out (after its POP_BLOCK: the jumps of `break` / `continue`, the RETURN of a
//! `return`, whose value is computed inside) and the copies of a `finally:` body made for those
//! ways out. A reading that put other uncovered code in the body (code after the statement that
//! a `break` leads to, taken for an arm of an `if` inside a loop in the body) would, compiled
//! again, catch the exceptions of that code: a silent miscompilation. Such a reading is refused.

use super::Structurer;

/// Instructions that raise nothing: what the compiler may leave outside the handler's range
/// after a way out of the body.
fn raises_nothing(name: &str) -> bool {
    matches!(
        name,
        "NOP"
            | "NOT_TAKEN"
            | "RESUME"
            | "CACHE"
            | "EXTENDED_ARG"
            | "JUMP"
            | "JUMP_FORWARD"
            | "JUMP_BACKWARD"
            | "JUMP_BACKWARD_NO_INTERRUPT"
            | "JUMP_NO_INTERRUPT"
            | "RETURN_VALUE"
            | "RETURN_CONST"
            | "LOAD_CONST"
            | "LOAD_SMALL_INT"
            | "POP_TOP"
            | "POP_ITER"
            | "END_FOR"
            | "COPY"
            | "SWAP"
            | "PUSH_NULL"
    )
}

impl Structurer<'_> {
    /// Of the blocks structured since `before` (the visit counts then), the first one outside the
    /// range of handler `h` holding code that can raise; `None` where there is none (or before
    /// 3.11, whose block setups say where a body ends otherwise).
    pub(super) fn uncovered_body_code(&self, before: &[u32], h: usize) -> Option<usize> {
        if self.legacy.is_some() {
            return None;
        }
        (0..self.visits.len()).find(|&b| {
            self.visits[b] > before.get(b).copied().unwrap_or(0)
                && !self.covered_by(b, h)
                && self.instrs(b).iter().any(|i| !raises_nothing(i.op.name))
        })
    }
}
