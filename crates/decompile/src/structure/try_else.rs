//! 3.8 / 3.9: `try: B except ...: (leaves) else: R` or `if c: (leaves) else: R` at the end of a
//! function, R ending with `return`: the compiler still ends the function with an unreachable
//! `return None` (the statement's end counts as reachable), which the same code written with R
//! after the statement does not have. Where the code object ends so, the statements after the last
//! such try / if are its `else:` (the same behaviour either way: R runs only when B completes or c
//! is false, and outside the handlers).

use super::Structurer;
use crate::ast::{Constant, Expr, Stmt};

impl Structurer<'_> {
    /// Does the code end with a `return None` that nothing reaches (but dead code)?
    pub(super) fn dead_return_none_tail(&self) -> bool {
        if self.code.version > framejit_bytecode::PyVersion::V3_9 {
            return false;
        }
        let Some(last) = self.cfg.blocks.len().checked_sub(1) else {
            return false;
        };
        // (a jump to it from code nothing reaches, such as the dead way out of an except clause
        // that raised, `try: ... except E as e: raise  else: return x`, leaves it dead too)
        if last == 0
            || self.cfg.blocks[last]
                .preds
                .iter()
                .any(|&p| self.reachable[p])
        {
            return false;
        }
        let ins = self.instrs(last);
        if ins.len() != 2 || ins[1].op.name != "RETURN_VALUE" || ins[0].op.name != "LOAD_CONST" {
            return false;
        }
        let mut sim = crate::exprs::Sim::new(self.code, Vec::new());
        if sim.step(ins[0]).is_err() {
            return false;
        }
        matches!(
            sim.stack.last(),
            Some(crate::exprs::Val::Expr(Expr::Constant {
                value: Constant::None,
                ..
            }))
        )
    }
}

/// Move the statements after the last top-level try statement whose except clauses all leave (no
/// `else` / `finally` yet), or `if` statement whose body leaves (no `else` yet), into its `else:`,
/// when those statements end with `return`. (Nested in `else:` or not, the compiler writes the same
/// instructions but for that last `return None`.)
pub(super) fn tail_into_else(stmts: &mut Vec<Stmt>) {
    let leaves = |b: &[Stmt]| matches!(b.last(), Some(Stmt::Return { .. } | Stmt::Raise { .. }));
    let candidate = |s: &Stmt| match s {
        Stmt::Try {
            handlers,
            orelse,
            finalbody,
            ..
        } => {
            !handlers.is_empty()
                && orelse.is_empty()
                && finalbody.is_empty()
                && handlers.iter().all(|h| leaves(&h.body))
        }
        // (not an `assert`, folded later from `if not T: raise AssertionError`)
        Stmt::If { body, orelse, .. } => orelse.is_empty() && leaves(body) && !is_assert(body),
        _ => false,
    };
    if !matches!(stmts.last(), Some(Stmt::Return { .. })) {
        return;
    }
    // (the statement before that `return` has an `else:` already and leaves on every way, a try
    // statement whose clauses' dead ways out name the end after its `else:`: its own end is the
    // `return None` nothing reaches, no earlier statement's)
    let closed = |s: &Stmt| match s {
        Stmt::Try {
            handlers,
            orelse,
            finalbody,
            ..
        } => {
            !handlers.is_empty()
                && finalbody.is_empty()
                && leaves(orelse)
                && handlers.iter().all(|h| leaves(&h.body))
        }
        _ => false,
    };
    if stmts.len() >= 2 && closed(&stmts[stmts.len() - 2]) {
        return;
    }
    // (an `if` whose body ends by raising had no `else:` where the layout shows none: its
    // `else:` would have left a dead jump after the raise, read as that `else:` when the `if` was
    // structured, `legacy_raise_then_else`; so an earlier candidate is the one the code after
    // belongs to, `if a: return x  else: ...; if c: raise E; return y`)
    let raises = |s: &Stmt| matches!(s, Stmt::If { body, .. } if matches!(body.last(), Some(Stmt::Raise { .. })));
    let Some(i) = stmts
        .iter()
        .rposition(|s| candidate(s) && !raises(s))
        .or_else(|| stmts.iter().rposition(candidate))
    else {
        return;
    };
    if i + 1 >= stmts.len() {
        return;
    }
    let rest: Vec<Stmt> = stmts.drain(i + 1..).collect();
    if let Some(Stmt::Try { orelse, .. } | Stmt::If { orelse, .. }) = stmts.last_mut() {
        *orelse = rest;
    }
}

/// `raise` of the marker LOAD_ASSERTION_ERROR pushes (an `assert` statement's failing arm)?
fn is_assert(body: &[Stmt]) -> bool {
    let marker =
        |e: &Expr| matches!(e, Expr::Name { id, .. } if id == crate::exprs::ASSERTION_ERROR);
    match body {
        [Stmt::Raise { exc: Some(e), .. }] => {
            marker(e) || matches!(e, Expr::Call { func, .. } if marker(func))
        }
        _ => false,
    }
}
