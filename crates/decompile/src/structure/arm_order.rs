//! Which arm of an `if` is its body, and where the statement ends, read from block order.
//!
//! The compiler lays an `if` statement out as: the test, the body, (a jump past the `else:`
//! part,) the `else:` part, the code after the statement. Two readings of one branch can compile
//! to the same control flow but to another layout:
//!
//! - `if c: A  else: B(leaves)` followed by J, where A ends with a forward jump over B to J: no
//!   block post-dominates the branch (B leaves), but J is where the statement ends. Read as
//!   `if c: A; J` (J inside the body) the compiler would lay J out before B.
//! - a condition folded from several tests (`if not a or b:`) whose folded "true" target lies
//!   after its "false" target: the body is the target laid out first, under the negated
//!   condition, or the arms come out swapped (`if a and not b: <else part> else: <body>`), which
//!   compiles the arms in the other order.

use super::{LoopCtx, Structurer};
use crate::ast::{BoolOp, CmpOp, Expr, UnaryOp};
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// The branch at `b` (arms `fall` and `taken`, `fall` laid out first) with no join: the block
    /// J where the statement ends, when the fall arm ends with a forward jump over the taken arm
    /// to J and the taken arm never reaches J (it leaves: `if c: A  else: return` then J).
    pub(super) fn jump_over_leaving_arm(
        &self,
        b: usize,
        fall: usize,
        taken: usize,
        lp: Option<&LoopCtx>,
    ) -> Option<usize> {
        if fall >= taken || taken == 0 {
            return None;
        }
        // the fall arm's last block, right before the taken arm, jumps forward past it
        let last = taken - 1;
        let one = self.lone_instr(last).or_else(|| {
            self.instrs(last)
                .iter()
                .rev()
                .find(|i| !matches!(i.op.name, "NOP" | "NOT_TAKEN"))
                .copied()
                .copied()
        })?;
        if one.op.flow != framejit_bytecode::opcode::Flow::Jump
            || one.op.name.starts_with("JUMP_BACKWARD")
        {
            return None;
        }
        let j = self.succ(last, EdgeKind::Jump)?;
        if j <= taken || self.succ(last, EdgeKind::Fall).is_some() {
            return None;
        }
        // (J stays inside the region being structured, and inside the loop; a jump to the loop's
        // exit or header is a `break` / `continue`, not the end of the statement)
        if self
            .stops
            .iter()
            .rev()
            .flatten()
            .next()
            .is_some_and(|&s| j > s)
        {
            return None;
        }
        if self.loop_edge(j, lp) {
            return None;
        }
        if let Some(ctx) = lp {
            if self
                .loop_at(ctx.header)
                .is_some_and(|l| !l.body.contains(&j))
            {
                return None;
            }
        }
        let walls = [Some(b)];
        let from_fall = self.reach_within(fall, &walls);
        if !from_fall[last] || !from_fall[j] {
            return None;
        }
        let from_taken = self.reach_within(taken, &walls);
        if from_taken[j] || from_taken[fall] {
            return None;
        }
        Some(j)
    }

    /// The branch at `b` (no join, `fall` laid out first) at the top level of a function body: is
    /// it `if c: A  else: B` ending the function, A's way off its end the implicit `return None`?
    /// The compiler copies that exit block into each place that jumps to it, one copy per jump;
    /// A written as `A; return None` before B instead (an `if` without `else:`) has one such
    /// block that its jumps share. Two or more `return None` blocks in A, each reached from one
    /// place only, say it was the `else:` form.
    pub(super) fn else_ends_function(
        &self,
        b: usize,
        fall: usize,
        taken: usize,
        lp: Option<&LoopCtx>,
    ) -> bool {
        if lp.is_some()
            || fall >= taken
            || !self.try_body.is_empty()
            || self.stops.iter().any(|s| s.is_some())
        {
            return false;
        }
        let from_fall = self.reach_within(fall, &[Some(b), Some(taken)]);
        if from_fall[taken] || from_fall[b] {
            return false;
        }
        let mut copies = 0;
        for (x, &seen) in from_fall.iter().enumerate() {
            if !seen {
                continue;
            }
            let leaves = self.cfg.blocks[x]
                .succs
                .iter()
                .all(|e| e.kind == EdgeKind::Exception);
            if !leaves {
                continue;
            }
            if self.is_return_none(x) {
                if self.cfg.blocks[x].preds.len() != 1 {
                    return false;
                }
                copies += 1;
            }
        }
        copies >= 2
    }

    /// Does the code end (last in layout among the blocks reached without exceptions) in a
    /// `return None` block that two or more places jump to or fall into? 3.10+ copy an implicit
    /// closing `return None` into each place that jumps to it; a shared one was written.
    pub(super) fn shared_tail_return(&self) -> bool {
        // (two blocks at least: one jumps or falls into the other, and a second one too)
        if self.code.version < framejit_bytecode::PyVersion::V3_10 || self.cfg.blocks.len() < 2 {
            return false;
        }
        let reached = self.reach_within(0, &[]);
        let Some(last) = (0..self.cfg.blocks.len()).rev().find(|&x| reached[x]) else {
            return false;
        };
        if !self.is_return_none(last) {
            return false;
        }
        let into = self
            .cfg
            .blocks
            .iter()
            .enumerate()
            .filter(|(p, blk)| {
                reached[*p]
                    && blk
                        .succs
                        .iter()
                        .any(|e| e.kind != EdgeKind::Exception && e.to == last)
            })
            .count();
        into >= 2
    }

    /// Is block `x` only `return None` (`RETURN_CONST None`, or `LOAD_CONST None; RETURN_VALUE`)?
    fn is_return_none(&self, x: usize) -> bool {
        // (three at most, enough to tell one or two from more: no list of a whole block made)
        let ins: Vec<_> = self
            .instrs(x)
            .iter()
            .filter(|i| !matches!(i.op.name, "NOP" | "NOT_TAKEN"))
            .copied()
            .take(3)
            .collect();
        let none = |i: &framejit_bytecode::Instr| match i.arg {
            framejit_bytecode::Arg::Raw(k) => matches!(
                self.code.consts.get(k as usize),
                Some(crate::input::Const::Value(crate::ast::Constant::None))
            ),
            _ => false,
        };
        match ins.as_slice() {
            [r] => r.op.name == "RETURN_CONST" && none(r),
            [l, r] => l.op.name == "LOAD_CONST" && none(l) && r.op.name == "RETURN_VALUE",
            _ => false,
        }
    }

    /// The negation of the condition `cond` folded from the test blocks `members`, written so
    /// that each `is` / `in` comparison compiles to the instruction the blocks hold (`is` or
    /// `is not`, `in` or `not in`): De Morgan where that gives them, else as
    /// [`negate_jumps`] writes it.
    pub(super) fn negate_folded(&self, cond: Expr, members: &[usize]) -> Expr {
        let mut blocks = members.to_vec();
        blocks.sort_unstable();
        let held: Vec<(bool, bool)> = blocks
            .iter()
            .flat_map(|&m| self.instrs(m).iter().copied().collect::<Vec<_>>())
            .filter(|i| matches!(i.op.name, "IS_OP" | "CONTAINS_OP"))
            .map(|i| {
                let raw = match i.arg {
                    framejit_bytecode::Arg::Raw(r) => r,
                    _ => 0,
                };
                (i.op.name == "IS_OP", raw & 1 == 1)
            })
            .collect();
        let fits = |e: &Expr| {
            let mut ops = Vec::new();
            compiled_ops(e, false, &mut ops)
                && ops.len() <= held.len()
                && held[held.len() - ops.len()..] == ops[..]
        };
        let demorgan = flip_all(cond.clone(), true);
        if fits(&demorgan) {
            return demorgan;
        }
        negate_jumps(cond)
    }
}

/// `not (e)` by De Morgan all the way down: `not x` as `x`, anything else under `not`; with
/// `compares`, an `is` / `in` comparison as its negated form.
fn flip_all(e: Expr, compares: bool) -> Expr {
    match e {
        Expr::UnaryOp {
            op: UnaryOp::Not,
            operand,
        } => *operand,
        Expr::BoolOp { op, values } => Expr::BoolOp {
            op: match op {
                BoolOp::And => BoolOp::Or,
                BoolOp::Or => BoolOp::And,
            },
            values: values.into_iter().map(|v| flip_all(v, compares)).collect(),
        },
        e @ Expr::Compare { .. } if compares => super::negate(e),
        e => Expr::UnaryOp {
            op: UnaryOp::Not,
            operand: Box::new(e),
        },
    }
}

/// The `is` / `in` instructions (is it `IS_OP`, is it the negated form) that the test `e`
/// compiles to, in order, through `and` / `or` / `not` (CPython's AST optimizer writes
/// `not (a in b)` as `a not in b`); false where a chained comparison holds one (not followed).
fn compiled_ops(e: &Expr, under_not: bool, out: &mut Vec<(bool, bool)>) -> bool {
    match e {
        Expr::BoolOp { values, .. } => values.iter().all(|v| compiled_ops(v, false, out)),
        Expr::UnaryOp {
            op: UnaryOp::Not,
            operand,
        } => compiled_ops(operand, !under_not, out),
        Expr::Compare { ops, .. } => {
            let exact =
                |o: &CmpOp| matches!(o, CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn);
            match ops.as_slice() {
                [o] if exact(o) => {
                    let is = matches!(o, CmpOp::Is | CmpOp::IsNot);
                    let negated = matches!(o, CmpOp::IsNot | CmpOp::NotIn);
                    out.push((is, negated != under_not));
                    true
                }
                ops => !ops.iter().any(exact),
            }
        }
        _ => true,
    }
}

/// `not (test)` written so that it compiles to the same jumps. Where the test holds an `is` /
/// `in` comparison, as [`super::negate`] writes it (the fold may have read such a comparison
/// from the jumps of the negated instruction, which that negation undoes); else De Morgan over
/// `and` / `or` (`not (a and not b)` as `not a or b`), the same jumps.
pub(super) fn negate_jumps(test: Expr) -> Expr {
    fn exact(e: &Expr) -> bool {
        match e {
            Expr::Compare { ops, .. } => ops
                .iter()
                .any(|o| matches!(o, CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn)),
            Expr::UnaryOp { operand, .. } => exact(operand),
            Expr::BoolOp { values, .. } => values.iter().any(exact),
            _ => false,
        }
    }
    if exact(&test) {
        super::negate(test)
    } else if matches!(test, Expr::BoolOp { .. }) {
        flip_all(test, false)
    } else {
        Expr::UnaryOp {
            op: UnaryOp::Not,
            operand: Box::new(test),
        }
    }
}
