//! 3.12+: a `raise` (or `return`) inside a try body inside a loop is no way to the code after the
//! loop.
//!
//! A `while True:` loop whose body holds `try: ... if c: raise E ... finally: ...` has one edge
//! out of the natural loop: the one to the `raise` block (it never gets back to the header).
//! Without a try statement around it such a block reads either way (`if c: raise E` in the loop,
//! or `if c: break` with `raise E` after the loop: the same instructions). Inside a try body it
//! does not: the code after the loop is outside every try statement of the loop's body, while
//! that block is covered by the try's handler, as is the branch that leads to it. Reading it as
//! the loop's exit made a `break` of it, which the finally body's copy then did not precede (the
//! refusal "an exit from a try body without the finally body's copy"), or a `break` out of a try
//! whose handler would then not cover the `raise`.

use super::Structurer;
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// `exits` of the loop whose blocks are `body` without those [`Self::raise_in_inner_try`]
    /// finds; all of them as they are where that leaves none and a block outside the loop that
    /// control reaches from it returns (a `break` out of an except clause into the code after
    /// the loop, which 3.12+ copy after the finally body's copy when it is small: the loop must
    /// then have an exit, and no other reading says where it is).
    pub(super) fn drop_inner_raises(
        &self,
        header: usize,
        exits: &[usize],
        level: Option<usize>,
        body: &[usize],
    ) -> Vec<usize> {
        let kept: Vec<usize> = exits
            .iter()
            .copied()
            .filter(|&x| !self.raise_in_inner_try(header, x, level, body))
            .collect();
        if kept.is_empty() && !exits.is_empty() && self.returns_outside(header, body) {
            return exits.to_vec();
        }
        kept
    }

    /// Is `h` the handler of a try statement around the loop headed by `header` (blocks `body`):
    /// covering the header or the way into the loop? (3.12+ may leave a nested `try:` line
    /// marker, the header, out of the outer range.)
    fn around_loop(&self, header: usize, body: &[usize], h: usize) -> bool {
        self.covered_by(header, h)
            || self.cfg.blocks[header]
                .preds
                .iter()
                .any(|&p| !body.contains(&p) && self.covered_by(p, h))
    }

    /// Does some block outside `body` that control reaches from it (by any edge, but not into the
    /// handler of a try statement around the loop headed by `header`, whose clauses are no part of
    /// the loop statement) return?
    fn returns_outside(&self, header: usize, body: &[usize]) -> bool {
        let n = self.cfg.blocks.len();
        let mut seen = vec![false; n];
        let mut todo: Vec<usize> = body.to_vec();
        while let Some(x) = todo.pop() {
            if x >= n || std::mem::replace(&mut seen[x], true) {
                continue;
            }
            let returns = self
                .instrs(x)
                .last()
                .is_some_and(|i| matches!(i.op.name, "RETURN_VALUE" | "RETURN_CONST"));
            if returns && !body.contains(&x) {
                return true;
            }
            todo.extend(
                self.cfg.blocks[x]
                    .succs
                    .iter()
                    .filter(|e| {
                        e.kind != EdgeKind::Exception || !self.around_loop(header, body, e.to)
                    })
                    .map(|e| e.to),
            );
        }
        false
    }

    /// Is exit `x` of the loop headed by `header` whose blocks are `body` (entered at try nesting `level`, the handler
    /// of its way in) a block that only leaves (raises or returns, past blocks that only fall on)
    /// inside a try statement of the loop's body: covered by a handler the way into the loop is not
    /// under, and reached from a block of the body under that same handler? (The code after the
    /// loop is at the loop's own nesting; where it starts a try statement of its own, the branch to
    /// it in the body is not under that statement's handler.)
    pub(super) fn raise_in_inner_try(
        &self,
        header: usize,
        x: usize,
        level: Option<usize>,
        body: &[usize],
    ) -> bool {
        // (3.14 leaves a branch's NOT_TAKEN outside the range: the branch before it counts, and
        // the block after it)
        let markers = |b: usize| {
            self.instrs(b)
                .iter()
                .all(|i| matches!(i.op.name, "NOT_TAKEN" | "NOP"))
        };
        let mut y = x;
        for _ in 0..2 {
            match self.only_fall(y) {
                Some(n) if markers(y) => y = n,
                _ => break,
            }
        }
        let Some(h) = self.cfg.blocks[y].handler.map(|h| h.0) else {
            return false;
        };
        // (nor the header's: a try statement around the loop whose `try:` line marker, before
        // its range, is the way in)
        if Some(h) == level || body.contains(&h) || self.around_loop(header, body, h) {
            return false;
        }
        let mut froms: Vec<usize> = self.cfg.blocks[x].preds.clone();
        for _ in 0..2 {
            let more: Vec<usize> = froms
                .iter()
                .filter(|&&p| body.contains(&p) && markers(p))
                .flat_map(|&p| self.cfg.blocks[p].preds.iter().copied())
                .collect();
            froms.extend(more);
        }
        let under = froms
            .iter()
            .any(|&p| body.contains(&p) && self.cfg.blocks[p].handler.map(|k| k.0) == Some(h));
        under && self.only_leaves(self.fall_chain_end(y))
    }
}
