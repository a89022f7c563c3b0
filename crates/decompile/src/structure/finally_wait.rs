//! A value computed in a try body that waits on the stack while the finally body's copy runs:
//! `try: ... return x  finally: if c: f()` compiles the normal path's `return` as the value
//! loaded (inside the try's range), the finally body's statements copied after the range, then
//! RETURN_VALUE. Where that copy has control flow of its own, its branches run with the value
//! under them. The branch is structured as a statement with the waiting values as its base (the
//! arms neither read nor pop them), and they go on to the merge; the `return` after the copy is
//! then the try body's exit, whose copy `strip_copies` checks and drops (or the code object is
//! refused: "an exit from a try body without the finally body's copy").

use super::Structurer;
use crate::exprs::Val;

impl Structurer<'_> {
    /// The values above `base` in `left` when they may wait under a statement-level branch: a
    /// try body is being structured (where the copy after its range runs), and each is a value
    /// (no marker, iterator or NULL). None otherwise. ≤3.9 `return x` in a `for` body pops the
    /// loop's iterator from under `x` first (ROT_TWO; POP_TOP): the value then waits where the
    /// iterator was, and the values from the first popped iterator up wait.
    pub(super) fn waits_through(&self, base: &[Val], left: &[Val]) -> Option<Vec<Val>> {
        let from = popped_iters(base, left).unwrap_or(base.len());
        let waiting = left.get(from..)?;
        let values = waiting.iter().all(|v| matches!(v, Val::Expr(_)));
        (!waiting.is_empty() && values && !self.try_body.is_empty()).then(|| waiting.to_vec())
    }
}

/// Where `left` differs from `base` by the loop iterators at the top of `base` being gone (popped
/// by a way out of the loops, ≤3.9 `return x` pops them from under `x`): the position of the first
/// of them. None where `base` is kept below `left`'s values, or differs otherwise.
pub(super) fn popped_iters(base: &[Val], left: &[Val]) -> Option<usize> {
    let kept = base.iter().zip(left).take_while(|(a, b)| a == b).count();
    let gone = &base[kept..];
    (!gone.is_empty() && gone.iter().all(|v| matches!(v, Val::Iter(_)))).then_some(kept)
}
