//! 3.11-3.13 `while True:` with `continue`: the loop's line number is a NOP at the loop's start;
//! `continue` jumps back to that NOP, the end of the body to the block after it. Both are the same
//! place (a NOP does nothing), but as two jump targets they made two nested loops, the inner one
//! left by every `continue` (read as `break`). Jumps back to the block after such a NOP go to the
//! NOP, so the loop has one header (≤3.10 has the same rule in `legacy_blocks.rs`).

use crate::flow::{Cfg, EdgeKind};
use crate::input::CodeInput;
use framejit_bytecode::Item;

/// Move the backward jumps into the block after a NOP-only loop header onto that header.
pub(super) fn merge_nop_headers(code: &CodeInput, cfg: &mut Cfg) {
    let items = &code.bytecode.items;
    let n = cfg.blocks.len();
    for p in 0..n.saturating_sub(1) {
        let x = p + 1;
        let blk = &cfg.blocks[p];
        let all_nop = !blk.instrs.is_empty()
            && blk
                .instrs
                .iter()
                .all(|&i| matches!(items.get(i), Some(Item::Instr(ins)) if ins.op.name == "NOP"));
        // (falls into the next block only, under the same handler)
        let falls_into_next = blk
            .succs
            .iter()
            .all(|e| e.to == x && e.kind != EdgeKind::Jump)
            && blk.succs.iter().any(|e| e.kind == EdgeKind::Fall)
            && blk.handler == cfg.blocks[x].handler;
        if !all_nop || !falls_into_next {
            continue;
        }
        let back_into = |t: usize, cfg: &Cfg| {
            cfg.blocks[t].preds.iter().any(|&u| {
                u >= t
                    && cfg.blocks[u]
                        .succs
                        .iter()
                        .any(|e| e.to == t && e.kind == EdgeKind::Jump)
            })
        };
        // (both loop headers: a jump back to each)
        if !back_into(p, cfg) || !back_into(x, cfg) {
            continue;
        }
        // (not an outer loop's test jumping to an inner `while True:` line: `nop_lines.rs`)
        if crate::nop_lines::jump_from_above(code, cfg, p) {
            continue;
        }
        for u in x..n {
            let mut moved = false;
            for e in cfg.blocks[u].succs.iter_mut() {
                if e.to == x && e.kind == EdgeKind::Jump {
                    e.to = p;
                    moved = true;
                }
            }
            if moved {
                if !cfg.blocks[u].succs.iter().any(|e| e.to == x) {
                    cfg.blocks[x].preds.retain(|&q| q != u);
                }
                if !cfg.blocks[p].preds.contains(&u) {
                    cfg.blocks[p].preds.push(u);
                }
            }
        }
    }
}
