//! `break` and `continue` out of a `with` body (sync, and `async with`).
//!
//! The compiler leaves a `with` body by `break` / `continue` through a copy of the statement's
//! normal exit: the exit call `__exit__(None, None, None)` (awaited for `async with`) and its
//! result dropped, which takes the with statement's own values (the exit, under the body's
//! statements) off the stack; a `break` out of a `for` loop then drops the loop's iterator too.
//! Such a block leaves the stack *below* the region's base, by exactly the exits of the with
//! statements it leaves: that is the stack fact read here, not the instructions' shape. The exit
//! call comes out as the `WITH_EXIT` marker statement before the `break` / `continue`, which each
//! with statement left drops as its own copy (`strip_finally_copies` in `with_stmt`), or refuses.

use super::{LoopCtx, Structurer};
use crate::ast::{Expr, Stmt};
use crate::error::DecompileError;
use crate::exprs::{Exit, Val, WITH_EXIT};
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// The with statements block `b` left: its statements `stmts` left the stack as `left`,
    /// below the region's `base`, and control goes on to `next`. Where the values taken off are
    /// the exits of with statements (with the iterator of the `for` loop `lp` under them, for
    /// `break`) and each made its exit call, the way out goes on: to where `lp` goes on by
    /// `continue` or `break` (that statement is added to `out`), or through blocks only this
    /// way reaches to a `return` / `raise` (their statements are added). False where the block
    /// is not such a way out (nothing added).
    pub(super) fn with_exit_path(
        &mut self,
        stmts: &[Stmt],
        base: &[Val],
        left: Vec<Val>,
        next: Option<usize>,
        lp: Option<&LoopCtx>,
        out: &mut Vec<Stmt>,
    ) -> Result<bool, DecompileError> {
        let Some((mut kept, mut iter)) = leaves_withs(base, &left) else {
            return Ok(false);
        };
        let exits = base.len() - kept - usize::from(iter);

        // each with statement left made its exit call here (3.14: two values per with)
        let calls = stmts
            .iter()
            .filter(|s| matches!(s, Stmt::Expr { value: Expr::Name { id, .. } } if id == WITH_EXIT))
            .count();
        if calls == 0 || calls > exits {
            return Ok(false);
        }
        let mut left = left;
        let mut next = next;
        let mut more = Vec::new();
        let mut awaited = false;
        for _ in 0..8 {
            let Some(n) = next else { break };
            // (nothing carried past the exits: a `return` value goes on to a return)
            let jump = (left.len() == kept).then(|| self.leaving_jump(iter, n, lp));
            if let Some(s) = jump.flatten() {
                out.append(&mut more);
                out.push(s);
                return Ok(true);
            }
            // (3.11+: an enclosing `async with`'s awaited exit call, the await loop of its
            // __exit__(None, None, None): on where the loop ends, whose block the loop's throw
            // path reaches too)
            let exit_await = left.len() >= 2
                && left[left.len() - 2] == Val::Send(Expr::name(WITH_EXIT))
                && self.is_send(n);
            if !iter && exit_await && !std::mem::replace(&mut awaited, true) {
                let (done, l) = self.send_loop(n, left)?;
                left = l;
                next = Some(done);
                continue;
            }
            // (a `return` / `raise` after the exit call, in a block of its own where an
            // exception range ends: reached from this way alone, with no loop to leave)
            let after_await = std::mem::replace(&mut awaited, false);
            if iter || (self.live_preds(n) != 1 && !after_await) || self.loop_at(n).is_some() {
                break;
            }
            // (the next with statement's exit call, then a copy of the loop's exit)
            if let Some(stmts) = self.with_break_copy(n, &left, base, lp)? {
                out.append(&mut more);
                out.extend(stmts);
                return Ok(true);
            }
            let (stmts, exit, l) = self.run(n, left)?;
            more.extend(stmts);
            match exit {
                // (a block of its own after the exit call: it leaves with what the stack held or
                // a constant, computing nothing after `__exit__`)
                // (statements before it are an enclosing statement's unwinding, a finally body's
                // copy, which that statement strips as its own or refuses; 3.11+: ≤3.10
                // readings that this refused were identical, their check is left)
                Exit::Exit if late_leaving_value(&self.instrs(n), self.legacy.is_some()) => break,
                Exit::Exit => {
                    out.append(&mut more);
                    return Ok(true);
                }
                Exit::Flow => {
                    // (still below the statements left, by no fewer of them)
                    match leaves_withs(base, &l) {
                        Some((k, i)) if k <= kept => (kept, iter) = (k, i),
                        _ => break,
                    }
                    left = l;
                    next = self
                        .succ(n, EdgeKind::Jump)
                        .or_else(|| self.succ(n, EdgeKind::Fall));
                }
                _ => break,
            }
        }
        Err(self.err("a way out of a with body that goes on to no return, break or continue"))
    }

    /// After leaving with statements (and, `iter`, a for loop's iterator), control goes to `n`:
    /// `continue` or `break` of the loop `lp` when that is where it goes on.
    fn leaving_jump(&self, iter: bool, n: usize, lp: Option<&LoopCtx>) -> Option<Stmt> {
        let ctx = lp?;
        let to_header =
            n == ctx.header || Some(n) == ctx.guard || self.jumps_straight_to(n, ctx.header);
        if !iter && to_header {
            return Some(Stmt::Continue);
        }
        (Some(n) == ctx.exit).then_some(Stmt::Break)
    }
}

/// Code of its own after a with statement's exit call in `ins` (the last such call; all of `ins`
/// where `from_start` and it has none): anything but the pops, swaps and block ends of leaving
/// and a `return` of a constant or of a value the stack already held. The compiler copies the
/// code after a with statement (or after the loop a `break` leaves) right after the exit call of
/// a way out: that code runs after `__exit__`, outside the body, and read into the body as
/// `return f()` / `raise E` it would run before `__exit__`, which would see its exceptions (and
/// might suppress them). A `return f()` written in the body computes `f()` before the exit call.
pub(super) fn late_code_after_exit(
    ins: &[&framejit_bytecode::Instr],
    from_start: bool,
    local_ok: bool,
) -> bool {
    let names: Vec<&str> = ins.iter().map(|i| i.op.name).collect();
    // the exit call's end: `None, None, None` called (3.11+, PRECALL on 3.11) or
    // `None` duplicated and called (<=3.10), its result dropped
    let call_end = |k: usize| {
        let before = &names[..k];
        let call = names.get(k) == Some(&"POP_TOP")
            && matches!(before.last(), Some(&("CALL" | "CALL_FUNCTION")));
        let args = &before[..before.len().saturating_sub(1)];
        let args = args.strip_suffix(&["PRECALL"]).unwrap_or(args);
        let plain = call
            && (args.ends_with(&["LOAD_CONST", "LOAD_CONST", "LOAD_CONST"])
                || args.ends_with(&["LOAD_CONST", "DUP_TOP", "DUP_TOP"]));
        // (≤3.10 `async with`: the call's result awaited, then dropped)
        let awaited = names.get(k) == Some(&"POP_TOP")
            && before.ends_with(&[
                "LOAD_CONST",
                "DUP_TOP",
                "DUP_TOP",
                "CALL_FUNCTION",
                "GET_AWAITABLE",
                "LOAD_CONST",
                "YIELD_FROM",
            ]);
        // (3.8 as lowered: the handler's cleanup ended by POP_FINALLY 0)
        let v38 =
            names.get(k) == Some(&"POP_FINALLY") && before.last() == Some(&"WITH_CLEANUP_FINISH");
        plain || awaited || v38
    };
    let start = match (0..names.len()).rev().find(|&k| call_end(k)) {
        Some(k) => k + 1,
        None if from_start => 0,
        None => return false,
    };
    let rest = &names[start..];
    rest.iter().enumerate().any(|(k, n)| {
        let leaving = matches!(
            *n,
            "POP_TOP"
                | "SWAP"
                | "ROT_TWO"
                | "ROT_THREE"
                | "ROT_FOUR"
                | "POP_BLOCK"
                | "POP_EXCEPT"
                | "POP_ITER"
                | "END_FOR"
                | "NOP"
                | "NOT_TAKEN"
                | "RETURN_VALUE"
                | "RETURN_CONST"
        ) || n.starts_with("JUMP");
        // (a constant returned; 3.14 loads small integers by LOAD_SMALL_INT; ≤3.10, `local_ok`:
        // a plain local, which `__exit__` cannot rebind, so it has the same value before the exit
        // call as after it: 3.10 copies `return x` after a with into each way out of its body)
        let constant = (matches!(*n, "LOAD_CONST" | "LOAD_SMALL_INT")
            || local_ok && *n == "LOAD_FAST")
            && rest.get(k + 1) == Some(&"RETURN_VALUE");
        // (≤3.10: plain locals and constants loaded, made into the tuple that is returned:
        // `return a, b` reads nothing `__exit__` could change and has no effect of its own)
        let locals = local_ok
            && (matches!(*n, "LOAD_FAST" | "LOAD_CONST")
                || *n == "BUILD_TUPLE" && rest.get(k + 1) == Some(&"RETURN_VALUE"))
            && rest[k..].contains(&"RETURN_VALUE");
        !leaving && !constant && !locals
    })
}

/// [`late_code_after_exit`] for a block that starts where an awaited exit call's await loop ends
/// (3.12+ END_SEND, then the POP_TOP of the call's result; 3.11 that POP_TOP alone): the call
/// itself was in the blocks before, the code from the pop on is what runs after it.
pub(super) fn late_code_after_awaited_exit(
    ins: &[&framejit_bytecode::Instr],
    local_ok: bool,
) -> bool {
    let skip = usize::from(ins.first().is_some_and(|i| i.op.name == "END_SEND"));
    match ins.get(skip) {
        Some(i) if i.op.name == "POP_TOP" => late_code_after_exit(&ins[skip + 1..], true, local_ok),
        _ => false,
    }
}

/// [`late_code_after_exit`] for the last statement of `ins`, a block run after an exit call: the
/// instructions after the last one that ends a statement compute no value but a constant.
fn late_leaving_value(ins: &[&framejit_bytecode::Instr], local_ok: bool) -> bool {
    let ends = |i: &&framejit_bytecode::Instr| {
        let n = i.op.name;
        n == "POP_TOP" || n.starts_with("STORE_") || n.starts_with("DELETE_")
    };
    let start = ins.iter().rposition(ends).map_or(0, |k| k + 1);
    late_code_after_exit(&ins[start..], true, local_ok)
}

/// Does the stack `left` come from leaving with statements: the values of `base` from some
/// point on are with statements' exits (with one for loop's iterator under them) and are gone,
/// with what `left` has above the rest (a value `return` takes past them) over it? Then how many
/// values of `base` stay, and whether an iterator was dropped too.
pub(super) fn leaves_withs(base: &[Val], left: &[Val]) -> Option<(usize, bool)> {
    let k = base.iter().zip(left).take_while(|(a, b)| a == b).count();
    let dropped = &base[k..];
    let (iter, exits) = match dropped.split_first() {
        Some((Val::Iter(_), rest)) => (true, rest),
        _ => (false, dropped),
    };
    (!exits.is_empty() && exits.iter().all(|v| *v == Val::WithExit)).then_some((k, iter))
}

impl Structurer<'_> {
    /// 3.11+: the block where a with body whose first block is `start` and whose handler is `h`
    /// leaves normally (its exit call, then the code after the statement), where the body also
    /// leaves through copies of it (`break`, `continue`, `return`): the regions inside the body
    /// stop there, so that arms leaving through a copy do not run on into the normal exit.
    /// `suppressed` is where the handler goes on when `__exit__` suppresses an exception, the
    /// code after the statement. `None` where the body has one way out (or none).
    pub(super) fn with_normal_exit(
        &self,
        start: usize,
        h: usize,
        suppressed: Option<usize>,
    ) -> Option<usize> {
        // the blocks the body leaves its handler's range for, entered with the body's stack (the
        // depth the handler unwinds to: the with statement's values and what is under them)
        let depth = self.cfg.blocks[start].handler.map(|x| x.1)?;
        let body = self.reach_covered(start, h);
        let mut outs: Vec<usize> = Vec::new();
        for &x in &body {
            for e in &self.cfg.blocks[x].succs {
                let y = e.to;
                if e.kind != EdgeKind::Exception
                    && !self.covered_by(y, h)
                    && y != h
                    && self.entry_depth[y] == Some(depth)
                    && !outs.contains(&y)
                {
                    outs.push(y);
                }
            }
        }
        // (one way out: the body's own end, found where it ends as before; a stop there would
        // also change async with bodies whose exit call is awaited)
        if outs.len() < 2 {
            return None;
        }
        // the one that goes on where a suppressed exception does (both are the code after the
        // statement); else the one laid out last (the compiler writes the body's own end after
        // the body, the copies inside it)
        let on = |x: usize| {
            self.cfg.blocks[x]
                .succs
                .iter()
                .filter(|e| e.kind != EdgeKind::Exception)
                .map(|e| e.to)
                .collect::<Vec<_>>()
        };
        // (past a block of line-number NOPs, such as the `if` line's that an arm leaves through)
        let past_nops = |x: usize| match on(x).as_slice() {
            [n] if self.instrs(x).iter().all(|i| i.op.name == "NOP") => *n,
            _ => x,
        };
        let outs: Vec<usize> = outs.into_iter().map(past_nops).collect();
        let same: Vec<usize> = outs
            .iter()
            .copied()
            .filter(|&x| suppressed.is_some_and(|s| on(x) == [s]))
            .collect();
        let normal = match same.as_slice() {
            [one] => *one,
            _ => outs.iter().copied().max()?,
        };
        // (only copies that jump, `break` / `continue`, lead arms into the normal exit: copies
        // that return end their arms where they are, as before)
        outs.iter()
            .any(|&x| x != normal && !on(x).is_empty())
            .then_some(normal)
    }

    /// The blocks reached from `start` without leaving the range of handler `h` (exception edges
    /// not followed).
    fn reach_covered(&self, start: usize, h: usize) -> Vec<usize> {
        let mut seen = vec![false; self.cfg.blocks.len()];
        let mut out = Vec::new();
        let mut todo = vec![start];
        while let Some(x) = todo.pop() {
            if seen[x] || !self.covered_by(x, h) {
                continue;
            }
            seen[x] = true;
            out.push(x);
            for e in &self.cfg.blocks[x].succs {
                if e.kind != EdgeKind::Exception {
                    todo.push(e.to);
                }
            }
        }
        out
    }

    /// 3.11+: the block of a with statement's handler `h` that drops the exception `__exit__`
    /// suppressed (and the statement's `exits` values) before going on after the statement.
    pub(super) fn with_suppressed(&self, h: usize, exits: usize) -> Option<usize> {
        let n = self.cfg.blocks.len();
        (h..n).find(|&x| {
            let names: Vec<&str> = self.instrs(x).iter().map(|i| i.op.name).collect();
            names == ["POP_TOP", "POP_EXCEPT", "POP_TOP", "POP_TOP"][..]
                || (exits == 2
                    && names == ["POP_TOP", "POP_EXCEPT", "POP_TOP", "POP_TOP", "POP_TOP"])
        })
    }

    /// 3.11+: the suppressed path of handler `h` has no block of its own (`with_suppressed`
    /// found none): where the body never completes, the code after the statement follows its
    /// POP_EXCEPT in the same block. True where that code is only `return None` (the end of the
    /// code object, the same as falling off it), false where it is anything else, which the
    /// statement would otherwise drop.
    pub(super) fn with_suppressed_only_returns(
        &self,
        h: usize,
        exits: usize,
    ) -> Option<Option<usize>> {
        match self.with_suppressed_rest(h, exits, false)? {
            // (a jump: the suppressed path goes on to another block, as where the block is its own)
            (rest, Some(to)) if rest.is_empty() => Some(Some(to)),
            (rest, None) => {
                // (enclosing with statements' exit calls may come first: their bodies end there too)
                let exit_call = Stmt::Expr {
                    value: Expr::name(WITH_EXIT),
                };
                let calls = rest.iter().take_while(|s| **s == exit_call).count();
                let ends = matches!(
                    &rest[calls..],
                    [Stmt::Return {
                        value: None
                            | Some(Expr::Constant {
                                value: crate::ast::Constant::None,
                                ..
                            })
                    }]
                );
                ends.then_some(None)
            }
            _ => None,
        }
    }

    /// 3.11+: the instructions of the suppressed path of handler `h` where its pops share a block
    /// with what follows them: from the pops on, through blocks they fall into while no more than
    /// the pops were collected (an exception range's end may split them into blocks of their
    /// own); the last block, each block's end (instructions so far, block), and the pops' count.
    #[allow(clippy::type_complexity)]
    fn with_suppressed_run(
        &self,
        h: usize,
        exits: usize,
    ) -> Option<(
        Vec<&framejit_bytecode::Instr>,
        usize,
        Vec<(usize, usize)>,
        usize,
    )> {
        let mut prefix = vec!["POP_TOP", "POP_EXCEPT", "POP_TOP", "POP_TOP"];
        if exits == 2 {
            prefix.push("POP_TOP");
        }
        let run = |x: usize| {
            let mut ins: Vec<&framejit_bytecode::Instr> = self.instrs(x).iter().copied().collect();
            let mut y = x;
            let mut ends = vec![(ins.len(), y)];
            for _ in 0..3 {
                let jumps = self.cfg.blocks[y]
                    .succs
                    .iter()
                    .any(|e| e.kind == EdgeKind::Jump);
                match self.succ(y, EdgeKind::Fall) {
                    Some(z) if ins.len() <= prefix.len() && !jumps => {
                        ins.extend(self.instrs(z).iter().copied());
                        y = z;
                        ends.push((ins.len(), y));
                    }
                    _ => break,
                }
            }
            (ins, y, ends)
        };
        let (ins, last, ends) = (h..self.cfg.blocks.len()).map(run).find(|(ins, _, _)| {
            ins.len() > prefix.len() && ins.iter().zip(&prefix).all(|(i, p)| i.op.name == *p)
        })?;
        Some((ins, last, ends, prefix.len()))
    }

    /// 3.11+ `async with`: [`Self::with_after_agrees`] by instructions (the awaited exit call is
    /// a loop the statements of a plain run do not read). The normal way out from `after` runs
    /// the awaited exit call, then the code after the statement; the suppressed way runs the
    /// pops, then its copy of that code or a jump to it. Where they differ, the statements of
    /// the normal way's code (a `return` / `raise` the body ends with) and its blocks; `Some`
    /// with no statements where they agree; `None` where the code does not read.
    pub(super) fn async_with_last_exit(
        &self,
        h: usize,
        exits: usize,
        suppressed: Option<usize>,
        after: usize,
    ) -> Option<(Vec<Stmt>, Vec<usize>)> {
        let key = |i: &framejit_bytecode::Instr| (i.op.name, i.arg);
        let plain_jump = |i: &framejit_bytecode::Instr| i.op.is_jump() && !i.op.name.contains("IF");
        // the suppressed way: its own copy of the code after, and where it goes on
        let (copy, to): (Vec<&framejit_bytecode::Instr>, Option<usize>) = match suppressed {
            Some(s) => (
                Vec::new(),
                self.succ(s, EdgeKind::Jump)
                    .or_else(|| self.succ(s, EdgeKind::Fall)),
            ),
            None => {
                let (ins, last, ends, n) = self.with_suppressed_run(h, exits)?;
                match ends.iter().find(|(k, _)| *k == n) {
                    Some(&(_, y)) => (Vec::new(), self.succ(y, EdgeKind::Fall)),
                    None => {
                        let mut rest = ins[n..].to_vec();
                        let to = if rest.last().is_some_and(|i| plain_jump(i)) {
                            rest.pop();
                            self.succ(last, EdgeKind::Jump)
                        } else if rest
                            .last()
                            .is_some_and(|i| i.op.flow == framejit_bytecode::opcode::Flow::Exit)
                        {
                            None
                        } else {
                            self.succ(last, EdgeKind::Fall)
                        };
                        (rest, to)
                    }
                }
            }
        };
        // (on through blocks only the suppressed way reaches, as the normal way goes below)
        let (mut copy, mut to) = (copy, to);
        for _ in 0..6 {
            let Some(t) = to.filter(|&t| self.live_preds(t) == 1 || self.is_send(t)) else {
                break;
            };
            let here = self.instrs(t);
            copy.extend(here.iter().copied());
            let last = *here.last()?;
            to = if plain_jump(last) {
                copy.pop();
                self.succ(t, EdgeKind::Jump)
            } else if last.op.flow == framejit_bytecode::opcode::Flow::Exit {
                None
            } else if last.op.name == "SEND" {
                // (an enclosing `async with`'s awaited exit call: on past the await loop)
                self.succ(t, EdgeKind::Jump)
            } else if last.op.flow == framejit_bytecode::opcode::Flow::Branch {
                return None;
            } else {
                self.succ(t, EdgeKind::Fall)
            };
        }
        // the normal way: past the awaited exit call (SEND's way out, then the POP_TOP of its
        // result), through blocks only it reaches
        let mut x = after;
        let mut tail: Vec<&framejit_bytecode::Instr> = Vec::new();
        let mut blocks = Vec::new();
        let (mut sent, mut past) = (false, false);
        let mut end = None;
        for _ in 0..10 {
            blocks.push(x);
            let here = self.instrs(x);
            for i in here.iter() {
                if past {
                    tail.push(i);
                } else if sent && i.op.name == "POP_TOP" {
                    past = true;
                }
                sent |= i.op.name == "SEND";
            }
            let last = *here.last()?;
            let on = if last.op.name == "SEND" || plain_jump(last) {
                self.succ(x, EdgeKind::Jump)
            } else if last.op.flow == framejit_bytecode::opcode::Flow::Exit {
                None
            } else {
                self.succ(x, EdgeKind::Fall)
            };
            match on {
                None => break,
                // (an await loop's SEND block is also its loop's way back, and the END_SEND block past it
                // the throw path's: the same await)
                Some(n)
                    if past
                        && last.op.name != "SEND"
                        && !self.is_send(n)
                        && self.live_preds(n) != 1 =>
                {
                    end = Some(n);
                    break;
                }
                Some(n) => x = n,
            }
        }
        if !past {
            return None;
        }
        if tail.last().is_some_and(|i| plain_jump(i)) {
            tail.pop();
        }
        // (alike by statements where both read, as 3.14's LOAD_FAST_BORROW and LOAD_FAST_CHECK
        // of one name do; else by instructions)
        // (a test read so makes no statement: code that branches, such as the bottom test of a
        // `while` loop the suppressed way goes on to, is compared by instructions)
        let read = |ins: &[&framejit_bytecode::Instr]| {
            let mut sim = crate::exprs::Sim::new(self.code, vec![Val::WithExit; exits.max(1) + 3]);
            for i in ins {
                if let Some(Exit::Branch { .. } | Exit::ForIter { .. }) = sim.step(i).ok()? {
                    return None;
                }
            }
            Some(sim.out)
        };
        let alike = match (read(&tail), read(&copy)) {
            (Some(a), Some(b)) => a == b,
            _ => tail.len() == copy.len() && tail.iter().zip(&copy).all(|(a, b)| key(a) == key(b)),
        };
        let same = alike && end == to;
        if same {
            return Some((Vec::new(), Vec::new()));
        }
        if end.is_some() {
            return None;
        }
        let mut sim = crate::exprs::Sim::new(self.code, vec![Val::WithExit; exits.max(1) + 3]);
        // (the awaited exit calls of enclosing `async with` statements the way out leaves too:
        // their await loops, read as the exit call's statement each, which the enclosing
        // statements take off as their copies; the way out is then a constant `return`, as after
        // plain exit calls in `with_body_last_exit`)
        for (k, i) in tail.iter().enumerate() {
            if i.op.name == "SEND" {
                let none = Val::Expr(Expr::constant(crate::ast::Constant::None));
                if sim.stack.pop() != Some(none) {
                    return None;
                }
                let exit_call = Val::Send(Expr::name(WITH_EXIT));
                if sim.stack.pop() != Some(exit_call) {
                    return None;
                }
                // (3.12+ keep the receiver for END_SEND to pop; 3.11's SEND pops it)
                if tail.get(k + 1).is_some_and(|n| n.op.name == "END_SEND") {
                    sim.stack.push(Val::Null);
                }
                sim.stack.push(Val::Expr(Expr::name(WITH_EXIT)));
                continue;
            }
            match sim.step(i).ok()? {
                None => {}
                Some(Exit::Exit) => {
                    let out = sim.out;
                    let exit_call = Stmt::Expr {
                        value: Expr::name(WITH_EXIT),
                    };
                    let constant = matches!(
                        out.split_last(),
                        Some((Stmt::Return { value: None | Some(Expr::Constant { .. }) }, calls))
                            if !calls.is_empty() && calls.iter().all(|c| *c == exit_call)
                    );
                    // (only a `return` of a constant: a value the body's `return` computes is
                    // under the exit call, and a `raise` in the body goes to the handler, not
                    // through the exit call; code computed or raised after the awaited exit call
                    // is the code after the statement or its loop, copied, which runs after
                    // `__aexit__`: as `with_body_last_exit`)
                    let lone_constant = matches!(
                        out.as_slice(),
                        [Stmt::Return {
                            value: None | Some(Expr::Constant { .. })
                        }]
                    );
                    return (constant || lone_constant).then_some((out, blocks));
                }
                Some(_) => return None,
            }
        }
        None
    }

    /// 3.11+: what the suppressed path of handler `h` runs after its pops where it has no block of
    /// its own (the code after the statement, copied into the handler's block): its statements,
    /// and the block it goes on to (`None`: it leaves, by `return` / `raise`). `None` where there
    /// is no such path, or its code does not read. `at_block_end`: where the pops end a block (an
    /// exception range's end split them off), the path goes on to the next block, with no
    /// statements of its own.
    pub(super) fn with_suppressed_rest(
        &self,
        h: usize,
        exits: usize,
        at_block_end: bool,
    ) -> Option<(Vec<Stmt>, Option<usize>)> {
        let (ins, last, ends, n) = self.with_suppressed_run(h, exits)?;
        let prefix = vec![(); n];
        if at_block_end {
            if let Some(&(_, y)) = ends.iter().find(|(n, _)| *n == prefix.len()) {
                return Some((Vec::new(), Some(self.succ(y, EdgeKind::Fall)?)));
            }
        }
        if let [j] = &ins[prefix.len()..] {
            if j.op.is_jump() && !j.op.name.contains("IF") {
                return Some((Vec::new(), Some(self.succ(last, EdgeKind::Jump)?)));
            }
        }
        let mut sim = crate::exprs::Sim::new(self.code, vec![Val::WithExit; 4]);
        let mut exit = None;
        for ins in &ins[prefix.len()..] {
            exit = sim.step(ins).ok()?;
        }
        // (a statement split by an exception range's end, `return x` with its RETURN_VALUE in a
        // block of its own: on through blocks only this way reaches)
        let mut last = last;
        for _ in 0..3 {
            if exit.is_some() || sim.stack.len() <= 4 {
                break;
            }
            let n = self.succ(last, EdgeKind::Fall)?;
            if self.live_preds(n) != 1 {
                return None;
            }
            for ins in self.instrs(n).iter() {
                exit = sim.step(ins).ok()?;
            }
            last = n;
        }
        // (the values under the statement's, placeholders here, untouched)
        let under = sim.stack.len() >= 4 && sim.stack[..4].iter().all(|v| *v == Val::WithExit);
        match exit {
            Some(Exit::Exit) if under => Some((sim.out, None)),
            None if sim.stack.len() == 4 && under => {
                Some((sim.out, self.succ(last, EdgeKind::Fall)))
            }
            _ => None,
        }
    }

    /// 3.11+: does the code after a with statement read the same on its two ways in? The
    /// statement goes on at `after`, where its body leaves normally (the exit call first); an
    /// exception `__exit__` suppressed goes on through the handler `h`: to the block `suppressed`
    /// jumps to, where the pops have a block of their own, else through what the compiler copied
    /// after them. Where they differ, the code at `after` is not the statement's (the body never
    /// completes: it is the body's own last way out, a `return` whose exit call the compiler
    /// copied) and reading it as the code after the statement would run it on the suppressed path.
    pub(super) fn with_after_agrees(
        &self,
        h: usize,
        exits: usize,
        suppressed: Option<usize>,
        after: usize,
    ) -> bool {
        // (values under the statement's: a placeholder each, alike on both ways)
        let under = || vec![Val::WithExit; 4];
        let (mut copy, to) = match suppressed {
            Some(s) => (
                Vec::new(),
                self.succ(s, EdgeKind::Jump)
                    .or_else(|| self.succ(s, EdgeKind::Fall)),
            ),
            None => match self.with_suppressed_rest(h, exits, true) {
                Some(rest) => rest,
                None => return false,
            },
        };
        // the suppressed way on, through blocks only it reaches (copies of the code after)
        let end = match to {
            Some(t) if self.live_preds(t) == 1 => match self.run_on(t, under()) {
                Some((more, end)) => {
                    copy.extend(more);
                    end
                }
                None => return false,
            },
            other => other,
        };
        let mut stack = under();
        stack.extend(std::iter::repeat_n(Val::WithExit, exits.max(1)));
        let exit_call = Stmt::Expr {
            value: Expr::name(WITH_EXIT),
        };
        match self.run_on(after, stack) {
            Some((out, normal_end)) => {
                out.first() == Some(&exit_call) && out[1..] == copy[..] && normal_end == end
            }
            None => false,
        }
    }

    /// The statements from block `x` on (entered with `stack`), through the blocks only the way
    /// from `x` reaches, and where that way ends: the block where it meets another, or `None`
    /// where it leaves (`return` / `raise`). `None` where the code does not read that way.
    fn run_on(&self, x: usize, stack: Vec<Val>) -> Option<(Vec<Stmt>, Option<usize>)> {
        let mut sim = crate::exprs::Sim::new(self.code, stack);
        let mut x = x;
        for _ in 0..6 {
            let mut flow = false;
            for ins in self.instrs(x) {
                match sim.step(ins).ok()? {
                    None => {}
                    Some(Exit::Exit) => return Some((sim.out, None)),
                    Some(Exit::Flow) => flow = true,
                    Some(_) => return None,
                }
            }
            let on = if flow {
                self.succ(x, EdgeKind::Jump)
            } else {
                self.succ(x, EdgeKind::Fall)
            }?;
            if self.live_preds(on) != 1 {
                return Some((sim.out, Some(on)));
            }
            x = on;
        }
        None
    }

    /// 3.11+: the body's own last way out at `after`, where the code there does not go on after
    /// the statement ([`Self::with_after_agrees`]): the exit call, then a `return` (of a constant:
    /// a value computed first would be under the exit call) or `raise`, in blocks only this way
    /// reaches (the exit calls of enclosing with statements it leaves too come first: each of
    /// those drops its own). Those statements, past this statement's exit call, and the blocks.
    pub(super) fn with_body_last_exit(
        &self,
        after: usize,
        exits: usize,
    ) -> Option<(Vec<Stmt>, Vec<usize>)> {
        let exit_call = Stmt::Expr {
            value: Expr::name(WITH_EXIT),
        };
        // (with the exits of enclosing with statements under its own)
        let mut sim = crate::exprs::Sim::new(self.code, vec![Val::WithExit; exits.max(1) + 3]);
        let mut x = after;
        let mut blocks = Vec::new();
        for _ in 0..4 {
            if !blocks.is_empty() && self.live_preds(x) != 1 {
                return None;
            }
            blocks.push(x);
            let mut flow = false;
            for ins in self.instrs(x) {
                match sim.step(ins) {
                    Ok(None) => {}
                    Ok(Some(Exit::Exit)) => {
                        // (a `return` of a constant: one computed after the exit call, or a
                        // `raise`, is the code after the statement or its loop, copied, which
                        // runs after `__exit__`: see `late_code_after_exit`)
                        let constant = |r: &Stmt| {
                            matches!(
                                r,
                                Stmt::Return {
                                    value: None | Some(Expr::Constant { .. })
                                }
                            )
                        };
                        return match sim.out.split_last() {
                            Some((r, calls))
                                if constant(r)
                                    && !calls.is_empty()
                                    && calls.iter().all(|c| *c == exit_call) =>
                            {
                                Some((sim.out[1..].to_vec(), blocks))
                            }
                            _ => None,
                        };
                    }
                    Ok(Some(Exit::Flow)) => flow = true,
                    _ => return None,
                }
            }
            let on = if flow {
                self.succ(x, EdgeKind::Jump)
            } else {
                self.succ(x, EdgeKind::Fall)
            };
            x = on?;
        }
        None
    }

    /// Where the suppressed path of handler `h` goes on: the code after the with statement (past
    /// the block that ends handling the exception, POP_EXCEPT, and the pops of the statement's
    /// values after it, which an exception range's end may split off).
    pub(super) fn with_suppressed_next(&self, h: usize) -> Option<usize> {
        let on = |x: usize| {
            self.succ(x, EdgeKind::Jump)
                .or_else(|| self.succ(x, EdgeKind::Fall))
        };
        let mut seen = vec![false; self.cfg.blocks.len()];
        let mut todo = vec![h];
        let mut x = loop {
            let y = todo.pop()?;
            if std::mem::replace(&mut seen[y], true) || y < h {
                continue;
            }
            if self.instrs(y).iter().any(|i| i.op.name == "POP_EXCEPT") {
                break y;
            }
            todo.extend(
                self.cfg.blocks[y]
                    .succs
                    .iter()
                    .filter(|e| e.kind != EdgeKind::Exception)
                    .map(|e| e.to),
            );
        };
        for _ in 0..4 {
            let n = on(x)?;
            if !self.instrs(n).iter().all(|i| i.op.name == "POP_TOP") {
                return Some(n);
            }
            x = n;
        }
        None
    }
}

impl Structurer<'_> {
    /// The body's own last way out at `after` (where the body leaves normally: ≤3.9 the block
    /// after its last POP_BLOCK, 3.11+ the block that leaves the handler's range), where the code
    /// there does not go on where the suppressed path does (so the body never completes normally:
    /// that code is a copy of the with statement's exit in front of a `return`, `raise`, `break`
    /// or `continue`, which the compiler lays out where the body's end would be). Read as a way
    /// out of the body ([`Self::with_exit_path`], entered with the body's stack `body_base`): its
    /// statements past this statement's exit call. `None` where it is not one.
    pub(super) fn body_last_exit_path(
        &mut self,
        after: usize,
        body_base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<Option<Vec<Stmt>>, DecompileError> {
        let exit_call = Stmt::Expr {
            value: Expr::name(WITH_EXIT),
        };
        let (stmts, exit, left) = self.run(after, body_base.to_vec())?;
        if stmts.first() != Some(&exit_call) || !matches!(exit, Exit::Flow | Exit::Exit) {
            return Ok(None);
        }
        if exit == Exit::Exit
            && late_code_after_exit(&self.instrs(after), false, self.legacy.is_some())
        {
            return Ok(None);
        }
        let mut out = stmts.clone();
        let next = self
            .succ(after, EdgeKind::Jump)
            .or_else(|| self.succ(after, EdgeKind::Fall));
        // (a block that leaves, or one that goes on to where the way out leaves)
        if exit == Exit::Flow
            && !self.with_exit_path(&stmts, body_base, left, next, lp, &mut out)?
        {
            return Ok(None);
        }
        // (the exit calls of enclosing with statements it leaves too, then the one statement
        // that leaves: code run on past a loop's exit, `break` then what follows the loop, is
        // not the body's)
        out.remove(0);
        let leaves = match out.split_last() {
            Some((
                Stmt::Return { .. } | Stmt::Raise { .. } | Stmt::Break | Stmt::Continue,
                calls,
            )) => calls.iter().all(|c| *c == exit_call),
            _ => false,
        };
        Ok(leaves.then_some(out))
    }
}

impl Structurer<'_> {
    /// ≤3.10: does the normal way out of a with body, from block `after`, run the exit call and
    /// then `ret` (the `return` the compiler copied into the handler's suppressed path)? True
    /// also where there is no normal way out (the copy is then the code after the statement).
    pub(super) fn legacy_return_after_exit(
        &self,
        after: Option<usize>,
        ret: &Stmt,
    ) -> Result<bool, DecompileError> {
        let Some(a) = after else { return Ok(true) };
        let mut sim = crate::exprs::Sim::new(self.code, vec![Val::WithExit]);
        let mut x = a;
        for _ in 0..4 {
            let mut flow = false;
            for ins in self.instrs(x) {
                match sim.step(ins) {
                    Ok(None) => {}
                    Ok(Some(Exit::Exit)) => {
                        let exit_call = Stmt::Expr {
                            value: Expr::name(WITH_EXIT),
                        };
                        return Ok(sim.out.len() == 2
                            && sim.out[0] == exit_call
                            && sim.out[1] == *ret);
                    }
                    Ok(Some(Exit::Flow)) => flow = true,
                    _ => return Ok(false),
                }
            }
            let on = if flow {
                self.succ(x, EdgeKind::Jump)
            } else {
                self.succ(x, EdgeKind::Fall)
            };
            match on {
                Some(n) => x = n,
                None => return Ok(false),
            }
        }
        Ok(false)
    }
}

impl Structurer<'_> {
    /// ≤3.10: does the normal way out of a with body, from block `after`, run the exit call and
    /// then the statements `copy` (what the compiler copied after the handler's suppressed path's
    /// POP_EXCEPT: a `raise`, the end of an enclosing except clause), going on to `to` after
    /// them (`None`: they leave the code object)?
    pub(super) fn legacy_same_after_exit(
        &self,
        after: Option<usize>,
        copy: &[Stmt],
        to: Option<usize>,
    ) -> bool {
        let Some(a) = after else { return false };
        let exit_call = Stmt::Expr {
            value: Expr::name(WITH_EXIT),
        };
        let same = |out: &[Stmt]| out.first() == Some(&exit_call) && out[1..] == *copy;
        let mut sim = crate::exprs::Sim::new(self.code, vec![Val::WithExit]);
        let mut x = a;
        for _ in 0..4 {
            let mut flow = false;
            for ins in self.instrs(x) {
                match sim.step(ins) {
                    Ok(None) => {}
                    Ok(Some(Exit::Exit)) => return to.is_none() && same(&sim.out),
                    Ok(Some(Exit::Flow)) => flow = true,
                    _ => return false,
                }
            }
            let on = if flow {
                self.succ(x, EdgeKind::Jump)
            } else {
                self.succ(x, EdgeKind::Fall)
            };
            // (a block that only jumps on is where it jumps: 3.8/3.9 thread one way's jump past
            // it and not the other's)
            let at = |x: usize| self.resolve_jumps(x);
            match on {
                Some(n) if to.map(at) == Some(at(n)) => {
                    return sim.stack.is_empty() && same(&sim.out)
                }
                Some(n) => x = n,
                None => return false,
            }
        }
        false
    }

    /// `break` out of with bodies where the compiler copied the loop's exit (a small block that
    /// leaves: `return x` after the loop) into the way out (3.12+): block `b`, entered with
    /// `stack` over the region's `base`, makes the with statements' exit calls, drops the `for`
    /// loop's iterator, then runs the same instructions as the exit of loop `lp` after that
    /// loop's own pops. Its statements up to the copy, and `break`; `None` where it is not so.
    pub(super) fn with_break_copy(
        &mut self,
        b: usize,
        stack: &[Val],
        base: &[Val],
        lp: Option<&LoopCtx>,
    ) -> Result<Option<Vec<Stmt>>, DecompileError> {
        let Some(exit) = lp.and_then(|c| c.exit) else {
            return Ok(None);
        };
        let leaves = |x: usize| {
            self.cfg.blocks[x]
                .succs
                .iter()
                .all(|e| e.kind == EdgeKind::Exception)
        };
        if exit == b || !leaves(exit) || !leaves(b) {
            return Ok(None);
        }
        if let Some((h, _, _)) = self.cfg.blocks[b].handler {
            if !self.active.iter().any(|&(lo, hi)| (lo..=hi).contains(&h)) {
                return Ok(None);
            }
        }
        let ins = self.instrs(b);
        let xi = self.instrs(exit);
        // (a `for` loop's exit starts with the pops that end the loop: END_FOR, 3.13 POP_TOP,
        // 3.14 POP_ITER; its `break` dropped the iterator itself)
        let header = lp.map_or(b, |c| c.header);
        let is_for = self.instrs(header).first().map(|i| i.op.name) == Some("FOR_ITER");
        let pops = xi
            .iter()
            .take_while(|i| is_for && matches!(i.op.name, "END_FOR" | "POP_TOP" | "POP_ITER"))
            .count();
        let tail = &xi[pops..];
        if tail.is_empty() || ins.len() <= tail.len() {
            return Ok(None);
        }
        let k = ins.len() - tail.len();
        let same = ins[k..]
            .iter()
            .zip(tail)
            .all(|(x, y)| x.op.name == y.op.name && x.arg == y.arg);
        if !same {
            return Ok(None);
        }
        let Ok((stmts, None, left)) = self.run_instrs(&ins[..k], stack.to_vec()) else {
            return Ok(None);
        };
        let Some((kept, iter)) = leaves_withs(base, &left) else {
            return Ok(None);
        };
        let calls = stmts
            .iter()
            .filter(|s| matches!(s, Stmt::Expr { value: Expr::Name { id, .. } } if id == WITH_EXIT))
            .count();
        if left.len() != kept || iter != is_for || calls == 0 {
            return Ok(None);
        }
        if std::mem::replace(&mut self.emitted[b], true) {
            return Err(self.err("a block would come out twice"));
        }
        let mut out = stmts;
        out.push(Stmt::Break);
        Ok(Some(out))
    }
}
