//! ≤3.10 finally bodies (and the copies of them) ending in an `if` / `elif` / `else` chain.
//!
//! 3.10 copies a small exit block into every jump to it: the finally handler's closing RERAISE
//! into the end of each arm of the body's final `if` (each arm re-raises where it ends), and the
//! code after the statement (a `return`) into the ends of the normal path's copy. An arm that ends
//! by leaving lets the structurer lay the way past it out after the `if`, with no `else:`: the
//! handler then reads `if c: A; RERAISE` followed by `B` (and an `elif` as one more such `if`
//! inside that code). Both arms leave the handler by the same RERAISE (the arm's copy, or the
//! handler's own after `B`), so the code is `if c: A  else: B` followed by the RERAISE: the same
//! instructions 3.10 gives for that source, with the same behaviour.
//!
//! The RERAISE here is at the handler's own level (not inside a nested try statement, whose
//! re-raise would be another exception's): only the arms of `if`s at the top of the handler's
//! body, and of the `else:` parts built here, are looked at.

use crate::ast::Stmt;

/// The RERAISE marker statement.
fn is_reraise(s: &Stmt) -> bool {
    matches!(s, Stmt::Expr { value: crate::ast::Expr::Name { id, .. } } if id == crate::exprs::RERAISE)
}

/// `fin`, a ≤3.10 finally handler's body with its final RERAISE taken off: the first `if` with
/// no `else:` whose arm ends with the RERAISE copy, and code after it, takes that code as its
/// `else:` (recursively, for an `elif` chain). The arm keeps its RERAISE: the caller strips the
/// copies at the ends of a final `if`'s arms.
pub(super) fn if_elif_reraise_copies(fin: &mut Vec<Stmt>) {
    turn_leaving_arm(fin, &|arm: &[Stmt]| arm.last().is_some_and(is_reraise));
}

/// The first `if` of `stmts` with no `else:`, followed by code, whose arm `ends` (a copy of the
/// code every way out of `stmts`'s end runs next: the handler's RERAISE, or 3.10's copy of a
/// finally body and the `return` after the statement, `finally_late_return.rs`) takes the code
/// after it as its `else:`, recursively; the arm keeps its end, for the caller to take off. The
/// way past the arm runs that code and then comes out of `stmts`'s end into what the arm's copy
/// stands for: the same paths, the same code (3.10 copies that small exit into the arm).
pub(super) fn turn_leaving_arm(stmts: &mut Vec<Stmt>, ends: &dyn Fn(&[Stmt]) -> bool) {
    let turn =
        |s: &Stmt| matches!(s, Stmt::If { body, orelse, .. } if orelse.is_empty() && ends(body));
    let Some(i) = stmts.iter().position(turn) else {
        return;
    };
    if i + 1 == stmts.len() {
        return;
    }
    let mut after: Vec<Stmt> = stmts.drain(i + 1..).collect();
    turn_leaving_arm(&mut after, ends);
    if let Some(Stmt::If { orelse, .. }) = stmts.last_mut() {
        *orelse = after;
    }
}

/// A try statement entered with `left` on the stack, more than the statement's `base`: where the
/// one value more is a computed value (a `return v` whose v waits while the finally body's copy
/// runs), the values the statement carries over (that one).
pub(super) fn try_over_value(
    left: &[crate::exprs::Val],
    base: &[crate::exprs::Val],
) -> Option<Vec<crate::exprs::Val>> {
    if left.len() != base.len() + 1 || left[..base.len()] != *base {
        return None;
    }
    use crate::ast::Expr;
    use crate::exprs::Val;
    match left.last() {
        // (not one of the structurer's markers: an iterator, an exception's values)
        Some(Val::Expr(Expr::Name { id, .. })) if id.starts_with('\0') => None,
        Some(v @ Val::Expr(_)) => Some(vec![v.clone()]),
        _ => None,
    }
}

/// A handler body `fin` ending with a `raise` (its RERAISE dead), where an `if` with no `else:`
/// before it has an arm ending with the RERAISE copy: 3.10 copies the RERAISE there all the same,
/// and the way past the arm is the code down to that `raise` (its `else:`).
pub(super) fn reraise_arm_before_raise(fin: &[Stmt]) -> bool {
    matches!(fin.last(), Some(Stmt::Raise { exc: Some(_), .. }))
        && fin.iter().any(|s| {
            matches!(s, Stmt::If { body, orelse, .. }
                if orelse.is_empty() && body.last().is_some_and(is_reraise))
        })
}
