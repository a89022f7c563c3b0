//! A `finally:` body's copy right after an except clause's POP_EXCEPT (the Sim's marker: no value
//! computed in the clause waits above the saved exception) followed by `return VALUE`: a `return`
//! written in the clause computes a value that is not a constant before its POP_EXCEPT (the
//! marker would not be there) and before the copy. So the value was computed after the `finally:`
//! body ran: the code after the statement (or after a loop the clause's `break` leaves) that the
//! compiler placed after the copy. Read as `return VALUE` in the clause it would be computed
//! before the `finally:` body (`finally: log = log + [1]` then `return log` after a `while`
//! loop left by `break`): refused instead.

use crate::ast::{Expr, Stmt};
use crate::exprs::POP_EXCEPT;

/// Is the way out at `stmts[end]`, after the copy at `start..end`, a `return` whose value (not a
/// constant) was computed after the copy, the copy following the POP_EXCEPT marker?
pub(super) fn returns_after_copy(stmts: &[Stmt], start: usize, end: usize) -> bool {
    let marker = start > 0
        && matches!(&stmts[start - 1], Stmt::Expr { value: Expr::Name { id, .. } } if id == POP_EXCEPT);
    let computed = matches!(
        stmts.get(end),
        Some(Stmt::Return { value: Some(v) }) if !matches!(v, Expr::Constant { .. })
    );
    marker && computed
}

/// A try body with a `finally:` whose blocks returned a value computed after they popped a loop's
/// iterator (`exprs/late_return.rs`): the copy of the `finally:` body before the pop would be
/// stripped from a `return` that computes its value before it; refused.
pub(super) const LATE_RETURN: &str = "a value returned after a loop's iterator was popped, past \
     a finally body's copy (the code after the loop copied into a break)";

/// Does `stmts` end with a `return` of a value that is not a constant, after other statements?
pub(super) fn returns_computed(stmts: &[Stmt]) -> bool {
    stmts.len() > 1
        && matches!(
            stmts.last(),
            Some(Stmt::Return { value: Some(v) }) if !matches!(v, Expr::Constant { .. })
        )
}

/// 3.12+: an except clause's code after its POP_EXCEPT (the Sim's marker) that the try statement
/// placed after itself (`except_exit.rs` `place_copied_tail`, one of `tails`), starting with a
/// copy of the `finally:` body `fin` of a statement around it and ending in `return VALUE` computed
/// after the marker: as [`returns_after_copy`], that value was computed after the copy (the code
/// after a loop the clause's `break` leaves, copied after the `finally:` body's copy: `while
/// True: try: ... except E: break finally: log = log + [1]` then `return log`), and stripping the
/// copy as the one before a `return` of the try body would compute it before.
pub(super) fn copy_then_late_return(tails: &[Vec<Stmt>], fin: &[Stmt]) -> bool {
    !fin.is_empty()
        && tails
            .iter()
            .any(|t| t.len() > fin.len() && t.starts_with(fin) && returns_computed(t))
}

/// The refusal of [`copy_then_late_return`].
pub(super) const LATE_TAIL: &str = "a value returned after an except clause's POP_EXCEPT, past a \
     finally body's copy (the code after the loop copied into a break)";
