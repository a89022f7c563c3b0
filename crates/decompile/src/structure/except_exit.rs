//! 3.11+ except clauses left after their `POP_EXCEPT` (the Sim marks it with `exprs::POP_EXCEPT`
//! where no value computed in the clause is carried past it). After the marker the compiler writes
//! only its own leaving code: the unbinding of an `except ... as name:` name, then `return` of a
//! constant or a name, `break`, `continue`, or nothing (the clause's end). Anything else is code
//! from after the try statement that the compiler copied into the clause (3.12+ copy small exit
//! blocks): printed in the clause it would run while the exception is still being handled
//! (`sys.exc_info()`, `__context__` of a new exception), so it is split off as the clause's tail
//! for the try statement to place after itself, or refused.

use crate::ast::{Constant, Expr, Stmt};
use crate::exprs::POP_EXCEPT;

fn is_marker(s: &Stmt) -> bool {
    matches!(s, Stmt::Expr { value: Expr::Name { id, .. } } if id == POP_EXCEPT)
}

/// `name = None; del name` at the start of `s`.
fn is_unbind(s: &[Stmt]) -> bool {
    matches!(s, [Stmt::Assign { targets, value: Expr::Constant { value: Constant::None, .. } }, Stmt::Delete { targets: d }, ..]
        if matches!((targets.as_slice(), d.as_slice()), ([Expr::Name { id: a, .. }], [Expr::Name { id: b, .. }]) if a == b))
}

/// What only leaves the handler (no code that could observe the exception being handled).
/// (A `continue` to a loop headed by a NOP comes with its written-continue mark, alone until the
/// loop's body is done: `nop_header::written_continue_mark`.)
pub(super) fn leaving(rest: &[Stmt]) -> bool {
    match rest {
        [] | [Stmt::Break] | [Stmt::Continue] => true,
        [m] | [m, Stmt::Continue] if super::nop_header::is_mark(m) => true,
        [Stmt::Return { value }] => matches!(
            value,
            None | Some(Expr::Name { .. } | Expr::Constant { .. })
        ),
        _ => false,
    }
}

/// Remove the POP_EXCEPT markers of an except clause's (or `finally:` handler's) statements that
/// only leaving code follows. Code after a marker at the clause's own level is split off and
/// returned (the marker and the compiler's unbindings stay out of it): code after the statement
/// copied into the clause, or an enclosing `finally:` body's copy before a way out. A marker nested
/// in a statement of the clause with more after it stays, for an enclosing `finally:` to recognise
/// its copy there (`drop_marker_before`); one left over refuses the code object.
pub(super) fn split_pop_except(stmts: &mut Vec<Stmt>) -> Option<Vec<Stmt>> {
    let mut tail = None;
    if let Some(k) = stmts.iter().position(is_marker) {
        // markers of the handlers being left, each with its unbinding
        let mut j = k;
        while j < stmts.len() && is_marker(&stmts[j]) {
            j += 1;
            if is_unbind(&stmts[j..]) {
                j += 2;
            }
        }
        if !leaving(&stmts[j..]) {
            tail = Some(stmts.split_off(j));
        }
        let mut x = k;
        while x < stmts.len() {
            if is_marker(&stmts[x]) {
                stmts.remove(x);
            } else {
                x += 1;
            }
        }
    }
    for s in stmts.iter_mut() {
        nested(s);
    }
    tail
}

/// A tail split off by [`split_pop_except`] that is not the code after the statement: back at the
/// end of the clause, after its marker.
pub(super) fn put_back(stmts: &mut Vec<Stmt>, tail: Vec<Stmt>) {
    stmts.push(Stmt::Expr {
        value: Expr::name(POP_EXCEPT),
    });
    stmts.extend(tail);
}

/// A `finally:` body's copy at `start..end` of `stmts`, before a way out (removed by the caller):
/// the POP_EXCEPT marker right before it goes too (1 returned) when the way out only leaves.
pub(crate) fn drop_marker_before(stmts: &mut Vec<Stmt>, start: usize, end: usize) -> usize {
    let after = stmts.get(end..end + 1).unwrap_or(&[]);
    if start > 0 && is_marker(&stmts[start - 1]) && leaving(after) {
        stmts.remove(start - 1);
        return 1;
    }
    0
}

/// The markers inside statement `s` (its arms) that only leaving code follows go.
fn nested(s: &mut Stmt) {
    let arm = |b: &mut Vec<Stmt>| {
        if let Some(t) = split_pop_except(b) {
            put_back(b, t);
        }
    };
    match s {
        Stmt::If { body, orelse, .. }
        | Stmt::For { body, orelse, .. }
        | Stmt::AsyncFor { body, orelse, .. }
        | Stmt::While { body, orelse, .. } => {
            arm(body);
            arm(orelse);
        }
        Stmt::Try {
            body,
            handlers,
            orelse,
            finalbody,
        } => {
            arm(body);
            arm(orelse);
            arm(finalbody);
            handlers.iter_mut().for_each(|h| arm(&mut h.body));
        }
        Stmt::With { body, .. } | Stmt::AsyncWith { body, .. } => arm(body),
        Stmt::Match { cases, .. } => cases.iter_mut().for_each(|c| arm(&mut c.body)),
        _ => {}
    }
}

/// The normal path's code after a try body (`rest`) is the copy of the `finally:` body `fin`,
/// then what follows the statement: that, if so. Where `fin` ends with a statement the code after
/// the try statement was copied into the ends of (the compiler copies small exits: all of it when
/// it is only a way out, such as `return None`), that copy is the same as going on after it.
pub(super) fn after_finally_copy(rest: &[Stmt], fin: &[Stmt]) -> Option<Vec<Stmt>> {
    let n = fin.len();
    if rest.starts_with(fin) {
        return Some(rest[n..].to_vec());
    }
    if n == 0 || rest.len() < n || rest[..n - 1] != fin[..n - 1] {
        return None;
    }
    let (copy, after) = rest.split_at(n);
    let after = if after.is_empty() {
        // all of it copied: a way out ending the first arm of the final statement
        let exit = first_arm_end(&copy[n - 1])?;
        if !matches!(
            exit,
            Stmt::Return { .. } | Stmt::Break | Stmt::Continue | Stmt::Raise { .. }
        ) {
            return None;
        }
        vec![exit.clone()]
    } else {
        after.to_vec()
    };
    let mut last = vec![copy[n - 1].clone()];
    strip_copied_end(&mut last, &after);
    if last.as_slice() != &fin[n - 1..] {
        // (copies of the exit nested deeper: see `finally_tail`)
        last = vec![copy[n - 1].clone()];
        super::finally_tail::strip_nested_end(&mut last, &after);
    }
    (last.as_slice() == &fin[n - 1..]).then_some(after)
}

/// The last statement of the first way through `s` (an `if`'s body, a `try`'s body or `else:`).
fn first_arm_end(s: &Stmt) -> Option<&Stmt> {
    let arm = match s {
        Stmt::If { body, .. } => body,
        Stmt::Try { body, orelse, .. } if orelse.is_empty() => body,
        Stmt::Try { orelse, .. } => orelse,
        _ => return None,
    };
    let last = arm.last()?;
    match last {
        Stmt::If { .. } | Stmt::Try { .. } => first_arm_end(last),
        _ => Some(last),
    }
}

/// Remove `t` from the ends of the ways through `stmts` (its end, or the arms of a final `if` or
/// `try` without `finally:`), where the compiler copied the code that follows.
pub(super) fn strip_copied_end(stmts: &mut Vec<Stmt>, t: &[Stmt]) {
    if stmts.ends_with(t) {
        stmts.truncate(stmts.len() - t.len());
        return;
    }
    let arm = |b: &mut Vec<Stmt>| {
        let had = !b.is_empty();
        strip_copied_end(b, t);
        if had && b.is_empty() {
            b.push(Stmt::Pass);
        }
    };
    match stmts.last_mut() {
        Some(Stmt::If { body, orelse, .. }) => {
            arm(body);
            strip_copied_end(orelse, t);
        }
        Some(Stmt::Try {
            body,
            handlers,
            orelse,
            finalbody,
        }) if finalbody.is_empty() => {
            handlers.iter_mut().for_each(|h| arm(&mut h.body));
            // (the body's own end only without `else:`, which it would otherwise run)
            if orelse.is_empty() {
                arm(body);
            } else {
                strip_copied_end(orelse, t);
            }
        }
        _ => {}
    }
}

/// Does a way through `stmts` (or a statement list nested in it, not in nested functions) end with
/// `fin`?
pub(super) fn ends_with_copy(stmts: &[Stmt], fin: &[Stmt]) -> bool {
    if stmts.ends_with(fin) {
        return true;
    }
    stmts.iter().any(|s| match s {
        Stmt::If { body, orelse, .. }
        | Stmt::For { body, orelse, .. }
        | Stmt::AsyncFor { body, orelse, .. }
        | Stmt::While { body, orelse, .. } => {
            ends_with_copy(body, fin) || ends_with_copy(orelse, fin)
        }
        Stmt::Try {
            body,
            handlers,
            orelse,
            finalbody,
        } => {
            ends_with_copy(body, fin)
                || ends_with_copy(orelse, fin)
                || ends_with_copy(finalbody, fin)
                || handlers.iter().any(|h| ends_with_copy(&h.body, fin))
        }
        Stmt::With { body, .. } | Stmt::AsyncWith { body, .. } => ends_with_copy(body, fin),
        Stmt::Match { cases, .. } => cases.iter().any(|c| ends_with_copy(&c.body, fin)),
        _ => false,
    })
}

impl super::Structurer<'_> {
    /// Where the except clauses of handler `h` (up to its cleanup block) go on normally, when they
    /// all go to one block outside the handler's code other than the enclosing loop's header or
    /// exit (`continue` / `break`): the end of the statement.
    pub(super) fn clauses_join(
        &self,
        h: usize,
        cleanup: usize,
        lp: Option<&super::LoopCtx>,
    ) -> Option<usize> {
        let mut join = None;
        for x in h..cleanup {
            for e in &self.cfg.blocks[x].succs {
                let inside = (h..=cleanup).contains(&e.to);
                // (a `break` goes to the loop's exit, or past it where that is a lone jump: a threaded one)
                let in_loop = lp.is_some_and(|c| {
                    e.to == c.header || Some(e.to) == c.exit || self.threaded_break(e.to, c)
                });
                if e.kind == crate::flow::EdgeKind::Exception || inside || in_loop {
                    continue;
                }
                match join {
                    None => join = Some(e.to),
                    Some(j) if j == e.to => {}
                    Some(_) => return None,
                }
            }
        }
        join
    }

    /// The code after a try body on the normal path (`else:`, or the copy of `finally:` and what
    /// follows), from `a` to the statement's `end`. A try statement that is the last of an
    /// enclosing try (or with) body: that body ends where this code leaves its range, so this code
    /// does too, and the statement's end is there (else, with no `end`, the code after the
    /// enclosing statement would come out in this `else:`).
    pub(super) fn else_region(
        &mut self,
        a: usize,
        end: Option<usize>,
        base: &[crate::exprs::Val],
        carry: Vec<crate::exprs::Val>,
        lp: Option<&super::LoopCtx>,
    ) -> Result<(Vec<Stmt>, Option<usize>), crate::error::DecompileError> {
        let enclosing = match self.try_body.last() {
            Some(&(h, None)) if self.try_depth.last() == Some(&self.nesting) => Some(h),
            _ => None,
        };
        let Some(h) = enclosing.filter(|_| self.legacy.is_none()) else {
            return Ok((self.region_taking_carry(a, end, base, carry, lp)?, end));
        };
        self.try_body.push((h, None));
        self.try_depth.push(self.nesting + 1);
        let out = self.region_taking_carry(a, end, base, carry, lp);
        let found = self.try_body.pop().and_then(|t| t.1);
        self.try_depth.pop();
        let out = out?;
        match (found, end) {
            (None, _) => Ok((out, end)),
            (Some(x), None) => Ok((out, Some(x))),
            (Some(x), Some(e)) if x == e => Ok((out, end)),
            _ => Err(self.err("a try body that ends in two places")),
        }
    }

    /// The code after a try statement that the compiler copied into its clauses (`tails`, split off
    /// after their POP_EXCEPT): when all alike and either the end of the normal path's code after
    /// the body (`rest`, from which it is then taken: it goes after the statement, returned) or the
    /// start of what follows the statement at `end` (where the caller structures it), or nothing
    /// follows the statement, the clauses lose it. None: not that code.
    pub(super) fn place_copied_tail(
        &mut self,
        tails: &[(usize, Vec<Stmt>)],
        rest: &mut Vec<Stmt>,
        end: Option<usize>,
        body_completes: bool,
        base: &[crate::exprs::Val],
        lp: Option<&super::LoopCtx>,
    ) -> Option<Vec<Stmt>> {
        let (_, t) = tails.first()?;
        if tails.iter().any(|(_, x)| x != t) {
            return None;
        }
        let n = t.len();
        if rest.len() >= n && rest[rest.len() - n..] == t[..] {
            rest.truncate(rest.len() - n);
            return Some(t.clone());
        }
        // nothing follows the statement (the body and the clauses without the copy never come
        // out of it: the normal path's code ran until control left): the copy goes after it
        // (not where the body does come out, into the stop of the region around the statement,
        // an enclosing `if` arm's end: the copy is then the clause's own way out, `return` in an
        // except clause in a with body, whose exit call comes between the POP_EXCEPT and the
        // return: placed after the statement, it returned on the normal path too)
        let Some(e) = end else {
            if body_completes && !super::finally_exits::ends_leaving(rest) {
                return None;
            }
            // (its `return`'s value was computed after the POP_EXCEPT, after any `finally:`
            // copy before it: for an enclosing `finally:` to tell, `late_exit.rs`)
            if super::late_exit::returns_computed(t) {
                self.clause_late_tails.push(t.clone());
            }
            return Some(t.clone());
        };
        // what follows the statement must start with the same code (structured once here to
        // compare, then again by the caller)
        let saved = (self.visits.clone(), self.emitted.clone(), self.work);
        let probe = self.region(e, None, base, lp).ok();
        (self.visits, self.emitted, self.work) = saved;
        if probe.is_some_and(|p| p.len() >= n && p[..n] == t[..]) {
            return Some(Vec::new());
        }
        None
    }
}

/// Does a clause's code (before [`split_pop_except`]) end with a statement that only leaves
/// (`return y`) computed after the clause's POP_EXCEPT (and the unbinding of its name)? A
/// `return` written in the clause computes its value first and moves it under the saved
/// exception; code after the try statement that the compiler copied into the clause runs after.
pub(super) fn ends_with_exit_after_marker(stmts: &[Stmt]) -> bool {
    let Some((last, before)) = stmts.split_last() else {
        return false;
    };
    if !matches!(last, Stmt::Return { .. }) || !leaving(std::slice::from_ref(last)) {
        return false;
    }
    let before = match before.len() {
        n if n >= 2 && is_unbind(&before[n - 2..]) => &before[..n - 2],
        _ => before,
    };
    before.last().is_some_and(is_marker)
}

/// Whether a `with` / `async with` statement ends `stmts` (or an arm of the final statement): its
/// body may never complete, but where the manager suppresses an exception control goes on after it,
/// to the end of `stmts`.
pub(super) fn ends_in_with(stmts: &[Stmt]) -> bool {
    match stmts.last() {
        Some(Stmt::With { .. } | Stmt::AsyncWith { .. }) => true,
        Some(Stmt::If { body, orelse, .. }) => ends_in_with(body) || ends_in_with(orelse),
        Some(Stmt::Try {
            body,
            handlers,
            orelse,
            ..
        }) => {
            ends_in_with(body)
                || ends_in_with(orelse)
                || handlers.iter().any(|h| ends_in_with(&h.body))
        }
        _ => false,
    }
}

/// 3.12+ copy a small exit block into each jump to it: `try: B except E: C` followed by `return y`
/// ends the clause with its own `return y` after the POP_EXCEPT, the same statement the normal path
/// runs last after the body (`rest`, all that follows the body). Where every clause ends with that
/// statement or never comes out (raise, return, break, continue), the statement is the code after
/// the try statement: dropped from the clauses and returned, to follow the statement once. (A source
/// that wrote it in each clause runs and compiles the same.) Where the body never completes
/// normally (`body_completes` false), the copies are all there is of that code.
pub(super) fn hoist_leaving_tail(
    handlers: &mut [crate::ast::ExceptHandler],
    copies: &[usize],
    rest: &mut Vec<Stmt>,
    body_completes: bool,
) -> Option<Vec<Stmt>> {
    // the last statement of the first clause holding a copy
    let copy = copies
        .first()
        .and_then(|&k| handlers.get(k))
        .and_then(|h| h.body.last())
        .cloned();
    // (an `else:` part that never completes, `raise` at its end, runs no code after the
    // statement either: the clauses' copies are all there is of it; only a copy that computes a
    // name's value after the POP_EXCEPT: a clause's own `return name` computes it first, but its
    // own `return CONST` reads as the copy does)
    let else_leaves = matches!(rest.last(), Some(Stmt::Raise { .. }))
        && matches!(
            copy,
            Some(Stmt::Return {
                value: Some(Expr::Name { .. })
            })
        );
    let from_rest = !else_leaves && (!rest.is_empty() || body_completes);
    let s = match rest.as_slice() {
        _ if else_leaves => copy?,
        [s] => s.clone(),
        // (an `else:` part that falls into the statement: only where the clauses' copy computes
        // a value after their POP_EXCEPT, which a clause's own `return x` computes before it; a
        // copied `return None` reads as well as the clause's own, with the code after the
        // statement)
        [.., s @ Stmt::Return {
            value: Some(Expr::Name { .. }),
        }] => s.clone(),
        // (a body that never completes normally runs no code after it: the clauses' copies are
        // all there is of the code after the statement)
        [] if !body_completes => copy?,
        _ => return None,
    };
    if !leaving(std::slice::from_ref(&s)) || matches!(s, Stmt::Break | Stmt::Continue) {
        return None;
    }
    let mut copied = 0;
    for (k, h) in handlers.iter().enumerate() {
        match h.body.last() {
            Some(last) if *last == s && copies.contains(&k) => copied += 1,
            Some(Stmt::Raise { .. } | Stmt::Return { .. } | Stmt::Break | Stmt::Continue) => {}
            _ => return None,
        }
    }
    if copied == 0 {
        return None;
    }
    for (k, h) in handlers.iter_mut().enumerate() {
        if h.body.last() == Some(&s) && copies.contains(&k) {
            h.body.pop();
            if h.body.is_empty() {
                h.body.push(Stmt::Pass);
            }
        }
    }
    if from_rest {
        rest.pop();
    }
    Some(vec![s])
}
