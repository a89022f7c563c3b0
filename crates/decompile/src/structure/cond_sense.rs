//! The sense of a test: which written form of a negated condition compiles back to the same
//! comparison operator and the same jump.
//!
//! Through 3.13 the compiler folds `not (a in b)` into `a not in b` (and `is` into `is not`) before
//! it chooses jumps, so a negated `in` / `is` test is written with the other operator. 3.14 folds
//! only values: `if not a in b:` tests `in` and jumps when it is true, `if a not in b:` tests
//! `not in` and jumps when it is false, so the negation stays a `not` around the comparison (and
//! around an `and` / `or` of them: `not (a in b or c)` jumps as its operands do, De Morgan would
//! change each operand's operator). Behaviour is the same either way (`in` and `is` give bools);
//! only the instructions differ.
//!
//! `negate` is called from many places without the code object at hand; the version's fact is set
//! for the thread when a code object's structuring starts (`Structurer::new`): every code object a
//! structuring reaches is of that one version.

use std::cell::Cell;

thread_local! {
    static FOLDS_NOT: Cell<bool> = const { Cell::new(true) };
}

/// Records the version whose tests `negate` writes from now on (on this thread).
pub(crate) fn set_version(version: framejit_bytecode::PyVersion) {
    FOLDS_NOT.with(|f| f.set(version.info().folds_not_in_tests));
}

/// Whether a negated `in` / `is` test is written with the other operator (the compiler folds the
/// `not` into it): through 3.13.
pub(crate) fn folds_not() -> bool {
    FOLDS_NOT.with(|f| f.get())
}
