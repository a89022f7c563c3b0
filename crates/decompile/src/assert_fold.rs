//! `assert T, msg` compiles to a test that jumps past `raise AssertionError(msg)` (the
//! AssertionError of LOAD_ASSERTION_ERROR, the Sim's `exprs::ASSERTION_ERROR` marker, not a name
//! lookup). The structurer gives that back as `if not T: raise <marker>(msg)`; here it becomes the
//! `assert` again, in every statement list at every depth (match cases, async statements and
//! try-star clauses included). Where the structurer put the code after the assert into the `if`'s
//! `else:` (the raising arm never comes back, so the rest is what runs when the test holds), that
//! code follows the `assert`: `if not T: raise AE(m)` / `else: rest` is `assert T, m` then `rest`.
//! The raise alone is `assert False, m`: the compiler drops a test that is a false constant.

use crate::ast::{Constant, Expr, Stmt};
use crate::exprs::ASSERTION_ERROR;

fn is_marker(e: &Expr) -> bool {
    matches!(e, Expr::Name { id, .. } if id == ASSERTION_ERROR)
}

/// `raise <marker>` or `raise <marker>(msg)`: the message, if this is the assert's raise.
fn assert_raise(s: &Stmt) -> Option<Option<Expr>> {
    match s {
        Stmt::Raise {
            exc: Some(e),
            cause: None,
        } if is_marker(e) => Some(None),
        Stmt::Raise {
            exc:
                Some(Expr::Call {
                    func,
                    args,
                    keywords,
                }),
            cause: None,
        } if is_marker(func) && args.len() == 1 && keywords.is_empty() => {
            Some(Some(args[0].clone()))
        }
        _ => None,
    }
}

/// Fold the asserts of `body` (see the module's comment).
pub(crate) fn fold(body: &mut Vec<Stmt>) {
    let mut i = 0;
    while i < body.len() {
        let msg = match &body[i] {
            Stmt::If { body: arm, .. } if arm.len() == 1 => assert_raise(&arm[0]),
            _ => None,
        };
        if let Some(msg) = msg {
            let Stmt::If { test, orelse, .. } = std::mem::replace(&mut body[i], Stmt::Pass) else {
                continue;
            };
            // (exactly: `if x not in s: raise` is `assert x in s`)
            let test = crate::structure::negate(test);
            body[i] = Stmt::Assert { test, msg };
            // (what runs when the test holds comes next, and is folded in turn)
            body.splice(i + 1..i + 1, orelse);
            i += 1;
            continue;
        }
        // `assert False, msg` (any false constant): the compiler drops the test that never holds
        if let Some(msg) = assert_raise(&body[i]) {
            body[i] = Stmt::Assert {
                test: Expr::constant(Constant::Bool(false)),
                msg,
            };
            i += 1;
            continue;
        }
        for b in body[i].bodies_mut() {
            fold(b);
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::UnaryOp;

    fn raise_marker(msg: Option<Expr>) -> Stmt {
        let marker = Expr::name(ASSERTION_ERROR);
        Stmt::Raise {
            exc: Some(match msg {
                None => marker,
                Some(m) => Expr::Call {
                    func: Box::new(marker),
                    args: vec![m],
                    keywords: Vec::new(),
                },
            }),
            cause: None,
        }
    }

    fn call(f: &str) -> Stmt {
        Stmt::Expr {
            value: Expr::Call {
                func: Box::new(Expr::name(f)),
                args: Vec::new(),
                keywords: Vec::new(),
            },
        }
    }

    #[test]
    fn rest_in_else_follows_the_assert() {
        let not_t = Expr::UnaryOp {
            op: UnaryOp::Not,
            operand: Box::new(Expr::name("t")),
        };
        let mut body = vec![Stmt::If {
            test: not_t,
            body: vec![raise_marker(Some(Expr::name("m")))],
            orelse: vec![call("a"), raise_marker(None)],
        }];
        fold(&mut body);
        assert_eq!(
            body,
            vec![
                Stmt::Assert {
                    test: Expr::name("t"),
                    msg: Some(Expr::name("m")),
                },
                call("a"),
                Stmt::Assert {
                    test: Expr::constant(Constant::Bool(false)),
                    msg: None,
                },
            ]
        );
    }

    #[test]
    fn other_raises_stay() {
        let mut body = vec![Stmt::If {
            test: Expr::name("t"),
            body: vec![Stmt::Raise {
                exc: Some(Expr::name("AssertionError")),
                cause: None,
            }],
            orelse: vec![call("a")],
        }];
        let before = body.clone();
        fold(&mut body);
        assert_eq!(body, before);
    }
}
