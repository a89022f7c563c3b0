//! `for` / `while` loops with an `else:` part.
//!
//! A loop ends two ways: its test fails (FOR_ITER is exhausted, the `while` test is false) and
//! control goes to the loop's exit; or a `break` jumps out. Without `else:` both go to the same
//! place. With it, the exit starts the `else:` part and `break` jumps past it, to where the `else:`
//! part goes on (or, when the `else:` part leaves by `return`/`raise`, to the code after the
//! statement). So a loop has an `else:` part where its body jumps out, with the stack as the loop
//! leaves it, to one block laid out after the exit that is not the exit itself.

use super::{LoopCtx, Structurer};
use crate::ast::Stmt;
use crate::exprs::Val;
use crate::flow::EdgeKind;
use crate::DecompileError;

impl Structurer<'_> {
    /// Where `break` of the loop headed by `header` goes when it is not the loop's `exit` (the
    /// start of an `else:` part): the one block that the loop's blocks leave for, on the way of blocks
    /// with one way on (a `for` loop's `break` pops the iterator), whose stack depth is
    /// `depth` (the stack the loop leaves: without a `for` loop's iterator), laid out after `exit`,
    /// and not the exit under jumps (or, laid out anywhere, the `enclosing` loop's header or exit).
    /// `None` where there is no such block or more than one.
    pub(super) fn else_break_target(
        &self,
        header: usize,
        exit: usize,
        depth: Option<u32>,
        enclosing: Option<&LoopCtx>,
    ) -> Option<usize> {
        let body = &self.loop_at(header)?.body;
        // (a `break` whose jump the compiler threaded on to the enclosing loop's header or exit:
        // the loop statement is the last of that loop's body, or followed by its `break`)
        let encloses = |t: usize| enclosing.is_some_and(|c| t == c.header || Some(t) == c.exit);
        depth?;
        let mut found: Option<usize> = None;
        // (and, for a `for` loop, the except clauses of try statements in the body, outside the
        // natural loop: a `break` there leaves through the clause's POP_EXCEPT; a `while` loop's
        // clauses keep today's reading, test.libregrtest's WorkerThread.run was refused so)
        let is_for = self.instrs(header).first().map(|i| i.op.name) == Some("FOR_ITER");
        let clauses = match is_for {
            true => self.body_clauses(header, body),
            false => Vec::new(),
        };
        for &x in body.iter().chain(&clauses) {
            for e in &self.cfg.blocks[x].succs {
                // (the loop's own way out, FOR_ITER's jump to the exit's pops, is not a `break`)
                let own_exit = e.to == exit || self.after_pops(e.to) == Some(exit);
                let inside = body.contains(&e.to) || clauses.contains(&e.to);
                if e.kind == EdgeKind::Exception || inside || own_exit {
                    continue;
                }
                // (the first block on the way with the loop's stack left, laid out after the exit:
                // a `break` block that only jumps on is one where the jump continues an outer loop)
                // (a way on through the exit itself is a `break` to the exit: one out of a
                // `with` body runs the exit call's copy first)
                let is_place = |t: usize| (t > exit || encloses(t)) && self.entry_depth[t] == depth;
                let first = self
                    .break_way(e.to)
                    .into_iter()
                    .take_while(|&t| t != exit)
                    .find(|&t| is_place(t));
                // (a `break` behind a test of its own, `if c: return x` before it: every way on
                // from there that pops the loop's values must reach one such place)
                let Some(t) =
                    first.or_else(|| self.break_place_past_tests(e.to, exit, depth, &is_place))
                else {
                    continue;
                };
                if self.resolve_jumps(t) == self.resolve_jumps(exit) {
                    continue;
                }
                match found {
                    Some(f) if f != t => return None,
                    _ => found = Some(t),
                }
            }
        }
        found
    }

    /// The blocks of the handlers of try statements inside the loop headed by `header` (whose
    /// blocks are `body`): reached from the handler of a body block that does not cover the
    /// header, by normal edges, up to the blocks where clauses end (POP_EXCEPT), without
    /// entering the body (a clause's way back into the loop, its end or `continue`, stays
    /// outside the list). (≤3.10 as well: a clause that ends in `break` has no way back into
    /// the loop either, its POP_EXCEPT, the pop of the iterator and the jump past the `else:`
    /// part in one block; a with statement's handler goes on where its body does.)
    fn body_clauses(&self, header: usize, body: &[usize]) -> Vec<usize> {
        let own = self.cfg.blocks[header].handler.map(|h| h.0);
        let mut todo: Vec<usize> = body
            .iter()
            .filter_map(|&b| self.cfg.blocks[b].handler.map(|h| h.0))
            .filter(|&h| Some(h) != own && !body.contains(&h))
            .collect();
        let mut seen: Vec<usize> = Vec::new();
        while let Some(x) = todo.pop() {
            if seen.contains(&x) || body.contains(&x) || seen.len() > 64 {
                continue;
            }
            seen.push(x);
            // (a clause ends at its POP_EXCEPT: where that block goes is outside the clause)
            if self.instrs(x).iter().any(|i| i.op.name == "POP_EXCEPT") {
                continue;
            }
            for e in &self.cfg.blocks[x].succs {
                if e.kind != EdgeKind::Exception {
                    todo.push(e.to);
                }
            }
        }
        seen
    }

    /// The blocks from `x` on that a `break` passes through on its way out: `x`, then while a
    /// block has one way on (the statements before the `break`, a `for` loop's iterator popped,
    /// jumps), the block it goes on to.
    fn break_way(&self, x: usize) -> Vec<usize> {
        let mut way = vec![x];
        let mut t = x;
        while way.len() < 8 {
            let mut ways = self.cfg.blocks[t]
                .succs
                .iter()
                .filter(|e| e.kind != EdgeKind::Exception);
            match (ways.next(), ways.next()) {
                (Some(e), None) if !way.contains(&e.to) => {
                    t = e.to;
                    way.push(t);
                }
                _ => break,
            }
        }
        way
    }

    /// The one place, past the blocks reached from `x` while the loop's values are still on the
    /// stack (deeper than `depth`; not through `exit`, the loop's own way out), that the ways on
    /// reach with them popped and `is_place` accepts; `None` where there is none, several, or a
    /// way on pops them to anything else.
    fn break_place_past_tests(
        &self,
        x: usize,
        exit: usize,
        depth: Option<u32>,
        is_place: &dyn Fn(usize) -> bool,
    ) -> Option<usize> {
        let d = depth?;
        let mut seen = vec![x];
        let mut todo = vec![x];
        let mut found: Option<usize> = None;
        while let Some(b) = todo.pop() {
            if seen.len() > 32 {
                return None;
            }
            for e in &self.cfg.blocks[b].succs {
                let t = e.to;
                if e.kind == EdgeKind::Exception || t == exit || seen.contains(&t) {
                    continue;
                }
                seen.push(t);
                match self.entry_depth[t] {
                    Some(td) if td > d => todo.push(t),
                    Some(td) if td == d && is_place(t) => match found {
                        Some(f) if f != t => return None,
                        _ => found = Some(t),
                    },
                    _ => return None,
                }
            }
        }
        found
    }

    /// The `else:` part of a loop: from the loop's `exit` up to `brk`, where `break` goes, with
    /// `carry` over `base` (what the exit block pops: 3.12+ END_FOR's values), structured in the
    /// enclosing loop `outer` (a `break` in the `else:` part leaves that loop).
    pub(super) fn loop_else(
        &mut self,
        exit: usize,
        brk: usize,
        base: &[Val],
        carry: Vec<Val>,
        outer: Option<&LoopCtx>,
    ) -> Result<Vec<Stmt>, DecompileError> {
        let mut orelse = self.region_carry(exit, Some(brk), base, carry, outer)?;
        // (the `else:` part ends where `break` goes: nothing to say so)
        if matches!(orelse.last(), Some(Stmt::Pass)) && orelse.len() == 1 {
            orelse.clear();
        }
        Ok(orelse)
    }

    /// 3.12+ `for ... else:` whose `else:` part leaves (`return`): the code after the statement
    /// is reached only by `break`, and the compiler copies it (a small exit block) into the break,
    /// after the pop of the iterator. That block (the one way the body leaves to that pops the
    /// iterator first and leaves the code) is where `break` goes, and how many of its instructions
    /// (markers, the pop) come before the code after the loop. `None` where there is no such block
    /// or more than one.
    pub(super) fn break_into_copy(&self, header: usize, exit: usize) -> Option<(usize, usize)> {
        if self.code.version < framejit_bytecode::PyVersion::V3_12 {
            return None;
        }
        let leaves = |x: usize| {
            self.cfg.blocks[x]
                .succs
                .iter()
                .all(|e| e.kind == EdgeKind::Exception)
        };
        // (the `else:` part, after the loop's own pops, leaves too)
        let else_part = self.after_pops(exit).unwrap_or(exit);
        if !leaves(else_part) {
            return None;
        }
        // (an enclosing with statement's exit call followed by code that is not a constant
        // `return` is the with body's normal end and the code after the with statement: an
        // `else:` part's `return` computes its value before the exit call. The loop ends the
        // with body, and what its body leaves for after popping the iterator is a way out of
        // the with statement too (`return CONSTANT` through the exit call's copy), no `break`)
        let ins = self.instrs(else_part);
        if super::with_exits::late_code_after_exit(&ins, false, false) {
            return None;
        }
        // (and is reached only through the loop's exit: code other statements also go on to,
        // such as an enclosing `if`'s, is the code after the loop, where the `for` ends)
        if else_part != exit && self.cfg.blocks[else_part].preds.iter().any(|&p| p != exit) {
            return None;
        }
        let body = &self.loop_at(header)?.body;
        let mut found: Option<(usize, usize)> = None;
        for &x in body {
            for e in &self.cfg.blocks[x].succs {
                let t = e.to;
                if e.kind == EdgeKind::Exception
                    || body.contains(&t)
                    || t == exit
                    || !self.leaves_through_own(t)
                {
                    continue;
                }
                let ins = self.instrs(t);
                let marks = ins
                    .iter()
                    .take_while(|i| matches!(i.op.name, "NOP" | "NOT_TAKEN"))
                    .count();
                let pops_iter = ins
                    .get(marks)
                    .is_some_and(|i| matches!(i.op.name, "POP_TOP" | "POP_ITER"));
                if !pops_iter
                    || (marks + 1 >= ins.len() && leaves(t))
                    || self.entry_depth[t] != self.entry_depth[header]
                {
                    continue;
                }
                match found {
                    Some((f, _)) if f != t => return None,
                    _ => found = Some((t, marks + 1)),
                }
            }
        }
        // (a `break` in an except clause of the body: the clause's end, then the pop and the
        // copy, in the clause's block: `clause_break_copy`)
        for c in self.body_clauses(header, body) {
            let Some(p) = self.clause_break_copy(c) else {
                continue;
            };
            if p + 1 >= self.instrs(c).len() || !leaves(c) {
                continue;
            }
            match found {
                Some((f, _)) if f != c => return None,
                _ => found = Some((c, p + 1)),
            }
        }
        found
    }

    /// 3.12+: where block `b` pops a `for` loop's iterator right after ending an except clause
    /// (POP_EXCEPT, the unbinding of its `as` name): a `break` out of the clause, into the copy of
    /// the code after the loop that follows the pop.
    pub(super) fn clause_break_copy(&self, b: usize) -> Option<usize> {
        let ins = self.instrs(b);
        let p = self.past_clause_end(&ins)?;
        ins.get(p)
            .is_some_and(|i| matches!(i.op.name, "POP_TOP" | "POP_ITER"))
            .then_some(p)
    }
}

impl Structurer<'_> {
    /// Does control from block `x` leave the code (return / raise) through blocks that only it
    /// leads to? A `break` whose copy of the code after the loop crosses the end of an exception
    /// range (a loop inside `try:`, 3.11+: the pop of the iterator is covered, the copy is not)
    /// is split into such blocks; each has one way on and no other way in.
    pub(super) fn leaves_through_own(&self, x: usize) -> bool {
        let mut t = x;
        for _ in 0..8 {
            let mut ways = self.cfg.blocks[t]
                .succs
                .iter()
                .filter(|e| e.kind != EdgeKind::Exception);
            match (ways.next(), ways.next()) {
                (None, _) => return true,
                (Some(e), None)
                    if e.kind == EdgeKind::Fall
                        && e.to != x
                        && self.cfg.blocks[e.to].preds.iter().all(|&p| p == t) =>
                {
                    t = e.to;
                }
                _ => return false,
            }
        }
        false
    }
}
