//! 3.8 dead code that says how the source was laid out, kept by `legacy38::drop_dead`.

use framejit_bytecode::opcode::table;
use framejit_bytecode::{Arg, Bytecode, Instr, Item, PyVersion};

/// The jump past an `else:` the compiler writes after an `if` body ending in `raise`, `continue`
/// or `break` (3.9 keeps it too): dead, but it tells `if c: raise E` followed by code apart from `if c: raise E  else: ...`
/// (structure/legacy_layout.rs). After a `return` the peephole optimizer keeps it only behind a
/// label, the end of a statement nothing reaches (`if d: return x  else: return y`), which is as
/// telling. After a try statement whose last clause (bare `except:`) returns, the END_FINALLY
/// that ends the clauses is dead too: the jump stays, after the clause's `return`.
pub(crate) fn keep_jump_after_raise(bc: &Bytecode, live: &mut [bool]) {
    keep_jump_after_finally(bc, live);
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
                "RAISE_VARARGS" | "JUMP_ABSOLUTE" | "JUMP_FORWARD" | "RETURN_VALUE" | "RERAISE"
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
    keep_clause_exit_after_unbinding(bc, live);
    for i in 1..n.saturating_sub(1) {
        let (Item::Instr(prev), Item::Instr(pop), Item::Instr(jump)) =
            (&bc.items[i - 1], &bc.items[i], &bc.items[i + 1])
        else {
            continue;
        };
        if live[i - 1]
            && !live[i]
            && !live[i + 1]
            && matches!(prev.op.name, "JUMP_ABSOLUTE" | "RAISE_VARARGS")
            && pop.op.name == "POP_EXCEPT"
            && matches!(jump.op.name, "JUMP_FORWARD" | "JUMP_ABSOLUTE")
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
            && pop.op.name == "POP_BLOCK"
            && (ret.op.name == "RETURN_VALUE" && jump.op.name == "JUMP_FORWARD"
                || ret.op.name == "JUMP_ABSOLUTE"
                    && matches!(jump.op.name, "JUMP_FORWARD" | "JUMP_ABSOLUTE"))
        {
            live[i] = true;
            live[i + 1] = true;
        }
    }
}

/// The body's own way out (POP_BLOCK, JUMP_FORWARD) of a try/except whose body ends by raising,
/// right before the handler's first exception test (or a bare `except:`'s POP_TOP): dead, like the `else:` part it jumps to, which
/// the compiler lays out after the handler (3.9 keeps both). They are kept, from the POP_BLOCK on,
/// so the `else:` part is read as 3.9's is (structure/dead_else.rs) instead of being lost.
pub(crate) fn dead_else_entries(bc: &Bytecode, live: &[bool]) -> Vec<usize> {
    let n = bc.items.len().min(live.len());
    let mut out = Vec::new();
    for i in 1..n.saturating_sub(2) {
        let (Item::Instr(raise), Item::Instr(pop), Item::Instr(jump)) =
            (&bc.items[i - 1], &bc.items[i], &bc.items[i + 1])
        else {
            continue;
        };
        // (the handler's label, then its first exception test)
        let handler = bc.items[i + 2..]
            .iter()
            .find(|x| !matches!(x, Item::Label(_)))
            .is_some_and(
                |x| matches!(x, Item::Instr(d) if matches!(d.op.name, "DUP_TOP" | "POP_TOP")),
            );
        if live[i - 1]
            && !live[i]
            && !live[i + 1]
            && matches!(bc.items[i + 2], Item::Label(_))
            && handler
            && raise.op.name == "RAISE_VARARGS"
            && pop.op.name == "POP_BLOCK"
            && jump.op.name == "JUMP_FORWARD"
        {
            out.push(i);
        }
    }
    out
}

/// The same jump past an `else:` after an `if` body ending with a try/finally whose body never
/// completes: the lowering (legacy38.rs) ends the finally body with RERAISE and puts the label of
/// the normal path's way on (dead with that path) before the jump, where 3.9 lays the same jump
/// out after its RERAISE too. The jump is kept as after a clause's re-raise.
fn keep_jump_after_finally(bc: &Bytecode, live: &mut [bool]) {
    let n = bc.items.len().min(live.len());
    for i in 2..n {
        let Item::Instr(jump) = &bc.items[i] else {
            continue;
        };
        if live[i] || !matches!(jump.op.name, "JUMP_FORWARD" | "JUMP_ABSOLUTE") {
            continue;
        }
        let Some(k) = (0..i)
            .rev()
            .find(|&k| !matches!(bc.items[k], Item::Label(_)))
        else {
            continue;
        };
        if k + 1 == i {
            continue;
        }
        if live[k] && matches!(&bc.items[k], Item::Instr(r) if r.op.name == "RERAISE") {
            live[i] = true;
        }
    }
}

/// The same way out of an `except E as name:` clause that left (`return`, `raise`, `break`): 3.8
/// lays it out after the handler that unbinds the name (its END_FINALLY lowered to RERAISE, then
/// the label of the clause's normal way on, dead with it), where it still names the end of the
/// try statement, and so how far its `else:` runs (3.9 writes the unbinding's copy and the way out
/// after the clause's body, where the peephole optimizer drops them after a `return`).
fn keep_clause_exit_after_unbinding(bc: &Bytecode, live: &mut [bool]) {
    let n = bc.items.len().min(live.len());
    for i in 2..n.saturating_sub(1) {
        let (Item::Instr(pop), Item::Instr(jump)) = (&bc.items[i], &bc.items[i + 1]) else {
            continue;
        };
        if live[i]
            || live[i + 1]
            || pop.op.name != "POP_EXCEPT"
            || !matches!(jump.op.name, "JUMP_FORWARD" | "JUMP_ABSOLUTE")
            || !matches!(bc.items[i - 1], Item::Label(_))
        {
            continue;
        }
        let Some(k) = (0..i)
            .rev()
            .find(|&k| !matches!(bc.items[k], Item::Label(_)))
        else {
            continue;
        };
        // (the unbinding: `name = None; del name`, then the re-raise)
        let names: Vec<&str> = bc.items[k.saturating_sub(3)..=k]
            .iter()
            .filter_map(|x| match x {
                Item::Instr(ins) => Some(ins.op.name),
                _ => None,
            })
            .collect();
        let unbinds = matches!(
            names[..],
            [
                "LOAD_CONST",
                "STORE_FAST" | "STORE_NAME" | "STORE_GLOBAL" | "STORE_DEREF",
                "DELETE_FAST" | "DELETE_NAME" | "DELETE_GLOBAL" | "DELETE_DEREF",
                "RERAISE"
            ]
        );
        if live[k] && unbinds {
            live[i] = true;
            live[i + 1] = true;
        }
    }
}

/// The END_FINALLY after a bare `except:` clause's own way out (POP_EXCEPT and its jump, no label
/// between: nothing jumps there, nothing falls in), where no exception is left to re-raise: dead,
/// and written RERAISE as 3.9 writes it; kept (`keep_bare_except_end`), since it tells where the
/// clause ends (3.9 keeps it too, structure/legacy_loop_exits.rs `clause_layout_end`).
pub(crate) fn bare_except_reraise(bc: &mut Bytecode) {
    let Some(reraise) = table(PyVersion::V3_9).by_name("RERAISE") else {
        return;
    };
    for i in 2..bc.items.len() {
        let names = [i - 2, i - 1, i].map(|k| match &bc.items[k] {
            Item::Instr(ins) => ins.op.name,
            _ => "",
        });
        if names[0] == "POP_EXCEPT"
            && matches!(names[1], "JUMP_FORWARD" | "JUMP_ABSOLUTE")
            && names[2] == "END_FINALLY"
        {
            if let Item::Instr(ins) = &mut bc.items[i] {
                *ins = Instr::new(reraise, Arg::Raw(0), ins.loc);
            }
        }
    }
}

/// Keep the RERAISE [`bare_except_reraise`] wrote.
pub(crate) fn keep_bare_except_end(bc: &Bytecode, live: &mut [bool]) {
    let n = bc.items.len().min(live.len());
    for i in 2..n {
        let names = [i - 2, i - 1, i].map(|k| match &bc.items[k] {
            Item::Instr(ins) => ins.op.name,
            _ => "",
        });
        if live[i - 1]
            && live[i - 2]
            && names[0] == "POP_EXCEPT"
            && matches!(names[1], "JUMP_FORWARD" | "JUMP_ABSOLUTE")
            && names[2] == "RERAISE"
        {
            live[i] = true;
        }
    }
}
