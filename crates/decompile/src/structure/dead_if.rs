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

use framejit_bytecode::{Arg, Instr};

/// The local loads, plain and borrowed.
fn load_kind(name: &str) -> Option<bool> {
    match name {
        "LOAD_FAST" | "LOAD_FAST_LOAD_FAST" => Some(false),
        "LOAD_FAST_BORROW" | "LOAD_FAST_BORROW_LOAD_FAST_BORROW" => Some(true),
        _ => None,
    }
}

/// Does a plain local load at `rest[k]` have its value (values) consumed by the next instruction,
/// within the block, so that the borrowing analysis, had it run over the block, would have
/// borrowed it? Only instructions that pop the loaded value and push nothing that refers to it
/// count; a method load (`LOAD_ATTR` with its low bit) pushes the owner back for the call, which
/// must then come in the block.
fn consumed_next(rest: &[&Instr], k: usize) -> bool {
    let Some(next) = rest.get(k + 1) else {
        return false;
    };
    let pair = rest[k].op.name == "LOAD_FAST_LOAD_FAST";
    match next.op.name {
        "LOAD_ATTR" if !pair => {
            let method = matches!(next.arg, Arg::Raw(a) if a & 1 == 1);
            !method || rest[k + 2..].iter().any(|i| i.op.name == "CALL")
        }
        "TO_BOOL"
        | "RETURN_VALUE"
        | "GET_ITER"
        | "LOAD_SPECIAL"
        | "POP_JUMP_IF_NONE"
        | "POP_JUMP_IF_NOT_NONE"
            if !pair =>
        {
            true
        }
        "STORE_ATTR" | "BINARY_OP" | "COMPARE_OP" | "CONTAINS_OP" | "IS_OP" => true,
        _ => false,
    }
}

/// Is the NOP just before `rest` (the rest of its block) the trace of a dead `if` on 3.14: no
/// local load after it borrows, and one would have?
pub(super) fn unvisited_after(rest: &[&Instr]) -> bool {
    let mut would_borrow = false;
    for (k, ins) in rest.iter().enumerate() {
        match load_kind(ins.op.name) {
            Some(true) => return false,
            Some(false) => would_borrow |= consumed_next(rest, k),
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
impl super::Structurer<'_> {
    pub(super) fn true_and_test(&self, b: usize, instrs: &[&Instr]) -> bool {
        if !unvisited_after(instrs) {
            return false;
        }
        let borrows = |p: usize| {
            self.instrs(p)
                .iter()
                .any(|i| load_kind(i.op.name) == Some(true))
        };
        self.cfg.blocks[b].preds.iter().any(|&p| {
            self.cfg.blocks[p]
                .succs
                .iter()
                .any(|e| e.to == b && e.kind != crate::flow::EdgeKind::Exception)
                && borrows(p)
        })
    }
}
