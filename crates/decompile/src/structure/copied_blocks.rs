//! Blocks that a structure would reach twice: the compiler's copies and pass-through blocks that
//! decide where one statement ends and the next begins.

use super::Structurer;
use crate::flow::EdgeKind;

impl Structurer<'_> {
    /// Is block `b`, outside the range of the try body whose handler is `h`, a line marker (only
    /// NOPs) that the body passes through: the first block after it (past other such markers)
    /// that is not only NOPs is covered by `h` again (a nested statement's `try:` line inside the
    /// body). A marker that leads into code `h` does not cover is the next statement's (a `try:`
    /// right after the body's statement): the body ends there.
    pub(super) fn marker_inside_body(&self, b: usize, h: usize) -> bool {
        let mut x = b;
        for _ in 0..self.cfg.blocks.len() {
            if !self
                .instrs(x)
                .iter()
                .all(|i| matches!(i.op.name, "NOP" | "NOT_TAKEN"))
            {
                return self.covered_by(x, h);
            }
            let next = self.cfg.blocks[x]
                .succs
                .iter()
                .find(|e| e.kind != EdgeKind::Exception)
                .map(|e| e.to);
            match next {
                Some(n) if n != x => x = n,
                _ => return false,
            }
        }
        false
    }
}

impl Structurer<'_> {
    /// Block `x` past blocks that only mark (3.14's NOT_TAKEN of a branch whose fall-through is
    /// also a jump target, a line's NOP) and fall through to one successor: where control goes.
    pub(super) fn through_markers(&self, x: usize) -> usize {
        let mut x = x;
        for _ in 0..self.cfg.blocks.len() {
            let marks = self.only_markers(x);
            let mut normal = self.cfg.blocks[x]
                .succs
                .iter()
                .filter(|e| e.kind != EdgeKind::Exception);
            match (normal.next(), normal.next()) {
                (Some(e), None) if marks && e.kind == EdgeKind::Fall && e.to != x => x = e.to,
                _ => break,
            }
        }
        x
    }

    /// Are blocks `x` and `y` the same code leaving the function (`return` / `raise`), up to
    /// leading markers (NOP, NOT_TAKEN), under the same handler: the compiler copies a small
    /// exit block into each jump to it (a `break` to a loop whose exit returns is such a copy).
    pub(super) fn leaving_copy(&self, x: usize, y: usize) -> bool {
        let leaves = |b: usize| {
            self.cfg.blocks[b]
                .succs
                .iter()
                .all(|e| e.kind == EdgeKind::Exception)
        };
        let code = |b: usize| {
            self.instrs(b)
                .into_iter()
                .skip_while(|i| matches!(i.op.name, "NOT_TAKEN" | "NOP"))
                .map(|i| (super::copy_name(i.op.name), &i.arg))
                .collect::<Vec<_>>()
        };
        let (cx, cy) = (code(x), code(y));
        leaves(x)
            && leaves(y)
            && !cx.is_empty()
            && cx == cy
            && self.cfg.blocks[x].handler.map(|h| h.0) == self.cfg.blocks[y].handler.map(|h| h.0)
    }

    /// Of the places `exits` (a loop's ways out), the one each stands for: the last in code order
    /// of the blocks it is a leaving copy of (the code after the loop comes after its body; the
    /// copies are the `break`s inside it).
    pub(super) fn copy_class(&self, x: usize, exits: &[usize]) -> usize {
        exits
            .iter()
            .copied()
            .filter(|&y| y == x || self.leaving_copy(x, y))
            .max()
            .unwrap_or(x)
    }
}

impl Structurer<'_> {
    /// Where a loop headed by `header` (body `body`) goes on, of its ways out `exits`, when no
    /// place is where most of them lead: a header that tests (3.14's `while c:`, tested at the
    /// top) and leaves the loop on one arm goes on there; the other ways out are `break`s copied
    /// from it or `return`s. `None` where the header does not so.
    pub(super) fn header_exit(
        &self,
        header: usize,
        body: &[usize],
        exits: &[usize],
    ) -> Option<usize> {
        self.header_test_exit(header, body)
            .filter(|out| exits.contains(out))
    }

    /// The arm by which the test ending a loop's `header` leaves the loop (body `body`): a loop
    /// tested at its top (`while c:` before 3.10, and 3.14). `None` where the header does not
    /// end in a test, or where both or neither of its arms stay in the loop.
    pub(super) fn header_test_exit(&self, header: usize, body: &[usize]) -> Option<usize> {
        let branches = self.instrs(header).last().is_some_and(|i| {
            i.op.flow == framejit_bytecode::opcode::Flow::Branch && i.op.name.contains("_IF_")
        });
        let (taken, fall) = (
            self.succ(header, EdgeKind::Jump)?,
            self.succ(header, EdgeKind::Fall)?,
        );
        let inside = |x: usize| body.contains(&x);
        match (inside(taken), inside(fall)) {
            (true, false) if branches => Some(fall),
            (false, true) if branches => Some(taken),
            _ => None,
        }
    }
}

impl Structurer<'_> {
    /// The block that block `c` falls into when `c` holds only markers (NOT_TAKEN / NOP) and is
    /// reached only from `members` (the blocks of a condition being folded): 3.14's NOT_TAKEN
    /// after a test whose fall-through is also a jump target is a block of its own, as is one
    /// left out of an exception range. The condition goes on in that block.
    pub(super) fn marker_into(&self, c: usize, members: &[usize]) -> Option<usize> {
        let marks = self.only_markers(c);
        let mut normal = self.cfg.blocks[c]
            .succs
            .iter()
            .filter(|e| e.kind != EdgeKind::Exception);
        let d = match (normal.next(), normal.next()) {
            (Some(e), None) if e.kind == EdgeKind::Fall && e.to != c => e.to,
            _ => return None,
        };
        let ok = marks
            && !self.emitted[c]
            && !members.contains(&c)
            && !members.contains(&d)
            && self.cfg.blocks[c].preds.iter().all(|p| members.contains(p));
        ok.then_some(d)
    }
}

impl Structurer<'_> {
    /// The merge `m` of an `if` whose condition was folded from several test blocks, past those
    /// blocks: in a loop, the post-dominator of the first test can be a later test of the same
    /// condition (`while a and b or c and d:`, whose `c` every way out passes), which is part of
    /// the condition, already out, not where its arms meet.
    /// (Only blocks after the branch at `b`, not where the loop `lp` goes on or repeats: those are
    /// out already and are the merge.)
    pub(super) fn merge_past_tests(
        &self,
        b: usize,
        m: Option<usize>,
        lp: Option<&super::LoopCtx>,
    ) -> Option<usize> {
        let mut m = m;
        for _ in 0..self.cfg.blocks.len() {
            match m {
                Some(x) if x > b && self.emitted[x] && !self.loop_edge(x, lp) => m = self.ipdom[x],
                _ => break,
            }
        }
        m
    }
}

impl Structurer<'_> {
    /// Where the arms of the branch ending block `b` meet when one arm goes on only through an
    /// except clause of a try statement inside it (`if c: try: return f() except E: g()` goes on
    /// after the `if` only from the clause): the first block after `b`, at `b`'s own try nesting,
    /// that both arms reach by normal edges and the exception edges of handlers that do not cover
    /// `b` (not past the enclosing loop's header or exit).
    pub(super) fn meet_through_clauses(
        &self,
        b: usize,
        fall: usize,
        taken: usize,
        lp: Option<&super::LoopCtx>,
    ) -> Option<usize> {
        let n = self.cfg.blocks.len();
        let walls: Vec<usize> = lp
            .map(|c| std::iter::once(c.header).chain(c.exit).collect())
            .unwrap_or_default();
        let own = self.cfg.blocks[b].handler.map(|h| h.0);
        let reach = |start: usize, clauses: bool| -> Vec<bool> {
            let mut seen = vec![false; n];
            let mut todo = vec![start];
            while let Some(x) = todo.pop() {
                if x == b || seen[x] {
                    continue;
                }
                seen[x] = true;
                if walls.contains(&x) {
                    continue;
                }
                for e in &self.cfg.blocks[x].succs {
                    let inner = e.kind != EdgeKind::Exception
                        || (clauses && Some(e.to) != own && !self.covered_by(b, e.to));
                    if inner {
                        todo.push(e.to);
                    }
                }
            }
            seen
        };
        let (rf, rt) = (reach(fall, true), reach(taken, true));
        // (where the clause comes back to the other arm's normal flow)
        let (nf, nt) = (reach(fall, false), reach(taken, false));
        (b + 1..n).find(|&x| {
            rf[x]
                && rt[x]
                && (nf[x] || nt[x])
                && !self.gen_wrapper.get(x).copied().unwrap_or(false)
                && !walls.contains(&x)
                && self.cfg.blocks[x].handler.map(|h| h.0) == own
                && self.instrs(x).first().map(|i| i.op.name) != Some("PUSH_EXC_INFO")
        })
    }
}

impl Structurer<'_> {
    /// Of a loop's ways out `exits`, those at the loop statement's own try nesting `level`, and
    /// the places such a way out only passes on to (a `break` inside `with` is a NOP under the
    /// with's handler that falls into the `__exit__` call, which no handler covers: both are the
    /// loop's exit).
    pub(super) fn exits_at_level(&self, exits: &[usize], level: Option<usize>) -> Vec<usize> {
        let at = |e: usize| self.at_level(e, level);
        exits
            .iter()
            .copied()
            .filter(|&e| {
                at(e)
                    || exits
                        .iter()
                        .any(|&k| k != e && at(k) && self.resolve_jumps(k) == e)
            })
            .collect()
    }
}

impl Structurer<'_> {
    /// Is block `e` at handler level `level`: covered by that handler directly (or by none)?
    pub(super) fn at_level(&self, e: usize, level: Option<usize>) -> bool {
        self.cfg.blocks[e].handler.map(|h| h.0) == level
    }

    /// Does block `b` hold only 3.14's branch markers: a NOT_TAKEN, with NOPs at most? (A block of
    /// NOPs alone is a line marker, which the rules for line markers see to.)
    fn only_markers(&self, b: usize) -> bool {
        let ins = self.instrs(b);
        ins.iter().any(|i| i.op.name == "NOT_TAKEN")
            && ins.iter().all(|i| matches!(i.op.name, "NOT_TAKEN" | "NOP"))
    }
}
