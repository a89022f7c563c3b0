//! 3.8 / 3.9 compile `while c: B else: E` with the test at the loop's top: the test's false branch
//! leaves the loop after E, B goes back to the test. The loop structuring reads any loop as
//! `while True:` with the header's test as an `if`:
//!
//! ```text
//! while True:          while c:
//!     if c:                B
//!         B            else:
//!         continue         E
//!     E
//!     break
//! ```
//!
//! The two do the same (a `break` in B leaves both without E; a `continue` in B tests c again), and
//! 3.8 / 3.9 compile both to the same instructions. The fold applies where B never runs on into E
//! (it ends with `continue`, `break`, `return` or `raise`) and E has no `break` / `continue` (in an
//! `else` they would be an enclosing loop's). 3.10+ rotate `while c:` (the test repeated at the
//! bottom, which the structurer reads as a guarded loop), so a top-tested loop there came from
//! `while True:` and stays so.

use crate::ast::{Constant, Expr, Stmt};

/// Fold `stmt` (a `while True:` loop just structured) as above, if it has that shape.
pub(super) fn fold(stmt: &mut Stmt) {
    let Stmt::While { test, body, orelse } = stmt else {
        return;
    };
    let is_true = matches!(
        test,
        Expr::Constant {
            value: Constant::Bool(true),
            ..
        }
    );
    if !is_true || !orelse.is_empty() || body.len() < 2 || body.last() != Some(&Stmt::Break) {
        return;
    }
    let Some(Stmt::If {
        test: c,
        body: b,
        orelse: o,
    }) = body.first()
    else {
        return;
    };
    // (or with an `if` whose every arm leaves: `if d: return x  else: continue`)
    let leaves = matches!(
        b.last(),
        Some(Stmt::Continue | Stmt::Break | Stmt::Return { .. } | Stmt::Raise { .. })
    ) || b.last().is_some_and(super::arms_leave);
    let rest = &body[1..body.len() - 1];
    if !leaves || o.iter().chain(rest).any(loop_exit) {
        return;
    }
    let mut new_body = b.clone();
    if new_body.last() == Some(&Stmt::Continue) {
        new_body.pop();
        super::strip_tail_continue(&mut new_body);
    } else if matches!(new_body.last(), Some(Stmt::If { .. })) {
        super::strip_tail_continue(&mut new_body);
    }
    if new_body.is_empty() {
        new_body.push(Stmt::Pass);
    }
    let mut new_else: Vec<Stmt> = o.iter().chain(rest).cloned().collect();
    new_else.retain(|s| *s != Stmt::Pass);
    *stmt = Stmt::While {
        test: c.clone(),
        body: new_body,
        orelse: new_else,
    };
}

/// Does `s` hold a `break` or `continue` (at any depth: conservative for nested loops)?
fn loop_exit(s: &Stmt) -> bool {
    let any = |b: &[Stmt]| b.iter().any(loop_exit);
    match s {
        Stmt::Break | Stmt::Continue => true,
        Stmt::If { body, orelse, .. }
        | Stmt::For { body, orelse, .. }
        | Stmt::AsyncFor { body, orelse, .. }
        | Stmt::While { body, orelse, .. } => any(body) || any(orelse),
        Stmt::With { body, .. } | Stmt::AsyncWith { body, .. } => any(body),
        Stmt::Try {
            body,
            handlers,
            orelse,
            finalbody,
        }
        | Stmt::TryStar {
            body,
            handlers,
            orelse,
            finalbody,
        } => any(body) || any(orelse) || any(finalbody) || handlers.iter().any(|h| any(&h.body)),
        Stmt::Match { cases, .. } => cases.iter().any(|c| any(&c.body)),
        _ => false,
    }
}
