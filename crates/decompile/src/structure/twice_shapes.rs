//! Shapes in which a block would come out twice (the structurer reaching a block it already
//! placed), read as the source had them.

use super::Structurer;
use crate::ast::Expr;
use crate::exprs::Val;
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// Of the blocks control leaves a `while` loop headed by `header` to, those that can be the
    /// code after the loop: entered with the stack the header is entered with. A block entered
    /// with more (a `return` out of a `for` inside the loop, which pops the iterator first; a
    /// `return` out of a `with`, which calls the exit first) is a way out of the construct
    /// holding those values, placed where that construct is, never after the loop.
    pub(super) fn exits_at_header_depth(&self, header: usize, exits: &[usize]) -> Vec<usize> {
        let Some(depth) = self.entry_depth[header] else {
            return exits.to_vec();
        };
        exits
            .iter()
            .copied()
            .filter(|&x| self.entry_depth[x].is_none_or(|d| d <= depth))
            .collect()
    }
}

impl Structurer<'_> {
    /// Is the stop `s` of the region holding the branch at block `b`, laid out before `b`, the
    /// code after a try statement whose except clause holds the branch (3.11+ lay it out before
    /// the handler)? The branch is under a handler that does not cover `s`, and `s` is no
    /// header of a loop around the branch (nor a loop's jump back, which a handler would cover
    /// as it covers the branch), nor outside a loop around the branch.
    pub(super) fn stop_behind(&self, b: usize, s: usize) -> bool {
        let handler = |x: usize| self.cfg.blocks[x].handler.map(|h| h.0);
        self.code.version >= framejit_bytecode::PyVersion::V3_11
            && handler(b).is_some()
            && handler(s) != handler(b)
            && !self.loop_at(s).is_some_and(|l| l.body.contains(&b))
            // (a branch in a loop inside the clause gets there only by leaving that loop)
            && self
                .loops
                .iter()
                .all(|l| !l.body.contains(&b) || l.body.contains(&s))
    }
}

impl Structurer<'_> {
    /// Block `x` and the blocks after it on its one way on (each block going on to one place
    /// only, exception edges aside), up to a block that branches or leaves, or one of `body`.
    fn one_way_chain(&self, x: usize, body: &[usize]) -> Vec<usize> {
        self.chain_on(x, body, false)
    }

    /// [`Self::one_way_chain`], going on also past a branch one of whose arms only leaves the
    /// code (a `raise` arm: `elif c: f(); break  else: raise E`), by the other arm.
    fn onward_chain(&self, x: usize, body: &[usize]) -> Vec<usize> {
        self.chain_on(x, body, true)
    }

    fn chain_on(&self, x: usize, body: &[usize], past_leaving: bool) -> Vec<usize> {
        let mut out = vec![x];
        let mut cur = x;
        while out.len() < 64 {
            let mut next = self.cfg.blocks[cur]
                .succs
                .iter()
                .filter(|e| e.kind != EdgeKind::Exception);
            let leaves = |t: usize| !body.contains(&t) && self.only_leaves(self.fall_chain_end(t));
            let on = match (next.next(), next.next(), next.next()) {
                (Some(e), None, _) => Some(e.to),
                (Some(a), Some(b), None) if past_leaving && leaves(a.to) != leaves(b.to) => {
                    Some(if leaves(a.to) { b.to } else { a.to })
                }
                _ => None,
            };
            match on {
                Some(t) if !body.contains(&t) && !out.contains(&t) => {
                    cur = t;
                    out.push(cur);
                }
                _ => break,
            }
        }
        out
    }

    /// Where a loop (body `body`) goes on when no place is where most of its ways out `exits`
    /// lead: the first place every way out gets to through blocks that only go on to one
    /// place, or on by the one arm of a branch whose other only leaves (a long `raise`, written
    /// in the body: `loop_exits::return_in_body`; argparse `consume_optional` on 3.10)
    /// (`if a: break  elif b: f(); break` in `while True:`: one way out jumps straight
    /// to the code after the loop, the other runs `f()` first and then jumps there; neither
    /// is the code after the loop for the other). `None` where they get to no place in common.
    pub(super) fn common_exit(&self, body: &[usize], exits: &[usize]) -> Option<usize> {
        let (first, rest) = exits.split_first()?;
        if rest.is_empty() {
            return None;
        }
        let others: Vec<Vec<usize>> = rest.iter().map(|&x| self.onward_chain(x, body)).collect();
        self.onward_chain(*first, body)
            .into_iter()
            .find(|p| others.iter().all(|c| c.contains(p)))
    }

    /// Can `t` be where `break` goes past an `else:` part that starts at the loop's `exit`
    /// (body `body`)? Not where the exit's one way on meets `t`'s elsewhere than at `t`: then
    /// both are ways to that place (`if not n: break  elif m: f(n); break` ending in one jump
    /// to the code after the loop), and no `else:` part runs between them.
    pub(super) fn else_part_before(&self, exit: usize, t: usize, body: &[usize]) -> bool {
        let from_t = self.one_way_chain(t, body);
        !self
            .one_way_chain(exit, body)
            .into_iter()
            .take_while(|&x| x != t)
            .any(|x| from_t.contains(&x))
    }
}

impl Structurer<'_> {
    /// 3.11+: is the stop `s` of a region around the loop `ctx` (the branch at block `b` is in
    /// its body, `s` beyond it) reached by the arms `fall` / `taken` only through the loop's
    /// header or its exit? Then neither arm goes on there: an arm that goes back to the header
    /// is the end of the body (or a `continue`), one that gets to the exit a `break`, and `s`
    /// is only where the loop statement goes on (`for k in d: if not k: raise E` then more code
    /// before the enclosing `if`'s end: the arm that goes round would have ended the loop body
    /// at `s`, placing the code after the loop inside it and again after it).
    pub(super) fn stop_only_past_loop(
        &self,
        b: usize,
        fall: usize,
        taken: usize,
        s: usize,
        ctx: &super::LoopCtx,
    ) -> bool {
        let walls = [
            Some(b),
            Some(ctx.header),
            ctx.exit,
            ctx.guard,
            ctx.else_at,
            Some(s),
        ];
        // (an arm that is the jump to the exit or header itself gets there through it too)
        let reaches =
            |x: usize| x == s || !walls.contains(&Some(x)) && self.reach_within(x, &walls)[s];
        self.legacy.is_none() && !reaches(fall) && !reaches(taken)
    }
}

/// FRAMEJIT_DEBUG_TWICE (read once): where set, a block placed twice prints the structurer's call
/// chain; where it names a block number, that block's first placement prints its chain too.
pub(super) fn debug_twice() -> Option<&'static str> {
    static VALUE: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    VALUE
        .get_or_init(|| std::env::var("FRAMEJIT_DEBUG_TWICE").ok())
        .as_deref()
}

impl Structurer<'_> {
    /// Block `c`, tried as a part of a condition, as a chained comparison (`a and 0 <= x < n`):
    /// its test `test` compares the middle value kept on the stack (`left` ends with it, over
    /// `base`) and falls into the next comparison, its false way a cleanup that pops that value
    /// ([`Self::chain_cond`]). The whole comparison grown by the test blocks after it, with its
    /// targets when true and false and the blocks it spans; marks nothing (the blocks its trial
    /// ran are given back; its jump sense is `false`: the comparison goes on when the part
    /// holds). Without it, `if a and 0 <= x < n: B  elif d: C` was read as `if a:`
    /// with an inner `if 0 <= x < n: B` whose false way, the `elif`, came out in both arms.
    pub(super) fn chain_test(
        &mut self,
        c: usize,
        base: &[Val],
        test: Expr,
        left: Vec<Val>,
        lp: Option<&super::LoopCtx>,
    ) -> Option<(Expr, usize, usize, Vec<usize>)> {
        if left.len() != base.len() + 1 || !matches!(left.last(), Some(Val::Chain(_))) {
            return None;
        }
        let saved = (self.emitted.clone(), self.visits.clone(), self.work);
        let cond = self.chain_cond(c, test, left, base);
        (self.emitted, self.visits, self.work) = saved;
        let mut cond = cond.ok()?;
        // (its true way a jump over the cleanup block, reached from the comparison only: the
        // place it jumps to, where `a or 0 < x < n` has `a`'s true way go)
        // (not where that place is itself only a jump: 3.12+ `if a and 0 < x < n: continue`
        // jumps over the cleanup to its own jump back, where `if not (...): B` ending the loop
        // body falls into the jump back: the layout the latch rule of `branch_to` reads)
        let over = self
            .succ(cond.fall, EdgeKind::Jump)
            .filter(|&m| self.only_jumps_forward_to(cond.fall, m))
            .filter(|&m| {
                !self
                    .lone_instr(m)
                    .is_some_and(|i| i.op.flow == framejit_bytecode::opcode::Flow::Jump)
            });
        if let Some(m) = over.filter(|_| {
            self.cfg.blocks[cond.fall]
                .preds
                .iter()
                .all(|p| cond.members.contains(p))
        }) {
            cond.members.push(cond.fall);
            cond.fall = m;
        }
        Some(self.fold_condition(cond.members, base, cond.test, cond.fall, cond.taken, lp))
    }
}

impl Structurer<'_> {
    /// 3.11+: in an except clause whose try statement's code after (`s`, the enclosing region's
    /// stop) is laid out before the handler (the statement inside an `if` arm, the handler moved
    /// after the code the `if` goes on to), do both arms of the branch at block `b` (`fall`,
    /// `taken`) go back to `s`, meeting at no other block on the way? Then the branch's `if`
    /// ends at `s`, as the arms of `except E: if a: pass  elif b: pass  else: raise` do (the
    /// search for a meeting place after the branch cannot find `s`, which lies before it).
    pub(super) fn meet_only_behind(&self, b: usize, fall: usize, taken: usize, s: usize) -> bool {
        let walls = [Some(b), Some(s)];
        let rf = self.reach_within(fall, &walls);
        let rt = self.reach_within(taken, &walls);
        rf[s] && rt[s] && (0..rf.len()).all(|x| x == s || !(rf[x] && rt[x]))
    }
}

impl Structurer<'_> {
    /// 3.12+: the stop `s` of the region holding the branch at block `b`, where exactly one arm
    /// (`fall`, `taken`) gets there, when `b` is code the compiler moved after the handlers (a
    /// block no normal edge from the entry reaches: the code after a try statement whose body
    /// always leaves, reached only from its except clause) and `s` is not: the arm's jump back
    /// to `s` is the way on to where the enclosing statement goes on, as a jump forward would be
    /// in the source's layout (`if c: try: return f()  except E: pass;  if d: return g()` then
    /// code after the `if`: `if d:`'s other arm jumps back to that code). Not a loop's jump
    /// back: `s` is no header of a loop around `b`, nor outside such a loop. Not in an except
    /// clause (`except E: if not q: raise` then code: the clause's end goes on to the code after
    /// the try statement, and the existing readings place it).
    pub(super) fn cold_stop_reached(&self, b: usize, fall: usize, taken: usize) -> Option<usize> {
        if self.legacy.is_some() || self.code.version < framejit_bytecode::PyVersion::V3_12 {
            return None;
        }
        let s = self.stops.iter().rev().find_map(|s| *s)?;
        let warm = self.warm_blocks();
        let is_warm = |x: usize| warm.get(x).copied().unwrap_or(false);
        // (at the stop's try nesting: code after a try statement, not an except clause's own
        // code, which is cold too and goes on to the code after its statement)
        let level = |x: usize| self.cfg.blocks[x].handler.map(|h| h.0);
        if s >= b || is_warm(b) || !is_warm(s) || level(b) != level(s) {
            return None;
        }
        let in_loop = self.loop_at(s).is_some_and(|l| l.body.contains(&b))
            || self
                .loops
                .iter()
                .any(|l| l.body.contains(&b) && !l.body.contains(&s));
        if in_loop {
            return None;
        }
        let walls = [Some(b), Some(s)];
        let reaches = |x: usize| x == s || self.reach_within(x, &walls)[s];
        (reaches(fall) != reaches(taken)).then_some(s)
    }
}

impl Structurer<'_> {
    /// A chained comparison's last test `next` falls, when false, into `f`: where `f` is only
    /// a jump of the comparison's line that `next` alone reaches, over the cleanup that pops
    /// the middle value (`a == m == b or c`: the false way jumps to the next operand, where the
    /// cleanup goes too), the comparison's false target is where `f` jumps, and `f` is part of
    /// the comparison. Without it the `or`'s next operand, reached from the cleanup and from
    /// `f`, was no target of the comparison, and the `if` body came out in two arms. (The true
    /// way's jump over the cleanup is left alone: to a body that is `pass` or `break`, a jump
    /// of its own line either way, it reads as before.)
    pub(super) fn chain_false_jump(&self, next: usize, f: usize) -> Option<usize> {
        // (the comparison's own jump has its line; a `break` or `continue` written as the
        // body has one of its own, and leaves the loop the comparison is in)
        let line = self.instrs(next).last().and_then(|i| i.loc.line);
        let jump = self.lone_instr(f).is_some_and(|i| {
            matches!(i.op.name, "JUMP_FORWARD" | "JUMP") && line.is_some() && i.loc.line == line
        });
        let only_from_next = self.cfg.blocks[f].preds == [next];
        if !jump || !only_from_next || self.emitted[f] {
            return None;
        }
        let to = self.succ(f, EdgeKind::Jump).filter(|&t| t > f)?;
        let leaves_loop = self
            .loops
            .iter()
            .any(|l| l.body.contains(&next) && !l.body.contains(&to));
        (!leaves_loop).then_some(to)
    }
}
