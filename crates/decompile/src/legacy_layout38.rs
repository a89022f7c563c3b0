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
