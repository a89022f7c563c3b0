//! Statements from blocks: regions of the control flow become `if`, `while`, `for`, `break` and
//! `continue`, decided from dominators, post-dominators and loops (see `flow.rs`), not from the shape of
//! one compiler's output.

use crate::ast::{BoolOp, Constant, Expr, Stmt, UnaryOp};
use crate::error::DecompileError;
use crate::exprs::{Exit, Sim, Val};
use crate::flow::{Cfg, EdgeKind, Loop};
use crate::input::CodeInput;
use framejit_bytecode::{Instr, Item};

#[path = "match_stmt.rs"]
mod match_stmt;

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

/// Where a region continues, and the whole stack there (what a comprehension collects stays under a
/// loop; 3.12+ leave values for `END_FOR` to pop).
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
    /// Handler blocks whose ranges are being structured (blocks they cover may be run), as block
    /// index ranges `lo..=hi`: a try body's handler, or a handler's own region.
    active: Vec<(usize, usize)>,
    /// The try bodies being structured, innermost last: their handler, and the first block found
    /// outside the range (where the body ends).
    try_body: Vec<(usize, Option<usize>)>,
    /// Real stack entries not on the symbolic stack (the saved exception inside handlers).
    depth_offset: usize,
    /// The next block run starts with a with statement's exit call, which is part of that statement.
    expect_exit_call: bool,
    /// Blocks whose code is in the output: a block must not come out twice (a sign of control flow
    /// this structurer misread, which would change what the code does).
    emitted: Vec<bool>,
    /// Instructions to skip at the start of each block: a `match` case body starts where the
    /// pattern's code before it in the same block ends.
    resume: Vec<usize>,
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
fn or_pass(mut stmts: Vec<Stmt>) -> Vec<Stmt> {
    if stmts.is_empty() {
        stmts.push(Stmt::Pass);
    }
    stmts
}

/// Remove the copy of `fin` that precedes each `return`, `break` and `continue` in `stmts` (not in
/// nested functions or classes); false if an exit has no such copy.
fn strip_finally_copies(stmts: &mut Vec<Stmt>, fin: &[Stmt]) -> bool {
    let is_exit = |s: &Stmt| matches!(s, Stmt::Return { .. } | Stmt::Break | Stmt::Continue);
    let mut i = 0;
    while i < stmts.len() {
        if is_exit(&stmts[i]) {
            let n = fin.len();
            if i < n || stmts[i - n..i] != *fin {
                return false;
            }
            stmts.drain(i - n..i);
            i -= n;
        } else {
            let ok = match &mut stmts[i] {
                Stmt::If { body, orelse, .. }
                | Stmt::For { body, orelse, .. }
                | Stmt::While { body, orelse, .. } => {
                    strip_finally_copies(body, fin) && strip_finally_copies(orelse, fin)
                }
                Stmt::Try {
                    body,
                    handlers,
                    orelse,
                    finalbody,
                } => {
                    strip_finally_copies(body, fin)
                        && strip_finally_copies(orelse, fin)
                        && strip_finally_copies(finalbody, fin)
                        && handlers
                            .iter_mut()
                            .all(|h| strip_finally_copies(&mut h.body, fin))
                }
                _ => true,
            };
            if !ok {
                return false;
            }
        }
        i += 1;
    }
    true
}

/// Drop a `continue` that ends a loop body, or the arms of a final `if` (control goes back to the
/// loop header there anyway), and an `else` left empty by it.
fn strip_tail_continue(stmts: &mut Vec<Stmt>) {
    match stmts.last_mut() {
        Some(Stmt::Continue) => {
            stmts.pop();
        }
        Some(Stmt::If {
            body: then, orelse, ..
        }) => {
            strip_tail_continue(then);
            if then.is_empty() {
                then.push(Stmt::Pass);
            }
            strip_tail_continue(orelse);
        }
        Some(Stmt::Match { cases, .. }) => {
            for c in cases {
                strip_tail_continue(&mut c.body);
                if c.body.is_empty() {
                    c.body.push(Stmt::Pass);
                }
            }
        }
        _ => {}
    }
}

/// Remove the compiler's `name = None; del name` that ends an `except ... as name:` body, wherever
/// the body ends (also before a return or at the end of each arm).
fn strip_unbind(stmts: &mut Vec<Stmt>, name: &str) {
    let is_unbind = |a: &Stmt, b: &Stmt| {
        matches!(a, Stmt::Assign { targets, value: Expr::Constant { value: Constant::None, .. } }
            if matches!(targets.as_slice(), [Expr::Name { id, .. }] if id == name))
            && matches!(b, Stmt::Delete { targets } if matches!(targets.as_slice(), [Expr::Name { id, .. }] if id == name))
    };
    let n = stmts.len();
    if n >= 2 && is_unbind(&stmts[n - 2], &stmts[n - 1]) {
        stmts.truncate(n - 2);
    }
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
            active: Vec::new(),
            try_body: Vec::new(),
            depth_offset: 0,
            expect_exit_call: false,
            code,
            cfg,
            ipdom,
            loops,
            visits: vec![0; n],
            bottom_test_seen: false,
            work: 0,
            emitted: vec![false; n],
            resume: vec![0; n],
        }
    }

    fn err(&self, msg: impl Into<String>) -> DecompileError {
        DecompileError::new(self.code, msg)
    }

    /// The values of `stack` above `base`; an error if the stack went below it.
    fn above(&self, stack: &[Val], base: &[Val]) -> Result<Vec<Val>, DecompileError> {
        stack
            .get(base.len()..)
            .map(<[Val]>::to_vec)
            .ok_or_else(|| self.err("the stack went below the statement's base"))
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
        matches!(self.entry_depth[m], Some(d) if d as usize > after + self.depth_offset)
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
        if let Some((h, _, _)) = self.cfg.blocks[b].handler {
            if !self.active.iter().any(|&(lo, hi)| (lo..=hi).contains(&h)) {
                return Err(self.err("an exception handler this decompiler does not structure yet"));
            }
        }
        if std::mem::replace(&mut self.emitted[b], true) {
            return Err(self.err("control flow this decompiler does not structure yet (a block would come out twice)"));
        }
        let mut sim = Sim::new(self.code, stack);
        let all = self.instrs(b);
        let resumed = self.resume[b] > 0;
        let skip = if resumed { self.resume[b] } else { skip };
        if (!resumed && all.iter().take(skip).any(|i| i.op.name != "POP_TOP")) || all.len() < skip {
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
        self.region_carry(start, stop, base, Vec::new(), lp)
    }

    /// [`Self::region`] whose first block starts with `carry` over `base`.
    fn region_carry(
        &mut self,
        start: usize,
        stop: Option<usize>,
        base: &[Val],
        carry: Vec<Val>,
        lp: Option<&LoopCtx>,
    ) -> Result<Vec<Stmt>, DecompileError> {
        let mut out = Vec::new();
        let mut b = start;
        let mut carry: Vec<Val> = carry;
        loop {
            if Some(b) == stop {
                break;
            }
            // A try body ends at the first block its handler does not cover.
            if let Some(&(h, None)) = self.try_body.last() {
                if self.cfg.blocks[b].handler.map(|x| x.0) != Some(h) && carry.is_empty() {
                    if let Some(t) = self.try_body.last_mut() {
                        t.1 = Some(b);
                    }
                    break;
                }
            }
            // A try statement starts here.
            if let Some((h, _, _)) = self.cfg.blocks[b].handler {
                let user_handler =
                    self.instrs(h).first().map(|i| i.op.name) == Some("PUSH_EXC_INFO");
                let inside = self.active.iter().any(|&(lo, hi)| (lo..=hi).contains(&h));
                if user_handler && !inside && carry.is_empty() {
                    let (stmt, next) = self.try_stmt(b, h, base, lp)?;
                    out.push(stmt);
                    match next {
                        Some(n) => {
                            b = n;
                            continue;
                        }
                        None => break,
                    }
                }
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
                        carry = self.above(&next.carry, base)?;
                        continue;
                    }
                    None => break,
                }
            }
            // `match`: the subject stays on the stack through the cases
            if let Some((stmts, next)) = self.try_match(b, &stack, base, lp)? {
                out.extend(stmts);
                match next {
                    Some(n) => {
                        b = n;
                        continue;
                    }
                    None => break,
                }
            }
            let (mut stmts, exit, left) = self.run(b, stack)?;
            if std::mem::take(&mut self.expect_exit_call) {
                let is_exit_call = matches!(stmts.first(), Some(Stmt::Expr { value: Expr::Name { id, .. } }) if id == crate::exprs::WITH_EXIT);
                if !is_exit_call {
                    return Err(self.err("a with statement whose exit call is not where expected"));
                }
                stmts.remove(0);
            }
            out.extend(stmts);
            match exit {
                Exit::Exit => break,
                Exit::Flow => {
                    let next = self
                        .succ(b, EdgeKind::Jump)
                        .or_else(|| self.succ(b, EdgeKind::Fall));
                    // `with CM [as x]:` — BEFORE_WITH left __exit__ and __enter__() for the body
                    if left.len() == base.len() + 2
                        && matches!(left.get(base.len()), Some(Val::WithExit))
                    {
                        let start =
                            next.ok_or_else(|| self.err("a with statement without a body"))?;
                        let (stmt, after, more) = self.with_stmt(start, base, left, lp)?;
                        out.push(stmt);
                        match after {
                            Some(n) => {
                                b = n;
                                carry = more;
                                continue;
                            }
                            None => break,
                        }
                    }
                    // `break` out of a for loop pops the loop's iterator on its way out
                    let breaks_for = left.len() + 1 == base.len()
                        && matches!(base.last(), Some(Val::Iter(_)))
                        && lp.is_some_and(|c| next.is_some() && next == c.exit);
                    if breaks_for {
                        out.push(Stmt::Break);
                        break;
                    }
                    if left.len() != base.len() {
                        // the iterator GET_ITER left goes into the loop its FOR_ITER heads
                        let into_for = next.is_some_and(|n| {
                            self.loop_at(n).is_some()
                                && self.instrs(n).first().map(|i| i.op.name) == Some("FOR_ITER")
                        });
                        // a try body's last value can be used just outside its range (the compiler
                        // leaves RETURN_VALUE, which cannot raise, out of the range)
                        let leaves_try = self.try_body.last().is_some_and(|&(h, found)| {
                            found.is_none()
                                && next.is_some_and(|n| {
                                    self.cfg.blocks[n].handler.map(|x| x.0) != Some(h)
                                })
                        });
                        // (a comprehension keeps what it collects under the iterator)
                        if !leaves_try && (!into_for || left.len() < base.len() + 1) {
                            return Err(self.err(
                                "a value stays on the stack across blocks (expression-level flow)",
                            ));
                        }
                        carry = self.above(&left, base)?;
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
                        carry = self.above(&stack, base)?;
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
                        let attempt =
                            self.loop_stmt(fall, base.to_vec(), Some((test.clone(), taken)));
                        if let Ok((stmts, next)) = attempt {
                            out.extend(stmts);
                            match next.block {
                                Some(n) => {
                                    b = n;
                                    carry = self.above(&next.carry, base)?;
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
                        body: or_pass(then),
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

    /// `with` whose body starts at `start`; `left` ends with __exit__ and the `__enter__()` result.
    fn with_stmt(
        &mut self,
        start: usize,
        base: &[Val],
        left: Vec<Val>,
        lp: Option<&LoopCtx>,
    ) -> Result<(Stmt, Option<usize>, Vec<Val>), DecompileError> {
        use crate::ast::WithItem;
        use crate::exprs::{WITH_ENTER, WITH_EXIT};
        let h = self.cfg.blocks[start]
            .handler
            .map(|x| x.0)
            .ok_or_else(|| self.err("a with body without its handler"))?;
        let names: Vec<&str> = self.instrs(h).iter().take(2).map(|i| i.op.name).collect();
        if names != ["PUSH_EXC_INFO", "WITH_EXCEPT_START"] {
            return Err(self.err("a with statement of a shape this decompiler does not know"));
        }
        let cm = match left.last() {
            Some(Val::Expr(Expr::Call { func, args, .. }))
                if matches!(func.as_ref(), Expr::Name { id, .. } if id == WITH_ENTER)
                    && args.len() == 1 =>
            {
                args[0].clone()
            }
            _ => return Err(self.err("a with statement without its context manager")),
        };
        let mut body_base = base.to_vec();
        body_base.push(Val::WithExit);
        self.active.push((h, h));
        self.try_body.push((h, None));
        let enter = left.last().cloned().into_iter().collect();
        let body = self.region_carry(start, None, &body_base, enter, lp);
        let after = self.try_body.pop().and_then(|t| t.1);
        self.active.pop();
        let mut body = body?;
        let target = match body.first() {
            Some(Stmt::Assign {
                targets,
                value: Expr::Call { func, .. },
            }) if targets.len() == 1
                && matches!(func.as_ref(), Expr::Name { id, .. } if id == WITH_ENTER) =>
            {
                Some(targets[0].clone())
            }
            Some(Stmt::Expr {
                value: Expr::Call { func, .. },
            }) if matches!(func.as_ref(), Expr::Name { id, .. } if id == WITH_ENTER) => None,
            _ => return Err(self.err("a with body that does not start with its target")),
        };
        body.remove(0);
        // __exit__(None, None, None) is copied before each return/break/continue that leaves the body
        let exit_call = vec![Stmt::Expr {
            value: Expr::name(WITH_EXIT),
        }];
        if !strip_finally_copies(&mut body, &exit_call) {
            return Err(self.err("an exit from a with body without its __exit__ call"));
        }
        // The handler's blocks are the compiler's own: the exception-suppressed path ends with
        // POP_TOP, POP_EXCEPT, POP_TOP, POP_TOP and goes on where the statement ends.
        let n = self.cfg.blocks.len();
        let suppressed = (h..n).find(|&x| {
            let names: Vec<&str> = self.instrs(x).iter().map(|i| i.op.name).collect();
            names == ["POP_TOP", "POP_EXCEPT", "POP_TOP", "POP_TOP"]
        });
        let cleanup = self.cfg.blocks[h].handler.map(|x| x.0);
        for x in h..=suppressed.unwrap_or(h).max(cleanup.unwrap_or(h)) {
            self.emitted[x] = true;
        }
        let end_by_handler = suppressed.and_then(|x| {
            self.succ(x, EdgeKind::Jump)
                .or_else(|| self.succ(x, EdgeKind::Fall))
        });
        let stmt = Stmt::With {
            items: vec![WithItem {
                context_expr: cm,
                optional_vars: target,
            }],
            body: or_pass(body),
        };
        match after {
            // the normal way out starts with the exit call: run it with __exit__ on the stack, and
            // drop the call (the `with` statement is it)
            Some(a) => {
                self.expect_exit_call = true;
                Ok((stmt, Some(a), vec![Val::WithExit]))
            }
            None => Ok((stmt, end_by_handler, Vec::new())),
        }
    }

    /// `try:` whose body starts at `b` and whose handler block is `h` (3.11+ exception table).
    fn try_stmt(
        &mut self,
        b: usize,
        h: usize,
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<(Stmt, Option<usize>), DecompileError> {
        // The handler's own code is covered by a cleanup handler (COPY 3; POP_EXCEPT; RERAISE 1),
        // the last block of the statement; what follows it is where the statement ends.
        let cleanup = self.cfg.blocks[h]
            .handler
            .map(|x| x.0)
            .ok_or_else(|| self.err("a handler without its cleanup"))?;
        let cleanup_names: Vec<&str> = self.instrs(cleanup).iter().map(|i| i.op.name).collect();
        if cleanup_names != ["COPY", "POP_EXCEPT", "RERAISE"] || cleanup < h {
            return Err(self.err("an exception handler of a shape this decompiler does not know"));
        }
        let end = (cleanup + 1 < self.cfg.blocks.len()).then_some(cleanup + 1);
        // the body
        self.active.push((h, h));
        self.try_body.push((h, None));
        let body = self.region(b, None, base, lp);
        let after = self.try_body.pop().and_then(|t| t.1);
        self.active.pop();
        let body = body?;
        // the handler, with the exception on the stack (and the saved one off the symbolic stack)
        self.active.push((h, cleanup));
        self.depth_offset += 1;
        let handlers = self.handler_clauses(h, cleanup, end, base, lp);
        self.depth_offset -= 1;
        self.active.pop();
        let (handlers, finalbody) = handlers?;
        self.emitted[cleanup] = true;
        // what runs after the body on the normal path: `else:` for except, the copy of `finally:`
        let rest = match after {
            Some(a) if Some(a) != end => self.region(a, end, base, lp)?,
            _ => Vec::new(),
        };
        let stmt = if let Some(finalbody) = finalbody {
            if rest != finalbody {
                return Err(self.err("a finally block whose normal-path copy differs"));
            }
            // CPython copies the finally body before every return/break/continue that leaves the
            // try: drop those copies, or refuse, so that it does not run twice
            let mut body = body;
            if !strip_finally_copies(&mut body, &finalbody) {
                return Err(self.err("an exit from a try body without the finally body's copy"));
            }
            Stmt::Try {
                body: or_pass(body),
                handlers: Vec::new(),
                orelse: Vec::new(),
                finalbody,
            }
        } else {
            Stmt::Try {
                body: or_pass(body),
                handlers,
                orelse: rest,
                finalbody: Vec::new(),
            }
        };
        Ok((stmt, end))
    }

    /// The clauses of handler `h` (up to its cleanup block), or the body of a `finally:`.
    #[allow(clippy::type_complexity)]
    fn handler_clauses(
        &mut self,
        h: usize,
        cleanup: usize,
        end: Option<usize>,
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<(Vec<crate::ast::ExceptHandler>, Option<Vec<Stmt>>), DecompileError> {
        use crate::ast::ExceptHandler;
        use crate::exprs::{EXC, EXC_MATCH, RERAISE};
        let is_marker =
            |s: &Stmt, m: &str| matches!(s, Stmt::Expr { value: Expr::Name { id, .. } } if id == m);
        let exc = || vec![Val::Expr(Expr::name(EXC))];
        let names: Vec<&str> = self.instrs(h).iter().map(|i| i.op.name).collect();
        let has_match = (h..cleanup).any(|x| {
            self.instrs(x)
                .iter()
                .any(|i| i.op.name == "CHECK_EXC_MATCH")
        });
        if !has_match && names.get(1) != Some(&"POP_TOP") {
            // finally: the handler runs the body then re-raises
            let mut fin = self.region_carry(h, Some(cleanup), base, exc(), lp)?;
            if !fin.last().is_some_and(|s| is_marker(s, RERAISE)) {
                return Err(self.err("a finally handler that does not re-raise"));
            }
            fin.pop();
            return Ok((Vec::new(), Some(or_pass(fin))));
        }
        let mut clauses = Vec::new();
        let mut cur = h;
        loop {
            let first = self
                .instrs(cur)
                .iter()
                .find(|i| i.op.name != "PUSH_EXC_INFO")
                .map(|i| i.op.name);
            if first == Some("RERAISE") {
                // no clause matched: re-raise (the end of the clauses)
                self.emitted[cur] = true;
                break;
            }
            if first == Some("POP_TOP") {
                // bare `except:`, always last
                let mut stmts = self.region_carry(cur, end, base, exc(), lp)?;
                if stmts.first().is_some_and(|s| is_marker(s, EXC)) {
                    stmts.remove(0);
                }
                clauses.push(ExceptHandler {
                    type_: None,
                    name: None,
                    body: or_pass(stmts),
                });
                break;
            }
            // `except T [as name]:` — T; CHECK_EXC_MATCH; POP_JUMP_IF_FALSE to the next clause
            let mut start = base.to_vec();
            start.extend(exc());
            let (stmts, exit, left) = self.run(cur, start)?;
            let (test, next) = match exit {
                Exit::Branch {
                    test,
                    jump_if: false,
                    keep: false,
                    copy: false,
                } if stmts.is_empty() => (test, self.succ(cur, EdgeKind::Jump)),
                _ => {
                    return Err(
                        self.err("an except clause of a shape this decompiler does not know")
                    )
                }
            };
            let type_ = match test {
                Expr::Call { func, mut args, .. }
                    if matches!(func.as_ref(), Expr::Name { id, .. } if id == EXC_MATCH)
                        && args.len() == 1 =>
                {
                    args.remove(0)
                }
                _ => return Err(self.err("an except clause without its exception test")),
            };
            let body_start = self
                .succ(cur, EdgeKind::Fall)
                .ok_or_else(|| self.err("an except clause without a body"))?;
            let carry = self.above(&left, base)?;
            let mut stmts = self.region_carry(body_start, end, base, carry, lp)?;
            // `except T as name:` binds the exception first and unbinds it at the end
            let name = match stmts.first() {
                Some(Stmt::Assign {
                    targets,
                    value: Expr::Name { id, .. },
                }) if id == EXC && targets.len() == 1 => match &targets[0] {
                    Expr::Name { id, .. } => Some(id.clone()),
                    _ => None,
                },
                _ => None,
            };
            if let Some(n) = &name {
                stmts.remove(0);
                strip_unbind(&mut stmts, n);
            } else if stmts.first().is_some_and(|s| is_marker(s, EXC)) {
                stmts.remove(0);
            }
            clauses.push(ExceptHandler {
                type_: Some(type_),
                name,
                body: or_pass(stmts),
            });
            match next {
                Some(n) if n < cleanup => cur = n,
                _ => break,
            }
        }
        // the blocks that unbind a named exception on the error path are the compiler's own
        for x in h..cleanup {
            self.emitted[x] = true;
        }
        Ok((clauses, None))
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
        strip_tail_continue(&mut stmts);
        let test = cond.unwrap_or_else(|| Expr::constant(Constant::Bool(true)));
        let stmt = Stmt::While {
            test,
            body: or_pass(stmts),
            orelse: Vec::new(),
        };
        Ok((
            vec![stmt],
            Next {
                block: exit,
                carry: stack.clone(),
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
        // a loop whose header starts with a `match`
        if let Some((mut out, next)) = self.try_match(header, base, base, Some(ctx))? {
            if let Some(n) = next.filter(|&n| n != header) {
                out.extend(self.region(n, None, base, Some(ctx))?);
            }
            return Ok(out);
        }
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
                if self.is_bottom_test(ctx, taken, fall, &test, jump_if) {
                    self.bottom_test_seen = true;
                    return Ok(out);
                }
                let merge = self.ipdom[header].filter(|m| Some(*m) != ctx.exit);
                let then = self.region(fall, merge, base, Some(ctx))?;
                let orelse = self.region(taken, merge, base, Some(ctx))?;
                out.push(Stmt::If {
                    test: fall_test(test, jump_if),
                    body: or_pass(then),
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
            Some(Val::Iter(e)) | Some(Val::Expr(e)) => e.clone(),
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
        strip_tail_continue(&mut with_item);
        // On exhaustion the stack holds what FOR_ITER's jump leaves: what was under the iterator and,
        // 3.12+, values that END_FOR and its kin pop in the exit block.
        let mut carry: Vec<Val> = stack[..stack.len().saturating_sub(1)].to_vec();
        let effect = for_iter.op.stack_effect(for_iter.raw_arg(), Some(true));
        let mut after_stack_len = stack.len() as i64 + i64::from(effect);
        while after_stack_len > stack.len() as i64 - 1 {
            carry.push(Val::Null);
            after_stack_len -= 1;
        }
        let stmt = Stmt::For {
            target,
            iter,
            body: or_pass(with_item),
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
        // a loop body that starts with a `match`
        if let Some((mut out, next)) = self.try_match(start, &stack, base, Some(ctx))? {
            if let Some(n) = next {
                out.extend(self.region_carry(n, None, base, Vec::new(), Some(ctx))?);
            }
            return Ok(out);
        }
        let (mut out, exit, left) = self.run(start, stack)?;
        match exit {
            Exit::Exit => {}
            Exit::Flow => {
                // what the block leaves (an inner loop's iterator) goes on to the next block, which
                // checks it as any region does
                let carry = self.above(&left, base)?;
                if let Some(n) = self
                    .succ(start, EdgeKind::Jump)
                    .or_else(|| self.succ(start, EdgeKind::Fall))
                {
                    out.extend(self.region_carry(n, None, base, carry, Some(ctx))?);
                } else if !carry.is_empty() {
                    return Err(self.err("a value stays on the stack in a loop body"));
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
                    body: or_pass(then),
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
