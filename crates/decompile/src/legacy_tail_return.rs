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
    if !matches!(name(before), Some(n) if ends_flow(n)) {
        return false;
    }
    // (a jump to it that nothing reaches either, such as the way out of a try body whose
    // `while True:` loop never ends, leaves it dead: `try: while True: ... except E: return`)
    if !reachable(items)[load] {
        return true;
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

/// An instruction after which control never goes on to the next one.
fn ends_flow(name: &str) -> bool {
    matches!(
        name,
        "RETURN_VALUE" | "RAISE_VARARGS" | "RERAISE" | "JUMP_ABSOLUTE" | "JUMP_FORWARD"
    )
}

/// Which items control can get to from the first: through the next item unless an instruction
/// ends the flow, and to each instruction's target (a jump, or a block setup's handler). Every
/// other instruction is taken to go on to the next one too, so this may over-count, never
/// under-count (3.8's END_FINALLY, which may re-raise, is taken as going on).
fn reachable(items: &[Item]) -> Vec<bool> {
    let at: std::collections::HashMap<Label, usize> = items
        .iter()
        .enumerate()
        .filter_map(|(k, it)| match it {
            Item::Label(l) => Some((*l, k)),
            _ => None,
        })
        .collect();
    let mut seen = vec![false; items.len()];
    let mut todo = vec![0usize];
    while let Some(k) = todo.pop() {
        if k >= items.len() || std::mem::replace(&mut seen[k], true) {
            continue;
        }
        match &items[k] {
            Item::Instr(x) => {
                if let Some(&t) = x.target().as_ref().and_then(|t| at.get(t)) {
                    todo.push(t);
                }
                if !ends_flow(x.op.name) {
                    todo.push(k + 1);
                }
            }
            _ => todo.push(k + 1),
        }
    }
    seen
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
