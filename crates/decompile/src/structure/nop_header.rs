//! 3.10-3.13 `while True:` with `continue`: the loop's line number is a NOP at the loop's start;
//! `continue` jumps back to that NOP, the end of the body to the block after it. Both are the same
//! place (a NOP does nothing), but as two jump targets they made two nested loops, the inner one
//! left by every `continue` (read as `break`). Jumps back to the block after such a NOP go to the
//! NOP, so the loop has one header (≤3.10 has the same rule in `legacy_blocks.rs`).

use crate::ast::{Expr, Stmt};
use crate::flow::{Cfg, EdgeKind};
use crate::input::CodeInput;
use framejit_bytecode::{Item, PyVersion};

/// Move the backward jumps into the block after a NOP-only loop header onto that header.
pub(super) fn merge_nop_headers(code: &CodeInput, cfg: &mut Cfg) {
    let items = &code.bytecode.items;
    let n = cfg.blocks.len();
    for p in 0..n.saturating_sub(1) {
        let x = p + 1;
        let blk = &cfg.blocks[p];
        let all_nop = !blk.instrs.is_empty()
            && blk
                .instrs
                .iter()
                .all(|&i| matches!(items.get(i), Some(Item::Instr(ins)) if ins.op.name == "NOP"));
        // (falls into the next block only, under the same handler: its edge to that handler
        // aside, which a NOP never takes)
        let falls_into_next = blk
            .succs
            .iter()
            .filter(|e| e.kind != EdgeKind::Exception)
            .all(|e| e.to == x && e.kind != EdgeKind::Jump)
            && blk.succs.iter().any(|e| e.kind == EdgeKind::Fall)
            && blk.handler == cfg.blocks[x].handler;
        if !all_nop || !falls_into_next {
            continue;
        }
        let back_into = |t: usize, cfg: &Cfg| {
            cfg.blocks[t].preds.iter().any(|&u| {
                u >= t
                    && cfg.blocks[u]
                        .succs
                        .iter()
                        .any(|e| e.to == t && e.kind == EdgeKind::Jump)
            })
        };
        // (both loop headers: a jump back to each)
        if !back_into(p, cfg) || !back_into(x, cfg) {
            continue;
        }
        // (not an outer loop's test jumping to an inner `while True:` line: `nop_lines.rs`)
        if crate::nop_lines::jump_from_above(code, cfg, p) {
            continue;
        }
        for u in x..n {
            let mut moved = false;
            for e in cfg.blocks[u].succs.iter_mut() {
                if e.to == x && e.kind == EdgeKind::Jump {
                    e.to = p;
                    moved = true;
                }
            }
            if moved {
                if !cfg.blocks[u].succs.iter().any(|e| e.to == x) {
                    cfg.blocks[x].preds.retain(|&q| q != u);
                }
                if !cfg.blocks[p].preds.contains(&u) {
                    cfg.blocks[p].preds.push(u);
                }
            }
        }
    }
}

impl super::Structurer<'_> {
    /// 3.10-3.13: does block `x`, which ends in a jump back to the `while True:` loop `ctx`
    /// whose header starts with a NOP (the `while` line), jump to that NOP as written (an
    /// explicit `continue`, alone in its block or after the statements before it)? CPython keeps
    /// the NOP only for jumps of another line: the jump back that ends the body carries the
    /// `while` line and goes past the NOP (to the block after it, see above), and so do its
    /// copies (3.12+). A jump that targets the NOP itself has a line of its own, below the
    /// `while`: a `continue` statement, never the end of the body, even where it is the only
    /// way to its block or ends the body.
    pub(super) fn nop_continue(&self, x: usize, ctx: &super::LoopCtx) -> bool {
        let items = &self.code.bytecode.items;
        if self.code.version <= PyVersion::V3_9 {
            return self.legacy_clause_continue(x, ctx);
        }
        // (3.14 threads the jump at an arm's end, of the arm's line, straight to the NOP; 3.10
        // has the NOP and the rule, its jumps back are JUMP_ABSOLUTE, and a jump threaded
        // through the jump back takes that jump's target, past the NOP; ≤3.9 have no NOP)
        if !(PyVersion::V3_10..=PyVersion::V3_13).contains(&self.code.version) {
            return false;
        }
        let Some(&jump) = self
            .instrs(x)
            .last()
            .filter(|i| matches!(i.op.name, "JUMP_BACKWARD" | "JUMP" | "JUMP_ABSOLUTE"))
        else {
            return false;
        };
        // (not a `continue` that runs code between leaving an except clause (or, ≤3.10, a block
        // of the block stack) and its jump, such as the unbinding of an `except ... as name:`
        // name or a finally body's copy: the mark would come between the copy and its way out;
        // see also `in_finally_body`)
        if self.code_after_block_pop(x) {
            return false;
        }
        let framejit_bytecode::Arg::Jump(target) = jump.arg else {
            return false;
        };
        let header = &self.cfg.blocks[ctx.header];
        let Some(&first) = header.instrs.first() else {
            return false;
        };
        // (the NOP alone in its block where the end of the body jumps to the block after it;
        // the first instruction of the header's block where nothing does)
        let nop_first = matches!(items.get(first), Some(Item::Instr(ins)) if ins.op.name == "NOP");
        // (the labels placed right before the header's first instruction)
        let labelled = items
            .get(..first)
            .unwrap_or_default()
            .iter()
            .rev()
            .take_while(|it| !matches!(it, Item::Instr(_)))
            .any(|it| matches!(it, Item::Label(l) if *l == target));
        // (the NOP's line is the `while` line only where the jump's line is below it: a body
        // whose first statement is a `try:` starts with that statement's NOP, which the jump
        // back that ends the body, of the `while` line above it, targets)
        let nop_line = match items.get(first) {
            Some(Item::Instr(ins)) => ins.loc.line,
            _ => None,
        };
        let below = matches!((jump.loc.line, nop_line), (Some(j), Some(n)) if j > n);
        self.succ(x, EdgeKind::Jump) == Some(ctx.header) && nop_first && labelled && below
    }

    /// ≤3.9 (no NOP of the `while` line): does block `x` end an except clause by a written
    /// `continue` of loop `ctx`? Its POP_EXCEPT and jump back are followed by the clause's own
    /// end, which the `continue` made dead: another POP_EXCEPT and a jump (the compiler keeps
    /// dead code). A clause that falls off its end has only the latter.
    fn legacy_clause_continue(&self, x: usize, ctx: &super::LoopCtx) -> bool {
        let names = |b: usize| -> Vec<&str> {
            self.instrs(b)
                .iter()
                .map(|i| i.op.name)
                .filter(|n| *n != "NOP")
                .collect()
        };
        let own = names(x);
        let back = matches!(own.as_slice(), [.., "POP_EXCEPT", "JUMP_ABSOLUTE"])
            && self.succ(x, EdgeKind::Jump) == Some(ctx.header);
        let next = x + 1;
        back && next < self.cfg.blocks.len()
            && self.cfg.blocks[next].preds.is_empty()
            && matches!(
                names(next).as_slice(),
                ["POP_EXCEPT", "JUMP_ABSOLUTE" | "JUMP_FORWARD"]
            )
    }

    /// Does block `x`, ending in a jump, run code between its last POP_BLOCK / POP_EXCEPT
    /// (or that of the block falling into it, where the split comes right after the pop) and
    /// the jump?
    fn code_after_block_pop(&self, x: usize) -> bool {
        let is_pop = |name: &str| matches!(name, "POP_BLOCK" | "POP_EXCEPT");
        let ins = self.instrs(x);
        let Some((_, body)) = ins.split_last() else {
            return false;
        };
        let between = match body.iter().rposition(|i| is_pop(i.op.name)) {
            Some(k) => &body[k + 1..],
            None => {
                let fallen_from = self.cfg.blocks[x].preds.iter().copied().find(|&p| {
                    self.cfg.blocks[p]
                        .succs
                        .iter()
                        .any(|e| e.to == x && e.kind == EdgeKind::Fall)
                });
                let popped = fallen_from
                    .and_then(|p| self.instrs(p).last().map(|i| is_pop(i.op.name)))
                    .unwrap_or(false);
                if !popped {
                    return false;
                }
                body
            }
        };
        between.iter().any(|i| i.op.name != "NOP")
    }
}

/// The name of the marker put before the `continue` of a [`super::Structurer::nop_continue`]
/// block: that `continue` is a statement of the source even where it ends an arm of the body's
/// last statement, where `strip_tail_continue` drops the `continue`s the compiler adds.
const WRITTEN_CONTINUE: &str = "\u{0}written-continue";

/// The marker before a written `continue` (taken off by [`restore_written_continues`]).
pub(super) fn written_continue_mark() -> Stmt {
    Stmt::Expr {
        value: Expr::name(WRITTEN_CONTINUE),
    }
}

pub(super) fn is_mark(s: &Stmt) -> bool {
    matches!(s, Stmt::Expr { value: Expr::Name { id, .. } } if id == WRITTEN_CONTINUE)
}

/// After `strip_tail_continue` on a `while` body: each marker followed by its `continue` goes;
/// one whose `continue` was dropped (the end of the body, or of an arm of its last statement)
/// becomes that `continue` again. (A `continue` with no statement after it where the arms of
/// an `if` meet at the loop's end: `if c: X; continue` then `Y` reads `if c: X; continue`
/// `else: Y`, the same instructions.)
pub(super) fn restore_written_continues(stmts: &mut Vec<Stmt>) {
    let mut i = 0;
    while i < stmts.len() {
        if is_mark(&stmts[i]) {
            if matches!(stmts.get(i + 1), Some(Stmt::Continue)) {
                stmts.remove(i);
            } else {
                stmts[i] = Stmt::Continue;
            }
        } else {
            for body in stmts[i].bodies_mut() {
                restore_written_continues(body);
            }
        }
        i += 1;
    }
}
