//! ≤3.9: which `return None` is the compiler's own closing one.
//!
//! 3.8 / 3.9 write the `return None` that ends a function once, as its last instructions, and
//! copy it nowhere: every other `LOAD_CONST None; RETURN_VALUE` in the code is a `return` (or
//! `return None`) of the source. 3.10+ copy the closing return into the ends of the ways that
//! reach it, which is why the tail rules (`strip_tail`) take any `return None` ending a final
//! statement's arm for the compiler's. On ≤3.9 those rules must only take the statement the
//! closing instructions came out as: the structurer marks it here (a `kind` on its `None`
//! constant, which nothing else sets on `None`), and `drop_tail_return` (lib.rs) strips only
//! marked returns at the function's tail and clears every mark. A `return` the source wrote
//! ending an `except` clause or an `else:` arm stays (`try: ... except E: return`, whose clause
//! 3.9 compiles to `POP_EXCEPT; LOAD_CONST None; RETURN_VALUE` where `pass` gives a jump).

use super::Structurer;
use crate::ast::{Constant, Expr, Stmt};

/// The `kind` that marks the closing return's `None`.
const CLOSING: &str = "framejit:closing-return";

impl Structurer<'_> {
    /// Block `b` just came out as `stmts`: when it is the code's last block, ending in the
    /// closing `LOAD_CONST None; RETURN_VALUE` of a ≤3.9 function, mark its `return`.
    pub(super) fn mark_closing_return(&self, b: usize, stmts: &mut [Stmt]) {
        if self.code.version > framejit_bytecode::PyVersion::V3_9
            || self.code.flags & crate::input::flags::OPTIMIZED == 0
            || b + 1 != self.cfg.blocks.len()
        {
            return;
        }
        let ins = self.instrs(b);
        let [.., load, ret] = &ins[..] else {
            return;
        };
        if load.op.name != "LOAD_CONST" || ret.op.name != "RETURN_VALUE" {
            return;
        }
        if let Some(Stmt::Return { value }) = stmts.last_mut() {
            if matches!(
                value,
                None | Some(Expr::Constant {
                    value: Constant::None,
                    kind: None
                })
            ) {
                *value = Some(Expr::Constant {
                    value: Constant::None,
                    kind: Some(CLOSING.to_string()),
                });
            }
        }
    }
}

/// Is `s` the marked closing return?
pub(crate) fn is_closing_return(s: &Stmt) -> bool {
    matches!(s, Stmt::Return { value: Some(Expr::Constant { value: Constant::None, kind: Some(k) }) } if k == CLOSING)
}

/// Does any statement of `body`, at any depth, carry the mark?
pub(crate) fn has_closing_return(body: &mut [Stmt]) -> bool {
    body.iter_mut()
        .any(|s| is_closing_return(s) || s.bodies_mut().into_iter().any(|b| has_closing_return(b)))
}

/// Clear every mark: a closing return left where it is (not at the tail) is a plain `return None`.
pub(crate) fn clear_marks(body: &mut [Stmt]) {
    for s in body.iter_mut() {
        if let Stmt::Return {
            value: Some(Expr::Constant { kind, .. }),
        } = s
        {
            if kind.as_deref() == Some(CLOSING) {
                *kind = None;
            }
        }
        for b in s.bodies_mut() {
            clear_marks(b);
        }
    }
}
