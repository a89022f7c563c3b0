//! A `finally:` body whose last statement is a loop left by `break`, on the normal path, where
//! the compiler copied the code after the try statement into each `break` (3.11: a small exit
//! block such as the function's closing `return None`).
//!
//! The handler's copy of the body reads `break` where the loop's way out goes on to the end of
//! the handler (RERAISE); the normal path's copy goes on past its end to the code after the try
//! statement, and where that code is a small exit block the compiler puts it in place of the
//! jump: the `break` pops the loop's iterator, then runs that code, which leaves (`return None`
//! read inside the loop). The loop's normal end runs the same code after it. So the normal copy
//! is the `finally:` body with that code at each of the loop's own `break`s and after the loop:
//! the same as the body followed by that code, which is the code after the statement.

use crate::ast::Stmt;

/// Where `copy` is `fin` but for its last statement, a `for` / `while` loop without `else:`
/// whose own `break`s (not those of loops nested in it) are each `tail` in `copy`, and `copy`
/// goes on with `tail` after the loop: `tail` (which leaves). `None` where it is not so.
pub(super) fn breaks_copied(copy: &[Stmt], fin: &[Stmt]) -> Option<Vec<Stmt>> {
    let n = fin.len();
    if n == 0 || copy.len() <= n || copy[..n - 1] != fin[..n - 1] {
        return None;
    }
    let tail = &copy[n..];
    if !super::finally_exits::ends_leaving(tail) || tail.iter().any(has_break) {
        return None;
    }
    let (c, f) = match (&copy[n - 1], &fin[n - 1]) {
        (
            Stmt::For {
                target: t1,
                iter: i1,
                body: b1,
                orelse: o1,
            },
            Stmt::For {
                target: t2,
                iter: i2,
                body: b2,
                orelse: o2,
            },
        ) if t1 == t2 && i1 == i2 && o1.is_empty() && o2.is_empty() => (b1, b2),
        (
            Stmt::While {
                test: t1,
                body: b1,
                orelse: o1,
            },
            Stmt::While {
                test: t2,
                body: b2,
                orelse: o2,
            },
        ) if t1 == t2 && o1.is_empty() && o2.is_empty() => (b1, b2),
        _ => return None,
    };
    let mut replaced = 0;
    (same_but_breaks(c, f, tail, &mut replaced) && replaced > 0).then(|| tail.to_vec())
}

/// Is `c` the statements `f` with each `break` of the loop they are in (at this level, or in
/// arms of `if` and try statements) written as `tail`?
fn same_but_breaks(c: &[Stmt], f: &[Stmt], tail: &[Stmt], replaced: &mut usize) -> bool {
    let mut j = 0;
    for s in f {
        match s {
            Stmt::Break => {
                if c.get(j..j + tail.len()) != Some(tail) {
                    return false;
                }
                j += tail.len();
                *replaced += 1;
            }
            Stmt::If { test, body, orelse } => {
                let Some(Stmt::If {
                    test: t2,
                    body: b2,
                    orelse: o2,
                }) = c.get(j)
                else {
                    return false;
                };
                if t2 != test
                    || !same_but_breaks(b2, body, tail, replaced)
                    || !same_but_breaks(o2, orelse, tail, replaced)
                {
                    return false;
                }
                j += 1;
            }
            _ => {
                // (other statements alike, with no `break` of this loop in them)
                if c.get(j) != Some(s) || has_break(s) {
                    return false;
                }
                j += 1;
            }
        }
    }
    j == c.len()
}

/// Does `s` hold a `break` of the loop it is in (not of loops nested in it)?
fn has_break(s: &Stmt) -> bool {
    match s {
        Stmt::Break => true,
        Stmt::For { orelse, .. } | Stmt::AsyncFor { orelse, .. } | Stmt::While { orelse, .. } => {
            orelse.iter().any(has_break)
        }
        _ => {
            let mut s = s.clone();
            s.bodies_mut().into_iter().any(|b| b.iter().any(has_break))
        }
    }
}

/// 3.11: a finally handler's body `fin` (its final re-raise `reraise` taken off) whose last
/// statement is a loop without `else:` left by `break`: the compiler copied the handler's
/// re-raise (the code after the loop, the end of the handler) into each `break`, after the pop of
/// the loop's iterator, so those arms end with `reraise`. Running on to the handler's end from
/// there re-raises alike: each such end of an arm of the loop's own (not of a loop nested in it)
/// is `break`.
pub(super) fn reraise_as_break(fin: &mut [Stmt], reraise: &[Stmt]) {
    if reraise.is_empty() {
        return;
    }
    if let Some(
        Stmt::For { body, orelse, .. }
        | Stmt::AsyncFor { body, orelse, .. }
        | Stmt::While { body, orelse, .. },
    ) = fin.last_mut()
    {
        if orelse.is_empty() {
            arms_to_break(body, reraise);
        }
    }
}

fn arms_to_break(stmts: &mut Vec<Stmt>, reraise: &[Stmt]) {
    if stmts.ends_with(reraise) {
        stmts.truncate(stmts.len() - reraise.len());
        stmts.push(Stmt::Break);
    }
    for s in stmts.iter_mut() {
        if let Stmt::If { body, orelse, .. } = s {
            arms_to_break(body, reraise);
            arms_to_break(orelse, reraise);
        }
    }
}
