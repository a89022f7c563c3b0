//! 3.8 / 3.9 loop bodies whose last statement is an `if` that leaves the loop from inside its body
//! (`if c: A; if d: break`): where the arms of such a branch meet is only after the loop.

use super::{LoopCtx, Structurer};
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// The join of a ≤3.9 branch inside loop `lp` whose taken arm goes straight back to the
    /// header, given its post-dominator `ipdom`. Where that is the loop's exit, the arms never meet
    /// inside the loop: the false arm's jump to the header is the body's closing jump (threaded by
    /// the peephole optimizer: an `if` with code after it jumps there instead, and `else: continue`
    /// leaves a jump of the body over it), so the `if` ends the body and its own body, laid out
    /// first, leaves by `break` (or a `return`...) or goes back round: the join is the header.
    pub(super) fn legacy_exit_join(
        &self,
        taken: usize,
        ipdom: Option<usize>,
        lp: Option<&LoopCtx>,
    ) -> Option<usize> {
        match lp {
            Some(c)
                if self.code.version <= framejit_bytecode::PyVersion::V3_9
                    && c.header == taken
                    && ipdom.is_some()
                    && ipdom == c.exit =>
            {
                Some(taken)
            }
            _ => ipdom,
        }
    }
}

impl Structurer<'_> {
    /// ≤3.9 try/except (handler `h`) ending a loop body: a clause's own way out (its POP_EXCEPT and
    /// the jump to the end of the statement), laid out at the clause's end, goes straight to the
    /// loop's header: the end of the statement is the body's closing jump there (threaded). The
    /// statement ends at the header, the body's normal path up to it being its `else:` part.
    /// (A `continue` ending a clause is followed by the clause's own, dead, way out instead.)
    pub(super) fn legacy_clause_closes_body(
        &self,
        h: usize,
        after: Option<usize>,
        lp: Option<&LoopCtx>,
    ) -> Option<usize> {
        let (Some(ctx), Some(a), Some(lg)) = (lp, after, self.legacy.as_ref()) else {
            return None;
        };
        if self.code.version > framejit_bytecode::PyVersion::V3_9 || a == ctx.header {
            return None;
        }
        let n = self.cfg.blocks.len();
        let closes = (0..n.saturating_sub(1)).any(|x| {
            let pops = self.instrs(x).iter().any(|i| i.op.name == "POP_EXCEPT");
            let to_header = self.cfg.blocks[x]
                .succs
                .iter()
                .any(|e| e.kind == EdgeKind::Jump && e.to == ctx.header);
            // (3.8 drops the dead END_FINALLY after a bare `except:`: the body's normal path
            // follows)
            let layout_end = x + 1 == a || self.clause_layout_end(x + 1);
            // (a clause that left by `break` / `raise` still has its way out after it, dead;
            // where the body's normal path goes on to an `else:` part, not straight back)
            let dead_to_header = self.resolve_jumps(a) != ctx.header
                && self
                    .legacy_dead_clause_exit(x, h)
                    .is_some_and(|t| self.resolve_jumps(t) == ctx.header);
            ((pops && to_header && lg.running[x] == Some(h)) || dead_to_header) && layout_end
        });
        closes.then_some(ctx.header)
    }

    /// ≤3.9: the block a clause's own way out at `x` jumps to, where the clause of handler `h`
    /// laid out right before it left (`break`, `raise`): the compiler still writes POP_EXCEPT and
    /// the jump to the statement's end after the clause's body, unreachable (its edges are cut,
    /// `dead_clause_end`), so the jump's label says where the statement ended.
    pub(super) fn legacy_dead_clause_exit(&self, x: usize, h: usize) -> Option<usize> {
        let lg = self.legacy.as_ref()?;
        if self.code.version > framejit_bytecode::PyVersion::V3_9
            || x == 0
            || !self.cfg.blocks[x].preds.is_empty()
            || lg.running[x - 1] != Some(h) && !self.legacy_unbinding_in(x - 1, h)
            || self.cfg.blocks[x - 1].preds.is_empty()
        {
            return None;
        }
        let label = match self.instrs(x)[..] {
            [p, j]
                if p.op.name == "POP_EXCEPT"
                    && matches!(j.op.name, "JUMP_FORWARD" | "JUMP_ABSOLUTE") =>
            {
                j.target()?
            }
            _ => return None,
        };
        self.cfg
            .blocks
            .iter()
            .position(|b| b.labels.contains(&label))
    }

    /// 3.8: is block `u` the handler that unbinds the name of an `except E as name:` clause of
    /// handler `h` (`name = None; del name`, then the re-raise the lowering made of its
    /// END_FINALLY), entered from that clause's body only? 3.8 lays the clause's own way out
    /// after it (legacy_layout38.rs keeps it where it is dead).
    fn legacy_unbinding_in(&self, u: usize, h: usize) -> bool {
        let Some(lg) = self.legacy.as_ref() else {
            return false;
        };
        let names: Vec<&str> = self.instrs(u).iter().map(|i| i.op.name).collect();
        let unbinds = matches!(
            names[..],
            [
                "LOAD_CONST",
                "STORE_FAST" | "STORE_NAME" | "STORE_GLOBAL" | "STORE_DEREF",
                "DELETE_FAST" | "DELETE_NAME" | "DELETE_GLOBAL" | "DELETE_DEREF",
                "RERAISE"
            ]
        );
        let preds = &self.cfg.blocks[u].preds;
        self.code.version == framejit_bytecode::PyVersion::V3_8
            && unbinds
            && !preds.is_empty()
            && preds.iter().all(|&p| lg.running[p] == Some(h))
    }

    /// The blocks the dead ways out of handler `h`'s clauses name
    /// ([`Self::legacy_dead_clause_exit`]), not a loop's header or exit.
    pub(super) fn legacy_dead_clause_exits(&self, h: usize, lp: Option<&LoopCtx>) -> Vec<usize> {
        let in_loop = |x: usize| lp.is_some_and(|c| c.header == x || c.exit == Some(x));
        let mut out: Vec<usize> = Vec::new();
        for x in 0..self.cfg.blocks.len() {
            if let Some(t) = self.legacy_dead_clause_exit(x, h) {
                if !in_loop(self.resolve_jumps(t)) && !out.contains(&t) {
                    out.push(t);
                }
            }
        }
        out
    }

    /// Is `y`, the block after a clause's way out, what the compiler lays out after a clause's
    /// end: the next clause's type test, the re-raise after the last clause, or the handler that
    /// unbinds an `except E as name:` name (entered only from its setup, by its handler edge)?
    fn clause_layout_end(&self, y: usize) -> bool {
        let first = self.instrs(y).first().map(|i| i.op.name);
        // (the re-raise after a bare `except:` is dead)
        if matches!(first, Some("RERAISE" | "END_FINALLY")) {
            return true;
        }
        if first == Some("DUP_TOP") {
            return !self.cfg.blocks[y].preds.is_empty();
        }
        // (3.9; 3.8 lays the unbinding out before the clause's way out)
        let preds = &self.cfg.blocks[y].preds;
        self.code.version == framejit_bytecode::PyVersion::V3_9
            && !preds.is_empty()
            && preds.iter().all(|&p| {
                self.instrs(p)
                    .last()
                    .is_some_and(|i| i.op.name == "SETUP_FINALLY")
                    && self.cfg.blocks[p]
                        .succs
                        .iter()
                        .any(|e| e.to == y && e.kind != EdgeKind::Fall)
            })
    }
}

impl Structurer<'_> {
    /// ≤3.9 `if c: ... break` with no `else:`, followed by more of the loop body: the arms meet
    /// only after the loop (`merge`, its exit, or nowhere), and the body arm's last block, laid out
    /// right before the taken arm, is the live `break` (the iterator popped, a jump to the exit).
    /// An `else:` would have left the compiler's dead jump past it in between (see
    /// `legacy_raise_then_else`): the taken arm is the code after the statement.
    pub(super) fn legacy_break_without_else(
        &self,
        fall: usize,
        taken: usize,
        merge: Option<usize>,
        lp: Option<&LoopCtx>,
    ) -> bool {
        let Some(ctx) = lp else { return false };
        let Some(exit) = ctx.exit else { return false };
        if self.code.version > framejit_bytecode::PyVersion::V3_9
            || fall >= taken
            || taken == ctx.header
            || (merge.is_some() && merge != Some(exit))
        {
            return false;
        }
        let before = taken - 1;
        // (a dead block before `taken` counts where it is the `break`'s own jump to the exit,
        // left behind where the test before it jumps there itself: `if c: raise E` then
        // `break` ending the arm)
        let dead_break = self
            .lone_instr(before)
            .is_some_and(|i| i.op.name == "JUMP_ABSOLUTE")
            && self.succ(before, EdgeKind::Jump) == Some(exit);
        if self.cfg.blocks[before].preds.is_empty() && before != fall && !dead_break {
            return false;
        }
        let names: Vec<&str> = self.instrs(before).iter().map(|i| i.op.name).collect();
        let for_loop = self.instrs(ctx.header).first().map(|i| i.op.name) == Some("FOR_ITER");
        // (the arm's own code may come first in the block)
        let shape = match names[..] {
            [.., "POP_TOP", "JUMP_ABSOLUTE" | "JUMP_FORWARD"] if for_loop => true,
            [.., "JUMP_ABSOLUTE" | "JUMP_FORWARD"] => !for_loop,
            _ => false,
        };
        shape
            && self
                .succ(before, EdgeKind::Jump)
                .is_some_and(|t| self.resolve_jumps(t) == self.resolve_jumps(exit))
    }
}

impl Structurer<'_> {
    /// ≤3.10 loop (`body`, from `header`) with no way out found among its own blocks: an except
    /// clause inside it may leave it (`while True: try: ... except E: break`). Natural loops hold
    /// the blocks that get back to the header, which such a clause does not; its blocks run with
    /// the handled exception on the stack, deeper than the header. Where the clauses of handlers
    /// covering the body go on at the header's depth, outside the body, is where the loop goes on.
    pub(super) fn legacy_clause_exits(&self, header: usize, body: &[usize]) -> Vec<usize> {
        let Some(depth) = self.entry_depth[header] else {
            return Vec::new();
        };
        if self.legacy.is_none() {
            return Vec::new();
        }
        let deeper = |x: usize| self.entry_depth[x].is_some_and(|d| d > depth);
        let mut seen: Vec<usize> = Vec::new();
        let mut todo: Vec<usize> = body
            .iter()
            .filter_map(|&x| self.cfg.blocks[x].handler.map(|h| h.0))
            .filter(|h| !body.contains(h))
            .collect();
        let mut exits: Vec<usize> = Vec::new();
        while let Some(x) = todo.pop() {
            if seen.contains(&x) {
                continue;
            }
            seen.push(x);
            for e in &self.cfg.blocks[x].succs {
                let to = e.to;
                if e.kind == EdgeKind::Exception || body.contains(&to) {
                    continue;
                }
                if deeper(to) {
                    todo.push(to);
                } else if !exits.contains(&to) && self.legacy_loop_exit(header, to) {
                    exits.push(to);
                }
            }
        }
        exits.sort_unstable();
        exits
    }
}
