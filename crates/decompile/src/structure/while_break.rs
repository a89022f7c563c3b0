//! 3.14 `while c: B; break` (a loop body that ends by leaving after one pass unless B continues):
//! the header tests c and leaves, B goes on to the `break`, a block of its line number's NOP that
//! falls into the code after the loop. The loop structuring reads it as `while True:` with the
//! header's test as an `if`:
//!
//! ```text
//! while True:          while c:
//!     if c:                B
//!         B                break
//!     break
//! ```
//!
//! The two do the same (c false leaves both; a `continue` in B tests c again, a `break` in B
//! leaves). 3.14 tests a `while` at its top; 3.12 / 3.13 too where the body never reaches its end
//! (no bottom test to rotate into). The left form, written as such, starts the loop with the NOP
//! of the `while True:` line, which the caller checks the header does not have.

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
    if !is_true || !orelse.is_empty() {
        return;
    }
    let [Stmt::If {
        test: c,
        body: b,
        orelse: o,
    }, Stmt::Break] = body.as_slice()
    else {
        return;
    };
    if !o.is_empty() || b.is_empty() {
        return;
    }
    let mut new_body = b.clone();
    new_body.push(Stmt::Break);
    *stmt = Stmt::While {
        test: c.clone(),
        body: new_body,
        orelse: Vec::new(),
    };
}
