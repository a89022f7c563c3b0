//! ≤3.10: where a `while` loop whose every way out is a `break` inside a try body goes on.
//!
//! `while True: try: B; break  except E: H` (or `... else: break`), then C: the try body's
//! way out jumps to C and never back to the header, so the flow graph's loop (the blocks that
//! get back to the header) holds the handler but not the body, and the only edges out of it are
//! the try body's start and the handler's re-raise: no exit was found, and C was read into the
//! loop as the try's `else:` (`else: C; return`), which recompiles to other jumps. 3.8 / 3.9 lay
//! a `while` loop out in one piece, closed by its jump back to the header (kept even where it is
//! dead), with the code after the loop right behind it: a jump from inside that range to the
//! block right after the last jump back is a `break` (an `if` or `try` ending the body goes on to
//! that jump back, or straight to the header where the peephole optimizer threads it; a
//! `while ... else:` part lies between, and a `break` jumps past it, so that block is not
//! reached so and the rule does not apply). 3.10 lays a loop out the same way (it copies small
//! exits into jumps but moves no block): test_queue `consume_nonblock`, an inner `while True:` left
//! by a try's `else: break`, had no exit and came out twice (the rule is the last one asked).

use super::Structurer;
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// The block after the loop headed by `header` (its `body` the flow graph's loop), from the
    /// layout: right after the last block that jumps back to the header, where some reachable
    /// block between the header and that jump jumps to it, at the header's try nesting and stack
    /// depth. `None` where that is not so.
    pub(super) fn legacy_layout_exit(&self, header: usize, body: &[usize]) -> Option<usize> {
        if self.legacy.is_none() || self.code.version > framejit_bytecode::PyVersion::V3_10 {
            return None;
        }
        let n = self.cfg.blocks.len();
        let back = (header..n).rev().find(|&k| {
            self.succ(k, EdgeKind::Jump) == Some(header)
                && self
                    .instrs(k)
                    .last()
                    .is_some_and(|i| i.op.name == "JUMP_ABSOLUTE")
        })?;
        // (3.8 as lowered keeps no dead code: the jump back after the re-raise of a try statement
        // ending the body is gone, and that lone re-raise is the last block of the loop)
        let mut after = back + 1;
        while after < n
            && matches!(self.instrs(after)[..], [i] if matches!(i.op.name, "RERAISE" | "END_FINALLY"))
        {
            after += 1;
        }
        if after >= n || body.iter().any(|&x| x < header || x > back) || body.contains(&after) {
            return None;
        }
        let broken = (header..=back).any(|k| {
            self.reachable[k]
                && self.cfg.blocks[k]
                    .succs
                    .iter()
                    .any(|e| e.kind == EdgeKind::Jump && e.to == after)
        });
        (broken && self.legacy_loop_exit(header, after)).then_some(after)
    }
}

impl Structurer<'_> {
    /// Is `n`, the block after the last live POP_BLOCK of the try statement whose handler is
    /// `h`, a `break` ending the try body inside the `while` loop `lp`: a lone jump to the loop's
    /// exit, followed, before the handler, by the body's own dead way out (POP_BLOCK, which
    /// nothing reaches, and its jump)? `try: B; break  except E: H`: the body never completes.
    /// (`try: B  except E: H  else: break` has its POP_BLOCK's jump, threaded to the exit,
    /// right before the handler, and the `else:` part's own jump after it.)
    pub(super) fn legacy_while_break_after_pop_block(
        &self,
        n: usize,
        h: usize,
        lp: Option<&super::LoopCtx>,
    ) -> bool {
        let (Some(ctx), Some(_)) = (lp, self.legacy.as_ref()) else {
            return false;
        };
        let Some(exit) = ctx.exit else { return false };
        if self.code.version > framejit_bytecode::PyVersion::V3_9
            || n + 1 >= h
            || self.instrs(ctx.header).first().map(|i| i.op.name) == Some("FOR_ITER")
        {
            return false;
        }
        let alone =
            |x: usize, ops: &[&str]| matches!(self.instrs(x)[..], [i] if ops.contains(&i.op.name));
        let to_exit = self
            .succ(n, EdgeKind::Jump)
            .is_some_and(|t| self.resolve_jumps(t) == self.resolve_jumps(exit));
        alone(n, &["JUMP_ABSOLUTE", "JUMP_FORWARD"])
            && to_exit
            && alone(n + 1, &["POP_BLOCK"])
            && self.cfg.blocks[n + 1].preds.is_empty()
    }
}

impl Structurer<'_> {
    /// ≤3.9: is `b`, reached inside the body of the innermost try statement, the exit of the
    /// loop `lp` where that body never completes (no normal way out: see
    /// [`Self::legacy_while_break_after_pop_block`])? Getting there is a `break`, not the end of
    /// the body. ≤3.10: the same where the body's normal way out is another block (the jump back
    /// to the header that ends the loop's body): the loop's exit is reached from the body only by
    /// a `break`, which leaves the range by its own POP_BLOCK (a `return` or `continue` goes
    /// elsewhere, and the body's end goes on after the try statement, inside the loop).
    pub(super) fn legacy_break_from_body(&self, b: usize, lp: Option<&super::LoopCtx>) -> bool {
        let (Some(lg), Some(&(h, _)), Some(ctx)) = (&self.legacy, self.try_body.last(), lp) else {
            return false;
        };
        // (or where its normal way out is elsewhere, the jump back to the header at the end of
        // the loop's body: the loop's exit is then reached from the body only by a `break`,
        // which leaves the range by its POP_BLOCK first)
        // (3.10 lays the loop out the same way: there only that second kind)
        let v = self.code.version;
        ctx.exit == Some(b)
            && match lg.exits.last() {
                Some(&(lh, None)) => lh == h && v <= framejit_bytecode::PyVersion::V3_9,
                Some(&(lh, Some(n))) => {
                    lh == h && n != b && v <= framejit_bytecode::PyVersion::V3_10
                }
                None => false,
            }
    }
}
