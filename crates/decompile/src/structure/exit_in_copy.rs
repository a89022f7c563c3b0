//! `try: ... return v  finally: F` where F's copy on the way out branches: the compiler copies the
//! way out (`return v`, `break`, `continue`) into every end of the copy, so the try body comes
//! out as F with the way out at the ends of its final statement's arms (an `if`'s, a nested
//! `try`'s clauses and `else:`), and once more after it for the path that falls through. The
//! value of `return v` is computed before the copy runs; where F stores a name `v` reads, the arm
//! first saves the value in a temporary (`_tmpN = v ... return _tmpN`).
//!
//! Taking the way out off those ends gives back F followed by the way out, which the finally
//! statement's copy check (`strip_copies`) then drops as the copy it is. Only done where the
//! result is exactly F: the caller's check is what makes it safe (a temporary's value moved to
//! the way out after F is right only as the `return v` of the try body, which runs before F).

use crate::ast::{Expr, ExprContext, Stmt};

/// The way out `stmts[i]` after the copy of `fin`: where `stmts[i - 1]` is the copy's final
/// statement with the way out copied into its ends, take it off them. True when it did (then
/// `stmts[i - fin.len()..i]` is `fin`); false, and nothing changed, otherwise.
pub(super) fn hoist_into_copy(stmts: &mut [Stmt], i: usize, fin: &[Stmt]) -> bool {
    let n = fin.len();
    if n == 0 || i < n || !is_exit(&stmts[i]) {
        return false;
    }
    let exit = stmts[i].clone();
    let mut last = stmts[i - 1].clone();
    if !strip_ends(&mut last, &exit) || stmts[i - n..i - 1] != fin[..n - 1] || last != fin[n - 1] {
        return false;
    }
    stmts[i - 1] = last;
    true
}

fn is_exit(s: &Stmt) -> bool {
    matches!(s, Stmt::Return { .. } | Stmt::Break | Stmt::Continue)
}

/// Take `exit` off every end of `s` that leaves by it (the ends that do not, fall through to it
/// anyway); true when at least one went. Loops and try statements with a finally body are not
/// entered (a way out there does not reach what follows the same way).
fn strip_ends(s: &mut Stmt, exit: &Stmt) -> bool {
    match s {
        Stmt::If { body, orelse, .. } => {
            let a = strip_arm(body, exit, true);
            let b = strip_arm(orelse, exit, false);
            a | b
        }
        Stmt::Try {
            body,
            handlers,
            orelse,
            finalbody,
        } if finalbody.is_empty() => {
            // the body's end goes on into `else:` where there is one
            let mut any = if orelse.is_empty() {
                strip_arm(body, exit, true)
            } else {
                strip_arm(orelse, exit, false)
            };
            for h in handlers {
                // (`except E as e:` unbinds e before the way out after the statement)
                if h.name.is_none() {
                    any |= strip_arm(&mut h.body, exit, true);
                }
            }
            any
        }
        _ => false,
    }
}

/// [`strip_ends`] for one arm: its last statement, when that is `exit` (or the saved-value form of
/// `exit`), goes; otherwise the ends of its last statement. `needs_body`: an arm that must keep a
/// statement (`pass` where it empties).
fn strip_arm(arm: &mut Vec<Stmt>, exit: &Stmt, needs_body: bool) -> bool {
    let took = if arm.last() == Some(exit) {
        arm.pop();
        true
    } else if saved_return(arm, exit) {
        arm.pop();
        arm.remove(0);
        true
    } else {
        return match arm.last_mut() {
            Some(last) => strip_ends(last, exit),
            None => false,
        };
    };
    // (the way out also copied into the ends of the statement before it, whose way on is that
    // copy: ≤3.10 `POP_BLOCK; RETURN_VALUE` ends a try body there; those ends fall through to it
    // once taken off, and the arm to the way out after the copy)
    if let Some(last) = arm.last_mut() {
        strip_ends(last, exit);
    }
    if took && needs_body && arm.is_empty() {
        arm.push(Stmt::Pass);
    }
    took
}

/// Is `arm` `_tmpN = v; ...; return _tmpN` with `exit` being `return v`, the temporary named
/// nowhere else?
fn saved_return(arm: &[Stmt], exit: &Stmt) -> bool {
    let Stmt::Return { value: Some(v) } = exit else {
        return false;
    };
    let [Stmt::Assign { targets, value }, middle @ .., Stmt::Return { value: Some(r) }] = arm
    else {
        return false;
    };
    let [Expr::Name {
        id,
        ctx: ExprContext::Store,
    }] = targets.as_slice()
    else {
        return false;
    };
    let temp = id
        .strip_prefix("_tmp")
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()));
    let returned = matches!(r, Expr::Name { id: rid, .. } if rid == id);
    // (the printed form names every use: the temporary must not be read in between)
    let quoted = format!("{id:?}");
    temp && returned && value == v && !format!("{middle:?}").contains(&quoted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(id: &str) -> Expr {
        Expr::name(id)
    }

    fn ret(id: &str) -> Stmt {
        Stmt::Return {
            value: Some(name(id)),
        }
    }

    fn call(f: &str) -> Stmt {
        Stmt::Expr {
            value: Expr::Call {
                func: Box::new(name(f)),
                args: Vec::new(),
                keywords: Vec::new(),
            },
        }
    }

    fn if_(test: &str, body: Vec<Stmt>, orelse: Vec<Stmt>) -> Stmt {
        Stmt::If {
            test: name(test),
            body,
            orelse,
        }
    }

    #[test]
    fn return_copied_into_a_final_if() {
        let fin = vec![call("a"), if_("c", vec![call("b")], vec![])];
        let mut stmts = vec![
            call("a"),
            if_("c", vec![call("b"), ret("x")], vec![]),
            ret("x"),
        ];
        assert!(hoist_into_copy(&mut stmts, 2, &fin));
        assert_eq!(stmts[..2], fin[..]);
        assert_eq!(stmts[2], ret("x"));
    }

    #[test]
    fn only_when_the_result_is_the_copy() {
        let fin = vec![if_("c", vec![call("b")], vec![])];
        // another statement in the arm: not the copy, nothing changes
        let mut stmts = vec![
            if_("c", vec![call("b"), call("z"), ret("x")], vec![]),
            ret("x"),
        ];
        let before = stmts.clone();
        assert!(!hoist_into_copy(&mut stmts, 1, &fin));
        assert_eq!(stmts, before);
        // another way out in the arm
        let mut stmts = vec![if_("c", vec![call("b"), ret("y")], vec![]), ret("x")];
        assert!(!hoist_into_copy(&mut stmts, 1, &fin));
    }

    #[test]
    fn saved_value_goes_back_to_the_way_out() {
        let store = |t: &str, v: Expr| Stmt::Assign {
            targets: vec![Expr::Name {
                id: t.into(),
                ctx: ExprContext::Store,
            }],
            value: v,
        };
        let fin = vec![if_("x", vec![store("x", name("y")), call("b")], vec![])];
        let arm = vec![
            store("_tmp3", name("x")),
            store("x", name("y")),
            call("b"),
            ret("_tmp3"),
        ];
        let mut stmts = vec![if_("x", arm, vec![]), ret("x")];
        assert!(hoist_into_copy(&mut stmts, 1, &fin));
        assert_eq!(stmts[0], fin[0]);
        // the temporary read in between: not a saved return value
        let arm = vec![
            store("_tmp3", name("x")),
            store("x", name("_tmp3")),
            call("b"),
            ret("_tmp3"),
        ];
        let mut stmts = vec![if_("x", arm, vec![]), ret("x")];
        assert!(!hoist_into_copy(&mut stmts, 1, &fin));
    }
}
