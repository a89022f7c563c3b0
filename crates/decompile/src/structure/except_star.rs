//! 3.11+ `try: ... except* T as name: ...` (PEP 654).
//!
//! The handler (entered like any other, `PUSH_EXC_INFO` over the saved exception) keeps three
//! values under its clauses: the group raised in the body, a list of what the clauses raise, and
//! the part of the group no clause has matched yet (the "rest"; at first the group itself). Each
//! clause splits the rest with `CHECK_EG_MATCH`: on no match (None) the match is popped and the
//! next clause runs; else the match is bound (`as name`) or popped and the clause's body runs under
//! a handler of its own that adds what the body raises to the list. After the last clause the rest
//! is added to the list too, and the compiler's `PREP_RERAISE_STAR` (3.12+ an intrinsic) computes
//! what propagates: None ends the statement (`POP_EXCEPT`, then what follows it), anything else is
//! re-raised.
//!
//! The clauses' tests and bodies are structured like any code (the Sim reads `CHECK_EG_MATCH`,
//! `exprs/except_star.rs`); everything else in the handler is the compiler's own bookkeeping, which
//! is checked value by value on a stack of tokens ([`Tok`]) rather than by its bytes: where that
//! bookkeeping does something else than the above, the statement is refused. `break`, `continue`
//! and `return` cannot leave a clause (a syntax error), so a clause whose code leaves is refused.

use super::{or_pass, take_clause_binding, Structurer, Tails};
use crate::ast::{CmpOp, Constant, ExceptHandler, Expr, Stmt};
use crate::error::DecompileError;
use crate::exprs::except_star::{EG_LIST, EG_MATCH, EG_REST};
use crate::exprs::{Exit, Val, EXC, POP_EXCEPT};
use crate::flow::EdgeKind;
use crate::input::Const;
use framejit_bytecode::{Arg, Instr};

/// The values the handler's bookkeeping moves, from the saved exception up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    /// The exception being handled before the statement (POP_EXCEPT restores it).
    Saved,
    /// The group the body raised.
    Orig,
    /// The list of what the clauses raised.
    List,
    /// What no clause has matched yet.
    Rest,
    /// What a clause's types matched (None on this path).
    Match,
    /// A clause body's handler: the offset of the raising instruction, and what was raised.
    Lasti,
    Raised,
    NoneConst,
    /// What PREP_RERAISE_STAR computed (None: nothing to re-raise).
    Result,
}

/// Where a walk over bookkeeping blocks stopped.
enum Walked {
    /// At the start of a block with other code, with this stack.
    At(usize, Vec<Tok>),
    /// At a conditional jump on whether the value on top (popped) is None: taken when it is not.
    IfNotNone {
        jump: usize,
        fall: usize,
        stack: Vec<Tok>,
    },
    /// `RERAISE 0` of the computed result, after POP_EXCEPT.
    Reraised,
}

const JUMPS: &[&str] = &[
    "JUMP",
    "JUMP_FORWARD",
    "JUMP_NO_INTERRUPT",
    "JUMP_BACKWARD_NO_INTERRUPT",
];

fn raw(ins: &Instr) -> Option<u32> {
    match ins.arg {
        Arg::Raw(r) => Some(r),
        Arg::Jump(_) => None,
    }
}

fn is_prep(ins: &Instr) -> bool {
    // (3.12+: CALL_INTRINSIC_2 INTRINSIC_PREP_RERAISE_STAR, which is intrinsic 1 on every version)
    ins.op.name == "PREP_RERAISE_STAR" || (ins.op.name == "CALL_INTRINSIC_2" && raw(ins) == Some(1))
}

/// The delete that unbinds what `store` bound.
fn delete_of(store: &str) -> Option<&'static str> {
    Some(match store {
        "STORE_FAST" => "DELETE_FAST",
        "STORE_NAME" => "DELETE_NAME",
        "STORE_GLOBAL" => "DELETE_GLOBAL",
        "STORE_DEREF" => "DELETE_DEREF",
        _ => return None,
    })
}

fn is_marker(s: &Stmt, m: &str) -> bool {
    matches!(s, Stmt::Expr { value: Expr::Name { id, .. } } if id == m)
}

/// Strip the marker of the rest added to the list (3.14 copies that into the clause's ends) from
/// every way the clause's statements end; false where one ends without it.
fn strip_rest(stmts: &mut Vec<Stmt>) -> bool {
    match stmts.last_mut() {
        Some(s) if is_marker(s, EG_REST) => {
            stmts.pop();
            true
        }
        Some(Stmt::Raise { .. }) => true,
        Some(Stmt::If { body, orelse, .. }) => {
            !orelse.is_empty() && strip_rest(body) && strip_rest(orelse)
        }
        // (a final try: the compiler copied the clause's end into each of its ways out, after
        // the POP_EXCEPT of its except clauses)
        Some(Stmt::Try {
            body,
            handlers,
            orelse,
            finalbody,
        }) if finalbody.is_empty() => {
            let ways = handlers.iter_mut().all(|h| strip_rest(&mut h.body));
            ways && if orelse.is_empty() {
                strip_rest(body)
            } else {
                strip_rest(orelse)
            }
        }
        _ => false,
    }
}

/// Does code in `stmts` leave the clause (a `return`, or a `break` / `continue` outside a loop
/// of its own)? No source has that: the compiler refuses it in an `except*` clause.
fn leaves(stmts: &mut [Stmt], in_loop: bool) -> bool {
    stmts.iter_mut().any(|s| match s {
        Stmt::Return { .. } => true,
        Stmt::Break | Stmt::Continue => !in_loop,
        Stmt::For { .. } | Stmt::AsyncFor { .. } | Stmt::While { .. } => {
            let mut bodies = s.bodies_mut();
            // the body is a loop's own; `else:` is not
            let orelse = bodies.pop();
            bodies.into_iter().any(|b| leaves(b, true))
                || orelse.is_some_and(|b| leaves(b, in_loop))
        }
        _ => s.bodies_mut().into_iter().any(|b| leaves(b, in_loop)),
    })
}

impl<'a> Structurer<'a> {
    /// Is handler `h` (up to its cleanup) a try-star handler: a CHECK_EG_MATCH of its own clauses
    /// (covered by its cleanup, not one of a try nested in a clause)?
    pub(super) fn is_star_handler(&self, h: usize, cleanup: usize) -> bool {
        (h..cleanup).any(|x| {
            self.cfg.blocks[x].handler.map(|c| c.0) == Some(cleanup)
                && self.instrs(x).iter().any(|i| i.op.name == "CHECK_EG_MATCH")
        })
    }

    fn star_err(&self, b: usize, msg: &str) -> DecompileError {
        let err = self.err(format!("except*: {msg}"));
        let first = self
            .cfg
            .blocks
            .get(b)
            .and_then(|x| x.instrs.first().copied());
        let err = match self.instrs(b).first() {
            Some(i) => err.op(i.op.name),
            None => err,
        };
        match first.and_then(|i| self.code.offsets.get(i)) {
            Some(&o) => err.at(o),
            None => err,
        }
    }

    /// One bookkeeping instruction on `stack`; `bind` is the clause's `as` store (op, argument).
    /// `Ok(None)`: it is not bookkeeping.
    fn star_step(
        &self,
        ins: &Instr,
        stack: &mut Vec<Tok>,
        bind: Option<(&str, u32)>,
    ) -> Option<Result<(), ()>> {
        let name = ins.op.name;
        let r = raw(ins);
        let top = stack.last().copied();
        let ok = |c: bool| Some(if c { Ok(()) } else { Err(()) });
        match name {
            "NOP" | "NOT_TAKEN" => ok(true),
            "POP_TOP" => {
                ok(matches!(top, Some(Tok::Match | Tok::Lasti | Tok::Result))
                    && stack.pop().is_some())
            }
            "LOAD_CONST" => {
                let none = r
                    .and_then(|r| self.code.consts.get(r as usize))
                    .is_some_and(|c| matches!(c, Const::Value(Constant::None)));
                if !none {
                    return None;
                }
                stack.push(Tok::NoneConst);
                ok(true)
            }
            _ if bind.is_some_and(|(op, a)| op == name && r == Some(a)) => {
                ok(top == Some(Tok::NoneConst) && stack.pop().is_some())
            }
            _ if bind.is_some_and(|(op, a)| delete_of(op) == Some(name) && r == Some(a)) => {
                ok(true)
            }
            "LIST_APPEND" => match r {
                // what a clause body raised
                Some(3) => {
                    let n = stack.len();
                    ok(top == Some(Tok::Raised)
                        && n >= 4
                        && stack[n - 4] == Tok::List
                        && stack.pop().is_some())
                }
                // the rest, after the last clause
                Some(1) => {
                    let n = stack.len();
                    ok(
                        top == Some(Tok::Rest) && n >= 2 && stack[n - 2] == Tok::List && {
                            stack.pop();
                            true
                        },
                    )
                }
                _ => ok(false),
            },
            _ if is_prep(ins) => {
                let n = stack.len();
                ok(n >= 2 && stack[n - 2..] == [Tok::Orig, Tok::List] && {
                    stack.truncate(n - 2);
                    stack.push(Tok::Result);
                    true
                })
            }
            "COPY" => ok(r == Some(1) && top == Some(Tok::Result) && {
                stack.push(Tok::Result);
                true
            }),
            "SWAP" => {
                let n = stack.len();
                ok(r == Some(2)
                    && n >= 2
                    && stack[n - 2] == Tok::Saved
                    && top == Some(Tok::Result)
                    && {
                        stack.swap(n - 1, n - 2);
                        true
                    })
            }
            "POP_EXCEPT" => ok(top == Some(Tok::Saved) && stack.pop().is_some()),
            _ => None,
        }
    }

    /// Is block `b` only bookkeeping (and not where the result is computed)?
    fn star_own_block(&self, b: usize, bind: Option<(&str, u32)>) -> bool {
        self.instrs(b).iter().all(|i| {
            let name = i.op.name;
            let r = raw(i);
            match name {
                "NOP" | "NOT_TAKEN" | "POP_TOP" | "LIST_APPEND" | "COPY" | "SWAP"
                | "POP_EXCEPT" | "RERAISE" => true,
                "LOAD_CONST" => r
                    .and_then(|r| self.code.consts.get(r as usize))
                    .is_some_and(|c| matches!(c, Const::Value(Constant::None))),
                _ if JUMPS.contains(&name) => true,
                _ if name.starts_with("POP_JUMP") && name.ends_with("IF_NOT_NONE") => true,
                _ => bind.is_some_and(|(op, a)| {
                    (op == name || delete_of(op) == Some(name)) && r == Some(a)
                }),
            }
        })
    }

    /// Where a try-star statement whose handler is `h` (up to `cleanup`) ends: where its handler
    /// goes on when nothing is re-raised (after POP_EXCEPT, through jumps), when that is a block of
    /// its own after the handler (not a copy of the code there, and not a loop's header or exit).
    /// Code between the handler and there is the statement's `else:`.
    pub(super) fn star_join(
        &self,
        h: usize,
        cleanup: usize,
        lp: Option<&super::LoopCtx>,
    ) -> Option<usize> {
        let prep = (h..cleanup).find(|&x| {
            self.cfg.blocks[x].handler.map(|c| c.0) == Some(cleanup)
                && self.instrs(x).iter().any(|i| is_prep(i))
        })?;
        let mut b = self.succ(prep, EdgeKind::Fall)?;
        for _ in 0..self.cfg.blocks.len() {
            if b > cleanup {
                let loop_edge = lp.is_some_and(|c| b == c.header || Some(b) == c.exit);
                return (!loop_edge).then_some(b);
            }
            let own = self.instrs(b).iter().all(|i| {
                matches!(i.op.name, "NOP" | "NOT_TAKEN" | "POP_TOP" | "POP_EXCEPT")
                    || JUMPS.contains(&i.op.name)
            });
            if !own {
                return None;
            }
            b = match self.cfg.blocks[b].succs.as_slice() {
                [e] if e.kind != EdgeKind::Exception => e.to,
                _ => self
                    .succ(b, EdgeKind::Jump)
                    .or(self.succ(b, EdgeKind::Fall))?,
            };
        }
        None
    }

    /// The code after a try-star statement that its handler's end runs (`tails`, from
    /// [`Self::star_clauses`]) where the try statement could not place it: it goes after the
    /// statement when nothing else comes out of the statement (the body leaves every way it ends,
    /// no `else:`), such as a `continue` back to a loop's header, or an enclosing clause's end.
    /// Or, where it leaves (a `return`, say) and the code at `end` is only this statement's (the
    /// body's normal path goes there: 3.11 lays out `else:` after the handler) and runs into the
    /// same way out, that code is the statement's `else:` (added to `rest`) and the copy follows.
    /// Else refused: it is no clause's code. The statement then ends where control leaves.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn star_tail(
        &mut self,
        tails: Tails,
        after: Option<usize>,
        rest: &mut Vec<Stmt>,
        end: Option<usize>,
        range: (usize, usize),
        base: &[Val],
        lp: Option<&super::LoopCtx>,
    ) -> Result<Vec<Stmt>, DecompileError> {
        let refused = |s: &Self| {
            s.err("except*: code copied after the clauses that is not the code after the statement")
        };
        let mut tails = tails.into_iter();
        let t = match (tails.next(), tails.next()) {
            (None, _) => return Ok(Vec::new()),
            (Some((_, t)), None) => t,
            _ => return Err(self.err("except*: two ends of one handler")),
        };
        // (the only way out of the statement is then its handler's end, which runs the copy)
        if after.is_none() && rest.is_empty() {
            return Ok(t);
        }
        let leaves = matches!(
            t.last(),
            Some(Stmt::Return { .. } | Stmt::Continue | Stmt::Break | Stmt::Raise { .. })
        );
        let Some(e) = end.filter(|_| leaves) else {
            return Err(refused(self));
        };
        let only_ours = self.cfg.blocks[e].preds.iter().all(|&p| {
            (range.0..=range.1).contains(&p) || !self.reachable.get(p).copied().unwrap_or(true)
        });
        if !only_ours {
            return Err(refused(self));
        }
        let saved = (self.visits.clone(), self.emitted.clone(), self.work);
        let n = t.len();
        match self.region(e, None, base, lp) {
            Ok(mut more) if more.len() >= n && more[more.len() - n..] == t[..] => {
                more.truncate(more.len() - n);
                rest.append(&mut more);
                Ok(t)
            }
            _ => {
                (self.visits, self.emitted, self.work) = saved;
                Err(refused(self))
            }
        }
    }

    /// Walk bookkeeping from block `b` with `stack` until a block with other code (or a branch on
    /// the result, or the re-raise). The blocks walked are added to `walked`.
    fn star_walk(
        &self,
        mut b: usize,
        mut stack: Vec<Tok>,
        bind: Option<(&str, u32)>,
        walked: &mut Vec<usize>,
    ) -> Result<Walked, DecompileError> {
        let bad = |b: usize| {
            self.star_err(
                b,
                "the handler's bookkeeping is of a shape this decompiler does not know",
            )
        };
        for steps in 0.. {
            if steps > self.cfg.blocks.len() {
                return Err(bad(b));
            }
            let instrs = self.instrs(b);
            // a block of other code, or where the result is computed: the walk stops at its start
            // (never at the block it started from)
            if steps > 0 && !self.star_own_block(b, bind) {
                return Ok(Walked::At(b, stack));
            }
            walked.push(b);
            let mut next = None;
            for (k, ins) in instrs.iter().enumerate() {
                let last = k + 1 == instrs.len();
                let name = ins.op.name;
                if JUMPS.contains(&name) && last {
                    next = Some(self.succ(b, EdgeKind::Jump).ok_or_else(|| bad(b))?);
                } else if name.starts_with("POP_JUMP") && name.ends_with("IF_NOT_NONE") && last {
                    if stack.pop() != Some(Tok::Result) {
                        return Err(bad(b));
                    }
                    let jump = self.succ(b, EdgeKind::Jump).ok_or_else(|| bad(b))?;
                    let fall = self.succ(b, EdgeKind::Fall).ok_or_else(|| bad(b))?;
                    return Ok(Walked::IfNotNone { jump, fall, stack });
                } else if name == "RERAISE" && last {
                    if raw(ins) != Some(0) || stack != [Tok::Result] {
                        return Err(bad(b));
                    }
                    return Ok(Walked::Reraised);
                } else if self.star_step(ins, &mut stack, bind) != Some(Ok(())) {
                    return Err(bad(b));
                }
            }
            b = match next {
                Some(n) => n,
                None => self.succ(b, EdgeKind::Fall).ok_or_else(|| bad(b))?,
            };
        }
        Err(bad(b))
    }

    /// The clauses of try-star handler `h` (up to its cleanup): see the module's comment. `end`
    /// is where the statement ends (the code after it), if known.
    #[allow(clippy::type_complexity)]
    pub(super) fn star_clauses(
        &mut self,
        h: usize,
        cleanup: usize,
        end: Option<usize>,
        base: &[Val],
        lp: Option<&super::LoopCtx>,
    ) -> Result<(Vec<ExceptHandler>, Option<Vec<Stmt>>, Tails), DecompileError> {
        let name = |s: &str| Val::Expr(Expr::name(s));
        // the stack the clauses' code runs on: the group, the list, the rest
        let mut under = base.to_vec();
        under.extend([name(EXC), name(EG_LIST), name(EXC)]);
        // (the real depth there: the saved exception is off the symbolic stack)
        let clause_depth = (under.len() + self.depth_offset) as u32;
        let full = [Tok::Saved, Tok::Orig, Tok::List, Tok::Rest];
        let mut walked = Vec::new();
        let mut clauses = Vec::new();
        let mut cur = h;
        let mut start = base.to_vec();
        start.push(name(EXC));
        // where the last clause's paths meet: the result's computation, with their stack
        let (prep, at_prep) = loop {
            // the test: T; CHECK_EG_MATCH; COPY 1; POP_JUMP_IF_NONE (the first after the handler's
            // own start: the list built and the group copied over it)
            let (stmts, exit, left) = self.run(cur, std::mem::take(&mut start))?;
            let type_ = match exit {
                Exit::Branch {
                    test:
                        Expr::Compare {
                            left: tested,
                            ops,
                            comparators,
                        },
                    jump_if: true,
                    keep: false,
                    copy: true,
                } if stmts.is_empty()
                    && ops == [CmpOp::Is]
                    && matches!(
                        comparators.as_slice(),
                        [Expr::Constant {
                            value: Constant::None,
                            ..
                        }]
                    ) =>
                {
                    match *tested {
                        Expr::Call {
                            func,
                            mut args,
                            keywords,
                        } if matches!(func.as_ref(), Expr::Name { id, .. } if id == EG_MATCH)
                            && args.len() == 1
                            && keywords.is_empty() =>
                        {
                            args.remove(0)
                        }
                        _ => return Err(self.star_err(cur, "a clause without its exception test")),
                    }
                }
                _ => {
                    return Err(
                        self.star_err(cur, "a clause of a shape this decompiler does not know")
                    )
                }
            };
            // what the test leaves: the group, the list (built here for the first clause), the
            // rest and the match
            let n = base.len();
            let is = |v: Option<&Val>, m: &str| matches!(v, Some(Val::Expr(Expr::Name { id, .. })) if id == m);
            let list_ok = match left.get(n + 1) {
                Some(Val::Expr(Expr::List { elts, .. })) => elts.is_empty() && cur == h,
                v => is(v, EG_LIST) && cur != h,
            };
            let shape = left.len() == n + 4
                && left[..n] == base[..]
                && is(left.get(n), EXC)
                && list_ok
                && is(left.get(n + 2), EXC)
                && matches!(left.get(n + 3), Some(Val::Expr(Expr::Call { func, .. })) if matches!(func.as_ref(), Expr::Name { id, .. } if id == EG_MATCH));
            if !shape {
                return Err(self.star_err(cur, "a clause test that leaves other values"));
            }
            let no_match = self
                .succ(cur, EdgeKind::Jump)
                .ok_or_else(|| self.star_err(cur, "a clause test without its jump"))?;
            let body_start = self
                .succ(cur, EdgeKind::Fall)
                .ok_or_else(|| self.star_err(cur, "a clause without a body"))?;
            // no match: the match (None) popped, on to the next clause or the end
            let mut m = full.to_vec();
            m.push(Tok::Match);
            let (next, next_stack) = match self.star_walk(no_match, m, None, &mut walked)? {
                Walked::At(x, s) => (x, s),
                _ => {
                    return Err(self.star_err(
                        no_match,
                        "a clause's no-match path of a shape this decompiler does not know",
                    ))
                }
            };
            let rest_added = next_stack.len() == 3;
            if next_stack[..] != full[..] && next_stack[..] != full[..3] {
                return Err(self.star_err(
                    no_match,
                    "a clause's no-match path that leaves other values",
                ));
            }
            // the clause's `as` store, which its body's handler undoes too (the first instruction
            // of the body, past blocks of NOPs an exception range boundary split off)
            let mut first = None;
            let mut x = body_start;
            for _ in 0..self.cfg.blocks.len() {
                first = self
                    .instrs(x)
                    .into_iter()
                    .find(|i| i.op.name != "NOT_TAKEN" && i.op.name != "NOP");
                match (first, self.cfg.blocks[x].succs.as_slice()) {
                    (None, [e]) if e.kind == EdgeKind::Fall => x = e.to,
                    _ => break,
                }
            }
            let bind = first
                .filter(|i| delete_of(i.op.name).is_some())
                .and_then(|i| raw(i).map(|r| (i.op.name, r)));
            // the body, up to where the no-match path goes on
            let before = self.emitted.clone();
            let mut stmts =
                self.region_carry(body_start, Some(next), &under, vec![name(EXC)], None)?;
            if rest_added && !strip_rest(&mut stmts) {
                return Err(self.star_err(
                    body_start,
                    "a clause that ends without the rest of the group",
                ));
            }
            // (the POP_EXCEPT markers of try statements nested in the clause that only leaving
            // code follows; the clause has no POP_EXCEPT of its own)
            if super::except_exit::split_pop_except(&mut stmts).is_some() {
                return Err(self.star_err(body_start, "code after a POP_EXCEPT in a clause"));
            }
            let Some(as_name) = take_clause_binding(&mut stmts) else {
                return Err(
                    self.star_err(body_start, "a clause that does not bind or drop its match")
                );
            };
            if leaves(&mut stmts, false) {
                return Err(self.star_err(
                    body_start,
                    "an except* clause left by return, break or continue",
                ));
            }
            // the body's own handler (what it raises goes into the list): from the blocks the body
            // came out of, the handler at the clauses' depth that is not a statement's
            let mut own = Vec::new();
            for (x, was) in before.iter().enumerate() {
                if self.emitted[x] && !was {
                    if let Some((r, d, true)) = self.cfg.blocks[x].handler {
                        let first = self.instrs(r).first().map(|i| i.op.name);
                        if d == clause_depth && first != Some("PUSH_EXC_INFO") && !own.contains(&r)
                        {
                            own.push(r);
                        }
                    }
                }
            }
            if own.len() > 1 {
                return Err(self.star_err(body_start, "a clause body under two handlers"));
            }
            for r in own {
                let mut s = full.to_vec();
                s.extend([Tok::Lasti, Tok::Raised]);
                match self.star_walk(r, s, bind, &mut walked)? {
                    Walked::At(x, s) if x == next && s == next_stack => {}
                    _ => {
                        return Err(self.star_err(
                            r,
                            "a clause body's handler of a shape this decompiler does not know",
                        ))
                    }
                }
            }
            clauses.push(ExceptHandler {
                type_: Some(type_),
                name: as_name,
                body: or_pass(stmts),
            });
            let is_end = self.instrs(next).iter().any(|i| is_prep(i));
            if is_end {
                break (next, next_stack);
            }
            if rest_added || next <= cur || next >= cleanup {
                return Err(self.star_err(next, "clauses of a shape this decompiler does not know"));
            }
            cur = next;
            start = under.clone();
        };
        // the end: what propagates is computed; re-raised unless None
        let (jump, fall) = match self.star_walk(prep, at_prep, None, &mut walked)? {
            // (the walk starts at `prep` itself)
            Walked::IfNotNone { jump, fall, stack } if stack == [Tok::Saved, Tok::Result] => {
                (jump, fall)
            }
            _ => {
                return Err(self.star_err(
                    prep,
                    "the end of the clauses of a shape this decompiler does not know",
                ))
            }
        };
        match self.star_walk(jump, vec![Tok::Saved, Tok::Result], None, &mut walked)? {
            Walked::Reraised => {}
            _ => {
                return Err(
                    self.star_err(jump, "a re-raise of a shape this decompiler does not know")
                )
            }
        }
        // nothing to re-raise: the result dropped, the saved exception restored (POP_EXCEPT),
        // then the code after the statement, which 3.12+ may copy here
        let tail = self.region_carry(fall, end, base, vec![name(EXC)], lp)?;
        // (the result dropped, then the POP_EXCEPT marker; what follows it is the code after the
        // statement, copied here)
        let mut tails = Vec::new();
        match tail.as_slice() {
            [r, p, after @ ..] if is_marker(r, EXC) && is_marker(p, POP_EXCEPT) => {
                if !after.is_empty() {
                    tails.push((0, after.to_vec()));
                }
            }
            _ => {
                return Err(self.star_err(
                    fall,
                    "code between the clauses' end and the end of the handler",
                ))
            }
        }
        // the bookkeeping walked is no statement's code (a block a region put out as well would
        // be code of two meanings)
        if let Some(&x) = walked.iter().find(|&&x| self.emitted[x]) {
            return Err(self.star_err(x, "a block that is both bookkeeping and a statement's code"));
        }
        for x in walked {
            self.emitted[x] = true;
        }
        // the blocks left are the compiler's; a handler of a try nested in a clause must have
        // come out with its statement
        for x in h..cleanup {
            let first = self.instrs(x).first().map(|i| i.op.name);
            if !self.emitted[x] && first == Some("PUSH_EXC_INFO") {
                return Err(self.err("an exception handler the structured code leaves out"));
            }
            self.emitted[x] = true;
        }
        Ok((clauses, None, tails))
    }
}
