//! 3.12+: which of a loop's ways out is the code after the loop.
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
use framejit_bytecode::PyVersion;

impl Structurer<'_> {
    /// Is exit `x` of the loop whose blocks are `body` code written in the body (3.12+), not the
    /// code after the loop or a copy of it?
    pub(super) fn exit_written_in_body(&self, x: usize, body: &[usize]) -> bool {
        if self.code.version < PyVersion::V3_12 {
            return false;
        }
        if body.iter().max().is_none_or(|&last| x > last) {
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
}
