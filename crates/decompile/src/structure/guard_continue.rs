//! `continue` from an except clause of a try statement in a `while c:` loop compiled as a guard
//! and a bottom test (3.10-3.13).
//!
//! A `continue` jumps back to the guard's test, which makes the guard a loop header of its own
//! (see `loop_exits.rs`). The guard is read as the `while` only where every jump back to it is
//! reached from the inner loop's header; an except clause is reached from the try body only
//! through the exception edge, which [`Structurer::reach_within`] does not follow. Here it is
//! followed into a handler whose whole protected range lies in the inner loop: the clause is then
//! part of that loop's body, and its jump back to the guard a `continue` of it. (A handler that
//! also covers the guard, as a try around the whole `while` in an enclosing loop, is not; nor
//! one whose clauses also go back into the loop, to its bottom test, a shape the reading
//! without the guard already handles.)

use super::Structurer;
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// The blocks reached from `start` without passing `wall`, following exception edges into
    /// the handlers whose protected blocks all lie in `inner` (a loop's blocks, sorted).
    pub(super) fn reach_through_inner_handlers(
        &self,
        start: usize,
        wall: usize,
        inner: &[usize],
    ) -> Vec<bool> {
        let n = self.cfg.blocks.len();
        let inside = |h: usize| {
            self.cfg
                .blocks
                .iter()
                .enumerate()
                .filter(|(_, blk)| blk.handler.is_some_and(|x| x.0 == h))
                .all(|(i, _)| inner.binary_search(&i).is_ok())
        };
        // (not a handler whose clauses go on inside the loop, to its bottom test: its
        // `continue` is no jump the guard alone can take for the loop's)
        let back_in = |h: usize| {
            let from_h = self.reach_within(h, &[Some(wall)]);
            inner
                .iter()
                .any(|&x| from_h.get(x).copied().unwrap_or(false))
        };
        let mut seen = vec![false; n];
        let mut todo = vec![start];
        while let Some(x) = todo.pop() {
            if x >= n || seen[x] {
                continue;
            }
            seen[x] = true;
            if x != start && x == wall {
                continue;
            }
            for e in &self.cfg.blocks[x].succs {
                if e.kind != EdgeKind::Exception || (inside(e.to) && !back_in(e.to)) {
                    todo.push(e.to);
                }
            }
        }
        seen
    }
}
