//! 3.10: the code after a `try: ... finally:` statement that the compiler copied onto a way out of
//! the try body, after the finally body's copy.
//!
//! 3.10 copies a small exit block (`return x`, at most four instructions) into each jump to it.
//! A try body whose paths end apart (`try: if d: x = 1  finally: F`, then `return x`) has each path
//! run POP_BLOCK, F's copy, then the copied `return x`. A `return x` written in the body computes
//! x *before* its POP_BLOCK and keeps it on the stack while F's copy runs; the copied one computes
//! it *after* F. At the statement level both read as F's statements followed by `return x`, and
//! stripping F's copy made the copied one a `return x` in the body: a value taken before F (F
//! changing x, the function returned the old value: a silent miscompilation).
//!
//! So the way out's instructions are looked at: a block of the try body whose POP_BLOCK finds the
//! stack at the try's own depth (nothing computed waits) and that ends by returning a value that is
//! not a constant, computed after the copy, is such a copied exit; one whose POP_BLOCK finds a
//! value waiting is a `return` of the body. Where the body has copied exits and no such returns,
//! and the code after the statement is that `return`, each copy (F's statements and the `return`)
//! that ends the body (at the end of the final statement's arms, an `if`'s or a try statement's
//! `else:` part and clauses, at any depth) is taken off: the
//! path falls off the end of the body, runs F and then the code after the statement, which is what
//! the compiler copied. Any other mix (a copied exit elsewhere in the body, returns of both kinds)
//! is refused, unless the value is a local variable: a `return v` of the body that computes it
//! before F, where F stores v, comes out with a temporary (`_tmpN = v ... return _tmpN`), and one
//! that reads as `return v` returns the same value either way; a copy left elsewhere in the body
//! is kept as such a `return` only where F never names v. (A constant's `return` loads it after
//! F either way: the same code.)

use super::Structurer;
use crate::ast::{Expr, Stmt};
use crate::error::DecompileError;
use framejit_bytecode::PyVersion;

/// Why such a try statement is refused.
const MIXED: &str = "a try body whose ways out through the finally body's copy return values \
     computed both before and after the copy (the code after the statement copied into the body)";

impl Structurer<'_> {
    /// The returns of the try body handled by `h` (a `finally:` handler) that pass its copy:
    /// (copied exits computing their value after the copy, returns computing it before).
    fn finally_return_kinds(&self, h: usize) -> (usize, usize) {
        let covered: Vec<usize> = (0..self.cfg.blocks.len())
            .filter(|&b| self.cfg.blocks[b].handler.map(|x| x.0) == Some(h))
            .collect();
        let Some(base) = covered.first().and_then(|&b| self.entry_depth[b]) else {
            return (0, 0);
        };
        let (mut late, mut early) = (0, 0);
        for &b in &covered {
            let instrs = self.instrs(b);
            let Some(k) = instrs.iter().position(|i| i.op.name == "POP_BLOCK") else {
                continue;
            };
            let Some(d0) = self.entry_depth[b] else {
                continue;
            };
            // (the copy runs on, block after block where the try's range ends, to the return)
            let mut end = b;
            for _ in 0..8 {
                match self.only_fall(end) {
                    Some(n) => end = n,
                    None => break,
                }
            }
            let last = self.instrs(end);
            let returns =
                self.only_leaves(end) && last.last().is_some_and(|i| i.op.name == "RETURN_VALUE");
            if !returns || (end == b && instrs.len() < k + 2) || last.len() < 2 {
                continue;
            }
            let mut depth = i64::from(d0);
            for i in &instrs[..k] {
                depth += i64::from(i.op.stack_effect(i.raw_arg(), Some(false)));
            }
            let before_return = &last[last.len() - 2];
            if depth > i64::from(base) {
                early += 1;
            } else if depth == i64::from(base) && before_return.op.name != "LOAD_CONST" {
                late += 1;
            }
        }
        (late, early)
    }

    /// 3.10: take the copied exits off the try body `body` of the `finally:` handler `h` (its
    /// copy `fin`; `tail`, the code after the statement as the normal path's copy runs on into
    /// it), as the module's comment says; refused where they cannot all be taken off.
    pub(in crate::structure) fn take_late_finally_returns(
        &self,
        h: usize,
        body: &mut Vec<Stmt>,
        fin: &[Stmt],
        tail: &[Stmt],
    ) -> Result<(), DecompileError> {
        if self.code.version != PyVersion::V3_10 || fin.is_empty() {
            return Ok(());
        }
        let (late, early) = self.finally_return_kinds(h);
        // (only a tail that leaves was copied; where no copy of it stands in the body, the
        // reading is the compiler's)
        if late == 0 || !matches!(tail.last(), Some(Stmt::Return { value: Some(_) })) {
            return Ok(());
        }
        let mut pair: Vec<Stmt> = fin.to_vec();
        pair.extend(tail.iter().cloned());
        if !contains_pair(body, &pair) {
            return Ok(());
        }
        // (a local variable returned alone: a `return v` of the body computing it before the
        // copy, where the copy stores v, comes out with a temporary, `_tmpN = v ... return
        // _tmpN`; one that reads as `return v` returns the same value either way. A copied exit
        // left elsewhere in the body would read as such a return: right only where the copy
        // never names v)
        let (local, named) = match tail {
            [Stmt::Return {
                value: Some(Expr::Name { id, .. }),
            }] => (
                self.code.varnames.contains(id)
                    && !self.code.cellvars.contains(id)
                    && !self.code.freevars.contains(id),
                format!("{fin:?}").contains(&format!("id: {id:?}")),
            ),
            _ => (false, true),
        };
        if early > 0 && !local {
            return Err(self.err(MIXED));
        }
        drop_tail_pairs(body, &pair, early == 0);
        if contains_pair(body, &pair) && (!local || named) {
            return Err(self.err(MIXED));
        }
        Ok(())
    }
}

/// Take `pair` (F's statements and the copied `return`) off the end of `stmts` and off the ends of
/// the arms of a final `if` (at any depth).
/// `turn`: every such return of the body is a copied exit (none computes its value before the
/// copy), so an `if` whose arm ends with the pair, laid out with the code after it as the way past
/// the arm, has that code as its `else:` (`legacy_fin_arms.rs`); where a `return v` of the body
/// may read the same, the arm keeps it.
fn drop_tail_pairs(stmts: &mut Vec<Stmt>, pair: &[Stmt], turn: bool) {
    if turn {
        super::legacy_fin_arms::turn_leaving_arm(stmts, &|arm: &[Stmt]| arm.ends_with(pair));
    }
    if stmts.ends_with(pair) {
        stmts.truncate(stmts.len() - pair.len());
        return;
    }
    match stmts.last_mut() {
        Some(Stmt::If { body, orelse, .. }) => {
            drop_tail_pairs(body, pair, turn);
            drop_tail_pairs(orelse, pair, turn);
            if body.is_empty() {
                body.push(Stmt::Pass);
            }
        }
        // (a try statement without `finally:` ending the body: its `else:` part, or its body
        // where it has none, and its clauses end it)
        Some(Stmt::Try {
            body,
            handlers,
            orelse,
            finalbody,
        }) if finalbody.is_empty() => {
            if orelse.is_empty() {
                drop_tail_pairs(body, pair, turn);
            } else {
                drop_tail_pairs(orelse, pair, turn);
            }
            for h in handlers.iter_mut() {
                drop_tail_pairs(&mut h.body, pair, turn);
                if h.body.is_empty() {
                    h.body.push(Stmt::Pass);
                }
            }
            if body.is_empty() {
                body.push(Stmt::Pass);
            }
        }
        _ => {}
    }
}

/// Does `pair` still stand anywhere in `stmts` (at any depth)?
fn contains_pair(stmts: &[Stmt], pair: &[Stmt]) -> bool {
    stmts.windows(pair.len()).any(|w| w == pair)
        || stmts.iter().any(|s| {
            let mut s = s.clone();
            s.bodies_mut().iter().any(|b| contains_pair(b, pair))
        })
}
