//! 3.14: a `break` that keeps its line as a NOP block falling into the code after the loop.
//!
//! Where a loop is the last statement of a try body, its `break`s go on to the code after the try
//! statement, outside every handler's range. 3.14 keeps the line of a `break` written as an
//! `else:` arm as a NOP that falls into that code, while the other `break`s jump there. The way
//! out that `exit_in_body::try_leaving_exit` finds (the one whose fall-through reaches code no
//! handler covers) is then that NOP block; the code it falls into, where another way out of the
//! loop jumps straight to it, is the place every way out goes: the loop's exit, and the NOP a
//! `break` into it.

use super::Structurer;

/// Where way out `x` of a loop (ways out `exits`) is a block of NOPs (and NOT_TAKEN) falling into
/// a block `z` that another of `exits` leads to by jumps alone: `z`.
pub(super) fn past_break_nop(s: &Structurer<'_>, x: usize, exits: &[usize]) -> Option<usize> {
    if s.code.version < framejit_bytecode::PyVersion::V3_14 {
        return None;
    }
    let only_marks = s
        .instrs(x)
        .iter()
        .all(|i| matches!(i.op.name, "NOP" | "NOT_TAKEN"));
    if !only_marks {
        return None;
    }
    let z = s.only_fall(x)?;
    exits
        .iter()
        .any(|&y| y != x && y != z && s.resolve_jumps(y) == z)
        .then_some(z)
}
