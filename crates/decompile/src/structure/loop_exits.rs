//! `if` statements inside loops whose arms leave by `continue` or `break`.
//!
//! A jump to the loop's header (`continue`) or to its exit (`break`) leaves the `if` as a `return`
//! does: the other arms may still meet after the statement. The post-dominators of the whole graph
//! do not show that meeting point (every path goes on to the header), and the arms would each run
//! the code after the `if` up to the header: the same blocks twice.

use super::{LoopCtx, Structurer};
use crate::ast::{BoolOp, Expr, Stmt, UnaryOp};
use crate::exprs::Val;
use crate::flow::EdgeKind;
use framejit_bytecode::opcode::Flow;
use framejit_bytecode::PyVersion;

impl Structurer<'_> {
    /// The block where the arms (`fall`, `taken`) of the branch ending block `b` meet inside the
    /// loop `lp`, when the whole graph's merge is not inside the loop body (it is the header, the
    /// exit, or beyond): the first block both arms reach without passing the header or the exit,
    /// laid out after both arms' first blocks (where a compiler puts the code after an `if`), which
    /// every path of the arms that goes on inside the loop passes. `None` where the arms do not meet
    /// again inside the loop.
    pub(super) fn loop_merge(
        &self,
        b: usize,
        fall: usize,
        taken: usize,
        lp: &LoopCtx,
    ) -> Option<usize> {
        let body = &self.loop_at(lp.header)?.body;
        let inside = |x: usize| x != lp.header && Some(x) != lp.exit && body.contains(&x);
        // (not a block one arm gets to only by going round the loop: a `while True:` left only
        // through a `break` in one arm has that arm's way out post-dominate the branch)
        let round = |m: usize| {
            [fall, taken]
                .iter()
                .any(|&a| a != m && !self.reach_within(a, &[Some(b), Some(lp.header), lp.exit])[m])
        };
        if self.ipdom[b].is_some_and(|m| inside(m) && !round(m)) {
            return None;
        }
        // where both arms go on, or else where the enclosing region stops (an arm that does not get
        // there leaves: `if c: x = 1  else: continue` in an arm of an outer `if`)
        let stop = self.stops.iter().rev().flatten().next().copied();
        [self.arms_meet(b, fall, taken, Some(lp)), stop]
            .into_iter()
            .flatten()
            .find(|&m| self.merges_at(m, b, fall, taken, lp, &inside))
    }

    /// Is `m` a block where the arms of `b`'s branch meet in loop `lp`: after both arms' first
    /// blocks, reached from one of them, and no path of an arm goes around it into the code after it?
    fn merges_at(
        &self,
        m: usize,
        b: usize,
        fall: usize,
        taken: usize,
        lp: &LoopCtx,
        inside: &dyn Fn(usize) -> bool,
    ) -> bool {
        // (an `if` without `else:` jumps straight to where its body goes on: `m` is `taken`,
        // an empty arm)
        if !inside(m) || m <= fall || m < taken {
            return false;
        }
        if m == taken {
            let rf = self.reach_within(fall, &[Some(b), Some(lp.header), lp.exit, Some(m)]);
            let after = self.reach_within(m, &[Some(lp.header), lp.exit, Some(b)]);
            let around = rf
                .iter()
                .zip(&after)
                .enumerate()
                .any(|(x, (r, a))| *r && *a && x != m && inside(x));
            return !around;
        }
        let walls = [Some(b), Some(lp.header), lp.exit, Some(m)];
        let after = self.reach_within(m, &[Some(lp.header), lp.exit, Some(b)]);
        let (rf, rt) = (
            self.reach_within(fall, &walls),
            self.reach_within(taken, &walls),
        );
        let around = |r: &[bool]| {
            r.iter()
                .zip(&after)
                .enumerate()
                .any(|(x, (r, a))| *r && *a && x != m && inside(x))
        };
        (rf[m] || rt[m]) && !around(&rf) && !around(&rt)
    }

    /// The blocks reached from `start` by normal edges without going past any of `walls` (a wall
    /// reached is marked, not gone through; `start` itself is gone through).
    pub(super) fn reach_within(&self, start: usize, walls: &[Option<usize>]) -> Vec<bool> {
        let n = self.cfg.blocks.len();
        let mut seen = vec![false; n];
        let mut todo = vec![start];
        while let Some(x) = todo.pop() {
            if seen[x] {
                continue;
            }
            seen[x] = true;
            if x != start && walls.contains(&Some(x)) {
                continue;
            }
            for e in &self.cfg.blocks[x].succs {
                if e.kind != EdgeKind::Exception {
                    todo.push(e.to);
                }
            }
        }
        seen
    }
}

/// `while T:` compiled as a guard (`if T:` before a loop that tests T again at its bottom): 3.11+
/// compile `continue` in its body as a jump back to the guard's test, which tests T again as the
/// bottom test would. The guard's block is then a loop header of its own, of a loop made only of
/// those jumps.
impl Structurer<'_> {
    /// The block of the guard ending in block `b` that a `continue` of the loop at `header` may
    /// jump to: `b` when it is a loop header with back edges only from that loop's body and makes
    /// no statement before its test (from `base`).
    pub(super) fn continue_guard(&self, b: usize, header: usize, base: &[Val]) -> Option<usize> {
        if !self.guard_header(b) || self.succ(b, EdgeKind::Fall) != Some(header) {
            return None;
        }
        let (stmts, _, _) = self.run_instrs(&self.instrs(b), base.to_vec()).ok()?;
        stmts.is_empty().then_some(b)
    }

    /// Is block `b` a loop header only because it is such a guard: it branches into another loop
    /// (at its fall-through) from whose header every jump back to `b` is reached without passing
    /// `b`? Then the `while` is built from the guard, not a `while True:` around it.
    pub(super) fn guard_header(&self, b: usize) -> bool {
        // (≤3.9 test a `while` loop at its top and make no guard: a loop header whose test falls
        // into another loop is the outer loop's test, the inner loop the first statement of its
        // body, `while c: while True: ...`)
        if self.code.version <= framejit_bytecode::PyVersion::V3_9 {
            return false;
        }
        let Some(own) = self.loop_at(b) else {
            return false;
        };
        let ends_in_branch = self.succ(b, EdgeKind::Jump).is_some()
            && self.instrs(b).last().is_some_and(|i| {
                i.op.flow == framejit_bytecode::opcode::Flow::Branch && i.op.name.contains("_IF_")
            });
        let Some(fall) = self.succ(b, EdgeKind::Fall) else {
            return false;
        };
        if fall == b || !ends_in_branch || self.loop_at(fall).is_none() {
            return false;
        }
        let from_inner = self.reach_within(fall, &[Some(b)]);
        // (3.10-3.13: an except clause's `continue`, reached through the try body's handler)
        let through_handlers = match self.loop_at(fall) {
            Some(inner)
                if self.code.version >= framejit_bytecode::PyVersion::V3_10
                    && self.code.version <= framejit_bytecode::PyVersion::V3_13 =>
            {
                self.reach_through_inner_handlers(fall, b, &inner.body)
            }
            _ => from_inner.clone(),
        };
        own.latches
            .iter()
            .all(|&l| l != b && (from_inner[l] || through_handlers[l]))
    }
}

impl Structurer<'_> {
    /// Is block `m` where a jump of the loop `lp` is a `break` or `continue` (its exit, its
    /// header, its guard's test, or past an exit that is a lone jump: `threaded_break`)?
    pub(super) fn loop_edge(&self, m: usize, lp: Option<&LoopCtx>) -> bool {
        lp.is_some_and(|c| {
            Some(m) == c.exit || m == c.header || Some(m) == c.guard || self.threaded_break(m, c)
        })
    }
}

/// Does every arm of the `if` statement `s` end by leaving (`continue`, `break`, `return`,
/// `raise`), so that control never reaches the statement after it?
pub(super) fn arms_leave(s: &Stmt) -> bool {
    let leaves = |arm: &[Stmt]| {
        matches!(
            arm.last(),
            Some(Stmt::Continue | Stmt::Break | Stmt::Return { .. } | Stmt::Raise { .. })
        )
    };
    match s {
        Stmt::If { body, orelse, .. } => leaves(body) && leaves(orelse),
        _ => false,
    }
}

impl Structurer<'_> {
    /// Do blocks `x` and `y` lead to the same place, as parts of a condition in loop `lp`: the
    /// same block, or (in a `while` built from a guard, whose bottom test repeats the guard's)
    /// blocks that only jump back to its header. (Two `if c: continue` are no one condition
    /// elsewhere: they compile to two jumps.)
    pub(super) fn same_place(&self, x: usize, y: usize, lp: Option<&LoopCtx>) -> bool {
        x == y
            || self.through_markers(x) == self.through_markers(y)
            || lp.is_some_and(|c| {
                let header = self.resolve_jumps(c.header);
                c.cond.is_some()
                    && self.resolve_jumps(x) == header
                    && self.resolve_jumps(y) == header
            })
    }
}

/// Are `a` and `b` the same condition (the same tests, evaluated in the same order, true
/// together), once negations are pushed down to the tests (`not (x and y)` is `not x or not y`
/// as a condition: the same operands run in the same order)?
pub(super) fn same_test(a: &Expr, b: &Expr) -> bool {
    a == b || test_form(a.clone(), false) == test_form(b.clone(), false)
}

/// `e` (negated when `neg`) with every `not` moved down to the tests it applies to.
fn test_form(e: Expr, neg: bool) -> Expr {
    match e {
        Expr::UnaryOp {
            op: UnaryOp::Not,
            operand,
        } => test_form(*operand, !neg),
        Expr::BoolOp { op, values } => {
            let op = match (op, neg) {
                (BoolOp::And, true) => BoolOp::Or,
                (BoolOp::Or, true) => BoolOp::And,
                (op, false) => op,
            };
            let mut flat = Vec::new();
            for v in values {
                match test_form(v, neg) {
                    Expr::BoolOp { op: inner, values } if inner == op => flat.extend(values),
                    other => flat.push(other),
                }
            }
            Expr::BoolOp { op, values: flat }
        }
        other if neg => super::cond_sense::flip_operator(other),
        other => other,
    }
}

impl Structurer<'_> {
    /// How many of block `b`'s instructions run before the rest is a copy of the exit of loop `lp`
    /// (3.12+ copy a small loop exit into each `break`): the code there ends by `break`. The copy
    /// follows a POP_EXCEPT (a `break` from an except clause), or, in a `for` loop, starts the
    /// block after markers (NOP, NOT_TAKEN): a `break` there pops the iterator and runs the code
    /// after the loop, which the exit runs after its own pops (a `return` inside the loop computes
    /// its value before it pops the iterator).
    pub(super) fn break_copy_at(&self, b: usize, lp: Option<&LoopCtx>) -> Option<usize> {
        let exit = lp?.exit?;
        let leaves = |x: usize| {
            self.cfg.blocks[x]
                .succs
                .iter()
                .all(|e| e.kind == EdgeKind::Exception)
        };
        // (or both go on to one place by an unconditional jump, the code after the loop being
        // nothing but that jump: `continue` of an enclosing loop, threaded into the `break`)
        let one_jump = |x: usize| -> Option<usize> {
            let ins = self.instrs(x);
            let last = ins.last()?;
            let mut ways = self.cfg.blocks[x]
                .succs
                .iter()
                .filter(|e| e.kind != EdgeKind::Exception);
            match (ways.next(), ways.next()) {
                (Some(e), None) if e.kind == EdgeKind::Jump && last.op.flow == Flow::Jump => {
                    Some(e.to)
                }
                _ => None,
            }
        };
        // (3.13+: the `break`'s jump in a block of its own after the pop, where a try body's
        // exception range ends between them)
        let fall_jump = |x: usize| -> Option<usize> {
            let n = self.only_fall(x)?;
            let lone = self.lone_instr(n)?;
            (lone.op.flow == Flow::Jump).then(|| one_jump(n)).flatten()
        };
        // (3.10 / 3.11 are left to their own readings)
        let v = self.code.version;
        let way_on = one_jump(b).or_else(|| fall_jump(b));
        let jumps_on = (v >= PyVersion::V3_12 || v <= PyVersion::V3_9)
            && way_on.is_some()
            && way_on == one_jump(exit);
        if b == exit || !(jumps_on || leaves(exit) && leaves(b)) {
            return None;
        }
        let ins = self.instrs(b);
        let start = match self.past_clause_end(&ins) {
            // (past the unbinding of an `except ... as name:` clause's name, which the clause's
            // way out runs after its POP_EXCEPT)
            Some(k) => k,
            None if self.code.version >= framejit_bytecode::PyVersion::V3_12 => ins
                .iter()
                .take_while(|i| matches!(i.op.name, "NOP" | "NOT_TAKEN"))
                .count(),
            // (3.10: the `break` line's NOP before the copy, `break_copy_line.rs`)
            None if self.break_line_copy(b) => 1,
            None => return self.legacy_break_copy(b, exit, lp?.header),
        };
        if start >= ins.len() {
            return None;
        }
        // a `for` loop's: the break pops the iterator, the exit starts with the pops that end
        // the loop (END_FOR, 3.13 POP_TOP, 3.14 POP_ITER) before the code after the loop
        let xi = self.instrs(exit);
        let pops = xi
            .iter()
            .take_while(|i| matches!(i.op.name, "END_FOR" | "POP_TOP" | "POP_ITER"))
            .count();
        // (3.13+: the pop last in its block (alone, or after statements before the `break`), its
        // jump the next block's only code, where the jump starts with the iterator gone, and the
        // exit, found past its pops or with them, only a jump to the same place: `for x in it:
        // break` in a try body whose range ends after the pop)
        let header = lp?.header;
        if jumps_on
            && one_jump(b).is_none()
            && ins
                .last()
                .is_some_and(|i| matches!(i.op.name, "POP_TOP" | "POP_ITER"))
            && self.only_fall(b).is_some_and(|c| {
                let (dc, dh) = (self.entry_depth[c], self.entry_depth[header]);
                dc.is_some() && dc.map(|d| d + 1) == dh
            })
        {
            let split = (pops == 0 || xi.first().is_some_and(|i| i.op.name == "END_FOR"))
                && xi.len() == pops + 1
                && xi.last().is_some_and(|i| i.op.flow == Flow::Jump);
            return split.then_some(ins.len() - 1);
        }
        if start > 0 && self.copy_of_block(b, start, exit) {
            return Some(start);
        }
        let tail = &ins[start..];
        let same = |x: &&framejit_bytecode::Instr, y: &&framejit_bytecode::Instr| {
            super::same_code_instr(x, y)
        };
        let copied = pops > 0
            && xi.first().is_some_and(|i| i.op.name == "END_FOR")
            && matches!(tail.first(), Some(i) if matches!(i.op.name, "POP_TOP" | "POP_ITER"))
            && tail.len() - 1 == xi.len() - pops
            && tail[1..]
                .iter()
                .zip(&xi[pops..])
                .enumerate()
                .all(|(k, (x, y))| {
                    // (the final jumps, which `jumps_on` found going to one place, differ in their
                    // relative arguments)
                    same(x, y) || jumps_on && k + 2 == tail.len() && x.op.flow == Flow::Jump
                })
            && (!jumps_on || self.entry_depth[b] == self.entry_depth[lp?.header]);
        copied.then_some(start)
    }
}

impl Structurer<'_> {
    /// Of the blocks control leaves a loop to (`exits`, in code order), where `break` goes: the
    /// place most of them lead to past blocks that only jump (3.12+ copy the jump to the loop's
    /// exit into each `break`, and a block that only leaves, a `raise` in the body, is outside
    /// the natural loop too); the first in code order among equals.
    pub(super) fn main_exit(&self, exits: &[usize]) -> Option<usize> {
        // (3.14 copy a small exit into each `break`: a copy stands for the code after the loop)
        let places: Vec<usize> = exits.iter().map(|&x| self.resolve_jumps(x)).collect();
        let places: Vec<usize> = places
            .iter()
            .map(|&p| self.copy_class(p, &places))
            .collect();
        let count = |p: usize| places.iter().filter(|&&q| q == p).count();
        let mut best: Option<usize> = None;
        for &p in &places {
            if best.is_none_or(|b| count(p) > count(b)) {
                best = Some(p);
            }
        }
        // (one exit, or none most go to: the first, as it is)
        match best {
            Some(b) if count(b) > 1 => Some(b),
            _ => exits.first().copied(),
        }
    }

    /// 3.10, 3.11: is exit `x` of the loop whose blocks are `body` a `return` written in the body
    /// rather than the code after the loop? (A `raise` is left to the general choice.) The compiler lays out the code after a
    /// loop after it, and copies into a `break` only an exit with no line of its own (the implicit
    /// `return None`, with the exit calls of the `with` statements it leaves): an exit laid out
    /// before the loop's last block that leaves the function and ends otherwise was written there.
    /// The block the fall-through chain from `x` ends at (blocks only falling on, up to four).
    pub(super) fn fall_chain_end(&self, x: usize) -> usize {
        self.fall_chain(x).last().copied().unwrap_or(x)
    }

    /// `x` and the blocks it falls on through, each only falling on (up to four more).
    pub(super) fn fall_chain(&self, x: usize) -> Vec<usize> {
        let mut chain = vec![x];
        let mut end = x;
        for _ in 0..4 {
            match self.only_fall(end) {
                Some(n) => {
                    chain.push(n);
                    end = n;
                }
                None => break,
            }
        }
        chain
    }

    /// Block `b` goes nowhere in the code (only its exception edges leave it): it returns or raises.
    pub(super) fn only_leaves(&self, b: usize) -> bool {
        self.cfg.blocks[b]
            .succs
            .iter()
            .all(|e| e.kind == EdgeKind::Exception)
    }

    /// 3.10 / 3.11: is way out `x` of the loop with blocks `body`, laid out among them and
    /// leaving the function (a short `return None`, which [`Self::return_in_body`] leaves to the
    /// choice of the exit), no copy of another way out `y` in `exits` that goes on after the
    /// body (itself or the jump it is)?
    /// The code after the loop is `y`'s (a `break`'s jump goes there), and a `break` would copy
    /// that code, not other code: `x` is a `return` written in the body (contextlib
    /// `_fix_exception_context`: `if a: return` then `if b: break`, the code after the loop
    /// longer than a copy).
    pub(super) fn return_not_copied(&self, x: usize, body: &[usize], exits: &[usize]) -> bool {
        let version = self.code.version;
        if version < PyVersion::V3_10 || version > PyVersion::V3_11 {
            return false;
        }
        let Some(&last) = body.iter().max() else {
            return false;
        };
        let end = self.fall_chain_end(x);
        if x > last || !self.only_leaves(end) {
            return false;
        }
        // (a `break`'s place: an unconditional jump goes there; a place only tests jump to can
        // be the body's own last statement, its jump back dead and dropped: distutils
        // text_file `readline`'s final `return line`)
        let jumped_to = |p: usize| {
            self.cfg.blocks[p].preds.iter().any(|&q| {
                self.instrs(q)
                    .last()
                    .is_some_and(|i| matches!(i.op.name, "JUMP_FORWARD" | "JUMP_ABSOLUTE"))
                    && self.succ(q, EdgeKind::Jump) == Some(p)
            })
        };
        exits.iter().any(|&y| {
            let place = self.resolve_jumps(y);
            y != x && place > last && jumped_to(place) && !self.leaving_copy(end, place)
        })
    }

    /// 3.10 / 3.11: is way out `x` of the loop with blocks `body`, laid out among them, code
    /// written in the body rather than the code after the loop? The code after a loop is laid
    /// out after it; the compiler copies it into a jump there only where it is a block of at most
    /// four instructions that leaves (MAX_COPY_SIZE), appended to the jumping block. So a way out
    /// there that returns a value is the body's `return` (a copied `return v` would compute v
    /// after the loop: the same code), and so is one whose last block has more than four
    /// instructions, returning None or raising: no copy alone (code before a copy, such as
    /// `f(); break` with `return None` after the loop, reads as `f(); return`, the same code).
    /// A short `return None` stays the loop's exit: the implicit one of the function's end.
    pub(super) fn return_in_body(&self, x: usize, body: &[usize]) -> bool {
        let version = self.code.version;
        if version < PyVersion::V3_10 || version > PyVersion::V3_11 {
            return false;
        }
        if body.iter().max().is_none_or(|&last| x > last) {
            return false;
        }
        // (3.10: a `break` line's NOP before a copy of the code after the loop, `break_copy_line.rs`)
        if self.break_line_copy(x) {
            return false;
        }
        let end = self.fall_chain_end(x);
        let leaves = self.only_leaves(end);
        let instrs = self.instrs(end);
        let real: Vec<_> = instrs.iter().filter(|i| i.op.name != "NOP").collect();
        let returns_none = match real.as_slice() {
            [.., l, r] => {
                r.op.name == "RETURN_VALUE"
                    && l.op.name == "LOAD_CONST"
                    && matches!(l.arg, framejit_bytecode::Arg::Raw(k) if matches!(
                        self.code.consts.get(k as usize),
                        Some(crate::input::Const::Value(crate::ast::Constant::None))
                    ))
            }
            _ => false,
        };
        let returns = real.last().is_some_and(|i| i.op.name == "RETURN_VALUE");
        leaves && ((returns && !returns_none) || real.len() > 4)
    }

    /// [`Self::main_exit`] of the loop headed by `header`; where no place is where most ways
    /// out lead, a header that tests and leaves on one arm says ([`Self::header_exit`]).
    pub(super) fn loop_exit(
        &self,
        header: usize,
        body: &[usize],
        exits: &[usize],
    ) -> Option<usize> {
        // (≤3.11: a `return` written in the body is no way to the code after the loop)
        let kept: Vec<usize> = exits
            .iter()
            .copied()
            .filter(|&x| {
                !self.return_in_body(x, body)
                    && !self.exit_written_in_body(x, body)
                    && !self.walked_exit_in_body(header, x, body)
                    && !self.legacy_fall_return(x, body)
            })
            .collect();
        if kept.is_empty() && !exits.is_empty() {
            return None;
        }
        let kept: Vec<usize> = kept
            .iter()
            .copied()
            .filter(|&x| !self.return_not_copied(x, body, &kept))
            .collect();
        let exits = &kept[..];
        if let Some(x) = self
            .break_jump_exit(header, body, exits)
            .or_else(|| self.try_leaving_exit(body, exits))
            .or_else(|| self.break_code_exit(body, exits))
        {
            return Some(x);
        }
        let main = self.main_exit(exits);
        let places: Vec<usize> = exits.iter().map(|&x| self.resolve_jumps(x)).collect();
        let places: Vec<usize> = places
            .iter()
            .map(|&p| self.copy_class(p, &places))
            .collect();
        let majority = main.is_some_and(|m| places.iter().filter(|&&q| q == m).count() > 1);
        if majority || exits.len() < 2 {
            return main;
        }
        self.common_exit(body, exits)
            .or_else(|| self.header_exit(header, body, exits))
            .or(main)
    }
}

impl Structurer<'_> {
    /// Where a try statement whose body leaves its range at block `a` goes on, when the clauses
    /// of its handler (blocks `h..cleanup`) all go on to one place (past blocks that only jump:
    /// 3.12+ copy a `continue`'s jump, a NOP of the line) that `a` leads to: `a` itself, or the
    /// end of an `else:` part that starts at `a`. `None` where they do not. (`break` and
    /// `continue` of loop `lp` do not count.)
    pub(super) fn try_follow(
        &self,
        a: usize,
        h: usize,
        cleanup: usize,
        lp: Option<&LoopCtx>,
    ) -> Option<usize> {
        let mut targets: Vec<usize> = Vec::new();
        for x in h..cleanup {
            for e in &self.cfg.blocks[x].succs {
                // (a clause's `break` / `continue` leaves the loop, not the statement)
                let leaves =
                    |t: usize| self.loop_edge(t, lp) || self.loop_edge(self.resolve_jumps(t), lp);
                if e.kind != EdgeKind::Exception
                    && !(h..=cleanup).contains(&e.to)
                    && !targets.contains(&e.to)
                    && !leaves(e.to)
                {
                    targets.push(e.to);
                }
            }
        }
        // (the block they jump to, where they all jump to one; else where they all lead)
        let mut places: Vec<usize> = targets.iter().map(|&t| self.resolve_jumps(t)).collect();
        places.dedup();
        let f = match (&targets[..], &places[..]) {
            ([t], _) => *t,
            (_, [p]) if places.iter().all(|q| q == p) => *p,
            _ => return None,
        };
        let ra = self.resolve_jumps(a);
        let leads = ra == self.resolve_jumps(f) || (f > a && self.reach_within(a, &[Some(f)])[f]);
        leads.then_some(f)
    }
}

impl Structurer<'_> {
    /// Where the region the branch ending block `b` is in stops, when an arm (`fall`, `taken`)
    /// gets there: the arms of an `if` whose other arm leaves (`return`) meet nowhere else, and
    /// the one that goes on ends where the enclosing statement's arm does.
    pub(super) fn stop_reached(&self, b: usize, fall: usize, taken: usize) -> Option<usize> {
        let (i, s) = self
            .stops
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, s)| s.map(|s| (i, s)))?;
        // (3.11+: a stop of a region around the with body the branch is in, outside that body's
        // handler range: the body ends first, where it leaves the range, and the arm that goes
        // on there goes through the with's exit call, so it does not end at that stop; try
        // bodies keep their readings, pathlib copyfileobj was refused)
        if let (Some(&(h, None)), Some(&d)) = (self.try_body.last(), self.try_depth.last()) {
            let is_with = self
                .instrs(h)
                .iter()
                .any(|i| i.op.name == "WITH_EXCEPT_START");
            if self.legacy.is_none() && is_with && i + 1 < d && !self.covered_by(s, h) {
                return None;
            }
        }
        let walls = [Some(b), Some(s)];
        let reaches = |x: usize| x == s || self.reach_within(x, &walls)[s];
        // (3.11+ lay the code after a try statement out before its handler: an except clause
        // goes back to it, which is no loop's jump back to a header around the branch; where
        // only the arm laid out first goes on there, `if c: B  else: raise`)
        if s < b && self.stop_behind(b, s) && reaches(fall) && !reaches(taken) {
            return Some(s);
        }
        // (both arms going back there and meeting nowhere before it: `elif` arms, see
        // `meet_only_behind`)
        if s < b && self.stop_behind(b, s) && self.meet_only_behind(b, fall, taken, s) {
            return Some(s);
        }
        (s > b && (reaches(fall) || reaches(taken))).then_some(s)
    }

    /// 3.12+ (conditional jumps go forward only): is `fall` only the jump back to the header of
    /// the loop `lp`, laid out right before the branch's `taken` arm? Then the branch is an `if`
    /// whose body is the taken arm, ending the loop body (`if c: return x` as a loop's last
    /// statement), not `if not c: continue` followed by the arm.
    pub(super) fn falls_to_latch(&self, fall: usize, taken: usize, lp: Option<&LoopCtx>) -> bool {
        let Some(ctx) = lp else { return false };
        if self.code.version < framejit_bytecode::PyVersion::V3_12 || fall + 1 != taken {
            return false;
        }
        self.is_latch(fall, ctx)
    }

    /// Is block `b` only the jump back to the header of loop `ctx` (markers aside)?
    pub(super) fn is_latch(&self, b: usize, ctx: &LoopCtx) -> bool {
        self.lone_instr(b)
            .is_some_and(|i| i.op.name == "JUMP_BACKWARD")
            && self.succ(b, EdgeKind::Jump) == Some(ctx.header)
    }

    /// 3.10-3.13 (`while c:` as a guard and a bottom test): does the branch ending block `b` jump
    /// to the loop's bottom test (`taken`, laid out after the other arm) while its other arm
    /// leaves, so that the arms meet only at the loop's exit? The bottom test is where the `if`
    /// ends (`if d: break` as the body's last statement), not the exit: `taken`.
    pub(super) fn jumps_to_bottom_test(
        &self,
        b: usize,
        fall: usize,
        taken: usize,
        ctx: &LoopCtx,
    ) -> Option<usize> {
        if ctx.cond.is_none() || fall >= taken || taken == ctx.header {
            return None;
        }
        if self.ipdom[b].is_some_and(|m| Some(m) != ctx.exit) {
            return None;
        }
        let tests_back = self.instrs(taken).last().is_some_and(|i| {
            i.op.flow == framejit_bytecode::opcode::Flow::Branch && i.op.name.contains("_IF_")
        }) && self.succ(taken, EdgeKind::Jump) == Some(ctx.header);
        tests_back.then_some(taken)
    }

    /// 3.12+: are `x` and `y` both only the jump back to the header of the loop `lp` (copies of the
    /// jump that ends its body)?
    pub(super) fn latch_copies(&self, x: usize, y: usize, lp: Option<&LoopCtx>) -> bool {
        let Some(ctx) = lp else { return false };
        if self.code.version < framejit_bytecode::PyVersion::V3_12 {
            return false;
        }
        self.is_latch(x, ctx) && self.is_latch(y, ctx)
    }
}

impl Structurer<'_> {
    /// 3.10 copies a small exit block (at most four instructions, ending the code object) into
    /// each jump to it: a `break` out of a `for` loop whose exit is such a block comes out as the
    /// iterator's POP_TOP and the copy at the end of block `b`. Where that copy starts (the
    /// POP_TOP): the code before it ends by `break`. (A `return v` inside the loop computes v
    /// before it pops the iterator; a `return` of a constant pops first and is the same code as
    /// the `break`, run the same way.)
    fn legacy_break_copy(&self, b: usize, exit: usize, header: usize) -> Option<usize> {
        let ins = self.instrs(b);
        let xi = self.instrs(exit);
        // (≤3.9 copy nothing, but thread a `break`'s jump: where the code after the loop is
        // only a jump, the `break` pops the iterator and jumps straight there)
        let threaded = self.code.version <= PyVersion::V3_9
            && xi.len() == 1
            && xi.first().is_some_and(|j| j.op.flow == Flow::Jump);
        if !(self.code.version == PyVersion::V3_10 || threaded)
            || self.instrs(header).first().map(|i| i.op.name) != Some("FOR_ITER")
        {
            return None;
        }
        if xi.is_empty() || xi.len() > 4 || ins.len() <= xi.len() {
            return None;
        }
        let k = ins.len() - xi.len() - 1;
        // (the POP_TOP pops the iterator: the block starts at the loop body's depth, no with
        // statement's exit or except clause's values over it, and the code before it leaves
        // nothing more)
        let (Some(d0), Some(dh)) = (self.entry_depth[b], self.entry_depth[header]) else {
            return None;
        };
        let mut depth = i64::from(d0);
        for i in &ins[..k] {
            depth += i64::from(i.op.stack_effect(i.raw_arg(), Some(false)));
        }
        let copied = d0 == dh
            && depth == i64::from(dh)
            && ins[k].op.name == "POP_TOP"
            && ins[k + 1..]
                .iter()
                .zip(&xi)
                .all(|(x, y)| super::same_code_instr(x, y));
        copied.then_some(k)
    }
}

impl Structurer<'_> {
    /// 3.11-3.13: where none of a loop's ways out `exits` is at the loop statement's own handler
    /// level `level` (all lie inside a try body in the loop: `while True: try: ... if c: g();
    /// break`, the loop's exit being the function's end), the one block at that level they all
    /// lead to, through blocks outside the loop's `body` and that level: the code after the loop
    /// (the compiler's copy of a `return None` there); `None` where there is none or more.
    pub(super) fn exit_past_level(
        &self,
        exits: &[usize],
        level: Option<usize>,
        body: &[usize],
    ) -> Option<usize> {
        // (not 3.14, which tests a `while` at its top and leaves NOT_TAKEN markers outside the
        // ranges: there the blocks it found were a with body's ways out, platform.libc_ver and
        // zipfile's testzip came out refused)
        if self.legacy.is_some() || exits.is_empty() || self.code.version >= PyVersion::V3_14 {
            return None;
        }
        let at = |e: usize| self.at_level(e, level);
        let mut seen = vec![false; self.cfg.blocks.len()];
        let mut todo = exits.to_vec();
        let mut found: Option<usize> = None;
        let mut steps = 0;
        while let Some(x) = todo.pop() {
            if std::mem::replace(&mut seen[x], true) {
                continue;
            }
            steps += 1;
            if steps > 64 || body.contains(&x) {
                return None;
            }
            if at(x) {
                match found {
                    Some(y) if y != x => return None,
                    _ => found = Some(x),
                }
                continue;
            }
            for e in &self.cfg.blocks[x].succs {
                if e.kind != EdgeKind::Exception {
                    todo.push(e.to);
                }
            }
        }
        found
    }
}

impl Structurer<'_> {
    /// Is block `b` where `break` out of loop `ctx` goes past its exit? The exit is a lone jump
    /// (the code after a `while` loop nested last in an outer loop's body: the jump back to the
    /// outer header; 3.11+: another `break`'s own jump, `if not c: break`, taken as the exit)
    /// and the compiler threaded the `break` (after an except clause's POP_EXCEPT and a finally
    /// body's copy, say) straight to that jump's target: going there is going through the exit.
    /// Not the loop's own header.
    pub(super) fn threaded_break(&self, b: usize, ctx: &LoopCtx) -> bool {
        let Some(exit) = ctx.exit else {
            return false;
        };
        // (markers aside: 3.14 starts a branch's fall-through with NOT_TAKEN)
        let Some(jump) = self.lone_instr(exit) else {
            return false;
        };
        let forward = matches!(jump.op.name, "JUMP_ABSOLUTE" | "JUMP_FORWARD");
        // (3.11+: the jump back to the header of an outer loop, which starts before this loop's
        // header (blocks are in code order): from inside this loop only a `break` gets there
        // through its exit, Python having no `continue` of an outer loop. Not a jump back into
        // this loop, such as an except clause's to the code after its try statement.)
        let to_outer = jump.op.name == "JUMP_BACKWARD" && b < ctx.header;
        b != exit
            && b != ctx.header
            && (forward || to_outer)
            && self.succ(exit, EdgeKind::Jump) == Some(b)
    }
}
