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
        if self.loop_at(taken).is_some() || self.loop_edge(taken, lp) || self.break_line_copy(taken)
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
        merge == Some(taken) || (alone && merge.is_some())
    }
}
