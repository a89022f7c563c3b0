//! 3.11+ `except*` (PEP 654): the Sim's part. A try-star handler keeps three values on the stack
//! under its clauses: the exception group raised in the body, the list the clauses add what they
//! raise to, and the part of the group no clause has matched yet (`structure/except_star.rs`
//! structures the handler). Here: `CHECK_EG_MATCH` splits the rest into what a clause's types
//! match (a marker call, tested against None) and a new rest; `LIST_APPEND 1` of the rest onto the
//! list (3.14 copies it into the end of the last clause's body) leaves a marker statement the
//! structurer removes where it knows it belongs.

use super::{Sim, Val, EXC};
use crate::ast::{Expr, Stmt};
use crate::error::DecompileError;
use framejit_bytecode::Instr;

/// `CHECK_EG_MATCH` of a clause's types (the one argument): the matching part of the group, or None.
pub const EG_MATCH: &str = "\u{0}eg_match";
/// The list of exceptions the clauses raised (a try-star handler's second value).
pub const EG_LIST: &str = "\u{0}eg_list";
/// `LIST_APPEND 1` of the unmatched rest onto [`EG_LIST`], where the Sim met it inside a clause.
pub const EG_REST: &str = "\u{0}eg_rest";

fn is_name(v: Option<&Val>, name: &str) -> bool {
    matches!(v, Some(Val::Expr(Expr::Name { id, .. })) if id == name)
}

impl Sim<'_> {
    /// `CHECK_EG_MATCH`: the types on top, the rest of the group under them (the handler's marker).
    pub(super) fn check_eg_match(&mut self, ins: &Instr) -> Result<(), DecompileError> {
        let types = self.pop_expr(ins)?;
        if !is_name(self.stack.last(), EXC) {
            return Err(self.err(ins, "CHECK_EG_MATCH of something else than the exception"));
        }
        self.push(Expr::Call {
            func: Box::new(Expr::name(EG_MATCH)),
            args: vec![types],
            keywords: Vec::new(),
        });
        Ok(())
    }

    /// `LIST_APPEND n` onto the handler's list: only the rest (`n == 1`, the exception marker on
    /// top of the list) is understood here, as a marker statement with the stack left as it was
    /// (the structurer takes the statement's place as the handler's own end). `false`: not the
    /// handler's list.
    pub(super) fn eg_list_append(&mut self, ins: &Instr, n: u32) -> Result<bool, DecompileError> {
        let len = self.stack.len();
        let list = (len as u32)
            .checked_sub(n + 1)
            .map(|i| &self.stack[i as usize]);
        if !is_name(list, EG_LIST) {
            return Ok(false);
        }
        if n != 1 || !is_name(self.stack.last(), EXC) {
            return Err(self.err(ins, "an exception group's list added to inside a clause"));
        }
        self.out.push(Stmt::Expr {
            value: Expr::name(EG_REST),
        });
        Ok(true)
    }
}
