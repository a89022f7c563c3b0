//! 3.10 try/except statements whose body and clauses meet at the code after the statement, where
//! that code runs to the end of the code object (branch twice310).

use super::{LoopCtx, Structurer, Val};
use crate::ast::Expr;
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// 3.10 try/except, handler `h`, whose body's normal path goes on from `e` (a jump block, or
    /// the first block of its `else:`) where no other rule found the statement's end. Every except
    /// clause that goes on (after its POP_EXCEPT) goes to one block `x`: what follows a clause's
    /// POP_EXCEPT is the code after the statement (code of the clause comes before it; `return`,
    /// `break` and `continue` are not counted as going on, `clause_exits`), so the statement ends
    /// at `x`, and the normal path from `e` up to `x` is its `else:` part. The normal path must
    /// reach `x` without passing the enclosing region's stop or the loop's header, exit, `else:`
    /// part or guard (what lies between is its `else:` part, inside the enclosing statement),
    /// unless `x` is where the enclosing region stops (an `if` around the statement whose merge
    /// is where the clauses go on, the `else:` part leaving): without a stop, an `else:` part
    /// that leaves may hold the rest of an enclosing try body (site `execsitecustomize`: `try:
    /// try: import ... except ImportError as exc: ...`). `x` lies in the protected range the
    /// statement itself lies in (none, or the enclosing try / with body whose handler also
    /// covers the clauses' type tests): not code after an enclosing statement's POP_BLOCK.
    /// Before, the statement had no end and the code from `x` came out in a clause and again
    /// after the body ("a block would come out twice"); session 19 (branch rows310c) took the
    /// rule into loops, enclosing try / with bodies (test_smtpnet `test_connect_starttls`:
    /// `with m: try: ... except E as e: if c: ... else: raise` then more code; configparser
    /// `read_dict`: the same in a `for` loop) and `if` arms whose merge is further on (runpy
    /// `_get_module_details`).
    pub(super) fn legacy_clause_join(
        &self,
        h: usize,
        e: usize,
        lp: Option<&LoopCtx>,
    ) -> Option<usize> {
        let [x] = self.clause_exits(h, lp)[..] else {
            return None;
        };
        // (an enclosing stop only where the clauses go to it: an `if` around the statement whose
        // merge is where they go on, the `else:` part leaving; or where the normal path reaches
        // `x` before the stop, below)
        let stop = self.stops.last().copied().flatten();
        // (in a loop, not a lone jump back: the way round the loop, where the clauses and the
        // body's way on both go at the end of the loop's body, is no code after the statement;
        // idlelib.run `main`, a try inside a clause inside a `while True:` body)
        let back = self
            .lone_instr(x)
            .is_some_and(|i| i.op.name == "JUMP_ABSOLUTE")
            && self.succ(x, EdgeKind::Jump).is_some_and(|t| t <= x);
        if lp.is_some() && back {
            return None;
        }
        let range = |b: usize| self.cfg.blocks[b].handler.map(|t| t.0);
        let same_range = range(x) == range(h);
        let walls = [
            Some(x),
            stop,
            lp.map(|c| c.header),
            lp.and_then(|c| c.exit),
            lp.and_then(|c| c.else_at),
            lp.and_then(|c| c.guard),
        ];
        // (in a loop the normal way must get there: where the `else:` part leaves by `continue`,
        // the clauses' way on may be where an enclosing clause's region stops, its POP_EXCEPT:
        // idlelib.run `main`)
        let joins = stop == Some(x) && lp.is_none() || self.reach_within(e, &walls)[x];
        let leaves = || stop.is_none() && lp.is_none() && self.else_leaves_alone(e, x);
        (same_range && x != e && (joins || leaves())).then_some(x)
    }

    /// 3.10: does the normal way on from `e` (a try/except's `else:` part) leave the code on every
    /// path (`return` / `raise`) without reaching `x`, laid out after it, where the clauses go on,
    /// and every block it runs, and `x`, outside every protected range? Then no enclosing
    /// statement has code there (an enclosing try body's POP_BLOCK and the code after it, site
    /// `execsitecustomize`), and `x`, where only the clauses go on, is the code after the
    /// statement (encodings.idna `encode`: `try: ... except E: pass  else: ...; return r`, then
    /// more code; the statement found no end, and the code after it came out in the clause,
    /// where an `if` in it was reached twice).
    fn else_leaves_alone(&self, e: usize, x: usize) -> bool {
        if x <= e || self.cfg.blocks[x].handler.is_some() {
            return false;
        }
        let seen = self.reach_within(e, &[Some(x)]);
        !seen[x]
            && seen.iter().enumerate().all(|(b, &s)| {
                !s || self.cfg.blocks[b].handler.is_none()
                    && !self.instrs(b).iter().any(|i| i.op.name == "POP_BLOCK")
            })
    }
}

impl Structurer<'_> {
    /// ≤3.10: test block `c`, a part of a condition (`a or b <= x < c`), whose run ended in a
    /// branch on `test` with the comparison's middle operand kept under it (`left`): the chained
    /// comparison it starts, as [`Structurer::chain_cond`] reads it when it opens an `if`, then
    /// grown by the test blocks after it. Its test, targets when true and false, and the blocks
    /// it spans (`c` first, its cleanup among them). Marks nothing, as a test block's probe must
    /// not (the condition's caller marks the blocks it takes).
    /// Before, a part that was a chained comparison ended the condition: where 3.10 had copied
    /// the small exit block after the `if` into the comparison's cleanup, the condition's other
    /// parts went to the `if`'s body by themselves and it came out twice.
    pub(super) fn legacy_chain_part(
        &mut self,
        c: usize,
        test: Expr,
        left: Vec<Val>,
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Option<(Expr, usize, usize, Vec<usize>)> {
        if self.code.version >= framejit_bytecode::PyVersion::V3_11
            || left.len() != base.len() + 1
            || !matches!(left.last(), Some(Val::Chain(_)))
            || self.instrs(c).last().map(|i| i.op.name) != Some("POP_JUMP_IF_FALSE")
        {
            return None;
        }
        let saved = (self.visits.clone(), self.emitted.clone(), self.work);
        let cond = self.chain_cond(c, test, left, base);
        (self.visits, self.emitted, self.work) = saved;
        let cond = cond.ok()?;
        if cond.jump_if || cond.members.first() != Some(&c) {
            return None;
        }
        // (the comparison's true way on jumps over its cleanup: that jump block is a part of it,
        // and where it goes is where the condition goes when true)
        let mut members = cond.members;
        let mut fall = cond.fall;
        let lone_jump = self
            .lone_instr(fall)
            .is_some_and(|i| i.op.name == "JUMP_FORWARD");
        if lone_jump
            && self.cfg.blocks[fall]
                .preds
                .iter()
                .all(|p| members.contains(p))
        {
            members.push(fall);
            fall = self.succ(fall, EdgeKind::Jump)?;
        }
        Some(self.fold_condition(members, base, cond.test, fall, cond.taken, lp))
    }
}

impl Structurer<'_> {
    /// Block `c` only jumps forward (JUMP_FORWARD) and is reached only from `members`, the
    /// blocks of a condition that holds a chained comparison: the jump of its last comparison's
    /// holding (`and`) or failing (`or`) way over the comparison's cleanup.
    /// The block it jumps to, a part of the condition (`a < b < c or d`) where a test is there.
    /// (Every version lays the comparison out so; 3.11+ `if a == b == c and d: pass  else: E`
    /// followed by more code came out twice without it, b_twice310 `chain_and_pass_else`.)
    pub(super) fn legacy_jump_into(&self, c: usize, members: &[usize]) -> Option<usize> {
        if self.emitted[c]
            || members.contains(&c)
            || self
                .lone_instr(c)
                .is_none_or(|i| i.op.name != "JUMP_FORWARD")
            || !self.cfg.blocks[c].preds.iter().all(|p| members.contains(p))
        {
            return None;
        }
        // (it jumps over a chained comparison's cleanup, a member laid out right after it that
        // starts with POP_TOP, to the block right after that)
        let d = self.succ(c, EdgeKind::Jump)?;
        let over = c + 2 == d
            && members.contains(&(c + 1))
            && self
                .instrs(c + 1)
                .first()
                .is_some_and(|i| i.op.name == "POP_TOP");
        over.then_some(d)
    }
}
