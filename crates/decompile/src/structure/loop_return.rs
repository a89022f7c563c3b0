//! A `return` written inside a `while` loop whose test leaves for an enclosing loop's header.
//!
//! A loop tested at its top (≤3.9, 3.14+) that ends the body of an enclosing loop has its
//! test's false arm threaded straight to the enclosing loop's header (`for x in xs: while c:
//! ...`). Read alone, that arm looks like `else: continue`, and any other way out of the loop
//! like a `break` past it, and the structurer cannot place that `continue` inside the loop.
//! Where that way out returns, it is read as the `return` written in the body: the compiler
//! gives `while c: ... return v` the same code as `while c: ... break  else: continue` followed
//! by `return v` (a `for` loop's iterator popped first either way).

use super::Structurer;
use framejit_bytecode::PyVersion;

impl Structurer<'_> {
    /// Is `t`, proposed as where `break` goes past an `else:` part starting at `exit` (the test
    /// arm of the top-tested loop headed by `header`, whose blocks are `body`), a `return` written
    /// in the body instead? The test leaves backwards (to an enclosing loop's header), and `t`
    /// runs on, one way, into a block that returns.
    pub(super) fn return_inside_top_loop(
        &self,
        header: usize,
        exit: usize,
        t: usize,
        body: &[usize],
    ) -> bool {
        let version = self.code.version;
        if version > PyVersion::V3_9 && version < PyVersion::V3_14 {
            return false;
        }
        if self.resolve_jumps(exit) >= header || body.contains(&t) {
            return false;
        }
        let end = self.fall_chain_end(t);
        self.only_leaves(end)
            && self
                .instrs(end)
                .last()
                .is_some_and(|i| matches!(i.op.name, "RETURN_VALUE" | "RETURN_CONST"))
    }
}
