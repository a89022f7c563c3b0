//! 3.8 dead code that says how the source was laid out, kept by `legacy38::drop_dead`.

use framejit_bytecode::{Bytecode, Item};

/// The jump past an `else:` the compiler writes after an `if` body ending in `raise`, `continue`
/// or `break` (3.9 keeps it too): dead, but it tells `if c: raise E` followed by code apart from `if c: raise E  else: ...`
/// (structure/legacy_layout.rs).
pub(crate) fn keep_jump_after_raise(bc: &Bytecode, live: &mut [bool]) {
    for i in 1..bc.items.len().min(live.len()) {
        let (Item::Instr(prev), Item::Instr(ins)) = (&bc.items[i - 1], &bc.items[i]) else {
            continue;
        };
        if live[i - 1]
            && !live[i]
            && matches!(
                prev.op.name,
                "RAISE_VARARGS" | "JUMP_ABSOLUTE" | "JUMP_FORWARD"
            )
            && matches!(ins.op.name, "JUMP_FORWARD" | "JUMP_ABSOLUTE")
        {
            live[i] = true;
        }
    }
}

/// The except clause's own way out (POP_EXCEPT, JUMP_FORWARD) the compiler writes after a clause
/// ending in `continue` (3.9 keeps it too): dead, but it tells `except E: continue` apart from a
/// clause whose way out the peephole optimizer threaded to the loop's header because the try
/// statement ends the loop body (structure/legacy_loop_exits.rs).
pub(crate) fn keep_clause_exit_after_continue(bc: &Bytecode, live: &mut [bool]) {
    let n = bc.items.len().min(live.len());
    for i in 1..n.saturating_sub(1) {
        let (Item::Instr(prev), Item::Instr(pop), Item::Instr(jump)) =
            (&bc.items[i - 1], &bc.items[i], &bc.items[i + 1])
        else {
            continue;
        };
        if live[i - 1]
            && !live[i]
            && !live[i + 1]
            && prev.op.name == "JUMP_ABSOLUTE"
            && pop.op.name == "POP_EXCEPT"
            && jump.op.name == "JUMP_FORWARD"
        {
            live[i] = true;
            live[i + 1] = true;
        }
    }
}
