//! A conditional expression whose arms do not meet: 3.12+ copy a small exit block (the rest of the
//! statement up to its `return` / `raise`) into both arms, so `return a, (b if c else d)` compiles
//! to two blocks that each compute their value and then run the same instructions to the exit. The
//! arms are recognised from the instructions: the same tail after a part that pushes one value.
//!
//! The same for any expression branch (`return a < b < c`, `return x and y`): where the arms
//! never meet, every exit they reach ends with the same instructions (the copied tail), and the
//! arms meet just before those — a *virtual* merge. Each arm runs up to the start of its exit's
//! copy; the combined value then runs through one copy of the tail, the others being the same code.

use super::Structurer;
use crate::ast::{Expr, Stmt};
use crate::error::DecompileError;
use crate::exprs::{Exit, Sim, Val};
use crate::flow::EdgeKind;
use framejit_bytecode::Instr;

/// The merge of expression arms that meet at copies of one exit tail (no block has this index).
pub(super) const VIRTUAL: usize = usize::MAX;

const NEVER: &str = "an expression whose arms never meet";

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
        let same = super::same_code_instr;
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

    /// The exits (blocks with no way on but exceptions) control reaches from block `b`'s branch,
    /// in order; `None` where it reaches a block already structured or goes round a loop.
    fn exits_from(&self, b: usize) -> Option<Vec<usize>> {
        let mut seen = vec![false; self.cfg.blocks.len()];
        let mut todo: Vec<usize> = Vec::new();
        let normal = |x: usize| {
            self.cfg.blocks[x]
                .succs
                .iter()
                .filter(|e| e.kind != EdgeKind::Exception)
                .map(|e| e.to)
                .collect::<Vec<usize>>()
        };
        todo.extend(normal(b));
        let mut exits = Vec::new();
        let mut count = 0;
        while let Some(x) = todo.pop() {
            if std::mem::replace(&mut seen[x], true) {
                continue;
            }
            count += 1;
            // (an exit of the enclosing meeting at copies may have been reached already)
            let done = self.emitted[x]
                && !self
                    .copies_merge
                    .as_ref()
                    .is_some_and(|(exits, _)| exits.contains(&x));
            if x == b || done || self.loop_at(x).is_some() || count > 64 {
                return None;
            }
            if self.cfg.blocks[x].handler != self.cfg.blocks[b].handler {
                return None;
            }
            let next = normal(x);
            if next.is_empty() {
                exits.push(x);
            }
            todo.extend(next);
        }
        exits.sort_unstable();
        (exits.len() >= 2).then_some(exits)
    }

    /// An expression branch at the end of block `b` whose arms never meet: they meet at the
    /// copies of the exit tail they all end with (the longest that works). Returns the stack
    /// with the value, and the first exit, to go on from where its copy of the tail starts.
    pub(super) fn branch_expr_to_copies(
        &mut self,
        b: usize,
        test: Expr,
        jump_if: bool,
        keep: bool,
        copy: bool,
        left: Vec<Val>,
    ) -> Result<(Vec<Val>, usize), DecompileError> {
        if let Some((exits, _)) = &self.copies_merge {
            // a branch inside the arms of one meeting at the same copies
            let inside = self
                .exits_from(b)
                .is_some_and(|mine| mine.iter().all(|x| exits.contains(x)));
            if !inside {
                return Err(self.err(NEVER));
            }
            return self.branch_expr_at(b, test, jump_if, keep, copy, left, VIRTUAL);
        }
        let Some(exits) = self.exits_from(b) else {
            return Err(self.err(NEVER));
        };
        let blocks: Vec<Vec<&Instr>> = exits.iter().map(|&x| self.instrs(x).to_vec()).collect();
        let same = super::same_code_instr;
        let shortest = blocks.iter().map(Vec::len).min().unwrap_or(0);
        let common = (0..shortest)
            .take_while(|&k| {
                let first = blocks[0][blocks[0].len() - 1 - k];
                blocks.iter().all(|bl| same(bl[bl.len() - 1 - k], first))
            })
            .count();
        for k in (1..=common).rev() {
            let saved = (self.visits.clone(), self.emitted.clone(), self.work);
            self.copies_merge = Some((exits.clone(), k));
            let attempt =
                self.branch_expr_at(b, test.clone(), jump_if, keep, copy, left.clone(), VIRTUAL);
            self.copies_merge = None;
            match attempt {
                Ok((stack, _)) if exits.iter().all(|&x| self.emitted[x]) => {
                    let first = exits[0];
                    // (the others' tails are the same code)
                    self.emitted[first] = false;
                    self.resume[first] = blocks[0].len() - k;
                    return Ok((stack, first));
                }
                _ => (self.visits, self.emitted, self.work) = saved,
            }
        }
        Err(self.err(NEVER))
    }

    /// An arm of an expression that meets at copied exit tails, reaching one of those exits:
    /// run it up to its copy of the tail. `None` where `b` is no such exit.
    pub(super) fn arrive_at_copy(
        &mut self,
        b: usize,
        skip: usize,
        stop: usize,
        stack: &mut Vec<Val>,
    ) -> Option<Result<(), DecompileError>> {
        if b == VIRTUAL && stop != VIRTUAL {
            return Some(Err(self.err(NEVER)));
        }
        let (exits, k) = self.copies_merge.as_ref()?;
        if stop != VIRTUAL || !exits.contains(&b) {
            return None;
        }
        let k = *k;
        let all = self.instrs(b);
        // (3.14 marks the fall-through arm with NOT_TAKEN before the POP_TOP)
        let lead = if skip > 0 {
            all.iter().take_while(|i| i.op.name == "NOT_TAKEN").count()
        } else {
            0
        };
        let start = lead + skip;
        if start + k > all.len() || all[lead..start].iter().any(|i| i.op.name != "POP_TOP") {
            return Some(Err(self.err(
                "a short-circuit arm that does not start by dropping the value",
            )));
        }
        let prefix = &all[start..all.len() - k];
        // (an exit reached by two arms: only a part that moves values may run twice)
        let again = std::mem::replace(&mut self.emitted[b], true);
        if again && !prefix.iter().all(|i| super::shared_tail::moves_values(i)) {
            return Some(Err(self.err(
                "control flow this decompiler does not structure yet (a block would come out twice)",
            )));
        }
        Some(match self.run_instrs(prefix, std::mem::take(stack)) {
            Ok((stmts, None, out)) if stmts.is_empty() => {
                *stack = out;
                Ok(())
            }
            Ok(_) => Err(self.err("a statement inside an expression")),
            Err(e) => Err(e),
        })
    }

    /// 3.12+: do the arms of block `b`'s branch each end with a copy of one `RETURN_VALUE`, one of
    /// them returning what a `return` statement would not compile to? 3.12 / 3.13 compile
    /// `return <constant>` to RETURN_CONST, so `LOAD_CONST; RETURN_VALUE` returns a value computed
    /// by an expression; 3.14 borrows the local a `return x` statement returns (LOAD_FAST_BORROW),
    /// not one an expression's arm leaves for the copied return (LOAD_FAST). Then the branch is
    /// a conditional expression (`return 0 if a else 1 if b else -1`), not `if` statements.
    pub(super) fn arms_return_a_value(&self, b: usize) -> bool {
        use framejit_bytecode::PyVersion;
        let telling = match self.code.version {
            PyVersion::V3_12 | PyVersion::V3_13 => "LOAD_CONST",
            v if v >= PyVersion::V3_14 => "LOAD_FAST",
            _ => return false,
        };
        if self.ipdom[b].is_some() {
            return false;
        }
        let Some(exits) = self.exits_from(b) else {
            return false;
        };
        let code = |x: usize| -> Vec<&str> {
            self.instrs(x)
                .iter()
                .map(|i| i.op.name)
                .filter(|n| !matches!(*n, "NOP" | "NOT_TAKEN"))
                .collect()
        };
        exits
            .iter()
            .all(|&x| code(x).last() == Some(&"RETURN_VALUE"))
            && exits.iter().any(|&x| code(x) == [telling, "RETURN_VALUE"])
    }
}
