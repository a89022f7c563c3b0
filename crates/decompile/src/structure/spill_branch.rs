//! Spill mode (see `Structurer::statements`): branches that generated code takes with values kept
//! on the stack. `torch.compile`'s transformed code loads the compiled graph's function, runs a
//! profiler-marker `if` whose arms each store a name and push a value, and calls the function
//! after the merge; its resume-function calls branch with the values they pass waiting below.
//! The values kept across the branch go into temporaries before the `if`; the values its arms
//! leave at the merge go into one temporary each, assigned at the end of each arm.

use super::{LoopCtx, Structurer};
use crate::ast::{Expr, ExprContext, Stmt};
use crate::error::DecompileError;
use crate::exprs::{Sim, Val};

impl Structurer<'_> {
    /// A statement-level branch ending block `b` with `left` (more than `base`) on the stack: the
    /// values above `base` evaluated into temporaries first, then the `if`, whose arms start with
    /// them. Returns where structuring goes on and what is on the stack above `base` there.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn branch_spilled(
        &mut self,
        b: usize,
        base: &[Val],
        lp: Option<&LoopCtx>,
        test: Expr,
        jump_if: bool,
        left: Vec<Val>,
        out: &mut Vec<Stmt>,
    ) -> Result<Option<(usize, Vec<Val>)>, DecompileError> {
        // the arms start with the kept values over the statement's base: generated code passes
        // them on (a resume function's arguments) or pops them
        self.arms_carry = self.spill_kept(base, left, out)?;
        let next = self.branch_stmt(b, base, lp, test, jump_if, out);
        self.arms_carry.clear();
        next
    }

    /// The values of `stack` above `base`, kept across a statement (a branch, a try) that
    /// generated code runs with them waiting: each that is not a constant or a name the code never
    /// rebinds evaluated into a temporary (appended to `out`) in stack order; what stays above
    /// `base`, to start the statement's parts with.
    pub(super) fn spill_kept(
        &self,
        base: &[Val],
        stack: Vec<Val>,
        out: &mut Vec<Stmt>,
    ) -> Result<Vec<Val>, DecompileError> {
        if stack.len() < base.len() {
            return Err(self.err("a statement pops below its base"));
        }
        let mut sim = Sim::new(self.code, stack);
        sim.spill_floor = base.len();
        if !sim.spill_from(0) {
            return Err(self.err("a value being built stays on the stack across a statement"));
        }
        out.append(&mut sim.out);
        Ok(sim.stack[base.len()..].to_vec())
    }

    /// The values an `if`'s arms leave on the stack where they meet (`None`: the arm does not get
    /// there). Equal values stay as they are (nothing runs between an arm's end and the merge);
    /// different ones become a temporary each arm assigns last. Outside spill mode an arm leaves
    /// nothing there: a value it left would be lost.
    pub(super) fn merge_arm_values(
        &self,
        then_carry: Option<Vec<Val>>,
        else_carry: Option<Vec<Val>>,
        then: &mut Vec<Stmt>,
        orelse: &mut Vec<Stmt>,
    ) -> Result<Vec<Val>, DecompileError> {
        let (a, b) = match (then_carry, else_carry) {
            (None, None) => return Ok(Vec::new()),
            (Some(c), None) | (None, Some(c)) => (c.clone(), c),
            (Some(a), Some(b)) => (a, b),
        };
        if a.is_empty() && b.is_empty() {
            return Ok(Vec::new());
        }
        if !self.code.spill.get() {
            return Err(self.err("the arms of an if leave values on the stack"));
        }
        if a.len() != b.len() {
            return Err(self.err("the arms of an if leave stacks of different depths"));
        }
        let mut merged = Vec::with_capacity(a.len());
        for (x, y) in a.into_iter().zip(b) {
            if x == y {
                merged.push(x);
                continue;
            }
            let (Val::Expr(x), Val::Expr(y)) = (x, y) else {
                return Err(self.err("the arms of an if leave different kinds of values"));
            };
            let tmp = self.code.fresh_temp();
            let assign = |value: Expr| Stmt::Assign {
                targets: vec![Expr::Name {
                    id: tmp.clone(),
                    ctx: ExprContext::Store,
                }],
                value,
            };
            then.push(assign(x));
            orelse.push(assign(y));
            merged.push(Val::Expr(Expr::name(&tmp)));
        }
        Ok(merged)
    }

    /// Values a try body leaves on the stack (generated code, spill mode only): each that is not
    /// a constant goes into a temporary assigned at the end of `body`, inside the statement where
    /// the bytecode computed it. Outside spill mode a body leaves nothing.
    pub(super) fn keep_in_temps(
        &self,
        left: Vec<Val>,
        body: &mut Vec<Stmt>,
        spill: bool,
    ) -> Result<Vec<Val>, DecompileError> {
        if left.is_empty() {
            return Ok(left);
        }
        if !spill && !self.code.spill.get() {
            return Err(self.err("a try body that leaves values on the stack"));
        }
        let mut kept = Vec::with_capacity(left.len());
        for v in left {
            match v {
                Val::Expr(e) if !matches!(e, Expr::Constant { .. } | Expr::Name { .. }) => {
                    let tmp = self.code.fresh_temp();
                    body.push(Stmt::Assign {
                        targets: vec![Expr::Name {
                            id: tmp.clone(),
                            ctx: ExprContext::Store,
                        }],
                        value: e,
                    });
                    kept.push(Val::Expr(Expr::name(&tmp)));
                }
                Val::Expr(_) | Val::Null => kept.push(v),
                _ => return Err(self.err("a try body that leaves a value being built")),
            }
        }
        Ok(kept)
    }
}
