//! A conditional expression whose arms do not meet: 3.12+ copy a small exit block (the rest of the
//! statement up to its `return` / `raise`) into both arms, so `return a, (b if c else d)` compiles
//! to two blocks that each compute their value and then run the same instructions to the exit. The
//! arms are recognised from the instructions: the same tail after a part that pushes one value.

use super::Structurer;
use crate::ast::{Expr, Stmt};
use crate::error::DecompileError;
use crate::exprs::{Exit, Sim, Val};
use crate::flow::EdgeKind;
use framejit_bytecode::Instr;

/// What running straight-line instructions gave: statements, the exit (if the last instruction
/// ends the block) and the stack left.
type Ran = (Vec<Stmt>, Option<Exit>, Vec<Val>);

impl Structurer<'_> {
    /// Run `instrs` from `stack`: the statements, the exit of the last instruction and the stack.
    pub(super) fn run_instrs(
        &self,
        instrs: &[&Instr],
        stack: Vec<Val>,
    ) -> Result<Ran, DecompileError> {
        let mut sim = Sim::new(self.code, stack);
        let mut exit = None;
        for (k, ins) in instrs.iter().enumerate() {
            if let Some(e) = sim.step(ins)? {
                if k + 1 != instrs.len() {
                    return Err(self.err("a block goes on after its exit").op(ins.op.name));
                }
                exit = Some(e);
            }
        }
        sim.check_copies()?;
        Ok((sim.out, exit, sim.stack))
    }

    /// The branch at the end of block `b` (with `left` on the stack, deeper than the statement)
    /// as `IfExp` when both arms are single blocks that push one value each and then run the same
    /// instructions to an exit. The statements of that exit path, or None when the arms are not so.
    pub(super) fn dup_tail_ifexp(
        &mut self,
        b: usize,
        test: &Expr,
        jump_if: bool,
        left: &[Val],
    ) -> Result<Option<Vec<Stmt>>, DecompileError> {
        let (Some(taken), Some(fall)) =
            (self.succ(b, EdgeKind::Jump), self.succ(b, EdgeKind::Fall))
        else {
            return Ok(None);
        };
        let single = |x: usize| {
            x != b
                && self.cfg.blocks[x].preds.len() == 1
                && self.cfg.blocks[x]
                    .succs
                    .iter()
                    .all(|e| e.kind == EdgeKind::Exception)
                && self.cfg.blocks[x].handler == self.cfg.blocks[b].handler
                && !self.emitted[x]
        };
        if taken == fall || !single(taken) || !single(fall) {
            return Ok(None);
        }
        let (ti, fi) = (self.instrs(taken), self.instrs(fall));
        let same = |x: &Instr, y: &Instr| x.op.name == y.op.name && x.arg == y.arg;
        let common = ti
            .iter()
            .rev()
            .zip(fi.iter().rev())
            .take_while(|(x, y)| same(x, y))
            .count();
        // the longest shared tail whose prefixes each push exactly one value
        for n in (1..=common).rev() {
            let (tp, fp) = (&ti[..ti.len() - n], &fi[..fi.len() - n]);
            if tp.is_empty() || fp.is_empty() {
                continue;
            }
            let value = |p: &[&Instr]| -> Option<Expr> {
                let (stmts, exit, mut stack) = self.run_instrs(p, left.to_vec()).ok()?;
                if !stmts.is_empty() || exit.is_some() || stack.len() != left.len() + 1 {
                    return None;
                }
                match stack.pop() {
                    Some(Val::Expr(e)) if stack[..] == *left => Some(e),
                    _ => None,
                }
            };
            let (Some(tv), Some(fv)) = (value(tp), value(fp)) else {
                continue;
            };
            let mut stack = left.to_vec();
            stack.push(Val::Expr(Expr::IfExp {
                test: Box::new(super::fall_test(test.clone(), jump_if)),
                body: Box::new(fv),
                orelse: Box::new(tv),
            }));
            let (stmts, exit, _) = self.run_instrs(&fi[fi.len() - n..], stack)?;
            if exit != Some(Exit::Exit) {
                return Err(self.err("a conditional expression's copied tail that does not exit"));
            }
            self.emitted[taken] = true;
            self.emitted[fall] = true;
            return Ok(Some(stmts));
        }
        Ok(None)
    }
}
