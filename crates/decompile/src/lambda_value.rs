//! A lambda's structured body read back as the one expression it returns.
//!
//! The compiler copies the `return` of a lambda's conditional expression into the arms where it can
//! (3.8 / 3.9 jump to a shared `RETURN_VALUE` from one arm and return in place from another), so the
//! structurer sees `if t: return a` / `else:` statements, and where a value waits on the stack for a
//! shared `RETURN_VALUE`, a spill temporary assigned in each arm and returned after the `if`.

use crate::ast::{Expr, Stmt, UnaryOp};

/// The value `stmts` return, as one expression: `return v`; `t = v; return t` for a spill temporary
/// `t` (`temp` says which names are; one temporary copied into another as well); an `if` whose arms
/// (each followed by the statements after the `if`) return values, as `a if test else b`. None
/// for any other statement.
pub(crate) fn returned_value(stmts: &[Stmt], temp: &dyn Fn(&str) -> bool) -> Option<Expr> {
    value_with(stmts, temp, &[]).map(|(v, _)| v)
}

/// [`returned_value`] with the temporaries assigned so far and not yet used (`pending`): their
/// values are evaluated where the `return` uses them, so nothing may be evaluated in between
/// (only copies from one temporary to another and the `return`). With the value: whether it came
/// through a temporary (a jump to a shared RETURN_VALUE) rather than a `return` in place.
fn value_with(
    stmts: &[Stmt],
    temp: &dyn Fn(&str) -> bool,
    pending: &[(String, Expr)],
) -> Option<(Expr, bool)> {
    let known = |e: &Expr| match e {
        Expr::Name { id, .. } => pending
            .iter()
            .find(|(t, _)| t == id)
            .map(|(_, v)| v.clone()),
        _ => None,
    };
    match stmts {
        // (statements after a `return` are the continuation appended to an arm that never reaches it)
        [Stmt::Return { value: Some(v) }, ..] => match known(v) {
            Some(x) => Some((x, true)),
            None if pending.is_empty() => Some((v.clone(), false)),
            None => None,
        },
        [Stmt::Assign { targets, value }, rest @ ..] => {
            let [Expr::Name { id, .. }] = targets.as_slice() else {
                return None;
            };
            if !temp(id) {
                return None;
            }
            let v = match known(value) {
                Some(x) => x,
                None if pending.is_empty() => value.clone(),
                None => return None,
            };
            let mut more = pending.to_vec();
            more.retain(|(t, _)| t != id);
            more.push((id.clone(), v));
            value_with(rest, temp, &more)
        }
        [Stmt::If { test, body, orelse }, rest @ ..] if pending.is_empty() => {
            let arm = |a: &[Stmt]| {
                let mut v = a.to_vec();
                v.extend_from_slice(rest);
                value_with(&v, temp, &[])
            };
            let ((yes, yes_temp), (no, no_temp)) = (arm(body)?, arm(orelse)?);
            // 3.8 / 3.9 `a if t else b` where b's jump to the shared RETURN_VALUE became a
            // `return` in place: the structurer reads `if not t: return b` and a's value through
            // a temporary; written as the compiler laid it out (`b if not t else a` would test
            // the other way): the arm returned in place is the `else:`
            if !yes_temp && no_temp {
                let test = match test {
                    Expr::UnaryOp {
                        op: UnaryOp::Not,
                        operand,
                    } => (**operand).clone(),
                    other => Expr::UnaryOp {
                        op: UnaryOp::Not,
                        operand: Box::new(other.clone()),
                    },
                };
                return Some((
                    Expr::IfExp {
                        test: Box::new(test),
                        body: Box::new(no),
                        orelse: Box::new(yes),
                    },
                    true,
                ));
            }
            Some((
                Expr::IfExp {
                    test: Box::new(test.clone()),
                    body: Box::new(yes),
                    orelse: Box::new(no),
                },
                yes_temp || no_temp,
            ))
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
        // a temporary's value would be evaluated after another value
        let stmts = vec![
            store("_tmp1", name("b")),
            store("_tmp2", name("c")),
            ret(name("_tmp1")),
        ];
        assert_eq!(returned_value(&stmts, &temp), None);
        // ... but a copy of one temporary into another is no evaluation
        let stmts = vec![
            store("_tmp1", name("b")),
            store("_tmp2", name("_tmp1")),
            ret(name("_tmp2")),
        ];
        assert_eq!(returned_value(&stmts, &temp), Some(name("b")));
        // an arm that falls off without a value
        let stmts = vec![Stmt::If {
            test: name("x"),
            body: vec![ret(name("a"))],
            orelse: vec![],
        }];
        assert_eq!(returned_value(&stmts, &temp), None);
    }
}
