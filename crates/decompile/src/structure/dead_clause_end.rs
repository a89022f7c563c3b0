//! 3.9: the dead end of an except clause that left by `break` / `return` / `continue` through a
//! finally body.
//!
//! Where an except clause inside `try: ... finally:` leaves the statement (`break`, `return`,
//! `continue`), 3.9's compiler writes the clause's way out (POP_EXCEPT; POP_BLOCK; the finally
//! body's copy; the exit) and after it still the clause's usual end, POP_EXCEPT and a jump to the
//! statement's normal exit, which nothing reaches (3.10 no longer writes it; the 3.8 lowering
//! drops it with the rest of the dead code). Its edge makes the normal exit look reached from the
//! clause as well, so the normal path's copy of the finally body seemed to be shared by the clause
//! and came out twice. The edge is cut here (the instructions stay: they are dead either way).

use crate::flow::Cfg;
use crate::input::CodeInput;
use framejit_bytecode::{Item, PyVersion};

/// Cut the edges out of unreachable blocks that are only POP_EXCEPT and a jump.
pub(super) fn cut_dead_clause_ends(code: &CodeInput, cfg: &mut Cfg) {
    if code.bytecode.version > PyVersion::V3_9 {
        return;
    }
    let n = cfg.blocks.len();
    let mut seen = vec![false; n];
    let mut todo = vec![0usize];
    while let Some(b) = todo.pop() {
        if b >= n || std::mem::replace(&mut seen[b], true) {
            continue;
        }
        todo.extend(cfg.blocks[b].succs.iter().map(|e| e.to));
    }
    for (b, _) in seen.iter().enumerate().filter(|(_, &s)| !s) {
        let names: Vec<&str> = cfg.blocks[b]
            .instrs
            .iter()
            .filter_map(|&i| match code.bytecode.items.get(i) {
                Some(Item::Instr(ins)) => Some(ins.op.name),
                _ => None,
            })
            .collect();
        if !matches!(
            names.as_slice(),
            ["POP_EXCEPT", "JUMP_FORWARD" | "JUMP_ABSOLUTE"]
        ) {
            continue;
        }
        let succs = std::mem::take(&mut cfg.blocks[b].succs);
        for e in succs {
            if let Some(t) = cfg.blocks.get_mut(e.to) {
                t.preds.retain(|&p| p != b);
            }
        }
    }
}
