//! 3.12 / 3.13: which of a loop's ways out is the code after the loop.
//!
//! The compiler emits a loop's body, then the code after the loop; that order stays (only blocks
//! that exceptions alone reach move to the end). A `break` jumps to the code after the loop, and
//! 3.12+ copy that code into the `break` only where it is one block that leaves (returns or
//! raises) of at most four instructions (MAX_COPY_SIZE), or (rarely) an exit block without a
//! line number of its own, compiler-made code such as the implicit `return None`. So a way out
//! laid out before the loop's last block, that is one block that returns and holds more than four
//! instructions, was written in the body (`if c: x = 1; return y` inside `while True:`), and is
//! not where `break` goes. (Either reading runs the same code on each way out; the layout is
//! what tells them apart.)

use super::Structurer;
use crate::flow::EdgeKind;
use framejit_bytecode::PyVersion;

/// The unconditional jumps that go forward (3.12+; JUMP and JUMP_NO_INTERRUPT as the assembler's
/// pseudo-instructions name them): a `break`'s jump past the loop's body.
const FORWARD_JUMPS: [&str; 3] = ["JUMP_FORWARD", "JUMP", "JUMP_NO_INTERRUPT"];

impl Structurer<'_> {
    /// Is exit `x` of the loop whose blocks are `body` code written in the body (3.12+), not the
    /// code after the loop or a copy of it?
    pub(super) fn exit_written_in_body(&self, x: usize, body: &[usize]) -> bool {
        // (3.14 tests a `while` at its top and lays its exits out otherwise: not there)
        if !(PyVersion::V3_12..=PyVersion::V3_13).contains(&self.code.version) {
            return false;
        }
        // (the loop's last block among those reached without exceptions: the handlers in the
        // body, with their jumps back, lie after all the others)
        let warm = self.warm_blocks();
        let last = body
            .iter()
            .copied()
            .filter(|&b| warm.get(b).copied().unwrap_or(false))
            .max();
        if last.is_none_or(|last| x > last) {
            return false;
        }
        // one block that leaves by returning (a `raise` is left to the general choice, as
        // `return_in_body` leaves it for 3.10 / 3.11)
        if !self.only_leaves(x) {
            return false;
        }
        let returns = self
            .instrs(x)
            .iter()
            .rev()
            .find(|i| !matches!(i.op.name, "NOP" | "NOT_TAKEN"))
            .is_some_and(|i| matches!(i.op.name, "RETURN_VALUE" | "RETURN_CONST"));
        if !returns {
            return false;
        }
        let real = self
            .instrs(x)
            .iter()
            .filter(|i| !matches!(i.op.name, "NOP" | "NOT_TAKEN" | "EXTENDED_ARG" | "CACHE"))
            .count();
        real > 4
    }

    /// 3.12+: the way out of the loop headed by `header` (blocks `body`, ways out `exits`) that a
    /// `break` takes, where every other way out returns or raises: the one that an unconditional
    /// forward jump from the body reaches (or that is such a jump), at a place laid out after
    /// every block of the body the compiler keeps warm. The compiler moves only blocks that
    /// exceptions alone reach, so an `if` arm of the body lies inside the body's layout; a jump
    /// from the body past its end is a `break` (threaded on where the code after the loop is a
    /// jump). The blocks that return are then written in the body: a small one is no copy of the
    /// code after the loop, which is the jump's place (`try: while True: if a(): break; if w():
    /// return 1` then code after the try, which would otherwise come back as the `if a():` arm).
    /// Ways out reached from the header's test or from a block that also jumps back (a bottom
    /// test) are the loop's own exit or `else:` part, and keep the general choice.
    pub(super) fn break_jump_exit(
        &self,
        header: usize,
        body: &[usize],
        exits: &[usize],
    ) -> Option<usize> {
        if self.legacy.is_some() || self.code.version < PyVersion::V3_12 || exits.len() < 2 {
            return None;
        }
        let warm = self.warm_blocks();
        let is_warm = |b: usize| warm.get(b).copied().unwrap_or(false);
        let last = body.iter().copied().filter(|&b| is_warm(b)).max()?;
        let jumps_to = |p: usize, x: usize| {
            self.instrs(p)
                .last()
                .is_some_and(|i| FORWARD_JUMPS.contains(&i.op.name))
                && self.succ(p, EdgeKind::Jump) == Some(x)
        };
        let jumped = |x: usize| {
            let place = self.resolve_jumps(x);
            let jump_only = place != x
                && body.iter().any(|&p| {
                    self.cfg.blocks[p]
                        .succs
                        .iter()
                        .any(|e| e.kind != EdgeKind::Exception && e.to == x)
                });
            is_warm(place) && place > last && (jump_only || body.iter().any(|&p| jumps_to(p, x)))
        };
        let mut found = exits.iter().copied().filter(|&x| jumped(x));
        let j = found.next()?;
        if found.next().is_some() {
            return None;
        }
        // (a bottom test's way out, or the jump out of a header tested at its top: where the
        // test goes when it fails, the loop's own exit or its `else:` part)
        let tests_out = |p: usize, x: usize| {
            let branches = self.instrs(p).last().is_some_and(|i| {
                i.op.flow == framejit_bytecode::opcode::Flow::Branch && i.op.name.contains("_IF_")
            });
            let back = self.cfg.blocks[p]
                .succs
                .iter()
                .any(|e| e.kind != EdgeKind::Exception && e.to == header);
            branches && (back || p == header && self.succ(p, EdgeKind::Jump) == Some(x))
        };
        let others_leave = exits.iter().all(|&x| {
            x == j
                || self.only_leaves(self.fall_chain_end(x))
                    && !self.cfg.blocks[x].preds.iter().any(|&p| tests_out(p, x))
        });
        others_leave.then(|| self.resolve_jumps(j))
    }

    /// 3.12+: the way out of the loop (blocks `body`, ways out `exits`) that leaves a try statement
    /// the loop's code is in, where it is the only one: a block that no handler covers, leading to
    /// code that no handler covers (more than a constant returned), reached from a block of the
    /// body that a handler covers.
    /// Inside a try body the compiler covers every instruction but those after the body's end
    /// (POP_BLOCK): the code after the statement, or what a way out runs after leaving it. A
    /// `return` of a constant written in the body holds no code; where every other way out is
    /// such a return or stays covered, the uncovered code is the `break`'s: the code after the
    /// loop, copied into the `break` where it is small (`while True: try: if w(): return 1; if
    /// a(): break  except E: ...` then `return a.after()`, which would otherwise come back inside
    /// the try body as the `if a():` arm, its exceptions caught).
    pub(super) fn try_leaving_exit(&self, body: &[usize], exits: &[usize]) -> Option<usize> {
        if self.legacy.is_some() || self.code.version < PyVersion::V3_12 || exits.len() < 2 {
            return None;
        }
        let uncovered_code = |x: usize| {
            let blocks = self.fall_chain(x);
            // (the code run outside every handler: a `return` computes its value covered)
            blocks.iter().any(|&b| {
                self.cfg.blocks[b].handler.is_none()
                    && self.instrs(b).iter().any(|i| {
                        !matches!(
                            i.op.name,
                            "NOP"
                                | "NOT_TAKEN"
                                | "LOAD_CONST"
                                | "LOAD_SMALL_INT"
                                | "RETURN_CONST"
                                | "RETURN_VALUE"
                                | "EXTENDED_ARG"
                                | "CACHE"
                        ) && !i.op.name.starts_with("JUMP")
                    })
            })
        };
        // (a block of the body whose code a handler covers; 3.14 leaves a test's jump out of
        // the range that holds the test, so a block of jumps and markers looks one further back)
        let covered = |p: usize| {
            let b = &self.cfg.blocks[p];
            b.handler.is_some()
                || self.instrs(p).iter().all(|i| {
                    matches!(i.op.name, "NOP" | "NOT_TAKEN" | "JUMP_BACKWARD")
                        || i.op.name.starts_with("POP_JUMP_IF_")
                }) && b
                    .preds
                    .iter()
                    .any(|&q| self.cfg.blocks[q].handler.is_some())
        };
        let leaves_try = |x: usize| {
            self.cfg.blocks[x].handler.is_none()
                && uncovered_code(x)
                && self.cfg.blocks[x]
                    .preds
                    .iter()
                    .any(|&p| body.contains(&p) && covered(p))
        };
        let mut found = exits.iter().copied().filter(|&x| leaves_try(x));
        let x = found.next()?;
        if found.next().is_some() {
            return None;
        }
        let others = exits
            .iter()
            .all(|&y| y == x || self.cfg.blocks[y].handler.is_some() || !uncovered_code(y));
        if !others {
            return None;
        }
        // (3.14: where that way out is a `break` line's NOP falling into the code after the
        // statement, and another way out jumps straight to that code, the code is the exit:
        // the NOP is a `break` into it, `nop_break.rs`)
        Some(super::nop_break::past_break_nop(self, x, exits).unwrap_or(x))
    }

    /// 3.12+: is block `e` (a way out of a loop inside a try body) only a jump, laid out among the
    /// blocks the compiler keeps warm, outside every handler's range: a `break` whose loop ends
    /// the try body, jumping to the code after the statement?
    pub(super) fn break_out_of_try(&self, e: usize) -> bool {
        if self.legacy.is_some() || self.code.version < PyVersion::V3_12 {
            return false;
        }
        let jump_only = self
            .lone_instr(e)
            .is_some_and(|i| FORWARD_JUMPS.contains(&i.op.name));
        jump_only
            && self.cfg.blocks[e].handler.is_none()
            && self.warm_blocks().get(e).copied().unwrap_or(false)
    }

    /// Blocks reached from the entry block without exception edges (the compiler's "warm"
    /// ones, laid out before every handler), computed once per code object.
    pub(super) fn warm_blocks(&self) -> &[bool] {
        self.warm.get_or_init(|| {
            let n = self.cfg.blocks.len();
            let mut seen = vec![false; n];
            let mut todo = vec![0usize];
            while let Some(b) = todo.pop() {
                if b >= n || std::mem::replace(&mut seen[b], true) {
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
            seen
        })
    }
}

impl Structurer<'_> {
    /// ≤3.9: is exit `x` of the loop whose blocks are `body` a `return` written in the body? The
    /// compiler leaves a loop by a jump only (`break` is a JUMP_ABSOLUTE, a `while c:` test jumps
    /// past the body, whose last instruction jumps back) and copies no code after a loop, so a
    /// block that every way in reaches by falling through from the body (a conditional jump's
    /// other arm) and that returns is a statement of the body, not where `break` goes.
    pub(super) fn legacy_fall_return(&self, x: usize, body: &[usize]) -> bool {
        if self.legacy.is_none() || self.code.version > PyVersion::V3_9 {
            return false;
        }
        let preds = &self.cfg.blocks[x].preds;
        let fallen_into = !preds.is_empty()
            && preds.iter().all(|&p| {
                body.contains(&p)
                    && self.cfg.blocks[p]
                        .succs
                        .iter()
                        .filter(|e| e.to == x)
                        .all(|e| e.kind == EdgeKind::Fall)
            });
        if !fallen_into {
            return false;
        }
        let end = self.fall_chain_end(x);
        self.only_leaves(end)
            && self
                .instrs(end)
                .iter()
                .rev()
                .find(|i| i.op.name != "NOP")
                .is_some_and(|i| i.op.name == "RETURN_VALUE")
    }
}

impl Structurer<'_> {
    /// ≤3.10: every way out of the loop with blocks `body` (`exits`) is laid out among the
    /// body's blocks, and the code they run goes on past the body to one place only (the rest
    /// returns or raises): that place is the code after the loop, and the ways out are code of
    /// the body before a `break` (`elif c: y = 1; break` in a `while True:` left only there,
    /// with perhaps `if not y: raise E` before it). The compiler lays the code after a loop out
    /// after the loop; nothing but the body lies among its blocks (3.10 copies small exits into
    /// a `break`: such a copy returns, so it is no place the code goes on to; 3.12+ have
    /// `break_jump_exit`; on 3.11 the rule made `re._parser._parse_flags`, whose loop is also
    /// left by raises laid out in it, read worse, so it is not applied there; on 3.10 only
    /// where no way out is a lone jump, see below).
    pub(super) fn break_code_exit(&self, body: &[usize], exits: &[usize]) -> Option<usize> {
        let v = self.code.version;
        if v > PyVersion::V3_10 || exits.is_empty() {
            return None;
        }
        let last = body.iter().copied().max()?;
        if exits.iter().any(|&x| x > last) {
            return None;
        }
        // (ways out that are lone jumps, `break`s themselves, are the general choice's business)
        // (3.10: where one is, a `break` written alone after a test, the general choice takes
        // it as the exit and reads the arms as written, sre_parse `_parse_flags`; this rule
        // would make the code between of the body, in other arms)
        let lone_jump = |x: usize| {
            self.lone_instr(x)
                .is_some_and(|i| i.op.flow == framejit_bytecode::opcode::Flow::Jump)
        };
        if exits.iter().all(|&x| lone_jump(x))
            || v == PyVersion::V3_10 && exits.iter().any(|&x| lone_jump(x))
        {
            return None;
        }
        let n = self.cfg.blocks.len();
        let mut seen = vec![false; n];
        let mut todo: Vec<usize> = exits.to_vec();
        let mut places: Vec<usize> = Vec::new();
        while let Some(x) = todo.pop() {
            if x > last {
                if !places.contains(&x) {
                    places.push(x);
                }
                continue;
            }
            // (back into the loop: not a way out that the body's code runs before a `break`)
            if body.binary_search(&x).is_ok() {
                return None;
            }
            if std::mem::replace(&mut seen[x], true) {
                continue;
            }
            for e in &self.cfg.blocks[x].succs {
                if e.kind != EdgeKind::Exception {
                    todo.push(e.to);
                }
            }
        }
        match places.as_slice() {
            [p] => Some(*p),
            _ => None,
        }
    }
}
