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
