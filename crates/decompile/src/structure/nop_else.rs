//! 3.10: `if c: B  else: pass`. The `pass` compiles to a NOP on its own line, which 3.10 keeps
//! (its line has no other instruction) and the test's jump lands on. Read without the `else:`, the
//! recompiled jump lands on the code after the `if` (`wsgiref.handlers` `finish_content`, an
//! `if`/`else: pass` ending a function or a loop body, or before more code).
//!
//! So where an `if` whose body is laid out first has an empty `else:` arm, and that arm starts
//! with such a NOP (on a line after the body's first line, the arm laid out after the body), the
//! arm is written as `else: pass`. Not where the NOP is the line of a statement read there on its
//! own: a `while True:` loop's (the block heads a loop) or a `break`'s before its copy of the code
//! after the loop (`break_copy_line.rs`), or where the arm is a way out of the loop around it. A
//! `pass` does nothing: written where the NOP stood for something else, it cannot change what the
//! code does (only, at worst, which instruction a jump lands on).

use super::{LoopCtx, Structurer};
use framejit_bytecode::opcode::Flow;
use framejit_bytecode::PyVersion;

impl Structurer<'_> {
    /// 3.10: is the empty `else:` arm starting at `taken` (the `if` body at `fall`, laid out
    /// first; the arms meeting at `merge`) an `else: pass`, the arm's first instruction that
    /// `pass`'s NOP?
    pub(super) fn nop_else(
        &self,
        fall: usize,
        taken: usize,
        merge: Option<usize>,
        lp: Option<&LoopCtx>,
    ) -> bool {
        if self.code.version != PyVersion::V3_10 || taken <= fall {
            return false;
        }
        let instrs = self.instrs(taken);
        let Some(nop) = instrs.first() else {
            return false;
        };
        let (Some(line), Some(body_line)) = (
            nop.loc.line,
            self.instrs(fall).iter().find_map(|i| i.loc.line),
        ) else {
            return false;
        };
        if nop.op.name != "NOP" || line <= body_line {
            return false;
        }
        if !self.jump_lands_on(taken)
            || self.loop_at(taken).is_some()
            || self.loop_edge(taken, lp)
            || self.break_line_copy(taken)
        {
            return false;
        }
        // (the arm is the NOP alone, or with a jump on, going on where the `if` does; or the
        // NOP starts the code after the `if`)
        let rest = &instrs[1..];
        let alone = match rest {
            [] => true,
            [j] => j.op.flow == Flow::Jump,
            _ => false,
        };
        // (the NOP starting the code after the `if` where a `pass` there would keep it: that
        // reading, `nop_pass_at`)
        (merge == Some(taken) && !self.nop_pass_at(taken, lp)) || (alone && merge.is_some())
    }
}

/// 3.10: a `pass` (or another statement that compiles to nothing but its line's NOP, a dead
/// `if 0:`, the `case _:` of a match whose other cases fail) where a jump lands: the NOP starts
/// the block the jump goes to, on a line of its own (the next instruction's is another), and the
/// jump lands on it. Written without it, the code starts at the next instruction and the recompiled
/// jump lands there (`while c: if d: x  else: return` followed by `pass`; the code after a `for`
/// loop starting with `if 0 and m:`). A `pass` written there compiles to that NOP again; it does
/// nothing, so it cannot change what the code does.
impl Structurer<'_> {
    /// Does block `b`, about to be read as statements (at the statement's base: nothing on the
    /// stack above it) in loop `lp`, start with such a NOP? Not a loop's header (a `while True:`
    /// line's NOP, which the loop writes), nor a block a jump from inside a loop reaches outside
    /// it: a `break` line's NOP (before its copy of the code after the loop, `break_copy_line.rs`,
    /// or before that code itself); not a `for` loop's exit, which FOR_ITER jumps to. (The same
    /// NOP and small exit elsewhere, `case _: return 1`, is a `pass`'s.)
    pub(super) fn nop_pass_at(&self, b: usize, lp: Option<&LoopCtx>) -> bool {
        if self.code.version != PyVersion::V3_10 || self.emitted[b] || self.nop_written[b] {
            return false;
        }
        // (a `for` loop's exit is no `break`: FOR_ITER jumps there when the iterator is done)
        let for_exit = self.cfg.blocks[b].preds.iter().any(|&p| {
            self.instrs(p)
                .last()
                .is_some_and(|i| i.op.name == "FOR_ITER")
                && self.succ(p, crate::flow::EdgeKind::Jump) == Some(b)
        });
        // (a jump from inside a loop out of it: the NOP may be the line of a `break` whose jump
        // went to the next instruction, the code after the loop, and was dropped: `while c: ...
        // break` then more code; the loop writes that `break`)
        let labels = &self.cfg.blocks[b].labels;
        let leaves_loop = self.cfg.blocks[b].preds.iter().any(|&p| {
            let lands = self.instrs(p).last().is_some_and(|i| {
                i.op.name != "FOR_ITER"
                    && matches!(i.arg, framejit_bytecode::Arg::Jump(l) if labels.contains(&l))
            });
            lands
                && self
                    .loops
                    .iter()
                    .any(|l| l.body.contains(&p) && !l.body.contains(&b))
        });
        if !self.jump_lands_on(b)
            || self.loop_at(b).is_some()
            || lp.is_some_and(|c| c.header == b)
            || (leaves_loop && !for_exit)
        {
            return false;
        }
        let instrs = self.instrs(b);
        let Some(nop) = instrs.first() else {
            return false;
        };
        if nop.op.name != "NOP" || nop.loc.line.is_none() {
            return false;
        }
        // (the next instruction: in the block, or the first of the block it falls into)
        let next_line = match instrs.get(1) {
            Some(i) => i.loc.line,
            None => self
                .only_fall(b)
                .and_then(|n| self.instrs(n).first().map(|i| i.loc.line))
                .flatten(),
        };
        next_line != nop.loc.line
    }
}

impl Structurer<'_> {
    /// Does a jump written in the code land on block `b`'s first instruction? (Not a jump the
    /// block-stack rules moved onto `b`, a NOP-only block, from the block after it:
    /// `legacy_blocks.rs` gives a `while True:` loop one header so, and moves the jump of the
    /// test of `if d: pass` followed by more code onto the `pass`'s NOP the same way.)
    pub(super) fn jump_lands_on(&self, b: usize) -> bool {
        let labels = &self.cfg.blocks[b].labels;
        self.cfg.blocks[b].preds.iter().any(|&p| {
            self.instrs(p).last().is_some_and(
                |i| matches!(i.arg, framejit_bytecode::Arg::Jump(l) if labels.contains(&l)),
            )
        })
    }
}
