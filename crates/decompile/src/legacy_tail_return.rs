//! 3.8 / 3.9 functions whose every way ends by leaving: the compiler's own closing `return None`
//! is then dead code after the last statement (3.8/3.9 keep it; legacy38 keeps it for 3.8), so a
//! `return None` ending the decompiled body, or an arm of its final statement, was written.

use crate::input::CodeInput;
use framejit_bytecode::{Item, Label, PyVersion};

/// Is the code's closing LOAD_CONST / RETURN_VALUE unreachable: after an instruction that does
/// not go on to it (a return, raise or jump), with no jump to it? ≤3.9 only.
pub(crate) fn implicit_return_dead(code: &CodeInput) -> bool {
    if code.version > PyVersion::V3_9 {
        return false;
    }
    let items = &code.bytecode.items;
    let instrs: Vec<usize> = (0..items.len())
        .filter(|&i| matches!(items[i], Item::Instr(_)))
        .collect();
    let [.., before, load, ret] = instrs[..] else {
        return false;
    };
    let name = |i: usize| match &items[i] {
        Item::Instr(x) => Some(x.op.name),
        _ => None,
    };
    if name(load) != Some("LOAD_CONST") || name(ret) != Some("RETURN_VALUE") {
        return false;
    }
    if !matches!(
        name(before),
        Some("RETURN_VALUE" | "RAISE_VARARGS" | "RERAISE" | "JUMP_ABSOLUTE" | "JUMP_FORWARD")
    ) {
        return false;
    }
    // labels between them that some jump (or block setup) goes to
    let labels: Vec<Label> = items[before + 1..load]
        .iter()
        .filter_map(|it| match it {
            Item::Label(l) => Some(*l),
            _ => None,
        })
        .collect();
    !items.iter().any(|it| match it {
        Item::Instr(x) => x.target().is_some_and(|t| labels.contains(&t)),
        _ => false,
    })
}

/// ≤3.9: the compiler writes the closing `return None` once, as the last block, and copies no
/// `return` into the ways through the statement before it (3.10 does). Where the body ends in
/// that `return None`, it alone is the compiler's: drop it, and keep the `return`s that end the
/// arms of the statement before, which are the source's own. `true` when done so.
pub(crate) fn closing_return_only(body: &mut Vec<crate::ast::Stmt>, version: PyVersion) -> bool {
    if version > PyVersion::V3_9 || !body.last().is_some_and(crate::returns_none) {
        return false;
    }
    body.pop();
    true
}
