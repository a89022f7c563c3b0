//! 3.10 with statements whose body never completes normally, inside a `while c:` loop (or
//! followed by an `if`): the code after the statement ends in a conditional jump (the loop's
//! rotated bottom test, an `if` test) and nothing but the handler's suppressed path reaches it,
//! so the compiler lays it out in the suppressed path's block, right after its pops
//! (POP_TOP ×3, POP_EXCEPT, POP_TOP). Where the body does complete, its way out jumps there and
//! that code starts a block of its own. Splitting the block after the pops gives the layout the
//! `with` structuring reads (the code after the statement where the suppressed path goes on).
//!
//! 3.10 copies only small blocks that leave (ending in RETURN_VALUE / RAISE_VARARGS / RERAISE)
//! into a way that jumps to them, never a block ending in a conditional jump: code there ending
//! so is the code after the statement itself, not a copy (those stay as they are: the handler's
//! reading compares them with the body's normal way out).

use super::with_tail_split::split_block;
use crate::flow::{Cfg, EdgeKind};
use crate::input::CodeInput;
use framejit_bytecode::{Item, PyVersion};

/// Split each 3.10 with handler's suppressed-path block whose pops are followed, in the same
/// block, by code ending in a conditional jump, after the pops.
pub(super) fn split_suppressed_tests(code: &CodeInput, cfg: &mut Cfg) {
    if code.version != PyVersion::V3_10 {
        return;
    }
    let name = |i: usize| match code.bytecode.items.get(i) {
        Some(Item::Instr(ins)) => Some(ins.op.name),
        _ => None,
    };
    let names = |b: usize| -> Vec<&str> {
        cfg.blocks[b]
            .instrs
            .iter()
            .filter_map(|&i| name(i))
            .collect()
    };
    let mut at = Vec::new();
    for (b, blk) in cfg.blocks.iter().enumerate() {
        // (the handler's test: WITH_EXCEPT_START, for `async with` its result awaited, then
        // POP_JUMP_IF_TRUE to the suppressed path)
        let test = names(b);
        let handler_test = matches!(
            test[..],
            ["WITH_EXCEPT_START", "POP_JUMP_IF_TRUE"]
                | [
                    "WITH_EXCEPT_START",
                    "GET_AWAITABLE",
                    "LOAD_CONST",
                    "YIELD_FROM",
                    "POP_JUMP_IF_TRUE"
                ]
        );
        if !handler_test {
            continue;
        }
        let Some(x) = blk
            .succs
            .iter()
            .find(|e| e.kind == EdgeKind::Jump)
            .map(|e| e.to)
        else {
            continue;
        };
        let sup = names(x);
        let pops = ["POP_TOP", "POP_TOP", "POP_TOP", "POP_EXCEPT", "POP_TOP"];
        if sup.len() <= pops.len()
            || sup[..pops.len()] != pops
            || cfg.blocks[x].preds.len() != 1
            || cfg.blocks[x].instrs.len() != sup.len()
        {
            continue;
        }
        let rest = &sup[pops.len()..];
        let ends_in_test = rest.last().is_some_and(|n| {
            matches!(
                *n,
                "POP_JUMP_IF_TRUE"
                    | "POP_JUMP_IF_FALSE"
                    | "JUMP_IF_TRUE_OR_POP"
                    | "JUMP_IF_FALSE_OR_POP"
            )
        });
        let leaves = rest
            .iter()
            .any(|n| matches!(*n, "RETURN_VALUE" | "RAISE_VARARGS" | "RERAISE"));
        if ends_in_test && !leaves {
            at.push((x, pops.len()));
        }
    }
    at.sort_unstable();
    at.dedup_by_key(|s| s.0);
    for &(b, k) in at.iter().rev() {
        split_block(cfg, b, k);
    }
}
