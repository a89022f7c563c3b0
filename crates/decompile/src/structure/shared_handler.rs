//! Code after a try statement copied into its except clauses when that code is itself under a
//! handler: 3.13+ copy a small exit block (`try: return e` then `except NameError: ...`) into the
//! end of each clause as well as onto the normal path, and every copy is covered by the same
//! handler. Structuring a clause reads its copy with that handler; the next clause's copy, and
//! the normal path's, reach the handler again, a block that would come out twice. A clause's copy
//! is code after the statement ([`super::except_exit`]): where the try statement places it after
//! itself (the normal path runs the same code), the clauses' copies are dropped and the handler
//! comes out once, with the normal path's copy. Where it is not so placed, the code object is
//! refused.

use super::Structurer;

impl Structurer<'_> {
    /// After a clause whose end is a copy of the code after the try statement: the blocks it
    /// placed (placed now, not in `before`) that the normal path of the statement reaches too,
    /// going forward only (not round an enclosing loop). They are marked not placed, for the next
    /// copy to place again, and noted for the try statement (`clause_copies`).
    pub(super) fn release_shared(&mut self, before: &[bool]) {
        let Some(start) = self.clause_copies.0 else {
            return;
        };
        let n = self.cfg.blocks.len();
        let mut seen = vec![false; n];
        let mut todo = vec![start];
        let mut shared = Vec::new();
        while let Some(x) = todo.pop() {
            if x >= n || std::mem::replace(&mut seen[x], true) {
                continue;
            }
            if self.emitted[x] && !before.get(x).copied().unwrap_or(true) {
                shared.push(x);
            }
            todo.extend(
                self.cfg.blocks[x]
                    .succs
                    .iter()
                    .map(|e| e.to)
                    .filter(|&y| y > x),
            );
        }
        for &x in &shared {
            self.emitted[x] = false;
            if !self.clause_copies.1.contains(&x) {
                self.clause_copies.1.push(x);
            }
        }
    }
}
