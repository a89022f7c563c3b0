//! 3.14: an `if` whose test is a false constant (`if 0:`, `if not __debug__:`, `if 0 and x:`) leaves
//! nothing of itself but a line-number NOP; its body is dropped. It still splits the code into
//! blocks, and the block it leaves behind is empty. 3.14's borrowing analysis (LOAD_FAST ->
//! LOAD_FAST_BORROW) walks the blocks from the entry and goes on past a block only by the
//! block's last instruction: from an empty block it goes nowhere, so the code after the dead `if`
//! (up to where a way from elsewhere joins it) is never looked at and keeps every local load
//! plain (LOAD_FAST), where the same code after a plain `pass` borrows.
//!
//! So a NOP followed, in its block, by local loads none of which borrows, one of which the
//! analysis would have borrowed had it looked (consumed right away, in the block), is where such
//! an `if` stood; it is written back as `if False: pass` (any dead `if` compiles alike: the test
//! and the body are dropped). The statement does nothing, so writing it can never change what the
//! code does; at worst the loads compare differently.

use crate::ast::{BoolOp, Constant, Expr, Stmt};
use framejit_bytecode::Instr;

/// The statement written where a dead `if` stood.
pub(super) fn dead_if() -> Stmt {
    Stmt::If {
        test: Expr::constant(Constant::Bool(false)),
        body: vec![Stmt::Pass],
        orelse: Vec::new(),
    }
}

/// `stmts` without the dead `if`s and the `True and` tests written here, at any depth: the two
/// copies of a finally body
/// (the normal path's, which the analysis walks, and the handler's, which it never does) differ
/// by them, and are compared without them.
pub(super) fn without_dead_ifs(stmts: &[Stmt]) -> Vec<Stmt> {
    let dead = dead_if();
    stmts
        .iter()
        .filter(|s| **s != dead)
        .map(|s| {
            let mut s = s.clone();
            if let Stmt::If { test, .. } | Stmt::While { test, .. } = &mut s {
                if let Expr::BoolOp {
                    op: BoolOp::And,
                    values,
                } = test
                {
                    if values.len() == 2 && values[0] == Expr::constant(Constant::Bool(true)) {
                        *test = values[1].clone();
                    }
                }
            }
            for body in s.bodies_mut() {
                let had = !body.is_empty();
                *body = without_dead_ifs(body);
                if had && body.is_empty() {
                    body.push(Stmt::Pass);
                }
            }
            s
        })
        .collect()
}

/// Could a dead `if` have stood before `instrs[k]` (a statement boundary of the block)? The loads
/// from there on all keep the plain form where one would have borrowed, and either `instrs[k]` is
/// the `if`'s NOP or an earlier load of the block borrows (the analysis walked the block's start,
/// and the empty block it stopped at lies after that load; any boundary before the first plain load
/// is the same to the analysis, the first one is taken). The same holds of the other constructs
/// whose dropped constant test leaves an empty block between statements (`x = 1 if __debug__ else
/// 0`, whose join the analysis does not reach either): written as the dead `if`, they compile to
/// the same instructions.
/// `more`: the code the block falls into when the rest of it loads no local (the next blocks that
/// only it enters, as [`super::Structurer::falls_on`] gives them).
pub(super) fn stood_at<'a>(
    instrs: &[&'a Instr],
    k: usize,
    more: impl FnOnce() -> Vec<&'a Instr>,
) -> bool {
    let Some(ins) = instrs.get(k) else {
        return false;
    };
    // (after an instruction that ends a statement: a block entered with a statement's values on
    // the stack, the second operand of `a or b`, reaches its base mid-statement)
    let after_statement = k == 0
        || matches!(
            instrs[k - 1].op.name,
            "STORE_FAST"
                | "STORE_FAST_STORE_FAST"
                | "STORE_NAME"
                | "STORE_GLOBAL"
                | "STORE_DEREF"
                | "STORE_ATTR"
                | "STORE_SUBSCR"
                | "STORE_SLICE"
                | "POP_TOP"
                | "DELETE_FAST"
                | "DELETE_NAME"
                | "DELETE_GLOBAL"
                | "DELETE_ATTR"
                | "DELETE_SUBSCR"
                | "NOP"
                | "RESUME"
                | "NOT_TAKEN"
        );
    if !after_statement {
        return false;
    }
    let from = if ins.op.name == "NOP" { k + 1 } else { k };
    let rest = &instrs[from..];
    let evidence = if rest.iter().any(|i| load_kind(i.op.name).is_some()) {
        unvisited_after(rest)
    } else {
        unvisited_after(&more())
    };
    evidence && (ins.op.name == "NOP" || borrows_before(instrs, k))
}

/// Inside a statement: could the empty block of `x if __debug__ else y` (the constant test's
/// join) lie before `instrs[k]`, a plain local load that starts the unwalked rest of the block,
/// after a borrowed load of the block, right after an instruction that leaves a whole value on top
/// (the arm's value)? The value is then written `(v if True else None)`: the same value, the same
/// instructions, and the same empty block after it.
pub(super) fn value_split_at(instrs: &[&Instr], k: usize) -> bool {
    k > 0
        && load_kind(instrs[k].op.name) == Some(false)
        && matches!(
            instrs[k - 1].op.name,
            "CALL"
                | "CALL_KW"
                | "LOAD_CONST"
                | "LOAD_SMALL_INT"
                | "BINARY_OP"
                | "COMPARE_OP"
                | "CONTAINS_OP"
                | "IS_OP"
                | "BUILD_TUPLE"
                | "BUILD_LIST"
                | "BUILD_MAP"
                | "BUILD_STRING"
        )
        && borrows_before(instrs, k)
        && unvisited_after(&instrs[k..])
}

/// `(e if True else None)`.
pub(super) fn true_arm(e: Expr) -> Expr {
    Expr::IfExp {
        test: Box::new(Expr::constant(Constant::Bool(true))),
        body: Box::new(e),
        orelse: Box::new(Expr::constant(Constant::None)),
    }
}

/// Does a local load before `instrs[k]` borrow (the analysis walked the block up to there)?
pub(super) fn borrows_before(instrs: &[&Instr], k: usize) -> bool {
    instrs[..k]
        .iter()
        .any(|i| load_kind(i.op.name) == Some(true))
}

/// The local loads, plain and borrowed.
fn load_kind(name: &str) -> Option<bool> {
    match name {
        "LOAD_FAST" | "LOAD_FAST_LOAD_FAST" => Some(false),
        "LOAD_FAST_BORROW" | "LOAD_FAST_BORROW_LOAD_FAST_BORROW" => Some(true),
        _ => None,
    }
}

/// How many values `ins` pops (3.14), for the instructions a statement's local loads usually meet
/// before they are consumed; `None` for others (the load is then not counted).
fn pops(ins: &Instr) -> Option<usize> {
    let n = ins.raw_arg() as usize;
    Some(match ins.op.name {
        "LOAD_ATTR"
        | "TO_BOOL"
        | "RETURN_VALUE"
        | "GET_ITER"
        | "LOAD_SPECIAL"
        | "POP_TOP"
        | "POP_JUMP_IF_NONE"
        | "POP_JUMP_IF_NOT_NONE"
        | "POP_JUMP_IF_TRUE"
        | "POP_JUMP_IF_FALSE"
        | "UNARY_NEGATIVE"
        | "UNARY_NOT"
        | "UNARY_INVERT"
        | "FORMAT_SIMPLE"
        | "GET_LEN"
        | "CALL_INTRINSIC_1"
        | "UNPACK_SEQUENCE"
        | "STORE_GLOBAL"
        | "STORE_NAME"
        | "STORE_DEREF"
        | "LIST_APPEND"
        | "SET_ADD"
        | "LIST_EXTEND"
        | "DICT_UPDATE"
        | "YIELD_VALUE" => 1,
        "STORE_ATTR" | "BINARY_OP" | "COMPARE_OP" | "CONTAINS_OP" | "IS_OP"
        | "FORMAT_WITH_SPEC" | "DELETE_SUBSCR" | "MAP_ADD" => 2,
        "STORE_SUBSCR" | "BINARY_SLICE" => 3,
        "STORE_SLICE" => 4,
        "CALL" => n + 2,
        "CALL_KW" => n + 3,
        "BUILD_TUPLE" | "BUILD_LIST" | "BUILD_SET" | "BUILD_STRING" => n,
        "BUILD_MAP" => 2 * n,
        "LOAD_FAST"
        | "LOAD_FAST_BORROW"
        | "LOAD_CONST"
        | "LOAD_SMALL_INT"
        | "LOAD_GLOBAL"
        | "LOAD_DEREF"
        | "LOAD_NAME"
        | "PUSH_NULL"
        | "LOAD_FAST_LOAD_FAST"
        | "NOP"
        | "NOT_TAKEN"
        | "LOAD_COMMON_CONSTANT" => 0,
        _ => return None,
    })
}

/// Is the value a plain local load at `rest[k]` pushes consumed within `rest` by an instruction
/// that takes it for good (not a store into a local, not a stack move), so that the borrowing
/// analysis, had it walked the block, would have borrowed the load? A method load (`LOAD_ATTR`
/// with its low bit) pushes the owner back for the call, which must then come. (The first value
/// of a fused pair is followed; the second is above it and goes first.)
fn consumed_in(rest: &[&Instr], k: usize) -> bool {
    let mut depth: i64 = if rest[k].op.name == "LOAD_FAST_LOAD_FAST" {
        2
    } else {
        1
    };
    let mut at: i64 = 0;
    for ins in &rest[k + 1..] {
        let Some(n) = pops(ins) else {
            return false;
        };
        if depth - (n as i64) <= at {
            if ins.op.name == "LOAD_ATTR" && ins.raw_arg() & 1 == 1 {
                // (the attribute where the owner was, the owner above it)
                at += 1;
            } else {
                return !matches!(
                    ins.op.name,
                    "POP_TOP" | "STORE_GLOBAL" | "STORE_NAME" | "STORE_DEREF"
                );
            }
        }
        let effect = ins.op.stack_effect(ins.raw_arg(), Some(false)) as i64;
        depth += effect;
    }
    false
}

/// Is the NOP just before `rest` (the rest of its block) the trace of a dead `if` on 3.14: no
/// local load after it borrows, and one would have?
pub(super) fn unvisited_after(rest: &[&Instr]) -> bool {
    let mut would_borrow = false;
    for (k, ins) in rest.iter().enumerate() {
        match load_kind(ins.op.name) {
            Some(true) => return false,
            Some(false) => would_borrow |= consumed_in(rest, k),
            None => {}
        }
    }
    would_borrow
}

/// 3.14: `if True and x:` (or `__debug__ and x`, the same where asserts are compiled) tests a
/// constant first; the test is dropped and leaves an empty block where it stood, at the start of
/// the block that tests `x`: the borrowing analysis never reaches that block (nor the code only it
/// leads to), which keeps its local loads plain. A block reached (not by an exception) from a
/// block the analysis walked (one that borrows a load) that yet borrows none of its own loads,
/// one of which it would have, was entered through such an empty block; where it ends in a test
/// that is a whole condition, the test is written `True and x`: the same truth, the same value, at
/// any optimization level.
impl<'a> super::Structurer<'a> {
    /// Is block `b` reached from the entry by jumps and falls alone, as the borrowing analysis
    /// walks (it never follows an exception to its handler: code only a handler reaches, such as
    /// a finally body's exceptional copy, keeps its loads plain whatever came before it)?
    pub(super) fn walked_to(&self, b: usize) -> bool {
        let n = self.cfg.blocks.len();
        let mut seen = vec![false; n];
        let mut todo = vec![0usize];
        while let Some(x) = todo.pop() {
            if x >= n || std::mem::replace(&mut seen[x], true) {
                continue;
            }
            if x == b {
                return true;
            }
            for e in &self.cfg.blocks[x].succs {
                if e.kind != crate::flow::EdgeKind::Exception {
                    todo.push(e.to);
                }
            }
        }
        false
    }

    /// The instructions of the blocks `b` falls into, one after another, while each is entered
    /// from the one before alone and none of them loaded a local yet (at most four blocks).
    pub(super) fn falls_on(&self, b: usize) -> Vec<&'a Instr> {
        let mut out = Vec::new();
        let mut at = b;
        for _ in 0..4 {
            let Some(next) = self.succ(at, crate::flow::EdgeKind::Fall) else {
                break;
            };
            // (into a protected range, not out of one: the code after a try body may be left
            // unwalked by the try statement itself, `else_borrow.rs`)
            let (here, there) = (
                self.cfg.blocks[at].handler.map(|h| h.0),
                self.cfg.blocks[next].handler.map(|h| h.0),
            );
            if self.cfg.blocks[next].preds.len() != 1
                || self.succ(at, crate::flow::EdgeKind::Jump).is_some()
                || (here.is_some() && here != there)
            {
                break;
            }
            let ins = self.instrs(next);
            out.extend(ins.iter().copied());
            if ins.iter().any(|i| load_kind(i.op.name).is_some()) {
                break;
            }
            at = next;
        }
        out
    }

    /// Does every block that enters `b` by a jump or a fall lie in the same exception range as
    /// `b`? Where a protected range ends (the code after a try body, or after a with body), the
    /// code after it may be left unwalked by the try statement itself (`else_borrow.rs`), and is
    /// no evidence of a dropped test.
    pub(super) fn entered_alike(&self, b: usize) -> bool {
        let range = self.cfg.blocks[b].handler.map(|h| h.0);
        self.cfg.blocks[b].preds.iter().all(|&p| {
            let normal = self.cfg.blocks[p]
                .succs
                .iter()
                .any(|e| e.to == b && e.kind != crate::flow::EdgeKind::Exception);
            !normal || self.cfg.blocks[p].handler.map(|h| h.0) == range
        })
    }

    /// Did the borrowing analysis walk to the start of block `b`: the entry, or a block entered
    /// from a walked one ([`Self::walked_into`])?
    pub(super) fn reached_start(&self, b: usize) -> bool {
        b == 0 || self.walked_into(b, 4)
    }

    pub(super) fn true_and_test(&self, b: usize, instrs: &[&Instr]) -> bool {
        if !unvisited_after(instrs) || !self.entered_alike(b) || !self.walked_to(b) {
            return false;
        }
        self.walked_into(b, 4)
    }

    /// Is there a block entering `b` (by a jump or a fall) that the borrowing analysis walked:
    /// one that borrows a load, or one that loads no local and is the entry or is entered so
    /// itself (`depth` blocks up at most)?
    fn walked_into(&self, b: usize, depth: usize) -> bool {
        self.cfg.blocks[b].preds.iter().any(|&p| {
            let normal = self.cfg.blocks[p]
                .succs
                .iter()
                .any(|e| e.to == b && e.kind != crate::flow::EdgeKind::Exception);
            if !normal || p == b {
                return false;
            }
            let loads: Vec<bool> = self
                .instrs(p)
                .iter()
                .filter_map(|i| load_kind(i.op.name))
                .collect();
            match loads.is_empty() {
                false => loads.contains(&true),
                true => p == 0 || (depth > 0 && self.walked_into(p, depth - 1)),
            }
        })
    }
}
