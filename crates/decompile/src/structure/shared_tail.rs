//! `a and b or c` as a value: two arms of an expression branch that share their last part.
//!
//! Where a short-circuit operand's value is only tested (the left of `and` inside an `or`), the
//! compiler jumps straight to the code of the operand after it. `a and b or c` (3.8-3.11, 3.14):
//!
//! ```text
//!     a; jump if false to C     (a's value is not needed: only its truth)
//!     b; if true keep it and jump to M, else drop it
//! C:  c
//! M:  (the value)
//! ```
//!
//! C is reached from both arms of the test of `a`: as the whole false arm, and as the tail of the
//! true arm (`b or <C>`). Structuring the arms one after the other would run C twice. Here the arm
//! that reaches C is structured first with C as a *hole* (its value there is a placeholder), then C
//! once; the two combine by what the control flow means:
//!
//! - `t ? (P or X) : X` is `(t and P) or X`;
//! - `t ? (P and X) : X` is `(not t or P) and X` (`(t or P) and X` once the test is the other way).
//!
//! where `t` is the condition under which the arm with the hole runs. The left operand's value
//! never escapes either form (it only decides which way control goes), so the forms are exact.

use super::{fall_test, negate, Structurer};
use crate::ast::{BoolOp, Expr, ExprContext};
use crate::error::DecompileError;
use crate::exprs::Val;
use crate::flow::EdgeKind;

/// The placeholder for the shared tail's value (not an identifier, so it can never compile).
const HOLE: &str = "<shared tail>";

fn hole() -> Expr {
    Expr::Name {
        id: HOLE.to_string(),
        ctx: ExprContext::Load,
    }
}

fn is_hole(e: &Expr) -> bool {
    matches!(e, Expr::Name { id, .. } if id == HOLE)
}

/// `op` of `values`, flattening operands that are the same operator (`(a and b) and c`).
fn bool_op(op: BoolOp, values: Vec<Expr>) -> Expr {
    let mut flat = Vec::with_capacity(values.len());
    for v in values {
        match v {
            Expr::BoolOp { op: o, values: vs } if o == op => flat.extend(vs),
            other => flat.push(other),
        }
    }
    Expr::BoolOp { op, values: flat }
}

/// Does the instruction only move or drop stack values (or do nothing)?
pub(super) fn moves_values(i: &framejit_bytecode::Instr) -> bool {
    matches!(
        i.op.name,
        "SWAP" | "ROT_TWO" | "POP_TOP" | "NOP" | "NOT_TAKEN" | "JUMP_FORWARD" | "JUMP"
    )
}

/// One arm of an expression branch: its first block, the stack it starts with, and how many
/// POP_TOPs at its start drop the tested value.
pub(super) struct Arm {
    pub start: usize,
    pub stack: Vec<Val>,
    pub skip: usize,
}

/// `cond ? other : x`, `other` being `P op <hole>`: the expression without the hole.
fn combine(cond: Expr, other: Expr, x: Expr) -> Option<Expr> {
    let Expr::BoolOp { op, mut values } = other else {
        return None;
    };
    if !values.last().is_some_and(is_hole) {
        return None;
    }
    values.pop();
    let p = match values.len() {
        0 => return None,
        1 => values.pop()?,
        _ => Expr::BoolOp { op, values },
    };
    let first = match op {
        BoolOp::Or => bool_op(BoolOp::And, vec![cond, p]),
        BoolOp::And => bool_op(BoolOp::Or, vec![negate(cond), p]),
    };
    Some(bool_op(op, vec![first, x]))
}

impl Structurer<'_> {
    /// Does control go from `from` to `to` without passing `stop` (exception edges aside)?
    fn reaches_before(&self, from: usize, to: usize, stop: usize) -> bool {
        let mut seen = vec![false; self.cfg.blocks.len()];
        let mut todo = vec![from];
        while let Some(b) = todo.pop() {
            if b == to {
                return true;
            }
            if b == stop || std::mem::replace(&mut seen[b], true) {
                continue;
            }
            todo.extend(
                self.cfg.blocks[b]
                    .succs
                    .iter()
                    .filter(|e| e.kind != EdgeKind::Exception)
                    .map(|e| e.to),
            );
        }
        false
    }

    /// Where an arm reaches the hole of the shared tail being structured: its value there.
    /// `None` where `b` is not that hole.
    pub(super) fn arrive_at_hole(
        &mut self,
        b: usize,
        skip: usize,
        stop: usize,
        stack: &mut Vec<Val>,
    ) -> Option<Result<(), DecompileError>> {
        let &(block, hole_skip, merge) = self.holes.last()?;
        if b != block {
            return None;
        }
        if skip != hole_skip || stop != merge {
            return Some(Err(self.err(
                "an expression's shared tail reached from inside a nested expression",
            )));
        }
        self.hole_hits += 1;
        stack.push(Val::Expr(hole()));
        Some(Ok(()))
    }

    /// Is one arm of an expression branch also the tail of the other (before `merge`)?
    pub(super) fn arms_share_tail(&self, taken: usize, fall: usize, merge: usize) -> bool {
        self.reaches_before(fall, taken, merge) || self.reaches_before(taken, fall, merge)
    }

    /// Does block `b` only move or drop stack values (no statement, no call, no effect)?
    pub(super) fn only_moves_values(&self, b: usize) -> bool {
        self.instrs(b).iter().all(|i| moves_values(i))
    }

    /// Does block `b` start by dropping the top of the stack?
    pub(super) fn starts_with_pop(&self, b: usize) -> bool {
        self.instrs(b)
            .first()
            .is_some_and(|i| i.op.name == "POP_TOP")
    }

    /// The two arms of an expression branch on `test` (jumping when it is `jump_if`) where one arm
    /// is also the tail of the other ([`Self::arms_share_tail`]): the stack at the merge with their
    /// value.
    pub(super) fn shared_tail(
        &mut self,
        test: &Expr,
        jump_if: bool,
        taken: Arm,
        fall: Arm,
        merge: usize,
    ) -> Result<Vec<Val>, DecompileError> {
        let when_fall = fall_test(test.clone(), jump_if);
        let (tail, other, cond) = if self.reaches_before(fall.start, taken.start, merge) {
            (taken, fall, when_fall)
        } else {
            (fall, taken, negate(when_fall))
        };
        self.holes.push((tail.start, tail.skip, merge));
        let hits = std::mem::replace(&mut self.hole_hits, 0);
        let other_out = self.expr_arm(other.start, other.stack, merge, other.skip);
        self.holes.pop();
        let reached = std::mem::replace(&mut self.hole_hits, hits);
        let mut stack = other_out?;
        if reached != 1 {
            return Err(self.err("an expression's shared tail reached more than once"));
        }
        let x_out = self.expr_arm(tail.start, tail.stack, merge, tail.skip)?;
        let (Some(Val::Expr(p)), Some((Val::Expr(x), below))) = (stack.pop(), x_out.split_last())
        else {
            return Err(self.err("an expression arm without a value"));
        };
        if stack[..] != below[..] {
            return Err(self.err("the arms of an expression leave different stacks"));
        }
        let combined = combine(cond, p, x.clone()).ok_or_else(|| {
            self.err("an expression's shared tail of a shape this decompiler does not know")
        })?;
        stack.push(Val::Expr(combined));
        Ok(stack)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> Expr {
        Expr::Name {
            id: s.to_string(),
            ctx: ExprContext::Load,
        }
    }

    #[test]
    fn or_tail_gives_and_then_or() {
        let other = Expr::BoolOp {
            op: BoolOp::Or,
            values: vec![name("b"), hole()],
        };
        let got = combine(name("a"), other, name("c"));
        let want = Expr::BoolOp {
            op: BoolOp::Or,
            values: vec![
                Expr::BoolOp {
                    op: BoolOp::And,
                    values: vec![name("a"), name("b")],
                },
                name("c"),
            ],
        };
        assert_eq!(got, Some(want));
    }

    #[test]
    fn hole_not_last_is_refused() {
        let other = Expr::BoolOp {
            op: BoolOp::Or,
            values: vec![hole(), name("b")],
        };
        assert_eq!(combine(name("a"), other, name("c")), None);
        assert_eq!(combine(name("a"), name("b"), name("c")), None);
    }
}
