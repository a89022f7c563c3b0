//! 3.10: a `break` whose way on is a copy of the code after the loop, kept apart from a `return`
//! written in the loop's body by the `break` line's NOP.
//!
//! 3.10 copies a small block that leaves (at most four instructions ending in RETURN_VALUE: the
//! code after the loop, `return i`) into every jump to it. A `break` jumping there becomes its
//! line's NOP (the jump's line, which no other instruction keeps) followed by the copy, which
//! keeps the lines of the code after the loop. A `return i` written in the body is the same
//! instructions without that NOP (its own line starts at its first instruction). The two behave
//! the same, but where another jump lands on the block (`if a or b: break`, the first test
//! jumping straight to the arm), it lands on the NOP: read as `return i`, the recompiled jump
//! lands on the load after it. So a way out of a loop laid out among the body's blocks that starts
//! with a NOP on a line of its own, followed by at most four instructions that return, is the
//! `break` with its copy: the loop's exit, not a `return` written in the body
//! ([`Structurer::return_in_body`] keeps it).

use super::Structurer;
use framejit_bytecode::PyVersion;

impl Structurer<'_> {
    /// 3.10: does way out `x` start with a `break` line's NOP followed by a copied exit (at most
    /// four instructions ending in RETURN_VALUE, on other lines than the NOP's, in `x` alone)?
    pub(super) fn break_line_copy(&self, x: usize) -> bool {
        if self.code.version != PyVersion::V3_10 || !self.only_leaves(x) {
            return false;
        }
        let instrs = self.instrs(x);
        let Some((nop, rest)) = instrs.split_first() else {
            return false;
        };
        if nop.op.name != "NOP" || rest.is_empty() || rest.len() > 4 {
            return false;
        }
        let own_line = nop.loc.line.is_some() && rest.iter().all(|i| i.loc.line != nop.loc.line);
        own_line
            && rest.iter().all(|i| i.op.name != "NOP")
            && rest.last().is_some_and(|i| i.op.name == "RETURN_VALUE")
    }
}
