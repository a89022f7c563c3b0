//! 3.11+ `break` out of a `for` loop into a copy of the code after the loop.
//!
//! The compiler copies a small exit block (at most four instructions ending in `return`: `return
//! y`, `return f(x)`) into each jump to it. A `break` whose way on is such a block comes out as
//! the pop of the loop's iterator (POP_TOP, 3.14 POP_ITER) followed by the copy, at the end of the
//! block that runs the statements before the `break`. Read as it is, that is `return y` inside the
//! loop, which compiles to LOAD y; SWAP 2; POP_TOP; RETURN_VALUE: a `return` inside the loop
//! computes its value before it pops the iterator, and runs nothing between the pop and the return
//! (`exprs/late_return.rs` marks a block that did: `LateTail`). Code after the pop
//! is the code after the loop, which the `break` runs.
//!
//! Where every such copy of a loop is the same code, and the statements the structurer placed
//! after the loop (the same list) end with that code, the copies are `break`s: the code before
//! the copy (`E`, possibly nothing) runs only when the loop is exhausted, so it is the loop's
//! `else:` part (`for ... else: E` then the copied code). Only copies that end the arms of `if`
//! statements in the loop's body are taken apart; a copy elsewhere (a `try` or `with` statement
//! in the body, whose unwinding runs before the pop), a `break` the body already has when there
//! is an `else:` part to skip, or an `else:` part the loop already has, keeps today's reading,
//! which behaves the same: the copy runs the code after the loop right there.

use super::Structurer;
use crate::ast::Stmt;
use crate::exprs::Sim;
use crate::flow::EdgeKind;

/// A block that ran code after popping a loop's iterator, ending in `return`.
#[derive(Clone, Debug)]
pub(super) struct TailSeen {
    block: usize,
    /// Where the iterator was on the stack.
    iter_at: usize,
    /// The statements from the pop on.
    tail: Vec<Stmt>,
    /// The statement the block made right before the pop, if any.
    before: Option<Stmt>,
}

impl Structurer<'_> {
    /// Remember the code block `b` ran after popping a loop's iterator (3.11+), until the
    /// structurer keeps the block's statements where it reads them ([`Self::keep_tail`]).
    pub(super) fn note_tail(&mut self, b: usize, sim: &Sim) {
        self.last_tail = None;
        if self.legacy.is_some() {
            return;
        }
        let Some(t) = sim.late_tail() else {
            return;
        };
        let Some(tail) = sim.out.get(t.start..) else {
            return;
        };
        self.last_tail = Some(TailSeen {
            block: b,
            iter_at: t.iter_at,
            tail: tail.to_vec(),
            before: t.start.checked_sub(1).and_then(|k| sim.out.get(k)).cloned(),
        });
    }

    /// Block `b`, just run, leaves the code where the region being structured reads it: its
    /// code after a loop's iterator was popped (if any) is a copy to look at when the loop's
    /// statement is complete.
    pub(super) fn keep_tail(&mut self, b: usize) {
        let Some(seen) = self.last_tail.take().filter(|t| t.block == b) else {
            return;
        };
        match self
            .late_tails
            .iter_mut()
            .find(|x| x.block == b && x.iter_at == seen.iter_at)
        {
            Some(x) => *x = seen,
            None => self.late_tails.push(seen),
        }
    }

    /// The blocks control reaches from the `for` loop's `header` while the loop's iterator is on
    /// the stack (entry depth at least the header's): its body and the blocks that leave it
    /// before popping the iterator.
    fn holding_iterator(&self, header: usize) -> Vec<bool> {
        let n = self.cfg.blocks.len();
        let mut seen = vec![false; n];
        let Some(depth) = self.entry_depth[header] else {
            return seen;
        };
        let mut todo = vec![header];
        while let Some(x) = todo.pop() {
            if seen[x] || self.entry_depth[x].is_none_or(|d| d < depth) {
                continue;
            }
            seen[x] = true;
            for e in &self.cfg.blocks[x].succs {
                if e.kind != EdgeKind::Exception {
                    todo.push(e.to);
                }
            }
        }
        seen
    }

    /// The `for` statements at `fors` (index in `out`, loop header, where the iterator was on the
    /// stack) whose copies of the code after them are `break`s (see the module's note).
    pub(super) fn place_loop_tails(&mut self, out: &mut Vec<Stmt>, fors: &[(usize, usize, usize)]) {
        if self.late_tails.is_empty() {
            return;
        }
        for &(i, header, iter_at) in fors.iter().rev() {
            let holding = self.holding_iterator(header);
            let mine: Vec<usize> = self
                .late_tails
                .iter()
                .enumerate()
                .filter(|(_, t)| t.iter_at == iter_at && holding[t.block] && self.emitted[t.block])
                .map(|(k, _)| k)
                .collect();
            let Some(&first) = mine.first() else {
                continue;
            };
            let tail = self.late_tails[first].tail.clone();
            if tail.is_empty() || mine.iter().any(|&k| self.late_tails[k].tail != tail) {
                continue;
            }
            let befores: Vec<Option<Stmt>> = mine
                .iter()
                .map(|&k| self.late_tails[k].before.clone())
                .collect();
            if take_copies(out, i, &tail, &befores) {
                let mut k = 0;
                self.late_tails.retain(|_| {
                    k += 1;
                    !mine.contains(&(k - 1))
                });
            }
        }
    }
}

/// Rewrite the `for` statement `out[i]` whose `count` copies of `tail` are `break`s, where the
/// statements after it end with `tail`; whether it did.
fn take_copies(out: &mut Vec<Stmt>, i: usize, tail: &[Stmt], befores: &[Option<Stmt>]) -> bool {
    let count = befores.len();
    let n = tail.len();
    let after = out.len() - (i + 1);
    // the code after the loop ends with the copied code, or never completes (the copied code
    // comes after it only in the copies: `for ... else: raise E` then `return y`)
    let ends_with = after >= n && out[out.len() - n..] == *tail;
    let else_len = match ends_with {
        true => after - n,
        false if after > 0 && never_completes(&out[i + 1..]) => after,
        false => return false,
    };
    let Some(Stmt::For { body, orelse, .. }) = out.get_mut(i) else {
        return false;
    };
    if !orelse.is_empty() {
        return false;
    }
    // every copy at the end of an `if` arm, and no other place ending with the same code
    if arm_ends(body, tail, true) != count || arm_ends(body, tail, false) != count {
        return false;
    }
    // (each the end of one of the blocks seen: the statement before it as the block made it)
    let mut found = Vec::new();
    arm_befores(body, tail, &mut found);
    let mut want: Vec<&Option<Stmt>> = befores.iter().collect();
    for f in &found {
        match want.iter().position(|w| match w {
            Some(s) => f.as_ref() == Some(s),
            None => true,
        }) {
            Some(k) => {
                want.remove(k);
            }
            None => return false,
        }
    }
    // (an `else:` part would be skipped by a `break` the body already has)
    if else_len > 0 && has_break(body) {
        return false;
    }
    replace_arm_ends(body, tail);
    if else_len > 0 {
        let part: Vec<Stmt> = out.drain(i + 1..i + 1 + else_len).collect();
        if let Some(Stmt::For { orelse, .. }) = out.get_mut(i) {
            *orelse = part;
        }
    }
    if !ends_with {
        out.extend(tail.iter().cloned());
    }
    true
}

/// Does control never come out of the end of `stmts`: it ends with `return` or `raise`, or an
/// `if` statement all of whose arms never do?
fn never_completes(stmts: &[Stmt]) -> bool {
    match stmts.last() {
        Some(Stmt::Return { .. } | Stmt::Raise { .. }) => true,
        Some(Stmt::If { body, orelse, .. }) => never_completes(body) && never_completes(orelse),
        _ => false,
    }
}

/// How many statement lists in `stmts` (itself included) end with `tail`: only `stmts` and the
/// arms of `if` statements in it (`arms`), or every list nested in it outside function and class
/// bodies.
fn arm_ends(stmts: &[Stmt], tail: &[Stmt], arms: bool) -> usize {
    let mut count = usize::from(stmts.ends_with(tail));
    for s in stmts {
        count += match s {
            Stmt::If { body, orelse, .. } => {
                arm_ends(body, tail, arms) + arm_ends(orelse, tail, arms)
            }
            _ if arms => 0,
            Stmt::For { body, orelse, .. }
            | Stmt::AsyncFor { body, orelse, .. }
            | Stmt::While { body, orelse, .. } => {
                arm_ends(body, tail, arms) + arm_ends(orelse, tail, arms)
            }
            Stmt::Try {
                body,
                handlers,
                orelse,
                finalbody,
            } => {
                arm_ends(body, tail, arms)
                    + arm_ends(orelse, tail, arms)
                    + arm_ends(finalbody, tail, arms)
                    + handlers
                        .iter()
                        .map(|h| arm_ends(&h.body, tail, arms))
                        .sum::<usize>()
            }
            Stmt::With { body, .. } | Stmt::AsyncWith { body, .. } => arm_ends(body, tail, arms),
            Stmt::Match { cases, .. } => cases.iter().map(|c| arm_ends(&c.body, tail, arms)).sum(),
            _ => 0,
        };
    }
    count
}

/// The statement before each end of `tail` in `stmts` and the arms of its `if` statements.
fn arm_befores(stmts: &[Stmt], tail: &[Stmt], found: &mut Vec<Option<Stmt>>) {
    if stmts.ends_with(tail) {
        let k = stmts.len() - tail.len();
        found.push(k.checked_sub(1).map(|j| stmts[j].clone()));
    }
    for s in stmts {
        if let Stmt::If { body, orelse, .. } = s {
            arm_befores(body, tail, found);
            arm_befores(orelse, tail, found);
        }
    }
}

/// Replace `tail` at the end of `stmts` and of the arms of its `if` statements by `break`.
fn replace_arm_ends(stmts: &mut Vec<Stmt>, tail: &[Stmt]) {
    for s in stmts.iter_mut() {
        if let Stmt::If { body, orelse, .. } = s {
            replace_arm_ends(body, tail);
            replace_arm_ends(orelse, tail);
        }
    }
    if stmts.ends_with(tail) {
        stmts.truncate(stmts.len() - tail.len());
        stmts.push(Stmt::Break);
    }
}

/// Does `stmts` hold a `break` of the loop it is the body of (not one of a nested loop)?
fn has_break(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Break => true,
        Stmt::If { body, orelse, .. } => has_break(body) || has_break(orelse),
        Stmt::Try {
            body,
            handlers,
            orelse,
            finalbody,
        } => {
            has_break(body)
                || has_break(orelse)
                || has_break(finalbody)
                || handlers.iter().any(|h| has_break(&h.body))
        }
        Stmt::With { body, .. } | Stmt::AsyncWith { body, .. } => has_break(body),
        Stmt::Match { cases, .. } => cases.iter().any(|c| has_break(&c.body)),
        _ => false,
    })
}

impl Structurer<'_> {
    /// How many of `ins` are the compiler's unbindings of except clauses' names (`LOAD_CONST None;
    /// STORE name; DELETE name`, one per clause being left) at their start.
    /// Where the code after an except clause's end in `ins` starts: past its POP_EXCEPT and the
    /// unbinding of its `as` name; `None` where `ins` has no POP_EXCEPT.
    pub(super) fn past_clause_end(&self, ins: &[&framejit_bytecode::Instr]) -> Option<usize> {
        let k = ins.iter().position(|i| i.op.name == "POP_EXCEPT")?;
        Some(k + 1 + self.unbind_len(&ins[k + 1..]))
    }

    pub(super) fn unbind_len(&self, ins: &[&framejit_bytecode::Instr]) -> usize {
        let is_none = |i: &framejit_bytecode::Instr| {
            i.op.name == "LOAD_CONST"
                && matches!(i.arg, framejit_bytecode::Arg::Raw(k) if matches!(
                    self.code.consts.get(k as usize),
                    Some(crate::input::Const::Value(crate::ast::Constant::None))
                ))
        };
        let mut k = 0;
        while let [a, b, c, ..] = &ins[k..] {
            let pair = matches!(
                (b.op.name, c.op.name),
                ("STORE_FAST", "DELETE_FAST")
                    | ("STORE_NAME", "DELETE_NAME")
                    | ("STORE_GLOBAL", "DELETE_GLOBAL")
                    | ("STORE_DEREF", "DELETE_DEREF")
            ) && b.arg == c.arg;
            if !(is_none(a) && pair) {
                break;
            }
            k += 3;
        }
        k
    }
}
