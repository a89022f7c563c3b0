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

/// Where a nested try statement's copy of its finally body was, before a way out that goes on
/// through the copies of enclosing statements (their finally bodies, `__exit__` calls): each
/// enclosing statement takes its copy off, the last one the marker; one left over refuses.
const UNWIND: &str = "\u{0}unwind";

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

/// Are `stmts` a way out that cannot raise: `break`, `continue`, `return` of a name or constant?
fn only_leaves(stmts: &[Stmt]) -> bool {
    matches!(
        stmts,
        [Stmt::Break]
            | [Stmt::Continue]
            | [Stmt::Return {
                value: None | Some(Expr::Name { .. } | Expr::Constant { .. })
            }]
    )
}

/// Do `stmts` end with `return`, `break`, `continue` or `raise`?
pub(super) fn ends_by_leaving(stmts: &[Stmt]) -> bool {
    stmts.last().is_some_and(leaves)
}

/// Does every way through `stmts` end by leaving (`return`, `break`, `continue`, `raise`)?
pub(super) fn ends_leaving(stmts: &[Stmt]) -> bool {
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

/// ≤3.10: the markers of the exception a handler runs for (type, value, traceback), in stack
/// order.
pub(super) fn legacy_exc_markers() -> [Val; 3] {
    use super::legacy_blocks::{EXC_TB, EXC_TYPE};
    [
        Val::Expr(Expr::name(EXC_TB)),
        Val::Expr(Expr::name(EXC)),
        Val::Expr(Expr::name(EXC_TYPE)),
    ]
}

fn is_legacy_exc(a: &Val, b: &Val, c: &Val) -> bool {
    let [x, y, z] = legacy_exc_markers();
    *a == x && *b == y && *c == z
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
        if left.len() >= base.len() || base[..left.len()] != *left {
            return None;
        }
        let next = next?;
        let popped = &base[left.len()..];
        // (≤3.10: the exception's three values, as one)
        let legacy = self.legacy.is_some();
        let popped: Vec<&Val> = match popped {
            [rest @ .., a, b, c] if legacy && is_legacy_exc(a, b, c) => {
                rest.iter().chain([b]).collect()
            }
            _ if legacy => return None,
            _ => popped.iter().collect(),
        };
        let header = lp.is_some_and(|c| {
            next == c.header || Some(next) == c.guard || self.jumps_straight_to(next, c.header)
        });
        let exit = lp.is_some_and(|c| Some(next) == c.exit);
        match popped.as_slice() {
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
/// leaving code follows (≤3.10: the exception's three markers and the POP_EXCEPT marker go where
/// the way out follows them).
pub(super) fn drop_leaving_exc(stmts: &mut Vec<Stmt>) {
    let is =
        |s: &Stmt, m: &str| matches!(s, Stmt::Expr { value: Expr::Name { id, .. } } if id == m);
    use super::legacy_blocks::{EXC_TB, EXC_TYPE};
    let mut i = 0;
    while i < stmts.len() {
        if is(&stmts[i], EXC) && stmts.get(i + 1).is_some_and(|s| is(s, POP_EXCEPT)) {
            stmts.remove(i);
            continue;
        }
        // (≤3.10: the exception's type, value and traceback, popped in that order)
        let legacy = [EXC_TYPE, EXC, EXC_TB, POP_EXCEPT];
        if stmts.len() >= i + 4
            && stmts[i..i + 4].iter().zip(legacy).all(|(s, m)| is(s, m))
            && stmts.get(i + 4).is_some_and(leaves)
        {
            stmts.drain(i..i + 4);
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
    except_exit::after_finally_copy(rest, fin).or_else(|| turned_copy(rest, fin))
}

/// The code after the copy of `fin` at the start of `rest`, where the copy is `fin` itself or
/// its final `if` turned round as [`after_normal_copy`] says.
pub(super) fn turned_copy(rest: &[Stmt], fin: &[Stmt]) -> Option<Vec<Stmt>> {
    if rest.starts_with(fin) {
        return Some(rest[fin.len()..].to_vec());
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
    // `if c: K  else: E` followed by R is `if c: K` followed by E and R where K leaves, or by R
    // where R starts with E (K then goes on to E as the other arm does); `if not c: E  else: K`
    // is the same turned round (and `if not c: E`, K empty, where K is taken as E)
    let mut ways = Vec::new();
    if let Some(e) = single_exit(orelse).filter(|_| !body.is_empty()) {
        ways.push((test.clone(), body.clone(), e));
    }
    if let Expr::UnaryOp {
        op: crate::ast::UnaryOp::Not,
        operand,
    } = test
    {
        if let Some(e) = single_exit(body) {
            let kept = if orelse.is_empty() {
                vec![e.clone()]
            } else {
                orelse.clone()
            };
            ways.push(((**operand).clone(), kept, e));
        }
    }
    let after = &rest[k + 1..];
    ways.into_iter().find_map(|(test, kept, exit)| {
        let kept_leaves = ends_leaving(&kept);
        if !kept_leaves && after.first() != Some(&exit) {
            return None;
        }
        let mut turned = rest[..k].to_vec();
        turned.push(Stmt::If {
            test,
            body: kept,
            orelse: Vec::new(),
        });
        if kept_leaves {
            turned.push(exit);
        }
        turned.extend_from_slice(after);
        turned
            .starts_with(fin)
            .then(|| turned[fin.len()..].to_vec())
    })
}

/// `stmts` with every `if c: A  else: B` whose `A` always leaves written `if c: A` followed by
/// `B` (the same code), in nested statements too.
fn flat(stmts: &[Stmt]) -> Vec<Stmt> {
    let mut out = Vec::with_capacity(stmts.len());
    for s in stmts {
        let mut s = s.clone();
        for b in s.bodies_mut() {
            *b = flat(b);
        }
        let mut after = Vec::new();
        if let Stmt::If { body, orelse, .. } = &mut s {
            if ends_leaving(body) {
                after = std::mem::take(orelse);
            }
        }
        out.push(s);
        out.extend(after);
    }
    out
}

/// What [`same_but_tails`] found: the code copied into the ends (the same everywhere), and
/// whether some way through the copy comes out of its end without it.
#[derive(Default)]
struct Tails {
    found: Option<Vec<Stmt>>,
    bare: bool,
    /// 3.11: the code copied into a final loop's `break`s too (`finally_break_copy.rs`).
    loop_breaks: bool,
}

/// Is `copy` the code `fin` but for code after the statement that the compiler copied into the
/// ends of the ways through `fin`'s last statement (an `if`'s arms, a try statement's body,
/// `else:` and clauses): 3.12+ copy a small exit block after a clause's POP_EXCEPT (its marker
/// stays where what follows does not only leave) or into a jump to it, 3.10 into a try
/// statement's `else:` and clauses? Each such copy must be the same.
fn same_but_tails(copy: &[Stmt], fin: &[Stmt], t: &mut Tails) -> bool {
    let is_marker =
        |s: &Stmt| matches!(s, Stmt::Expr { value: Expr::Name { id, .. } } if id == POP_EXCEPT);
    if copy == fin {
        // (a way that comes out of the end without the copied code)
        t.bare |= !ends_leaving(fin);
        return true;
    }
    let n = fin.len();
    if copy.len() > n && copy[..n] == *fin {
        let tail = &copy[n..];
        let tail = match tail.first() {
            Some(m) if is_marker(m) => &tail[1..],
            _ => tail,
        };
        if tail.is_empty() || t.found.as_ref().is_some_and(|x| x[..] != *tail) {
            return false;
        }
        t.found = Some(tail.to_vec());
        return true;
    }
    // (`if c: B` whose B leaves, followed by code, is `if c: B  else:` that code: 3.10 copies the
    // code after the statement into B's end and lays the way past B out after the `if`)
    if copy.len() > n && n > 0 && copy[..n - 1] == fin[..n - 1] {
        if let (Stmt::If { test, body, orelse }, Stmt::If { .. }) = (&copy[n - 1], &fin[n - 1]) {
            if orelse.is_empty() && ends_leaving(body) {
                let mut turned = copy[..n - 1].to_vec();
                turned.push(Stmt::If {
                    test: test.clone(),
                    body: body.clone(),
                    orelse: copy[n..].to_vec(),
                });
                return same_but_tails(&turned, fin, t);
            }
        }
    }
    // (a final loop whose `break`s the code after the statement was copied into, and its end:
    // `finally_break_copy.rs`)
    if let Some(tail) =
        super::finally_break_copy::breaks_copied(copy, fin).filter(|_| t.loop_breaks)
    {
        if t.found.as_ref().is_some_and(|x| *x != tail) {
            return false;
        }
        t.found = Some(tail);
        return true;
    }
    if copy.len() != n || n == 0 || copy[..n - 1] != fin[..n - 1] {
        return false;
    }
    match (&copy[n - 1], &fin[n - 1]) {
        (
            Stmt::If {
                test: t1,
                body: b1,
                orelse: o1,
            },
            Stmt::If {
                test: t2,
                body: b2,
                orelse: o2,
            },
        ) => t1 == t2 && same_but_tails(b1, b2, t) && same_but_tails(o1, o2, t),
        (
            Stmt::Try {
                body: b1,
                handlers: h1,
                orelse: o1,
                finalbody: f1,
            },
            Stmt::Try {
                body: b2,
                handlers: h2,
                orelse: o2,
                finalbody: f2,
            },
        ) => {
            // (the body's end is the statement's only without `else:`)
            let body_same = match o2.is_empty() {
                true => same_but_tails(b1, b2, t),
                false => b1 == b2,
            };
            f1.is_empty()
                && f1 == f2
                && h1.len() == h2.len()
                && body_same
                && same_but_tails(o1, o2, t)
                && h1.iter().zip(h2).all(|(x, y)| {
                    x.type_ == y.type_ && x.name == y.name && same_but_tails(&x.body, &y.body, t)
                })
        }
        _ => false,
    }
}

impl Structurer<'_> {
    /// [`after_normal_copy`], where the copy may also hold, at the ends of the ways through its
    /// last statement, the code after the statement (3.10, 3.12+ copy it there): that code must
    /// be where the statement goes on (`end`, structured once here to compare), or, where the
    /// statement's region ends there (`end` is `None`), be on every way out of the copy's end or
    /// leave, then it follows the statement. The normal path's copy is the rest.
    pub(super) fn normal_copy_tails(
        &mut self,
        rest: &[Stmt],
        fin: &[Stmt],
        end: Option<usize>,
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Option<Vec<Stmt>> {
        if rest.starts_with(fin) {
            return Some(rest[fin.len()..].to_vec());
        }
        // (a loop whose `break`s and end were both given a copy of the code after the statement,
        // read as its `else:` part: `finally_tail::drop_else_like_after`)
        if self.code.version >= framejit_bytecode::PyVersion::V3_12 {
            let mut plain = rest.to_vec();
            super::finally_tail::drop_else_like_after(&mut plain, &[]);
            if plain[..] != *rest && plain.starts_with(fin) {
                return Some(plain[fin.len()..].to_vec());
            }
        }
        // (an `if` whose arm leaves, followed by code or with that code as its `else:`, is the
        // same code: the copies may be laid out either way)
        let (flat_rest, flat_fin) = (flat(rest), flat(fin));
        // the code after the statement copied into the copy's ends: where that code is (the
        // statement's end, which an enclosing try body may not cover), not inside the statement
        let mut t = Tails {
            loop_breaks: self.code.version == framejit_bytecode::PyVersion::V3_11,
            ..Tails::default()
        };
        if same_but_tails(&flat_rest, &flat_fin, &mut t) {
            if let Some(tail) = t.found {
                match end {
                    Some(e) => {
                        let saved = (self.visits.clone(), self.emitted.clone(), self.work);
                        let probe = self.region(e, None, base, lp).ok();
                        (self.visits, self.emitted, self.work) = saved;
                        if probe
                            .is_some_and(|p| p.len() >= tail.len() && p[..tail.len()] == tail[..])
                        {
                            return Some(Vec::new());
                        }
                    }
                    // (a way out of the copy's end without it goes on to the code after the
                    // statement as well, that code not copied there: one place either way)
                    // (placed after the statement, inside an enclosing try body where the
                    // statement is in one: only code that cannot raise)
                    None if (!t.bare || ends_by_leaving(&tail)) && only_leaves(&tail) => {
                        return Some(tail)
                    }
                    None => {}
                }
            }
        }
        if self.legacy.is_some() {
            return turned_copy(rest, fin).or_else(|| turned_copy(&flat_rest, &flat_fin));
        }
        after_normal_copy(rest, fin).or_else(|| after_normal_copy(&flat_rest, &flat_fin))
    }
}

fn is_unwind(s: &Stmt) -> bool {
    matches!(s, Stmt::Expr { value: Expr::Name { id, .. } } if id == UNWIND)
}

/// `stmts[i]` is a way out of a try body without the copy of the finally body `fin` right
/// before it: where the copy comes earlier, followed only by simple statements (the unwinding
/// of enclosing statements the way out passes through: their copies, run after this one), the
/// copy goes and the marker takes its place. Returns the index after the way out.
pub(super) fn mark_earlier_copy(stmts: &mut Vec<Stmt>, i: usize, fin: &[Stmt]) -> Option<usize> {
    let n = fin.len();
    let simple = |s: &Stmt| {
        !matches!(
            s,
            Stmt::If { .. }
                | Stmt::For { .. }
                | Stmt::AsyncFor { .. }
                | Stmt::While { .. }
                | Stmt::Try { .. }
                | Stmt::TryStar { .. }
                | Stmt::With { .. }
                | Stmt::AsyncWith { .. }
                | Stmt::Match { .. }
                | Stmt::Return { .. }
                | Stmt::Break
                | Stmt::Continue
                | Stmt::Raise { .. }
                | Stmt::FunctionDef(_)
                | Stmt::AsyncFunctionDef(_)
                | Stmt::ClassDef(_)
        ) && !is_unwind(s)
            && !is_temp_store(s)
    };
    if n == 0 {
        return None;
    }
    let mut j = i;
    while j > n && simple(&stmts[j - 1]) {
        j -= 1;
        if stmts[j - n..j] == *fin {
            stmts.splice(
                j - n..j,
                [Stmt::Expr {
                    value: Expr::name(UNWIND),
                }],
            );
            return Some(i - n + 2);
        }
    }
    None
}

/// A store into a spill-mode temporary (`_tmpN = ...`): a value the body computed, which no
/// unwinding code stores.
fn is_temp_store(s: &Stmt) -> bool {
    let Stmt::Assign { targets, .. } = s else {
        return false;
    };
    targets.iter().any(|t| {
        matches!(t, Expr::Name { id, .. } if id.strip_prefix("_tmp").is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit())))
    })
}

/// The marker of a nested statement's copy right before the way out at `stmts[i]`, after this
/// statement's copy went: it goes too (with the POP_EXCEPT marker before it, where the way out
/// only leaves). Returns how many statements went.
/// (Each marker left right before the way out after one went: a statement nested deeper still,
/// whose copy came before the one just taken off, `except A as a: ... except B as b: ... except
/// C as c: return v` unbinding c, then b, then a; they go too.)
pub(super) fn drop_unwind_mark(stmts: &mut Vec<Stmt>, i: usize) -> usize {
    let mut gone = 0;
    while i > gone && is_unwind(&stmts[i - gone - 1]) {
        let at = i - gone - 1;
        stmts.remove(at);
        gone += 1 + except_exit::drop_marker_before(stmts, at, at);
    }
    gone
}

/// ≤3.10: a finally body `fin` that ends by raising, copied at the end of the try body (a way out
/// whose own code after the copy is dead, a `return` whose value the body computed): the copy
/// goes where the body's end is the statement's (its end, the ends of a final `if`'s arms), as
/// the body falling off its end runs the finally body the same way.
pub(super) fn drop_raising_tail_copies(stmts: &mut Vec<Stmt>, fin: &[Stmt]) {
    let n = fin.len();
    if n > 0 && stmts.ends_with(fin) {
        stmts.truncate(stmts.len() - n);
        return;
    }
    if let Some(Stmt::If { body, orelse, .. }) = stmts.last_mut() {
        drop_raising_tail_copies(body, fin);
        drop_raising_tail_copies(orelse, fin);
        if body.is_empty() {
            body.push(Stmt::Pass);
        }
    }
}
