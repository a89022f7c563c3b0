//! 3.12+: where every except clause leaves (`return`, `raise`, `break`, `continue`), the code
//! after a try body on the normal path reads the same as the statement's `else:` part or as the
//! code after the statement: the same instructions either way. Their layout tells them apart.
//!
//! The compiler emits `try: B except E: C else: D` then `F` as B, D, the handler (C), then F, and
//! then moves every block that only exceptions reach (the handlers, "cold") after all the others,
//! each keeping its place among the cold blocks. So the handlers of try / with statements in D
//! (and the cleanup blocks of `await`s there) come before C's handler, and those in F after it.
//! Where the code after the body holds cold blocks laid out after the statement's own handler,
//! and none before it, that code is the code after the statement, not an `else:` part; where it
//! holds them before the handler only, an `else:` part. Only handler entries count: the blocks
//! reached from them need not keep the order (3.12+ copy an exit block without a line number into
//! each jump to it after the move, and place the copy by the original, among the others).
//! (3.11 leaves a handler that ends by leaving in place, the body jumping over it: the two forms
//! differ in their instructions there, and the structure reads them as they are.)

use super::{inline_comp, Structurer};
use crate::ast::Stmt;
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// Blocks that an exception edge enters (handlers: "cold", and laid out in the order the
    /// compiler emitted them; the blocks reached from them may not be: 3.12+ copy an exit block
    /// without a line number, placed among the others, into each jump to it after the move).
    pub(super) fn handler_entries(&self) -> Vec<bool> {
        let mut entry = vec![false; self.cfg.blocks.len()];
        for blk in &self.cfg.blocks {
            for e in &blk.succs {
                if e.kind == EdgeKind::Exception {
                    if let Some(x) = entry.get_mut(e.to) {
                        *x = true;
                    }
                }
            }
        }
        entry
    }

    /// The try statement whose handler spans blocks `h..=cleanup` structured the code after its
    /// body (`rest`) as the blocks emitted since `before`: were those blocks written after the
    /// statement? Some(true) where some of them are handler entries (or lead to an inlined
    /// comprehension's handler) and all those lie after the statement's handler, Some(false)
    /// where all lie before it, None where there are none (or some on each side: a split of the
    /// code between `else:` and after the statement, which this reading does not make).
    pub(super) fn rest_after_handler(
        &self,
        before: &[bool],
        h: usize,
        cleanup: usize,
    ) -> Option<bool> {
        let entries = self.handler_entries();
        let mut cold = Vec::new();
        for (x, (&now, &was)) in self.emitted.iter().zip(before).enumerate() {
            if !now || was {
                continue;
            }
            if entries.get(x).copied().unwrap_or(false) {
                cold.push(x);
            }
            // (an inlined comprehension's restore handler, no statement's code: never emitted)
            cold.extend(self.cfg.blocks[x].succs.iter().filter_map(|e| {
                let t = e.to;
                (e.kind == EdgeKind::Exception
                    && !self.emitted.get(t).copied().unwrap_or(true)
                    && !self.gen_wrapper.get(t).copied().unwrap_or(true)
                    && inline_comp::transparent(self.code, &self.cfg, t))
                .then_some(t)
            }));
        }
        let early = cold.iter().any(|&x| x < h);
        let late = cold.iter().any(|&x| x > cleanup);
        match (early, late) {
            (true, false) => Some(false),
            (false, true) => Some(true),
            _ => None,
        }
    }
}

impl Structurer<'_> {
    /// Do the ways on out of the handler `h..=cleanup` (its edges other than exception edges
    /// that leave the range) all go to the loop header `header`, one at least: each clause that
    /// completes jumps back to it (the statement ends the loop body).
    pub(super) fn clauses_only_continue(&self, h: usize, cleanup: usize, header: usize) -> bool {
        // (the statement directly in the loop body: under no `with` or `finally:` of its own,
        // whose exit code a `continue` would run first)
        let outer = |x: usize| self.cfg.blocks.get(x).map(|b| b.handler.map(|t| t.0));
        if outer(cleanup).is_none() || outer(cleanup) != outer(header) {
            return false;
        }
        let mut any = false;
        for x in h..=cleanup {
            let Some(blk) = self.cfg.blocks.get(x) else {
                return false;
            };
            for e in &blk.succs {
                if e.kind == EdgeKind::Exception || (h..=cleanup).contains(&e.to) {
                    continue;
                }
                if e.to != header {
                    return false;
                }
                any = true;
            }
        }
        any
    }
}

/// End a clause that may complete with `continue` (in place of a lone `pass`).
pub(super) fn end_with_continue(stmts: &mut Vec<Stmt>) {
    if always_leaves(stmts) {
        return;
    }
    if matches!(stmts.as_slice(), [Stmt::Pass]) {
        stmts.clear();
    }
    stmts.push(Stmt::Continue);
}

/// Does every way through `stmts` end by leaving (`return`, `raise`, `break`, `continue`), through
/// the arms of a final `if` too?
pub(super) fn always_leaves(stmts: &[Stmt]) -> bool {
    match stmts.last() {
        Some(Stmt::If { body, orelse, .. }) => always_leaves(body) && always_leaves(orelse),
        Some(s) => matches!(
            s,
            Stmt::Return { .. } | Stmt::Raise { .. } | Stmt::Break | Stmt::Continue
        ),
        None => false,
    }
}
