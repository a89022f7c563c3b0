//! Spill mode (generated code): a `with` statement whose two ways on differ.
//!
//! A compiler sends the normal way out of a `with` body (after the exit call) and the path where
//! `__exit__` suppressed an exception to the same code, the code after the statement (or, where the
//! body never completes, only the suppressed path goes on; `with_stmt` reads those). Generated code
//! need not: torch.compile's resume functions enter a `with` from a template whose suppressed path
//! goes on to other code than the body's normal end, which jumps back into the original function.
//! No Python statement has two ways on, so the normal one is told apart by a flag the body sets as
//! its last statement: `_tmpN = False`, `with m: body; _tmpN = True`, then `if _tmpN:` the code at
//! the normal way out, then the code the suppressed path goes on to. The flag is true exactly where
//! the exit call ran after the body completed (a `return`, `break` or `continue` in the body leaves
//! through its own copy of the exit call, and an exception the manager does not suppress leaves the
//! statement), so each way on runs what it ran in the bytecode. The normal way's code must end (a
//! `return`, `raise`, `break` or `continue`): where it went on to code the suppressed path reaches
//! too, that code would come out twice and the code object is refused as before.

use super::{LoopCtx, Structurer};
use crate::ast::{Constant, Expr, ExprContext, Stmt};
use crate::error::DecompileError;
use crate::exprs::Val;

/// The flag's statements: `(before the statement, last in its body, the `if` after it)`.
pub(super) struct WithFlag {
    pub init: Stmt,
    pub set: Stmt,
    pub normal: Stmt,
}

fn store(flag: &str, value: bool) -> Stmt {
    Stmt::Assign {
        targets: vec![Expr::Name {
            id: flag.to_string(),
            ctx: ExprContext::Store,
        }],
        value: Expr::constant(Constant::Bool(value)),
    }
}

fn ends(stmts: &[Stmt]) -> bool {
    matches!(
        stmts.last(),
        Some(Stmt::Return { .. } | Stmt::Raise { .. } | Stmt::Break | Stmt::Continue)
    )
}

impl Structurer<'_> {
    /// Spill mode only: the code at `a`, the normal way out of a `with` body (its exit call first,
    /// with `exits` exit values over `base`), read as the arm of a flag test; `None` outside spill
    /// mode or where that code does not end. `placed`: the blocks placed before the readings the
    /// caller tried at `a` (which may have placed some and given up).
    pub(super) fn with_flag(
        &mut self,
        a: usize,
        base: &[Val],
        exits: usize,
        placed: Option<Vec<bool>>,
        lp: Option<&LoopCtx>,
    ) -> Result<Option<WithFlag>, DecompileError> {
        let Some(emitted) = placed.filter(|_| self.code.spill.get() && self.legacy.is_none())
        else {
            return Ok(None);
        };
        self.emitted = emitted.clone();
        self.expect_exit_call = true;
        let normal = self.region_carry(a, None, base, vec![Val::WithExit; exits], lp);
        let called = !std::mem::take(&mut self.expect_exit_call);
        let normal = match normal {
            Ok(n) if called && ends(&n) => n,
            // (as if never tried: the caller refuses)
            Ok(_) => {
                self.emitted = emitted;
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        let flag = self.code.fresh_temp();
        Ok(Some(WithFlag {
            init: store(&flag, false),
            set: store(&flag, true),
            normal: Stmt::If {
                test: Expr::name(&flag),
                body: normal,
                orelse: Vec::new(),
            },
        }))
    }
}
