//! A loop with no way out of its own (`while 1:`) left only by a `break` in an except clause: 3.11
//! lays the handler out inline, outside the natural loop (it does not go round, and is reached by
//! an exception edge only), so no edge from the loop's blocks leaves it. The clause's POP_EXCEPT
//! and jump past the loop say where `break` goes.

use super::Structurer;
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// Where the except clauses of handlers entered from the loop's `body` jump after POP_EXCEPT,
    /// outside the loop: the one place, or None where there are none or several.
    pub(super) fn handler_break_exit(&self, header: usize, body: &[usize]) -> Option<usize> {
        // (the code after the loop is at the loop statement's own try nesting: that of the way in)
        let level = self.cfg.blocks[header]
            .preds
            .iter()
            .find(|p| !body.contains(p))
            .map(|&p| self.cfg.blocks[p].handler.map(|h| h.0))?;
        let mut seen: Vec<usize> = Vec::new();
        let mut todo: Vec<usize> = body
            .iter()
            .filter_map(|&b| self.cfg.blocks[b].handler.map(|h| h.0))
            .filter(|h| !body.contains(h))
            .collect();
        let mut found: Option<usize> = None;
        while let Some(b) = todo.pop() {
            if seen.contains(&b) || body.contains(&b) || seen.len() > 64 {
                continue;
            }
            seen.push(b);
            let pops = self.instrs(b).iter().any(|i| i.op.name == "POP_EXCEPT");
            for e in &self.cfg.blocks[b].succs {
                if e.kind == EdgeKind::Exception || body.contains(&e.to) {
                    continue;
                }
                if pops && self.at_level(e.to, level) {
                    // (out of the clause, at the loop's nesting; where a try statement in the
                    // loop covers the POP_EXCEPT, the `break` leaves it through its finally
                    // body's copy first: the loop goes on where that copy jumps)
                    let inner = self.cfg.blocks[b].handler.map(|h| h.0) != level;
                    let to = if inner {
                        self.jump_after_copy(e.to, body)?
                    } else {
                        self.resolve_jumps(e.to)
                    };
                    if found.is_some_and(|f| f != to) {
                        return None;
                    }
                    found = Some(to);
                } else {
                    todo.push(e.to);
                }
            }
        }
        found
    }

    /// From block `x` (the code after an except clause's POP_EXCEPT, a finally body's copy),
    /// along blocks with one way on: where its unconditional jump goes, outside the loop's
    /// `body` (past blocks that only jump). `None` where the way leaves or branches first.
    fn jump_after_copy(&self, x: usize, body: &[usize]) -> Option<usize> {
        let mut x = x;
        for _ in 0..8 {
            let ways: Vec<&crate::flow::Edge> = self.cfg.blocks[x]
                .succs
                .iter()
                .filter(|e| e.kind != EdgeKind::Exception)
                .collect();
            match ways.as_slice() {
                [e] if e.kind == EdgeKind::Jump => {
                    let jumps = self.instrs(x).last().is_some_and(|i| {
                        matches!(i.op.name, "JUMP_FORWARD" | "JUMP_BACKWARD" | "JUMP")
                    });
                    return (jumps && !body.contains(&e.to)).then(|| self.resolve_jumps(e.to));
                }
                // (3.12+: the code after the loop, copied after the finally body's copy and
                // split off, `clause_break_split.rs`)
                [e] if self.clause_break_exits.contains(&e.to) => return Some(e.to),
                [e] => x = e.to,
                _ => return None,
            }
        }
        None
    }

    /// 3.14: is `s`, the block after a try statement's handler that its code goes to, the exit
    /// of the loop `lp` the statement is in? 3.14 lay the code after the loop out after the
    /// handler when only a clause's `break` goes there; the statement does not end there.
    pub(super) fn clause_break_stop(&self, s: usize, lp: Option<&super::LoopCtx>) -> bool {
        self.code.version >= framejit_bytecode::PyVersion::V3_14
            && lp.is_some_and(|c| Some(s) == c.exit)
    }
}
