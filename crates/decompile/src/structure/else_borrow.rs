//! 3.14: where no except clause comes out (each raises or returns), the code after a try body
//! reads the same as the statement's `else:` part or as the code after the statement. The
//! compiler tells them apart in one place: it borrows (LOAD_FAST_BORROW) the locals an `else:`
//! part loads, and not those of the code after the statement. The first local load of that
//! code says which it was.

use super::Structurer;

impl Structurer<'_> {
    /// Does the code starting at block `a` load a local first by borrowing it (3.14)?
    pub(super) fn starts_borrowing(&self, a: usize) -> bool {
        self.instrs(a)
            .iter()
            .find(|i| i.op.name.starts_with("LOAD_FAST"))
            .is_some_and(|i| i.op.name.starts_with("LOAD_FAST_BORROW"))
    }
}
