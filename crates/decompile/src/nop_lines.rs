//! A loop header that is a line-number NOP (the `while` line, 3.10-3.13) and the block after it
//! are one place: `continue` jumps to the NOP, the end of the body to the block after it, so the
//! jumps to the block after are moved onto the NOP (`legacy_blocks.rs`, `structure/nop_header.rs`).
//! Not where a jump to the NOP comes from a line above it: that is the bottom test of an outer
//! `while c:` loop whose body starts with the inner `while True:` (whose line the NOP is). There
//! the jump to the block after the NOP is the inner loop's own end, and merging made one loop of
//! the two, the inner loop's jump back read as `continue` of the outer one, which tests `c` again.

use crate::flow::{Cfg, EdgeKind};
use crate::input::CodeInput;
use framejit_bytecode::Item;

/// Does a jump back into block `p` (a NOP-only block; from a block laid out after it: not a jump
/// into the loop from the code before it) come from an instruction whose line is above the NOP's?
pub(crate) fn jump_from_above(code: &CodeInput, cfg: &Cfg, p: usize) -> bool {
    let items = &code.bytecode.items;
    let line = |i: usize| match items.get(i) {
        Some(Item::Instr(ins)) => ins.loc.line,
        _ => None,
    };
    let Some(nop) = cfg.blocks[p].instrs.first().and_then(|&i| line(i)) else {
        return false;
    };
    cfg.blocks[p].preds.iter().filter(|&&u| u > p).any(|&u| {
        let jumps = cfg.blocks[u]
            .succs
            .iter()
            .any(|e| e.to == p && e.kind == EdgeKind::Jump);
        let at = cfg.blocks[u].instrs.last().and_then(|&i| line(i));
        jumps && at.is_some_and(|l| l < nop)
    })
}
