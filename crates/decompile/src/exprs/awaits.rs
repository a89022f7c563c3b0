//! Coroutine and generator-delegation opcodes on the symbolic stack: `await`, `yield from`, the
//! iterator of `async for`, the enter/exit awaits of `async with`, async generators' yields.
//!
//! The await / yield-from loop (3.11+: SEND, YIELD_VALUE, a jump back to SEND) spans blocks; the
//! structurer collapses it (`structure/coroutine.rs`). Here the value being awaited becomes a
//! [`Val::Send`] holding the expression the loop stands for; ≤3.10's YIELD_FROM is that loop in one
//! instruction.

use super::{Exit, Sim, Val};
use crate::ast::{Constant, Expr};
use crate::error::DecompileError;
use crate::input::flags;
use framejit_bytecode::Instr;

/// The item an `async for` receives (what GET_ANEXT's await produces).
pub const AITER_ITEM: &str = "\u{0}aiter-item";
/// `async with CM`: the awaited `__aenter__()` of CM (BEFORE_ASYNC_WITH).
pub const ASYNC_WITH_ENTER: &str = "\u{0}async_with_enter";

/// The opcodes this module executes.
pub fn handles(name: &str) -> bool {
    matches!(
        name,
        "GET_AWAITABLE"
            | "GET_YIELD_FROM_ITER"
            | "YIELD_FROM"
            | "END_SEND"
            | "ASYNC_GEN_WRAP"
            | "CALL_INTRINSIC_1"
            | "GET_AITER"
            | "GET_ANEXT"
            | "END_ASYNC_FOR"
            | "BEFORE_ASYNC_WITH"
    )
}

/// Is `e` a marker call of `marker` (one argument)?
pub fn is_marker_call(e: &Expr, marker: &str) -> bool {
    matches!(e, Expr::Call { func, args, .. }
        if args.len() == 1 && matches!(func.as_ref(), Expr::Name { id, .. } if id == marker))
}

impl Sim<'_> {
    pub(super) fn async_step(
        &mut self,
        ins: &Instr,
        raw: u32,
    ) -> Result<Option<Exit>, DecompileError> {
        let name = ins.op.name;
        match name {
            "GET_AWAITABLE" => {
                // 3.11+ say in the argument where the await comes from (0: `await`, 1: after
                // __aenter__, 2: after __aexit__); ≤3.10 do not, and the value says the same
                let v = self.pop(ins)?;
                let implicit_with = |e: &Expr| {
                    is_marker_call(e, ASYNC_WITH_ENTER)
                        || matches!(e, Expr::Name { id, .. } if id == super::WITH_EXIT)
                };
                let sent = match v {
                    // an async comprehension's call is awaited by the compiler, not by the source
                    Val::AsyncComp(e) if raw == 0 => e,
                    Val::Expr(e) if implicit_with(&e) => {
                        if raw == 0 && ins.op.arg != framejit_bytecode::opcode::ArgKind::None {
                            return Err(
                                self.err(ins, "an async with await marked as a plain await")
                            );
                        }
                        e
                    }
                    Val::Expr(e) if raw == 0 => Expr::Await { value: Box::new(e) },
                    other => return Err(self.err(ins, format!("GET_AWAITABLE {raw} of {other:?}"))),
                };
                self.stack.push(Val::Send(sent));
            }
            "GET_YIELD_FROM_ITER" => {
                let v = self.pop_expr(ins)?;
                self.stack
                    .push(Val::Send(Expr::YieldFrom { value: Box::new(v) }));
            }
            "YIELD_FROM" => {
                // ≤3.10: the whole delegation loop in one instruction
                self.pop_none(ins)?;
                match self.pop(ins)? {
                    Val::Send(e) => self.push(e),
                    other => return Err(self.err(ins, format!("YIELD_FROM on {other:?}"))),
                }
            }
            "END_SEND" => {
                // 3.12+: drop the receiver under the loop's result
                let v = self.pop(ins)?;
                if self.pop(ins)? != Val::Null {
                    return Err(self.err(ins, "END_SEND without its await loop"));
                }
                self.stack.push(v);
            }
            "ASYNC_GEN_WRAP" => self.async_gen_wrap(ins)?,
            "CALL_INTRINSIC_1" => match Self::named(ins, raw) {
                Some("INTRINSIC_ASYNC_GEN_WRAP") => self.async_gen_wrap(ins)?,
                // the other intrinsics are 3.12's (star calls, unary +, import *)
                _ => return self.step_py312(ins, raw),
            },
            "GET_AITER" => {
                let v = self.pop_expr(ins)?;
                self.stack.push(Val::Iter(v));
            }
            "GET_ANEXT" => {
                if !matches!(self.stack.last(), Some(Val::Iter(_) | Val::Expr(_))) {
                    return Err(self.err(ins, "GET_ANEXT without an async iterator"));
                }
                self.stack.push(Val::Send(Expr::name(AITER_ITEM)));
            }
            "END_ASYNC_FOR" => {
                // the async iterator and the StopAsyncIteration the loop ended with (≤3.10: its
                // three values and the three saved under them)
                let n = -ins.op.stack_effect(raw, Some(false));
                if n != 2 && n != 7 {
                    return Err(self.err(ins, "END_ASYNC_FOR whose stack effect is not understood"));
                }
                for _ in 0..n {
                    self.pop(ins)?;
                }
            }
            "BEFORE_ASYNC_WITH" => {
                let cm = self.pop_expr(ins)?;
                self.stack.push(Val::WithExit);
                self.push(Expr::Call {
                    func: Box::new(Expr::name(ASYNC_WITH_ENTER)),
                    args: vec![cm],
                    keywords: Vec::new(),
                });
            }
            _ => return Err(self.err(ins, format!("{name} is not decompiled yet"))),
        }
        Ok(None)
    }

    /// An async generator's `yield` wraps its value; only such a generator has it.
    fn async_gen_wrap(&mut self, ins: &Instr) -> Result<(), DecompileError> {
        if self.code.flags & flags::ASYNC_GENERATOR == 0 {
            return Err(self.err(ins, "ASYNC_GEN_WRAP outside an async generator"));
        }
        if !matches!(self.stack.last(), Some(Val::Expr(_))) {
            return Err(self.err(ins, "ASYNC_GEN_WRAP without a value"));
        }
        Ok(())
    }

    fn pop_none(&mut self, ins: &Instr) -> Result<(), DecompileError> {
        match self.pop_expr(ins)? {
            Expr::Constant {
                value: Constant::None,
                ..
            } => Ok(()),
            other => Err(self.err(ins, format!("a delegation that sends {other:?} first"))),
        }
    }
}
