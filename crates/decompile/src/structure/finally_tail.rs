//! The normal path's copy of a `finally:` body that ends with a compound statement, when the code
//! after the try statement is a small exit (`return None`) that 3.12+ copy into every jump to it:
//! the copy holds that exit at the end of each way through, nested as deep as the ways go
//! (`if c: try: B; <exit> except E: pass; <exit>` then `<exit>`), where the handler's copy of the
//! body has none. [`strip_nested_end`] takes the exit off those ends: after the exit at the end
//! of a statement list, the last statement before it ends the same way (nothing runs between its
//! end and that exit), so a copy at the end of its arms goes too.

use crate::ast::Stmt;

/// Remove `t` from the ends of the ways through `stmts`, recursing into the last statement after
/// a removal as well (see the module's comment). An arm left empty is `pass`.
pub(super) fn strip_nested_end(stmts: &mut Vec<Stmt>, t: &[Stmt]) {
    if !t.is_empty() && stmts.ends_with(t) {
        stmts.truncate(stmts.len() - t.len());
    }
    let arm = |b: &mut Vec<Stmt>| {
        let had = !b.is_empty();
        strip_nested_end(b, t);
        if had && b.is_empty() {
            b.push(Stmt::Pass);
        }
    };
    match stmts.last_mut() {
        Some(Stmt::If { body, orelse, .. }) => {
            arm(body);
            strip_nested_end(orelse, t);
        }
        Some(Stmt::Try {
            body,
            handlers,
            orelse,
            finalbody,
        }) if finalbody.is_empty() => {
            handlers.iter_mut().for_each(|h| arm(&mut h.body));
            // (the body's own end only without `else:`, which it would otherwise run)
            if orelse.is_empty() {
                arm(body);
            } else {
                strip_nested_end(orelse, t);
            }
        }
        _ => {}
    }
}

impl super::Structurer<'_> {
    /// 3.12+: are `x` and `y` two copies of the re-raise that ends a `finally:` handler (each only
    /// `RERAISE n`, markers aside, with the same argument, the same stack depth and handler)? The
    /// compiler copies that small exit block into each jump to it, so the tests of `if a and b:`
    /// in the handler's copy of the body leave by copies of their own; they go to the same place.
    pub(super) fn reraise_copies(&self, x: usize, y: usize) -> bool {
        if self.code.version < framejit_bytecode::PyVersion::V3_12 || x == y {
            return false;
        }
        let lone = |b: usize| {
            let real: Vec<_> = self
                .instrs(b)
                .iter()
                .filter(|i| !matches!(i.op.name, "NOT_TAKEN" | "NOP"))
                .cloned()
                .collect();
            match real.as_slice() {
                [r] if r.op.name == "RERAISE" => Some(r.arg),
                _ => None,
            }
        };
        lone(x).is_some()
            && lone(x) == lone(y)
            && self.cfg.blocks[x].handler == self.cfg.blocks[y].handler
            && self.entry_depth[x] == self.entry_depth[y]
            && self.entry_depth[x].is_some()
    }
}

/// A finally handler's body `fin` (its final re-raise taken off, `reraise` the marker of it):
/// where an `if` without `else:` before the body's end has its arm end with the re-raise, the
/// compiler copied the RERAISE that ends the handler into that arm (3.12+ copy it into a jump
/// to it), and what follows the `if` is the way past the arm: `if c: A; <reraise>` then `B` is
/// `if c: A  else: B`, the same instructions. Rewritten so, from the last such `if` back (an
/// `elif` chain), and inside the arms (nested ones), so that the normal path's copy, which ends
/// each arm with the code after the statement instead, reads as the same statement.
pub(super) fn join_reraise_arms(fin: &mut Vec<Stmt>, reraise: &[Stmt]) {
    if reraise.is_empty() {
        return;
    }
    while let Some(i) = fin.iter().rposition(|s| {
        matches!(s, Stmt::If { body, orelse, .. } if orelse.is_empty() && body.ends_with(reraise))
    }) {
        if i + 1 == fin.len() {
            break;
        }
        let after: Vec<Stmt> = fin.drain(i + 1..).collect();
        if let Some(Stmt::If { body, orelse, .. }) = fin.get_mut(i) {
            body.truncate(body.len() - reraise.len());
            join_reraise_arms(body, reraise);
            if body.is_empty() {
                body.push(Stmt::Pass);
            }
            *orelse = after;
            join_reraise_arms(orelse, reraise);
        }
    }
}

/// A loop's `else:` part the same as the code after the loop, which leaves (`then`, `return`,
/// `raise`, the handler's re-raise): 3.12+ copy a small exit into the loop's `break`s and its
/// exhausted way out alike, so both read as that code, the exhausted one as `else:`. A loop whose
/// `break` and whose end both go on to code that leaves is the same loop without the `else:`
/// part: the part is dropped from the last loop of `stmts` whose `else:` part is what follows it
/// (with `then` after `stmts`, the finally handler's re-raise taken off before). The normal path's
/// copy of a finally body and the handler's read as one body so.
pub(super) fn drop_else_like_after(stmts: &mut [Stmt], then: &[Stmt]) {
    let n = stmts.len();
    for i in (0..n).rev() {
        let (head, after) = stmts.split_at_mut(i + 1);
        let Some(Stmt::For { orelse, .. } | Stmt::While { orelse, .. }) = head.last_mut() else {
            continue;
        };
        let same = if after.is_empty() {
            !then.is_empty() && orelse[..] == *then
        } else {
            orelse[..] == *after && super::finally_exits::ends_by_leaving(after)
        };
        if same {
            orelse.clear();
        }
        return;
    }
}
