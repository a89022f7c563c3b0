//! 3.11+ except clauses whose end the compiler copied the code after the try statement into, in
//! an arm of a statement of the clause.
//!
//! The compiler copies a small exit block (`return y`) into each jump to it; the end of an except
//! clause is POP_EXCEPT then a jump to the code after the statement, so an arm that ends the
//! clause there comes out as POP_EXCEPT (the `exprs::POP_EXCEPT` marker), the unbinding of an
//! `except ... as name:` name, and the copy. Read as it is, that is `return y` inside the clause,
//! which compiles to LOAD y; SWAP 2; POP_EXCEPT; RETURN_VALUE: a `return` in a clause computes its
//! value before the POP_EXCEPT. A value other than a constant computed after it is the code after
//! the statement. (`except_exit.rs` takes such a copy at the clause's own end; this one is nested
//! in an `if` arm, or the `else:` part of a try statement ending the clause.)
//!
//! Such arm ends are marked ([`mark_nested`], before the markers go) and, once the try statement
//! knows the code after it, resolved ([`resolve`]): where that code is the same statement, each
//! marked arm goes to the clause's end instead: an arm whose statement ends the clause just loses
//! the copy; one of an `if` followed by more of the clause takes that rest into its other arm
//! (`if c: A; return y` then `B` is `if c: A  else: B`). Where that cannot be said (the arm in a
//! loop or with statement, both arms marked with code after the `if`), or the code after the
//! statement differs, the marks go and the reading stays, which behaves the same.

use crate::ast::{Expr, Stmt};
use crate::exprs::POP_EXCEPT;

/// The mark before an arm's end copied from the code after the try statement.
const CLAUSE_END: &str = "\u{0}clause_end_copy";

fn is_name(s: &Stmt, name: &str) -> bool {
    matches!(s, Stmt::Expr { value: Expr::Name { id, .. } } if id == name)
}

fn is_mark(s: &Stmt) -> bool {
    is_name(s, CLAUSE_END)
}

/// `x = None; del x` at the start of `s`.
fn is_unbind(s: &[Stmt]) -> bool {
    matches!(s, [Stmt::Assign { targets, value: Expr::Constant { value: crate::ast::Constant::None, .. } }, Stmt::Delete { targets: d }, ..]
        if matches!((targets.as_slice(), d.as_slice()), ([Expr::Name { id: a, .. }], [Expr::Name { id: b, .. }]) if a == b))
}

/// A `return` of a value other than a constant.
fn returns_computed(s: &Stmt) -> bool {
    matches!(s, Stmt::Return { value: Some(v) } if !matches!(v, Expr::Constant { .. }))
}

/// Where the POP_EXCEPT markers (each with its unbinding) before a final `return` of a computed
/// value start in `stmts`.
fn copy_start(stmts: &[Stmt]) -> Option<usize> {
    let (last, _) = stmts.split_last()?;
    if !returns_computed(last) {
        return None;
    }
    let end = stmts.len() - 1;
    // scan back over (marker, unbinding?) runs
    let mut start = end;
    loop {
        if start >= 3 && is_unbind(&stmts[start - 2..]) && is_name(&stmts[start - 3], POP_EXCEPT) {
            start -= 3;
        } else if start >= 1 && is_name(&stmts[start - 1], POP_EXCEPT) {
            start -= 1;
        } else {
            break;
        }
    }
    (start < end).then_some(start)
}

/// Mark the arm ends nested in a clause's statements `stmts` (in `if` arms and try statements,
/// not its own end) that are a copy of the code after the try statement.
pub(super) fn mark_nested(stmts: &mut [Stmt]) {
    for s in stmts.iter_mut() {
        match s {
            Stmt::If { body, orelse, .. } => {
                mark_arm(body);
                mark_arm(orelse);
            }
            Stmt::Try {
                body,
                handlers,
                orelse,
                finalbody,
            } if finalbody.is_empty() => {
                mark_arm(body);
                mark_arm(orelse);
                handlers.iter_mut().for_each(|h| mark_arm(&mut h.body));
            }
            _ => {}
        }
    }
}

fn mark_arm(stmts: &mut Vec<Stmt>) {
    mark_nested(stmts);
    if let Some(k) = copy_start(stmts) {
        stmts.insert(
            k,
            Stmt::Expr {
                value: Expr::name(CLAUSE_END),
            },
        );
    }
}

/// Resolve the marks in the clauses `bodies` once the code after the try statement is known
/// (`after`; `usable` false where it cannot be used: a `finally:` part, except*): see the module.
pub(super) fn resolve<'a>(
    bodies: impl Iterator<Item = &'a mut Vec<Stmt>>,
    after: &[Stmt],
    usable: bool,
) {
    for body in bodies {
        if !has_mark(body) {
            continue;
        }
        let s = match after {
            [s] if usable && returns_computed(s) => Some(s),
            _ => None,
        };
        let mut tried = body.clone();
        if s.is_some_and(|s| to_end(&mut tried, s)) && !has_mark(&tried) {
            *body = if tried.is_empty() {
                vec![Stmt::Pass]
            } else {
                tried
            };
        } else {
            drop_marks(body);
        }
    }
}

/// Where no clause's own end told the code after the try statement (`hoist_leaving_tail` found
/// none), but the normal path's code after the body (`rest`) ends with the `return` that marked arms
/// of the clauses copied, and every clause either ends with its own copy of it (`copies`, as
/// `except_exit.rs` found them) or never completes but through its marked arms: that `return` is
/// the code after the statement (taken from `rest` and returned), the clauses' copies go, and the
/// marked arms go to the clauses' ends ([`resolve`] then finds the code after the statement).
///
/// Marks carried up from a try statement ending the body ([`mark_own_copies`]) count too, where
/// `rest` is then nothing else: the body's end is the statement's.
pub(super) fn hoist_marked(
    handlers: &mut [crate::ast::ExceptHandler],
    copies: &[usize],
    rest: &mut Vec<Stmt>,
    body: &[Stmt],
) -> Option<Vec<Stmt>> {
    let s = rest.last().filter(|s| returns_computed(s))?.clone();
    let in_body = rest.len() == 1
        && matches!(body.last(), Some(t @ Stmt::Try { .. }) if marked_somewhere(std::slice::from_ref(t), &s));
    if !in_body && !handlers.iter().any(|h| marked_somewhere(&h.body, &s)) {
        return None;
    }
    for (k, h) in handlers.iter().enumerate() {
        let own_copy = copies.contains(&k) && h.body.last() == Some(&s);
        if !own_copy && !never_completes(&h.body) {
            return None;
        }
    }
    for (k, h) in handlers.iter_mut().enumerate() {
        if copies.contains(&k) && h.body.last() == Some(&s) {
            h.body.pop();
            if h.body.is_empty() {
                h.body.push(Stmt::Pass);
            }
        }
    }
    rest.pop();
    Some(vec![s])
}

/// The clauses' own copies at their ends (`copies`, as `except_exit.rs` found them), marked too:
/// the try statement ends an enclosing try body, and the enclosing statement resolves them.
pub(super) fn mark_own_copies(handlers: &mut [crate::ast::ExceptHandler], copies: &[usize]) {
    for &k in copies {
        if let Some(h) = handlers.get_mut(k) {
            let n = h.body.len();
            if n > 0 && returns_computed(&h.body[n - 1]) && !(n > 1 && is_mark(&h.body[n - 2])) {
                h.body.insert(
                    n - 1,
                    Stmt::Expr {
                        value: Expr::name(CLAUSE_END),
                    },
                );
            }
        }
    }
}

/// Does a mark before `s` end an arm somewhere in `stmts`?
fn marked_somewhere(stmts: &[Stmt], s: &Stmt) -> bool {
    marked_end(stmts, s).is_some()
        || stmts.iter().any(|x| match x {
            Stmt::If { body, orelse, .. } => {
                marked_somewhere(body, s) || marked_somewhere(orelse, s)
            }
            Stmt::Try {
                body,
                handlers,
                orelse,
                ..
            } => {
                marked_somewhere(body, s)
                    || marked_somewhere(orelse, s)
                    || handlers.iter().any(|h| marked_somewhere(&h.body, s))
            }
            _ => false,
        })
}

/// Does control never come out of the end of `stmts` (every way ends with `return`, `raise`,
/// `break` or `continue`), as read before the marked arms go to the clause's end?
fn never_completes(stmts: &[Stmt]) -> bool {
    match stmts.last() {
        Some(Stmt::Return { .. } | Stmt::Raise { .. } | Stmt::Break | Stmt::Continue) => true,
        Some(Stmt::If { body, orelse, .. }) => never_completes(body) && never_completes(orelse),
        Some(Stmt::Try {
            body,
            handlers,
            orelse,
            finalbody,
        }) if finalbody.is_empty() => {
            let normal = match orelse.is_empty() {
                true => never_completes(body),
                false => never_completes(orelse),
            };
            normal && handlers.iter().all(|h| never_completes(&h.body))
        }
        _ => false,
    }
}

/// Does the arm end `[mark, markers and unbindings..., s]` end `stmts`? Its length if so.
fn marked_end(stmts: &[Stmt], s: &Stmt) -> Option<usize> {
    let k = stmts.iter().rposition(is_mark)?;
    let rest = &stmts[k + 1..];
    let (last, between) = rest.split_last()?;
    let only_markers = between.iter().all(|x| is_name(x, POP_EXCEPT));
    (last == s && only_markers).then_some(rest.len() + 1)
}

/// Make the marked arm ends in `stmts`, whose end is the clause's end, go there; false where a
/// mark is where that cannot be said.
fn to_end(stmts: &mut Vec<Stmt>, s: &Stmt) -> bool {
    if let Some(n) = marked_end(stmts, s) {
        stmts.truncate(stmts.len() - n);
    }
    let mut k = 0;
    while k < stmts.len() {
        let last = k + 1 == stmts.len();
        let ok = match &mut stmts[k] {
            Stmt::If { body, orelse, .. } if !last => {
                let (b, o) = (marked_end(body, s), marked_end(orelse, s));
                match (b, o) {
                    (Some(n), None) => {
                        body.truncate(body.len() - n);
                        let rest: Vec<Stmt> = stmts.drain(k + 1..).collect();
                        if let Stmt::If { orelse, .. } = &mut stmts[k] {
                            orelse.extend(rest);
                        }
                        continue;
                    }
                    (None, Some(n)) if !body.is_empty() => {
                        orelse.truncate(orelse.len() - n);
                        let rest: Vec<Stmt> = stmts.drain(k + 1..).collect();
                        if let Stmt::If { body, .. } = &mut stmts[k] {
                            body.extend(rest);
                        }
                        continue;
                    }
                    _ => !has_mark(body) && !has_mark(orelse),
                }
            }
            Stmt::If { body, orelse, .. } => {
                let b = to_end(body, s);
                if body.is_empty() {
                    body.push(Stmt::Pass);
                }
                b && to_end(orelse, s)
            }
            Stmt::Try {
                body,
                handlers,
                orelse,
                finalbody,
            } if last && finalbody.is_empty() => {
                let mut ok = handlers.iter_mut().all(|h| {
                    let r = to_end(&mut h.body, s);
                    if h.body.is_empty() {
                        h.body.push(Stmt::Pass);
                    }
                    r
                });
                if orelse.is_empty() {
                    ok &= to_end(body, s);
                    if body.is_empty() {
                        body.push(Stmt::Pass);
                    }
                } else {
                    ok &= !has_mark(body) && to_end(orelse, s);
                }
                ok
            }
            other => !has_mark(std::slice::from_ref(other)),
        };
        if !ok {
            return false;
        }
        k += 1;
    }
    true
}

/// Does a mark remain in `stmts` (nested function bodies aside)?
fn has_mark(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        _ if is_mark(s) => true,
        Stmt::If { body, orelse, .. }
        | Stmt::For { body, orelse, .. }
        | Stmt::AsyncFor { body, orelse, .. }
        | Stmt::While { body, orelse, .. } => has_mark(body) || has_mark(orelse),
        Stmt::Try {
            body,
            handlers,
            orelse,
            finalbody,
        } => {
            has_mark(body)
                || has_mark(orelse)
                || has_mark(finalbody)
                || handlers.iter().any(|h| has_mark(&h.body))
        }
        Stmt::With { body, .. } | Stmt::AsyncWith { body, .. } => has_mark(body),
        Stmt::Match { cases, .. } => cases.iter().any(|c| has_mark(&c.body)),
        _ => false,
    })
}

/// Remove every mark from `stmts` (the reading as it was).
pub(super) fn drop_marks(stmts: &mut Vec<Stmt>) {
    stmts.retain(|s| !is_mark(s));
    for s in stmts.iter_mut() {
        match s {
            Stmt::If { body, orelse, .. }
            | Stmt::For { body, orelse, .. }
            | Stmt::AsyncFor { body, orelse, .. }
            | Stmt::While { body, orelse, .. } => {
                drop_marks(body);
                drop_marks(orelse);
            }
            Stmt::Try {
                body,
                handlers,
                orelse,
                finalbody,
            } => {
                drop_marks(body);
                drop_marks(orelse);
                drop_marks(finalbody);
                handlers.iter_mut().for_each(|h| drop_marks(&mut h.body));
            }
            Stmt::With { body, .. } | Stmt::AsyncWith { body, .. } => drop_marks(body),
            Stmt::Match { cases, .. } => cases.iter_mut().for_each(|c| drop_marks(&mut c.body)),
            _ => {}
        }
    }
}

impl super::Structurer<'_> {
    /// Is the try statement being built at the top level of an enclosing try body (not a with
    /// body), whose end is then that body's end (3.11+)?
    pub(super) fn in_try_body_top(&self) -> bool {
        match self.try_body.last() {
            Some(&(h, None))
                if self.legacy.is_none() && self.try_depth.last() == Some(&self.nesting) =>
            {
                !self
                    .instrs(h)
                    .iter()
                    .any(|i| i.op.name == "WITH_EXCEPT_START")
            }
            _ => false,
        }
    }
}
