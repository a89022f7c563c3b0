//! 3.11+: an `if` at the top level of a try body whose jump goes straight to the first block after
//! the body (outside the handler's range): `try: if c: raise ... finally: F` inside an arm of an
//! enclosing `if`, the normal path's copy of F then jumping past the enclosing statement.
//!
//! The arms of such an `if` meet, by the whole graph, only where the copy jumps (the end of the
//! enclosing `if`), so the jump's arm took the copy in as its `else:` part, inside the try body:
//! the body never reached its end, and the finally statement had no normal path to compare
//! ("a finally block whose normal-path copy differs"). A branch inside a try body that goes to a
//! block its handler does not cover, which is not a `return`, `break` or `continue` of the body,
//! goes to the body's end: the `if` ends there, as the try body does.

use super::{LoopCtx, Structurer};

impl Structurer<'_> {
    /// Where the `if` ending block `b` (arms `fall`, `taken`) ends when it is at the top level of
    /// the innermost try body being read and its `taken` arm is the first block past that body
    /// (not covered by the handler, not only line markers inside the body, no way out of the
    /// body) while the `fall` arm is inside the range: `taken`. `None` otherwise, or where `merge`
    /// (the meeting place found so far) is already inside the range or `taken` itself.
    pub(super) fn try_end_arm(
        &self,
        b: usize,
        fall: usize,
        taken: usize,
        merge: Option<usize>,
        lp: Option<&LoopCtx>,
    ) -> Option<usize> {
        if self.legacy.is_some() || merge == Some(taken) {
            return None;
        }
        let &(h, found) = self.try_body.last()?;
        if found.is_some() || self.try_depth.last() != Some(&self.nesting) || !self.covered_by(b, h)
        {
            return None;
        }
        if merge.is_some_and(|m| self.covered_by(m, h)) {
            return None;
        }
        let markers = |x: usize| {
            self.instrs(x)
                .iter()
                .all(|i| matches!(i.op.name, "NOP" | "NOT_TAKEN"))
        };
        // (3.14 leaves the NOT_TAKEN after the branch outside the range)
        let inside = |x: usize| {
            self.covered_by(x, h)
                || (markers(x) && self.only_fall(x).is_some_and(|n| self.covered_by(n, h)))
        };
        let line_marker = markers(taken) && self.marker_inside_body(taken, h);
        let past = !(self.covered_by(taken, h) || line_marker || self.is_body_exit(taken, lp));
        // (a line marker falling into the meeting place found: the arms meet there already, the
        // code after the `if` ending the body; the clauses of a try in the arm may go there too)
        let mut x = taken;
        for _ in 0..3 {
            match self.only_fall(x) {
                Some(n) if markers(x) => x = n,
                _ => break,
            }
        }
        if merge == Some(x) {
            return None;
        }
        // (nor the end of an except clause the try statement is in, its POP_EXCEPT: the clause's
        // way on, a `continue` of an enclosing loop where it jumps back to the header, which
        // the try's own statements do not take)
        if self
            .instrs(x)
            .iter()
            .find(|i| !matches!(i.op.name, "NOP" | "NOT_TAKEN"))
            .is_some_and(|i| i.op.name == "POP_EXCEPT")
        {
            return None;
        }
        (past && inside(fall)).then_some(taken)
    }
}
