//! 3.10 try statements with except clauses: where the statement ends when the clauses never come
//! back to the normal path (3.10 copies the code after the statement into the clauses).

use super::Structurer;

impl Structurer<'_> {
    /// The body's normal path from `e` goes on to where the region holding the statement stops
    /// (the merge of an enclosing `if`, say): the statement ends there, everything before it on
    /// that path being its `else:` part (the clauses' copies of the code after it, if any, are
    /// compared with the code there). `None`: it does not get there.
    pub(super) fn legacy_try_to_stop(&self, e: usize) -> Option<usize> {
        let stop = self.stops.last().copied().flatten()?;
        (e != stop && self.reach_within(e, &[Some(stop)])[stop]).then_some(stop)
    }
}
