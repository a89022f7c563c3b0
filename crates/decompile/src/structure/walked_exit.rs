//! 3.14: a way out of a `while True:` loop that the body's last test jumps to, and that only
//! leaves (returns or raises), is either an `if c: <leave>` arm written in the body or the code
//! after the loop reached by `if c: break`. The instructions are the same; the borrowing analysis
//! (LOAD_FAST -> LOAD_FAST_BORROW) is not: a `break` that ends the body's last `if` leaves its
//! jump to the loop's end behind as an empty block (or one with only the `break` line's NOP), past
//! which the analysis never walks, so the code after the loop keeps its local loads plain; the
//! arm written in the body is the test's own jump target, walked, and borrows. So such a way out
//! whose first local load borrows is written in the body (a `break` that jumps from inside the
//! body, `if c: break` followed by more of the body, reaches walked code too: only a way out that
//! conditional jumps alone enter counts; and one that starts with a NOP, the line of a `break`
//! the test jumps to, `else: break`, is walked as well: not counted).

use super::Structurer;
use crate::flow::EdgeKind;
use framejit_bytecode::PyVersion;

impl Structurer<'_> {
    /// Is exit `x` of the loop headed by `header` (blocks `body`) an arm that leaves, written in
    /// the body, by the borrowing it shows (3.14)?
    pub(super) fn walked_exit_in_body(&self, header: usize, x: usize, body: &[usize]) -> bool {
        if self.code.version < PyVersion::V3_14 || self.legacy.is_some() {
            return false;
        }
        // (a `while True:` loop, whose header is the NOP of its line: a `while c:` loop's test,
        // `while a or b and c:` over several blocks, jumps to the code after the loop itself)
        // (a body of one block, the header, holds the test too: there the NOP's line is the
        // `while` line's, and the code after it is on lines of its own; weakref `popitem`)
        let hi = self.instrs(header);
        if hi.first().map(|i| i.op.name) != Some("NOP") {
            return false;
        }
        let one_block_body = match (hi.first(), hi.get(1)) {
            (Some(n), Some(next)) => {
                next.loc.line.is_some() && n.loc.line.is_some() && next.loc.line != n.loc.line
            }
            _ => false,
        };
        if !one_block_body && self.cfg.blocks[header].succs.iter().any(|e| e.to == x) {
            return false;
        }
        // entered only by conditional jumps from the body
        let preds = &self.cfg.blocks[x].preds;
        let conditional = |p: usize| {
            body.contains(&p)
                && self.cfg.blocks[p]
                    .succs
                    .iter()
                    .any(|e| e.to == x && e.kind == EdgeKind::Jump)
                && self
                    .instrs(p)
                    .last()
                    .is_some_and(|i| i.op.name.starts_with("POP_JUMP_IF_"))
        };
        if preds.is_empty() || !preds.iter().all(|&p| conditional(p)) {
            return false;
        }
        // it leaves, one way
        if !self.only_leaves(self.fall_chain_end(x)) {
            return false;
        }
        // (a `break` on a line of its own leaves its NOP at the start of the code it jumps to,
        // and where the test jumps there, that code is walked: `else: break` then `return`)
        if self.instrs(x).first().is_some_and(|i| i.op.name == "NOP") {
            return false;
        }
        // and its first local load borrows
        let first = self
            .fall_chain(x)
            .into_iter()
            .flat_map(|b| self.instrs(b).iter().copied().collect::<Vec<_>>())
            .find(|i| i.op.name.starts_with("LOAD_FAST"));
        first.is_some_and(|i| i.op.name.starts_with("LOAD_FAST_BORROW"))
    }
}
