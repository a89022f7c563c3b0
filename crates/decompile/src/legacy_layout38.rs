//! 3.8 dead code that says how the source was laid out, kept by `legacy38::drop_dead`.

use framejit_bytecode::{Bytecode, Item};

/// The jump past an `else:` the compiler writes after an `if` body ending in `raise`, `continue`
/// or `break` (3.9 keeps it too): dead, but it tells `if c: raise E` followed by code apart from `if c: raise E  else: ...`
/// (structure/legacy_layout.rs). After a `return` the peephole optimizer keeps it only behind a
/// label, the end of a statement nothing reaches (`if d: return x  else: return y`), which is as
/// telling. After a try statement whose last clause (bare `except:`) returns, the END_FINALLY
/// that ends the clauses is dead too: the jump stays, after the clause's `return`.
pub(crate) fn keep_jump_after_raise(bc: &Bytecode, live: &mut [bool]) {
    for i in 1..bc.items.len().min(live.len()) {
        let (Item::Instr(prev), Item::Instr(ins)) = (&bc.items[i - 1], &bc.items[i]) else {
            continue;
        };
        let after_clauses = i >= 2
            && !live[i - 1]
            && live[i - 2]
            && matches!(prev.op.name, "END_FINALLY" | "RERAISE")
            && matches!(&bc.items[i - 2], Item::Instr(r) if r.op.name == "RETURN_VALUE");
        if after_clauses && !live[i] && matches!(ins.op.name, "JUMP_FORWARD" | "JUMP_ABSOLUTE") {
            live[i] = true;
            continue;
        }
        if live[i - 1]
            && !live[i]
            && matches!(
                prev.op.name,
                "RAISE_VARARGS" | "JUMP_ABSOLUTE" | "JUMP_FORWARD" | "RETURN_VALUE"
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

/// A try body's own way out (POP_BLOCK, JUMP_FORWARD) dead after a `return` (3.9 keeps it too):
/// the peephole optimizer leaves it only behind a label, the end of a statement nothing gets
/// past, which tells `if c: return x  else: return y` ending the body apart from `if c: return
/// x` followed by `return y` (structure/legacy_try_end.rs, `legacy_dead_body_exit`).
pub(crate) fn keep_body_exit_after_return(bc: &Bytecode, live: &mut [bool]) {
    let n = bc.items.len().min(live.len());
    for i in 1..n.saturating_sub(1) {
        let (Item::Instr(ret), Item::Instr(pop), Item::Instr(jump)) =
            (&bc.items[i - 1], &bc.items[i], &bc.items[i + 1])
        else {
            continue;
        };
        if live[i - 1]
            && !live[i]
            && !live[i + 1]
            && ret.op.name == "RETURN_VALUE"
            && pop.op.name == "POP_BLOCK"
            && jump.op.name == "JUMP_FORWARD"
        {
            live[i] = true;
            live[i + 1] = true;
        }
    }
}
