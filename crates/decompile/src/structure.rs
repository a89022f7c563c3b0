//! Statements from blocks: regions of the control flow become `if`, `while`, `for`, `break` and
//! `continue`, decided from dominators, post-dominators and loops (see `flow.rs`), not from the shape of
//! one compiler's output.

use crate::ast::{BoolOp, Constant, Expr, Stmt, UnaryOp};
use crate::error::DecompileError;
use crate::exprs::{Exit, Sim, Val};
use crate::flow::{Cfg, EdgeKind, Loop};
use crate::input::CodeInput;
use framejit_bytecode::{Instr, Item};

/// The loop a region is inside: where `continue` and `break` go, and the `while` test that a bottom
/// test must repeat to end the body.
#[derive(Clone, Debug, PartialEq)]
struct LoopCtx {
    header: usize,
    /// Where `break` goes.
    exit: Option<usize>,
    /// `while T:` compiled as a guard before a bottom-tested loop: T.
    cond: Option<Expr>,
}

/// Where a region continues, and values a loop left on the stack for it (3.12+ `END_FOR`).
struct Next {
    block: Option<usize>,
    carry: Vec<Val>,
}

pub struct Structurer<'a> {
    code: &'a CodeInput,
    cfg: Cfg,
    ipdom: Vec<Option<usize>>,
    loops: Vec<Loop>,
    /// Times each block was structured (a bound against re-entry on graphs this does not handle).
    visits: Vec<u32>,
    /// Set when a bottom test repeated the guard of the `while` being built.
    bottom_test_seen: bool,
    /// Blocks structured so far, all attempts included: a budget that keeps any input from running long.
    work: usize,
    /// The stack depth at each block's entry (from the assembler's stack walk), where known.
    entry_depth: Vec<Option<u32>>,
    /// Blocks whose code is in the output: a block must not come out twice (a sign of control flow
    /// this structurer misread, which would change what the code does).
    emitted: Vec<bool>,
}

fn negate(test: Expr) -> Expr {
    match test {
        Expr::UnaryOp {
            op: UnaryOp::Not,
            operand,
        } => *operand,
        other => Expr::UnaryOp {
            op: UnaryOp::Not,
            operand: Box::new(other),
        },
    }
}

/// The test under which control falls through a branch that jumps when the test is `jump_if`.
fn fall_test(test: Expr, jump_if: bool) -> Expr {
    if jump_if {
        negate(test)
    } else {
        test
    }
}

/// The body with `pass` where it would be empty.
fn body(mut stmts: Vec<Stmt>) -> Vec<Stmt> {
    if stmts.is_empty() {
        stmts.push(Stmt::Pass);
    }
    stmts
}

/// The placeholder the loop body's first store takes its value from: the loop's item.
const ITEM: &str = "\u{0}for-item";

impl<'a> Structurer<'a> {
    pub fn new(code: &'a CodeInput) -> Self {
        let cfg = Cfg::build(&code.bytecode);
        let ipdom = cfg.post_dominators();
        let loops = cfg.loops();
        let n = cfg.blocks.len();
        let depths =
            framejit_bytecode::assemble::instruction_depths(&code.bytecode).unwrap_or_default();
        let entry_depth = cfg
            .blocks
            .iter()
            .map(|b| {
                b.instrs
                    .first()
                    .and_then(|&i| depths.get(i).copied().flatten())
            })
            .collect();
        Structurer {
            entry_depth,
            code,
            cfg,
            ipdom,
            loops,
            visits: vec![0; n],
            bottom_test_seen: false,
            work: 0,
            emitted: vec![false; n],
        }
    }

    fn err(&self, msg: impl Into<String>) -> DecompileError {
        DecompileError::new(self.code, msg)
    }

    fn instrs(&self, b: usize) -> Vec<&'a Instr> {
        let items = &self.code.bytecode.items;
        self.cfg.blocks[b]
            .instrs
            .iter()
            .filter_map(|&i| match items.get(i) {
                Some(Item::Instr(ins)) => Some(ins),
                _ => None,
            })
            .collect()
    }

    fn succ(&self, b: usize, kind: EdgeKind) -> Option<usize> {
        self.cfg.blocks[b]
            .succs
            .iter()
            .find(|e| e.kind == kind)
            .map(|e| e.to)
    }

    fn loop_at(&self, header: usize) -> Option<&Loop> {
        self.loops.iter().find(|l| l.header == header)
    }

    /// Does `b` only jump to `header` (3.12+ end a bottom-tested loop with a lone JUMP_BACKWARD)?
    fn jumps_straight_to(&self, b: usize, header: usize) -> bool {
        let ins = self.instrs(b);
        ins.len() == 1
            && ins[0].op.flow == framejit_bytecode::opcode::Flow::Jump
            && self.succ(b, EdgeKind::Jump) == Some(header)
    }

    /// Is this branch the bottom test of a `while` compiled as guard + bottom-tested loop: it goes back
    /// to the header while the loop's condition holds, and leaves to the loop's exit otherwise?
    fn is_bottom_test(
        &self,
        ctx: &LoopCtx,
        taken: usize,
        fall: usize,
        test: &Expr,
        jump_if: bool,
    ) -> bool {
        let Some(cond) = &ctx.cond else { return false };
        let back = |x: usize| x == ctx.header || self.jumps_straight_to(x, ctx.header);
        let (stay, leave, stay_test) = if back(taken) {
            (
                taken,
                fall,
                if jump_if {
                    test.clone()
                } else {
                    negate(test.clone())
                },
            )
        } else {
            (fall, taken, fall_test(test.clone(), jump_if))
        };
        back(stay) && Some(leave) == ctx.exit && stay_test == *cond
    }

    /// Run block `b` from `stack`; its statements, how it ends, and the stack left.
    /// Does control merge after `b`'s branch with more on the stack than the branch leaves (`after`)?
    /// Then the arms compute a value: an expression, not statements.
    fn merges_deeper(&self, b: usize, after: usize) -> bool {
        let Some(m) = self.ipdom[b] else { return false };
        matches!(self.entry_depth[m], Some(d) if d as usize > after)
    }

    /// An expression-level branch at the end of block `b`: both arms up to the merge, combined into
    /// `BoolOp` (the jump carries the tested value) or `IfExp`. Returns the stack at the merge.
    fn branch_expr(
        &mut self,
        b: usize,
        test: Expr,
        jump_if: bool,
        keep: bool,
        copy: bool,
        left: Vec<Val>,
    ) -> Result<(Vec<Val>, usize), DecompileError> {
        let taken = self
            .succ(b, EdgeKind::Jump)
            .ok_or_else(|| self.err("branch without target"))?;
        let fall = self
            .succ(b, EdgeKind::Fall)
            .ok_or_else(|| self.err("branch without fall-through"))?;
        let merge = self.ipdom[b].ok_or_else(|| self.err("an expression whose arms never meet"))?;
        let mut taken_stack = left.clone();
        if keep {
            taken_stack.push(Val::Expr(test.clone()));
        }
        let mut fall_stack = left;
        let skip = if copy {
            fall_stack.pop();
            1
        } else {
            0
        };
        let t = self.expr_arm(taken, taken_stack, merge, 0)?;
        let f = self.expr_arm(fall, fall_stack, merge, skip)?;
        if t.len() != f.len() || t.is_empty() || t[..t.len() - 1] != f[..f.len() - 1] {
            return Err(self.err("the arms of an expression leave different stacks"));
        }
        let mut stack = t;
        let tv = match stack.pop() {
            Some(Val::Expr(e)) => e,
            _ => return Err(self.err("an expression arm without a value")),
        };
        let fv = match f.last() {
            Some(Val::Expr(e)) => e.clone(),
            _ => return Err(self.err("an expression arm without a value")),
        };
        let combined = if keep || copy {
            if tv != test {
                return Err(self.err("a short-circuit jump that does not carry its tested value"));
            }
            let op = if jump_if { BoolOp::Or } else { BoolOp::And };
            let mut values = vec![test];
            match fv {
                Expr::BoolOp {
                    op: inner,
                    values: more,
                } if inner == op => values.extend(more),
                other => values.push(other),
            }
            Expr::BoolOp { op, values }
        } else {
            Expr::IfExp {
                test: Box::new(fall_test(test, jump_if)),
                body: Box::new(fv),
                orelse: Box::new(tv),
            }
        };
        stack.push(Val::Expr(combined));
        Ok((stack, merge))
    }

    /// One arm of an expression branch: the blocks from `start` to `stop`, which must make no
    /// statements; the stack they leave. `skip` instructions at the start are the short-circuit's
    /// POP_TOP of the value the arm replaces.
    fn expr_arm(
        &mut self,
        start: usize,
        stack: Vec<Val>,
        stop: usize,
        skip: usize,
    ) -> Result<Vec<Val>, DecompileError> {
        let mut b = start;
        let mut stack = stack;
        let mut skip = skip;
        loop {
            if b == stop {
                return Ok(stack);
            }
            let (stmts, exit, left) = self.run_from(b, stack, skip)?;
            skip = 0;
            if !stmts.is_empty() {
                return Err(self.err("a statement inside an expression"));
            }
            match exit {
                Exit::Flow => {
                    b = self
                        .succ(b, EdgeKind::Jump)
                        .or_else(|| self.succ(b, EdgeKind::Fall))
                        .ok_or_else(|| self.err("an expression arm that ends nowhere"))?;
                    stack = left;
                }
                Exit::Branch {
                    test,
                    jump_if,
                    keep,
                    copy,
                } => {
                    let (s, m) = self.branch_expr(b, test, jump_if, keep, copy, left)?;
                    stack = s;
                    b = m;
                }
                _ => return Err(self.err("an expression arm that leaves the code or loops")),
            }
        }
    }

    fn run(
        &mut self,
        b: usize,
        stack: Vec<Val>,
    ) -> Result<(Vec<Stmt>, Exit, Vec<Val>), DecompileError> {
        self.run_from(b, stack, 0)
    }

    /// Run block `b` from `stack`, skipping its first `skip` instructions (which must be POP_TOP).
    fn run_from(
        &mut self,
        b: usize,
        stack: Vec<Val>,
        skip: usize,
    ) -> Result<(Vec<Stmt>, Exit, Vec<Val>), DecompileError> {
        self.work += 1;
        if self.work > 16 * self.cfg.blocks.len() + 256 {
            return Err(
                self.err("control flow this decompiler does not structure yet (work budget spent)")
            );
        }
        if self.cfg.blocks[b].handler.is_some() {
            return Err(self.err("try/except/finally and with blocks are not decompiled yet"));
        }
        if std::mem::replace(&mut self.emitted[b], true) {
            return Err(self.err("control flow this decompiler does not structure yet (a block would come out twice)"));
        }
        let mut sim = Sim::new(self.code, stack);
        let all = self.instrs(b);
        if all.iter().take(skip).any(|i| i.op.name != "POP_TOP") || all.len() < skip {
            return Err(self.err("a short-circuit arm that does not start by dropping the value"));
        }
        let instrs = &all[skip..];
        let mut exit = Exit::Flow;
        for (k, ins) in instrs.iter().enumerate() {
            if let Some(e) = sim.step(ins)? {
                exit = e;
                if k + 1 != instrs.len() {
                    return Err(self.err("a block goes on after its exit").op(ins.op.name));
                }
            }
        }
        sim.check_copies()?;
        Ok((sim.out, exit, sim.stack))
    }

    /// The whole code object.
    pub fn module(&mut self) -> Result<Vec<Stmt>, DecompileError> {
        if self.cfg.blocks.is_empty() {
            return Ok(Vec::new());
        }
        self.region(0, None, &[], None)
    }

    /// Statements from `start` until `stop` (exclusive) or until control leaves.
    fn region(
        &mut self,
        start: usize,
        stop: Option<usize>,
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<Vec<Stmt>, DecompileError> {
        let mut out = Vec::new();
        let mut b = start;
        let mut carry: Vec<Val> = Vec::new();
        loop {
            if Some(b) == stop {
                break;
            }
            if let Some(ctx) = lp {
                if Some(b) == ctx.exit {
                    out.push(Stmt::Break);
                    break;
                }
                if b == ctx.header {
                    out.push(Stmt::Continue);
                    break;
                }
            }
            self.visits[b] += 1;
            if self.visits[b] > 64 {
                return Err(self.err("control flow this decompiler does not structure yet"));
            }
            let mut stack: Vec<Val> = base.to_vec();
            stack.append(&mut carry);
            if self.loop_at(b).is_some() && lp.map(|c| c.header) != Some(b) {
                let (stmts, next) = self.loop_stmt(b, stack, None)?;
                out.extend(stmts);
                match next.block {
                    Some(n) => {
                        b = n;
                        carry = next.carry;
                        continue;
                    }
                    None => break,
                }
            }
            let (stmts, exit, left) = self.run(b, stack)?;
            out.extend(stmts);
            match exit {
                Exit::Exit => break,
                Exit::Flow => {
                    let next = self
                        .succ(b, EdgeKind::Jump)
                        .or_else(|| self.succ(b, EdgeKind::Fall));
                    if left.len() != base.len() {
                        // the iterator GET_ITER left goes into the loop its FOR_ITER heads
                        let into_for = next.is_some_and(|n| {
                            self.loop_at(n).is_some()
                                && self.instrs(n).first().map(|i| i.op.name) == Some("FOR_ITER")
                        });
                        if !into_for || left.len() != base.len() + 1 {
                            return Err(self.err(
                                "a value stays on the stack across blocks (expression-level flow)",
                            ));
                        }
                        carry = left[base.len()..].to_vec();
                    }
                    match next {
                        Some(n) => b = n,
                        None => break,
                    }
                }
                Exit::ForIter { .. } => return Err(self.err("FOR_ITER outside a loop header")),
                Exit::Branch {
                    test,
                    jump_if,
                    keep,
                    copy,
                } => {
                    if keep || copy || self.merges_deeper(b, left.len()) {
                        // `a and b`, `a or b`, `x if c else y`: the arms compute a value
                        let (stack, merge) =
                            self.branch_expr(b, test, jump_if, keep, copy, left)?;
                        if stack.len() < base.len() {
                            return Err(self.err("an expression branch pops below its statement"));
                        }
                        carry = stack[base.len()..].to_vec();
                        b = merge;
                        continue;
                    }
                    if left.len() != base.len() {
                        return Err(self.err(
                            "a value stays on the stack across a branch (expression-level flow)",
                        ));
                    }
                    let taken = self
                        .succ(b, EdgeKind::Jump)
                        .ok_or_else(|| self.err("branch without target"))?;
                    let fall = self
                        .succ(b, EdgeKind::Fall)
                        .ok_or_else(|| self.err("branch without fall-through"))?;
                    // A bottom test repeating the `while` guard ends the body.
                    if lp.is_some_and(|ctx| self.is_bottom_test(ctx, taken, fall, &test, jump_if)) {
                        self.bottom_test_seen = true;
                        break;
                    }
                    // `while T:` compiled as a guard (jump past the loop unless T) before its loop.
                    if !jump_if
                        && self.loop_at(fall).is_some()
                        && lp.map(|c| c.header) != Some(fall)
                    {
                        let saved = (self.visits.clone(), self.emitted.clone());
                        if let Ok((stmts, next)) =
                            self.loop_stmt(fall, base.to_vec(), Some((test.clone(), taken)))
                        {
                            out.extend(stmts);
                            match next.block {
                                Some(n) => {
                                    b = n;
                                    carry = next.carry;
                                    continue;
                                }
                                None => break,
                            }
                        }
                        (self.visits, self.emitted) = saved;
                    }
                    // Where both arms leave the code there is no join: then the jump target is where
                    // the fall-through arm ends (an `if` without `else`, as `if a and b:` compiles).
                    let merge = self.ipdom[b].or(Some(taken));
                    let then = self.region(fall, merge, base, lp)?;
                    let orelse = self.region(taken, merge, base, lp)?;
                    out.push(Stmt::If {
                        test: fall_test(test, jump_if),
                        body: body(then),
                        orelse,
                    });
                    match merge {
                        Some(m) => b = m,
                        None => break,
                    }
                }
            }
        }
        Ok(out)
    }

    /// The loop headed by `header`, entered with `stack`; `guard` is the test and exit of a `while`
    /// compiled as a guard before a bottom-tested loop (refused if the loop does not repeat the test).
    fn loop_stmt(
        &mut self,
        header: usize,
        stack: Vec<Val>,
        guard: Option<(Expr, usize)>,
    ) -> Result<(Vec<Stmt>, Next), DecompileError> {
        let lp = self
            .loop_at(header)
            .cloned()
            .ok_or_else(|| self.err("no loop here"))?;
        let first = self.instrs(header).first().map(|i| i.op.name);
        if first == Some("FOR_ITER") && guard.is_none() {
            return self.for_stmt(header, stack);
        }
        // Where control leaves the loop: a single outside successor of the loop's blocks, or the guard's.
        let mut exits: Vec<usize> = Vec::new();
        for &x in &lp.body {
            for e in &self.cfg.blocks[x].succs {
                if e.kind != EdgeKind::Exception
                    && !lp.body.contains(&e.to)
                    && !exits.contains(&e.to)
                {
                    exits.push(e.to);
                }
            }
        }
        exits.sort_unstable();
        let (cond, exit) = match guard {
            Some((t, e)) => (Some(t), Some(e)),
            None => (None, exits.first().copied()),
        };
        let ctx = LoopCtx {
            header,
            exit,
            cond: cond.clone(),
        };
        self.bottom_test_seen = false;
        let mut stmts = self.loop_body(header, &stack, &ctx)?;
        if cond.is_some() && !self.bottom_test_seen {
            return Err(self.err("the loop does not repeat the guard's test"));
        }
        if matches!(stmts.last(), Some(Stmt::Continue)) {
            stmts.pop();
        }
        let test = cond.unwrap_or_else(|| Expr::constant(Constant::Bool(true)));
        let stmt = Stmt::While {
            test,
            body: body(stmts),
            orelse: Vec::new(),
        };
        Ok((
            vec![stmt],
            Next {
                block: exit,
                carry: Vec::new(),
            },
        ))
    }

    /// The body of a loop from its header until control returns to the header.
    fn loop_body(
        &mut self,
        header: usize,
        base: &[Val],
        ctx: &LoopCtx,
    ) -> Result<Vec<Stmt>, DecompileError> {
        // The header itself is part of the body: structure it with the loop context, stopping when
        // control comes back to it.
        self.visits[header] += 1;
        let (mut out, exit, left) = self.run(header, base.to_vec())?;
        if left.len() != base.len() && !matches!(exit, Exit::Exit) {
            return Err(self.err("a value stays on the stack in a loop header"));
        }
        match exit {
            Exit::Exit => {}
            Exit::Flow => {
                if let Some(n) = self
                    .succ(header, EdgeKind::Jump)
                    .or_else(|| self.succ(header, EdgeKind::Fall))
                {
                    if n != header {
                        out.extend(self.region(n, None, base, Some(ctx))?);
                    }
                }
            }
            Exit::Branch {
                test,
                jump_if,
                keep: false,
                copy: false,
            } => {
                let taken = self
                    .succ(header, EdgeKind::Jump)
                    .ok_or_else(|| self.err("branch without target"))?;
                let fall = self
                    .succ(header, EdgeKind::Fall)
                    .ok_or_else(|| self.err("branch without fall-through"))?;
                let merge = self.ipdom[header].filter(|m| Some(*m) != ctx.exit);
                let then = self.region(fall, merge, base, Some(ctx))?;
                let orelse = self.region(taken, merge, base, Some(ctx))?;
                out.push(Stmt::If {
                    test: fall_test(test, jump_if),
                    body: body(then),
                    orelse,
                });
                if let Some(m) = merge {
                    out.extend(self.region(m, None, base, Some(ctx))?);
                }
            }
            Exit::Branch { .. } => return Err(self.err("an expression branch in a loop header")),
            Exit::ForIter { .. } => return Err(self.err("a FOR_ITER inside another loop's header")),
        }
        Ok(out)
    }

    /// `for TARGET in ITER:` headed by FOR_ITER; the iterator is on top of `stack` (from GET_ITER).
    fn for_stmt(
        &mut self,
        header: usize,
        stack: Vec<Val>,
    ) -> Result<(Vec<Stmt>, Next), DecompileError> {
        let iter = match stack.last() {
            Some(Val::Expr(e)) => e.clone(),
            _ => return Err(self.err("FOR_ITER without an iterator on the stack")),
        };
        let for_iter = *self
            .instrs(header)
            .first()
            .ok_or_else(|| self.err("empty loop header"))?;
        let exhausted = self.succ(header, EdgeKind::Jump);
        let first = self
            .succ(header, EdgeKind::Fall)
            .ok_or_else(|| self.err("FOR_ITER without a body"))?;
        // `break` jumps past the pops that end the loop (3.12+ END_FOR, 3.13 POP_TOP, 3.14 POP_ITER)
        let brk = exhausted.map(|e| self.after_pops(e).unwrap_or(e));
        let ctx = LoopCtx {
            header,
            exit: brk,
            cond: None,
        };
        self.visits[header] += 1;
        // The body's first block starts with the item pushed over the iterator.
        let mut with_item =
            self.region_with_carry(first, &stack, vec![Val::Expr(Expr::name(ITEM))], &ctx)?;
        let target = match with_item.first() {
            Some(Stmt::Assign {
                targets,
                value: Expr::Name { id, .. },
            }) if id == ITEM && targets.len() == 1 => targets[0].clone(),
            _ => return Err(self.err("the loop target is not a plain store")),
        };
        with_item.remove(0);
        if matches!(with_item.last(), Some(Stmt::Continue)) {
            with_item.pop();
        }
        // On exhaustion the stack holds what FOR_ITER's jump leaves: the iterator and, 3.12+, a value
        // that END_FOR and its kin pop in the exit block.
        let mut carry = Vec::new();
        let effect = for_iter.op.stack_effect(for_iter.raw_arg(), Some(true));
        let mut after_stack_len = stack.len() as i64 + i64::from(effect);
        while after_stack_len > stack.len() as i64 - 1 {
            carry.push(Val::Null);
            after_stack_len -= 1;
        }
        let stmt = Stmt::For {
            target,
            iter,
            body: body(with_item),
            orelse: Vec::new(),
        };
        // the iterator (stack top) leaves with the loop; what the exit block pops comes as carry
        Ok((
            vec![stmt],
            Next {
                block: exhausted,
                carry,
            },
        ))
    }

    /// A region whose first block starts with `carry` pushed over `base`.
    fn region_with_carry(
        &mut self,
        start: usize,
        base: &[Val],
        carry: Vec<Val>,
        ctx: &LoopCtx,
    ) -> Result<Vec<Stmt>, DecompileError> {
        let mut stack = base.to_vec();
        stack.extend(carry);
        self.visits[start] += 1;
        let (mut out, exit, left) = self.run(start, stack)?;
        match exit {
            Exit::Exit => {}
            Exit::Flow => {
                if left.len() != base.len() {
                    return Err(self.err("a value stays on the stack in a loop body"));
                }
                if let Some(n) = self
                    .succ(start, EdgeKind::Jump)
                    .or_else(|| self.succ(start, EdgeKind::Fall))
                {
                    out.extend(self.region(n, None, base, Some(ctx))?);
                }
            }
            Exit::Branch {
                test,
                jump_if,
                keep: false,
                copy: false,
            } => {
                let taken = self
                    .succ(start, EdgeKind::Jump)
                    .ok_or_else(|| self.err("branch without target"))?;
                let fall = self
                    .succ(start, EdgeKind::Fall)
                    .ok_or_else(|| self.err("branch without fall-through"))?;
                let merge = self.ipdom[start];
                let merge = merge.filter(|m| *m != ctx.header && Some(*m) != ctx.exit);
                let then = self.region(fall, merge, base, Some(ctx))?;
                let orelse = self.region(taken, merge, base, Some(ctx))?;
                out.push(Stmt::If {
                    test: fall_test(test, jump_if),
                    body: body(then),
                    orelse,
                });
                if let Some(m) = merge {
                    out.extend(self.region(m, None, base, Some(ctx))?);
                }
            }
            Exit::Branch { .. } => {
                return Err(self.err("an expression branch in a loop body's first block"))
            }
            Exit::ForIter { .. } => return Err(self.err("FOR_ITER in a loop body's first block")),
        }
        Ok(out)
    }

    /// The block after `exit`'s leading pops when the block is nothing but pops.
    fn after_pops(&self, exit: usize) -> Option<usize> {
        let names: Vec<&str> = self.instrs(exit).iter().map(|i| i.op.name).collect();
        let all_pops = !names.is_empty()
            && names
                .iter()
                .all(|n| matches!(*n, "END_FOR" | "POP_TOP" | "POP_ITER"));
        if all_pops {
            self.succ(exit, EdgeKind::Fall)
        } else {
            None
        }
    }
}
