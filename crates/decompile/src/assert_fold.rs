//! `assert T, msg` compiles to a test that jumps past `raise AssertionError(msg)` (the
//! AssertionError of LOAD_ASSERTION_ERROR, the Sim's `exprs::ASSERTION_ERROR` marker, not a name
//! lookup). The structurer gives that back as `if not T: raise <marker>(msg)`; here it becomes the
//! `assert` again, in every statement list at every depth (match cases, async statements and
//! try-star clauses included). Where the structurer put the code after the assert into the `if`'s
//! `else:` (the raising arm never comes back, so the rest is what runs when the test holds), that
//! code follows the `assert`: `if not T: raise AE(m)` / `else: rest` is `assert T, m` then `rest`.
//! The raise alone is `assert False, m`: the compiler drops a test that is a false constant.
//!
//! 3.8 has no LOAD_ASSERTION_ERROR: its assert loads the global `AssertionError`, as a written
//! `raise AssertionError` in a function does, so the two compile alike wherever the `if` form can
//! be written. It cannot where the test the assert jumps on is an `in` / `is` comparison: the `if`
//! needs `not` on it, which the AST optimiser folds into the operator (`not a is not None` is
//! `a is None`, jumping the other way). So on 3.8 an `if` whose test is a `not` (the structurer's
//! negation of the jump's test) and whose arm raises the plain `AssertionError` is folded too; an
//! `if` without the `not` (`if a is None: raise AssertionError`, as written) stays, and so does one
//! with an `else:` (3.8 jumps past it after the raise; an assert has no such jump).

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

/// `raise AssertionError` or `raise AssertionError(msg)` by its global name (3.8's assert).
fn global_raise(s: &Stmt) -> Option<Option<Expr>> {
    let named = |e: &Expr| matches!(e, Expr::Name { id, .. } if id == "AssertionError");
    match s {
        Stmt::Raise {
            exc: Some(e),
            cause: None,
        } if named(e) => Some(None),
        Stmt::Raise {
            exc:
                Some(Expr::Call {
                    func,
                    args,
                    keywords,
                }),
            cause: None,
        } if named(func)
            && matches!(args.as_slice(), [a] if !matches!(a, Expr::Starred { .. }))
            && keywords.is_empty() =>
        {
            Some(Some(args[0].clone()))
        }
        _ => None,
    }
}

/// Fold the asserts of `body` (see the module's comment); `global_name`: 3.8, whose assert raises
/// the global `AssertionError`, in code where that name is not local.
pub(crate) fn fold(body: &mut Vec<Stmt>, global_name: bool) {
    let mut i = 0;
    while i < body.len() {
        let msg = match &body[i] {
            Stmt::If { body: arm, .. } if arm.len() == 1 => assert_raise(&arm[0]),
            _ => None,
        };
        let msg = msg.or_else(|| match &body[i] {
            Stmt::If {
                test:
                    Expr::UnaryOp {
                        op: crate::ast::UnaryOp::Not,
                        ..
                    },
                body: arm,
                orelse,
            } if global_name && arm.len() == 1 && orelse.is_empty() => global_raise(&arm[0]),
            _ => None,
        });
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
            fold(b, global_name);
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
        fold(&mut body, false);
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
        fold(&mut body, false);
        assert_eq!(body, before);
    }

    #[test]
    fn global_assertion_error_under_not_is_an_assert_on_38() {
        let raise_global = |msg: Option<Expr>| Stmt::Raise {
            exc: Some(match msg {
                None => Expr::name("AssertionError"),
                Some(m) => Expr::Call {
                    func: Box::new(Expr::name("AssertionError")),
                    args: vec![m],
                    keywords: Vec::new(),
                },
            }),
            cause: None,
        };
        let not_t = Expr::UnaryOp {
            op: UnaryOp::Not,
            operand: Box::new(Expr::name("t")),
        };
        let negated = Stmt::If {
            test: not_t,
            body: vec![raise_global(Some(Expr::name("m")))],
            orelse: Vec::new(),
        };
        // 3.9+ (or a local AssertionError): a written raise
        let mut body = vec![negated.clone()];
        fold(&mut body, false);
        assert_eq!(body, vec![negated.clone()]);
        let mut body = vec![negated];
        fold(&mut body, true);
        assert_eq!(
            body,
            vec![Stmt::Assert {
                test: Expr::name("t"),
                msg: Some(Expr::name("m")),
            }]
        );
        // a test without the `not` compiles the same as written, and the raise alone stays a raise
        let plain = vec![
            Stmt::If {
                test: Expr::name("t"),
                body: vec![raise_global(None)],
                orelse: Vec::new(),
            },
            raise_global(None),
        ];
        let mut body = plain.clone();
        fold(&mut body, true);
        assert_eq!(body, plain);
    }
}
