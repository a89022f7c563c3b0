//! 3.8-3.10 `async with` (`async for` is in `coroutine.rs`, with its 3.11+ form).
//!
//! BEFORE_ASYNC_WITH leaves `__aexit__` and the awaitable of `__aenter__()`; the compiler awaits it
//! (GET_AWAITABLE; LOAD_CONST None; YIELD_FROM) and then protects the body with SETUP_ASYNC_WITH.
//! From there the statement is a `with` whose `__exit__` calls are awaited: on the normal path (and
//! before a `return` / `break` / `continue` out of the body) the awaited call is the same statement
//! marker as a plain `with`'s, and the handler awaits WITH_EXCEPT_START's result before testing it.
//! So the body and its ways out are structured as a `with`'s (`legacy_with`), after checking the
//! two places that differ: the awaited enter value under the body, and the handler's await.

use super::legacy_blocks::Built;
use super::{LoopCtx, Structurer};
use crate::ast::{Expr, Stmt};
use crate::error::DecompileError;
use crate::exprs::awaits::ASYNC_WITH_ENTER;
use crate::exprs::Val;

/// The instructions of the handler's first block: `__aexit__` called with the exception, its
/// result awaited and tested (then RERAISE, or the exception dropped when it says to suppress).
const HANDLER: [&str; 5] = [
    "WITH_EXCEPT_START",
    "GET_AWAITABLE",
    "LOAD_CONST",
    "YIELD_FROM",
    "POP_JUMP_IF_TRUE",
];

impl Structurer<'_> {
    /// `async with CM [as x]:` at a SETUP_ASYNC_WITH whose handler is `h` and body starts at `s`;
    /// `left` is the stack at the setup: `base`, `__aexit__` and the awaited `__aenter__()`.
    pub(super) fn legacy_async_with(
        &mut self,
        h: usize,
        s: usize,
        mut left: Vec<Val>,
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<Built, DecompileError> {
        let cm = match left.pop() {
            Some(Val::Expr(Expr::Call { func, mut args, .. }))
                if left.len() == base.len() + 1
                    && left.last() == Some(&Val::WithExit)
                    && args.len() == 1
                    && matches!(func.as_ref(), Expr::Name { id, .. } if id == ASYNC_WITH_ENTER) =>
            {
                args.pop()
            }
            _ => None,
        }
        .ok_or_else(|| self.err("an async with without its awaited __aenter__()"))?;
        let names: Vec<&str> = self.instrs(h).iter().map(|i| i.op.name).collect();
        // (3.8: __aexit__ called, awaited and the exception suppressed or re-raised in one block)
        if names != HANDLER && names[..] != crate::legacy38::ASYNC_WITH_CLEANUP[..] {
            return Err(self.err("an async with handler of a shape this decompiler does not know"));
        }
        let (mut stmts, next, carry) = self.legacy_with(h, s, cm, base, lp)?;
        match stmts.first_mut() {
            Some(st @ Stmt::With { .. }) => {
                if let Stmt::With { items, body } = std::mem::replace(st, Stmt::Pass) {
                    // (3.10 copies a small `return v` after a loop into each `break`, after the
                    // awaited exit call: such a way out computes v after `__aexit__`, which a
                    // `return v` in the body does before it; `late_code_after_exit` refuses it)
                    *st = Stmt::AsyncWith { items, body };
                }
            }
            _ => return Err(self.err("an async with that is not a with statement")),
        }
        Ok((stmts, next, carry))
    }
}
