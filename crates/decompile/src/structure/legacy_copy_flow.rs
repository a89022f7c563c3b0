//! ≤3.10 control flow inside the code the compiler copies where a try body is left: `return v`
//! through `finally: if c: ...` computes v inside the protected range, pops the block, runs the
//! finally body's copy (with v waiting under it) and returns. A branch of that copy lies outside
//! the range already: its arms meet where the copy's `if` ends, as any `if`'s do (the rule that
//! keeps arms apart where one leaves the range through its copy does not apply).

use super::Structurer;
use crate::ast::{ExceptHandler, Expr, Stmt};
use crate::exprs::POP_EXCEPT;
use crate::flow::EdgeKind;

/// Is block `b` outside the protected range of handler `h` (not covered by `h`, nor by a handler
/// whose own code `h` covers)?
pub(super) fn in_exit_copy(s: &Structurer<'_>, b: usize, h: usize) -> bool {
    let mut cur = s.cfg.blocks[b].handler.map(|t| t.0);
    let mut steps = 0;
    while let Some(c) = cur {
        if c == h {
            return false;
        }
        steps += 1;
        if steps > s.cfg.blocks.len() {
            return false;
        }
        cur = s.cfg.blocks[c].handler.map(|t| t.0);
    }
    true
}

/// The stack depth at the start of the try body protected by handler `h` (the block after its
/// SETUP_FINALLY), where the setup is known (not a `with`, whose body starts with the entered
/// value on the stack); the normal way out of the body leaves with that depth.
pub(super) fn body_depth(s: &Structurer<'_>, h: usize) -> Option<u32> {
    let setups: Vec<usize> = s.cfg.blocks[h]
        .preds
        .iter()
        .copied()
        .filter(|&p| {
            s.cfg.blocks[p]
                .succs
                .iter()
                .any(|e| e.to == h && e.kind == EdgeKind::Exception)
                && s.instrs(p)
                    .last()
                    .is_some_and(|i| i.op.name == "SETUP_FINALLY")
        })
        .collect();
    let [p] = setups.as_slice() else {
        return None;
    };
    let body = s.succ(*p, EdgeKind::Fall)?;
    s.entry_depth[body]
}

/// Except clauses whose code after POP_EXCEPT (`tails`, per clause) is not the code after the
/// statement but a way out of an enclosing try / with (`break`, `continue`, `return` of a name or
/// constant) after that statement's cleanup, copied there by the compiler (`try: try: ... except
/// E: break  finally: F` runs F after the clause's POP_EXCEPT, then leaves). Each such tail goes
/// back to the end of its clause after a POP_EXCEPT marker: the enclosing statement's
/// `strip_copies` takes the copy off with the marker (`except_exit::drop_marker_before`); a marker
/// nothing takes off refuses the code object. False (nothing changed) where a tail is not a copy
/// followed by a way out.
pub(super) fn enclosing_copies(
    handlers: &mut [ExceptHandler],
    tails: &[Option<Vec<Stmt>>],
) -> bool {
    let leaving = |s: &Stmt| match s {
        Stmt::Break | Stmt::Continue => true,
        Stmt::Return { value } => matches!(
            value,
            None | Some(Expr::Name { .. } | Expr::Constant { .. })
        ),
        _ => false,
    };
    let shaped = |t: &Vec<Stmt>| t.len() >= 2 && t.last().is_some_and(leaving);
    if handlers.len() != tails.len() || !tails.iter().flatten().all(shaped) {
        return false;
    }
    if tails.iter().all(|t| t.is_none()) {
        return false;
    }
    for (h, t) in handlers.iter_mut().zip(tails) {
        let Some(t) = t else { continue };
        if h.body == [Stmt::Pass] {
            h.body.clear();
        }
        h.body.push(Stmt::Expr {
            value: Expr::name(POP_EXCEPT),
        });
        h.body.extend(t.iter().cloned());
    }
    true
}

/// Is the innermost try body being structured a try/finally's or a with statement's (its handler
/// not except clauses)? `strip_copies` takes a finally body's copy, or a with statement's exit
/// call, off a way out, with the POP_EXCEPT marker before it.
pub(super) fn in_finally_body(s: &Structurer<'_>) -> bool {
    let Some(&(h, _)) = s.try_body.last() else {
        return false;
    };
    !matches!(
        s.instrs(h).first().map(|i| i.op.name),
        Some("DUP_TOP" | "POP_TOP") | None
    )
}
