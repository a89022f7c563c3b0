//! Module code and class bodies have no `return`: the `return None` the compiler copies into the
//! ways out of a final statement (3.10 copies the code after a loop into a `break`, and the end
//! of the code into a with body's try `else:`) comes out as the way it stands for.

use crate::ast::{Constant, Expr, Stmt};

fn is_return_none(s: &Stmt) -> bool {
    matches!(
        s,
        Stmt::Return { value: None }
            | Stmt::Return {
                value: Some(Expr::Constant {
                    value: Constant::None,
                    ..
                })
            }
    )
}

/// The last statement of module code / a class body (nothing follows it): a `return None` at the
/// end of the ways through a final `with` body goes (the exit call, then the end of the code,
/// either way); one inside a final loop without `else:` is `break` (the loop's end is the end of
/// the code). Only code that has such a `return`, which would not compile, changes.
pub(crate) fn module_tail_returns(body: &mut [Stmt]) {
    match body.last_mut() {
        Some(Stmt::With { body: b, .. } | Stmt::AsyncWith { body: b, .. }) => {
            crate::structure::strip_tail(b, &crate::returns_none, false, false);
            if b.is_empty() {
                b.push(Stmt::Pass);
            }
            module_tail_returns(b);
        }
        Some(
            Stmt::While {
                body: b, orelse, ..
            }
            | Stmt::For {
                body: b, orelse, ..
            }
            | Stmt::AsyncFor {
                body: b, orelse, ..
            },
        ) if orelse.is_empty() => returns_to_break(b),
        // (each arm of a final `if` ends the code too)
        Some(Stmt::If {
            body: b, orelse, ..
        }) => {
            module_tail_returns(b);
            module_tail_returns(orelse);
        }
        _ => {}
    }
}

/// `return None` anywhere in a loop body (not in a nested loop's body, where `break` would be
/// that loop's; its `else:` is this loop's) becomes `break`.
fn returns_to_break(stmts: &mut [Stmt]) {
    for s in stmts.iter_mut() {
        if is_return_none(s) {
            *s = Stmt::Break;
            continue;
        }
        match s {
            Stmt::While { orelse, .. }
            | Stmt::For { orelse, .. }
            | Stmt::AsyncFor { orelse, .. } => returns_to_break(orelse),
            other => {
                for b in other.bodies_mut() {
                    returns_to_break(b);
                }
            }
        }
    }
}
