//! A lambda's structured body read back as the one expression it returns.
//!
//! The compiler copies the `return` of a lambda's conditional expression into the arms where it can
//! (3.8 / 3.9 jump to a shared `RETURN_VALUE` from one arm and return in place from another), so the
//! structurer sees `if t: return a` / `else:` statements, and where a value waits on the stack for a
//! shared `RETURN_VALUE`, a spill temporary assigned in each arm and returned after the `if`.

use crate::ast::{Expr, Stmt, UnaryOp};

/// The value `stmts` return, as one expression: `return v`; `t = v; return t` for a spill temporary
/// `t` (`temp` says which names are); an `if` whose arms (each followed by the statements after the
/// `if`) return values, as `a if test else b`. None for any other statement.
pub(crate) fn returned_value(stmts: &[Stmt], temp: &dyn Fn(&str) -> bool) -> Option<Expr> {
    match stmts {
        // (statements after a `return` are the continuation appended to an arm that never reaches it)
        [Stmt::Return { value: Some(v) }, ..] => Some(v.clone()),
        [Stmt::Assign { targets, value }, Stmt::Return { value: Some(r) }, ..] => {
            let [Expr::Name { id, .. }] = targets.as_slice() else {
                return None;
            };
            let same = matches!(r, Expr::Name { id: rid, .. } if rid == id);
            (same && temp(id)).then(|| value.clone())
        }
        [Stmt::If { test, body, orelse }, rest @ ..] => {
            let arm = |a: &[Stmt]| {
                let mut v = a.to_vec();
                v.extend_from_slice(rest);
                returned_value(&v, temp)
            };
            let (yes, no) = (arm(body)?, arm(orelse)?);
            // `b if not t else a` is `a if t else b` (one truth test either way), which the
            // compiler lays out as the original did
            Some(match test {
                Expr::UnaryOp {
                    op: UnaryOp::Not,
                    operand,
                } => Expr::IfExp {
                    test: operand.clone(),
                    body: Box::new(no),
                    orelse: Box::new(yes),
                },
                _ => Expr::IfExp {
                    test: Box::new(test.clone()),
                    body: Box::new(yes),
                    orelse: Box::new(no),
                },
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::ExprContext;

    fn name(id: &str) -> Expr {
        Expr::Name {
            id: id.into(),
            ctx: ExprContext::Load,
        }
    }
    fn store(id: &str, v: Expr) -> Stmt {
        Stmt::Assign {
            targets: vec![Expr::Name {
                id: id.into(),
                ctx: ExprContext::Store,
            }],
            value: v,
        }
    }
    fn ret(v: Expr) -> Stmt {
        Stmt::Return { value: Some(v) }
    }
    fn temp(n: &str) -> bool {
        n.starts_with("_tmp")
    }

    #[test]
    fn spilled_arms_join_at_a_shared_return() {
        // if x: (if not v: return a); _tmp1 = b  else: _tmp1 = c;  return _tmp1
        let stmts = vec![
            Stmt::If {
                test: name("x"),
                body: vec![
                    Stmt::If {
                        test: Expr::UnaryOp {
                            op: UnaryOp::Not,
                            operand: Box::new(name("v")),
                        },
                        body: vec![ret(name("a"))],
                        orelse: vec![],
                    },
                    store("_tmp1", name("b")),
                ],
                orelse: vec![store("_tmp1", name("c"))],
            },
            ret(name("_tmp1")),
        ];
        let want = Expr::IfExp {
            test: Box::new(name("x")),
            body: Box::new(Expr::IfExp {
                test: Box::new(name("v")),
                body: Box::new(name("b")),
                orelse: Box::new(name("a")),
            }),
            orelse: Box::new(name("c")),
        };
        assert_eq!(returned_value(&stmts, &temp), Some(want));
    }

    #[test]
    fn a_real_local_is_not_a_temporary() {
        let stmts = vec![store("y", name("b")), ret(name("y"))];
        assert_eq!(returned_value(&stmts, &temp), None);
        // an arm that falls off without a value
        let stmts = vec![Stmt::If {
            test: name("x"),
            body: vec![ret(name("a"))],
            orelse: vec![],
        }];
        assert_eq!(returned_value(&stmts, &temp), None);
    }
}
