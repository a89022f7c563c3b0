//! `try: ... finally: F` left by `return` / `break` / `continue`: CPython (3.9+) copies F before
//! each way out of the body, and on the normal path after it. Where two of those ways reach the
//! same place (a `continue` in the body and the loop's own jump back after the statement, both
//! going to the loop's header), the structurer finds one exit statement after an `if` whose arms
//! each end with their copy of F: `if c: F else: B; F` then `continue`. The copies are recognised
//! there, at the end of every arm that falls off into the exit, and the exit goes into those arms
//! (each arm now leaves through the statement, running F once, as the bytecode does).

use super::{except_exit, LoopCtx, Structurer};
use crate::ast::{Expr, Stmt};
use crate::exprs::{Val, EXC, POP_EXCEPT};

/// Does `s` never complete normally (control does not fall off its end)?
fn leaves(s: &Stmt) -> bool {
    matches!(
        s,
        Stmt::Return { .. } | Stmt::Break | Stmt::Continue | Stmt::Raise { .. }
    )
}

/// End `arm` (code that falls off into `exit`) with `exit` instead of its copy of `fin`: at its end,
/// or at the ends of the arms of a final `if`. False (and `arm` unusable) where a way off the arm's
/// end has no copy.
fn end_with_exit(arm: &mut Vec<Stmt>, fin: &[Stmt], exit: &Stmt) -> bool {
    let n = fin.len();
    if n > 0 && arm.len() >= n && arm[arm.len() - n..] == *fin {
        let start = arm.len() - n;
        arm.truncate(start);
        arm.push(exit.clone());
        // (3.11+: the copy after an except clause's POP_EXCEPT, marked there)
        except_exit::drop_marker_before(arm, start, start);
        return true;
    }
    match arm.last_mut() {
        Some(s) if leaves(s) => true,
        Some(Stmt::If { body, orelse, .. }) => {
            !orelse.is_empty() && end_with_exit(body, fin, exit) && end_with_exit(orelse, fin, exit)
        }
        _ => false,
    }
}

/// `stmts[i]` is a way out of a try body (`return` / `break` / `continue`) without the copy of
/// the finally body `fin` right before it. Where the statement before it is an `if` whose every
/// arm falls off into it through a copy, the exit goes into the arms in place of the copies; an
/// `else:` after an arm that leaves then follows the `if` (the same code). Returns where the caller
/// goes on (past the statements it has checked), or `None`: nothing changed, refused.
pub(super) fn distribute_exit(stmts: &mut Vec<Stmt>, i: usize, fin: &[Stmt]) -> Option<usize> {
    let prev = i.checked_sub(1)?;
    let exit = stmts.get(i)?.clone();
    let Some(Stmt::If { body, orelse, .. }) = stmts.get(prev) else {
        return None;
    };
    if orelse.is_empty() {
        return None;
    }
    let (mut body, mut orelse) = (body.clone(), orelse.clone());
    if !end_with_exit(&mut body, fin, &exit) || !end_with_exit(&mut orelse, fin, &exit) {
        return None;
    }
    // `if c: ...; leave  else: B` is `if c: ...; leave` followed by B
    let flat = body.last().is_some_and(leaves);
    let rest = if flat {
        std::mem::take(&mut orelse)
    } else {
        Vec::new()
    };
    if let Some(Stmt::If {
        body: b, orelse: o, ..
    }) = stmts.get_mut(prev)
    {
        *b = body;
        *o = orelse;
    }
    let k = rest.len();
    stmts.splice(i..=i, rest);
    Some(i + k)
}

/// The try body `body` (the statement has no normal way out of its range) ends with a way out
/// (`return` / `break` / `continue`) reached from the normal path's copy of `fin` and from other
/// ways out through copies of their own: the normal path's copy is the last one in code order
/// (the compiler lays it out after the body). Either the way out follows an `if` whose arms fall
/// off into it through their copies, or it ends the last arm of a final `if` (after its copy) and
/// other arms leave the same way. Takes the way out off the body, to follow the statement, and
/// the copies off the rest of the body (as `strip_finally_copies`); `None`: nothing changed.
pub(super) fn normal_path_exit(body: &mut Vec<Stmt>, fin: &[Stmt]) -> Option<Stmt> {
    let n = fin.len();
    if n == 0 {
        return None;
    }
    let i = body.len().checked_sub(1)?;
    let last = body.get(i)?.clone();
    if matches!(last, Stmt::If { .. }) {
        let mut head = body.clone();
        if !super::strip_finally_copies(&mut head, fin) {
            return None;
        }
        let exit = take_last_exit(&mut head)?;
        *body = head;
        return Some(exit);
    }
    if !leaves(&last) || matches!(last, Stmt::Raise { .. }) {
        return None;
    }
    if i >= n && body[i - n..i] == *fin {
        return None;
    }
    let mut head: Vec<Stmt> = body[..i].to_vec();
    if !super::strip_finally_copies(&mut head, fin) || !normal_end(&mut head, fin, &last) {
        return None;
    }
    *body = head;
    Some(last)
}

/// Off the end of the last arm of the final `if` of `stmts` (recursively): the way out there
/// (not `raise`), where the `if`'s other arms end by leaving too; an arm that leaves followed by
/// `else:` is then the `if` followed by the `else:` part.
fn take_last_exit(stmts: &mut Vec<Stmt>) -> Option<Stmt> {
    let Some(Stmt::If { body, orelse, .. }) = stmts.last_mut() else {
        return None;
    };
    if orelse.is_empty() || !ends_leaving(body) {
        return None;
    }
    let exit = match orelse.last() {
        Some(Stmt::If { .. }) => take_last_exit(orelse)?,
        Some(s) if leaves(s) && !matches!(s, Stmt::Raise { .. }) => orelse.pop()?,
        _ => return None,
    };
    let rest = std::mem::take(orelse);
    stmts.extend(rest);
    Some(exit)
}

/// Does every way through `stmts` end by leaving (`return`, `break`, `continue`, `raise`)?
fn ends_leaving(stmts: &[Stmt]) -> bool {
    match stmts.last() {
        Some(Stmt::If { body, orelse, .. }) => ends_leaving(body) && ends_leaving(orelse),
        Some(s) => leaves(s),
        None => false,
    }
}

/// The end of `stmts` is the normal path's end: its copy of `fin` goes; in a final `if`, the last
/// arm's end is (recursively), and the other arm leaves by `exit` in place of its copy.
fn normal_end(stmts: &mut Vec<Stmt>, fin: &[Stmt], exit: &Stmt) -> bool {
    let n = fin.len();
    if stmts.len() >= n && stmts[stmts.len() - n..] == *fin {
        let start = stmts.len() - n;
        stmts.truncate(start);
        return true;
    }
    let Some(Stmt::If { body, orelse, .. }) = stmts.last_mut() else {
        return false;
    };
    if orelse.is_empty() || !end_with_exit(body, fin, exit) || !normal_end(orelse, fin, exit) {
        return false;
    }
    // `if c: ...; leave  else: R` is `if c: ...; leave` followed by R
    if body.last().is_some_and(leaves) {
        let rest = std::mem::take(orelse);
        stmts.extend(rest);
    }
    true
}

/// How a `return` / `break` / `continue` inside a `finally:` handler's body (3.11+) leaves: it
/// pops the exception the handler runs for (the body's base ends with it), POP_EXCEPT restores
/// the one saved under it, and `break` out of a `for` loop pops the loop's iterator too.
pub(super) enum FinallyLeave {
    Break,
    Continue,
    /// Popped part of the way: the leaving code goes on in this block, with the stack left.
    Through(usize),
}

/// Is `v` the marker of the exception an exception handler runs for?
fn is_exc(v: &Val) -> bool {
    matches!(v, Val::Expr(Expr::Name { id, .. }) if id == EXC)
}

impl Structurer<'_> {
    /// A block of a `finally:` handler's body that ends with `left` on the stack, below the
    /// body's `base` (which ends with the exception), and goes on to `next`: the way out of a
    /// `return` / `break` / `continue` in the body, or `None`.
    pub(super) fn finally_leave(
        &self,
        left: &[Val],
        base: &[Val],
        next: Option<usize>,
        lp: Option<&LoopCtx>,
    ) -> Option<FinallyLeave> {
        if self.legacy.is_some() || left.len() >= base.len() || base[..left.len()] != *left {
            return None;
        }
        let next = next?;
        let popped = &base[left.len()..];
        let header = lp.is_some_and(|c| {
            next == c.header || Some(next) == c.guard || self.jumps_straight_to(next, c.header)
        });
        let exit = lp.is_some_and(|c| Some(next) == c.exit);
        match popped {
            [e] if is_exc(e) => {
                if exit && !matches!(left.last(), Some(Val::Iter(_))) {
                    Some(FinallyLeave::Break)
                } else if header {
                    Some(FinallyLeave::Continue)
                } else if !exit && self.live_preds(next) == 1 {
                    Some(FinallyLeave::Through(next))
                } else {
                    None
                }
            }
            [Val::Iter(_), e] if is_exc(e) && exit => Some(FinallyLeave::Break),
            _ => None,
        }
    }
}

impl Structurer<'_> {
    /// 3.12+ `break` inside a `finally:` handler's body as a copy of the loop's exit after the
    /// POP_EXCEPT: is `left` the body's `base` without the exception, popped before it?
    pub(super) fn finally_exc_popped(&self, left: &[Val], base: &[Val]) -> bool {
        self.legacy.is_none()
            && left.len() + 1 == base.len()
            && base[..left.len()] == *left
            && base.last().is_some_and(is_exc)
    }
}

/// In a `finally:` handler's body: the exception marker popped right before the handler's
/// POP_EXCEPT where a `return` / `break` / `continue` leaves (in the body and its `if` arms) goes;
/// the POP_EXCEPT marker stays for `except_exit::split_pop_except`, which takes it where only
/// leaving code follows.
pub(super) fn drop_leaving_exc(stmts: &mut Vec<Stmt>) {
    let is =
        |s: &Stmt, m: &str| matches!(s, Stmt::Expr { value: Expr::Name { id, .. } } if id == m);
    let mut i = 0;
    while i < stmts.len() {
        if is(&stmts[i], EXC) && stmts.get(i + 1).is_some_and(|s| is(s, POP_EXCEPT)) {
            stmts.remove(i);
            continue;
        }
        if let Stmt::If { body, orelse, .. } = &mut stmts[i] {
            drop_leaving_exc(body);
            drop_leaving_exc(orelse);
        }
        i += 1;
    }
}

/// The code after the normal path's copy of `fin` at the start of `rest` (what runs after the
/// body on the normal path), as `except_exit::after_finally_copy`; also where the copy's final
/// `if` leaves one way and the code after the statement leaves the same way on the other, so
/// that the structurer found one `if` of two exits, turned round: `if not c: E  else: E2` for
/// the copy's `if c: E2` followed by `E` (a `continue` or `break` in the finally body, at the
/// end of a loop body).
pub(super) fn after_normal_copy(rest: &[Stmt], fin: &[Stmt]) -> Option<Vec<Stmt>> {
    if let Some(after) = except_exit::after_finally_copy(rest, fin) {
        return Some(after);
    }
    let k = fin.len().checked_sub(1)?;
    if rest.len() <= k || rest[..k] != fin[..k] {
        return None;
    }
    let Stmt::If { test, body, orelse } = &rest[k] else {
        return None;
    };
    let single_exit = |arm: &[Stmt]| match arm {
        [e] if leaves(e) => Some(e.clone()),
        _ => None,
    };
    // `if c: B  else: E` is `if c: B` then E; `if not c: E  else: B` is the same turned round,
    // and `if not c: E` then E is `if c: E` then E
    let mut ways = Vec::new();
    if let Some(e) = single_exit(orelse).filter(|_| !body.is_empty()) {
        ways.push((test.clone(), body.clone(), e, k + 1));
    }
    if let Expr::UnaryOp {
        op: crate::ast::UnaryOp::Not,
        operand,
    } = test
    {
        if let Some(e) = single_exit(body) {
            if !orelse.is_empty() {
                ways.push(((**operand).clone(), orelse.clone(), e, k + 1));
            } else if rest.get(k + 1) == Some(&e) {
                ways.push(((**operand).clone(), body.clone(), e, k + 2));
            }
        }
    }
    ways.into_iter().find_map(|(test, kept, exit, from)| {
        let mut turned = rest[..k].to_vec();
        turned.push(Stmt::If {
            test,
            body: kept,
            orelse: Vec::new(),
        });
        turned.push(exit);
        turned.extend_from_slice(&rest[from..]);
        except_exit::after_finally_copy(&turned, fin)
    })
}
