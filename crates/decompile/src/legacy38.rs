//! CPython 3.8 `finally` and `with` exits laid out as 3.9 lays them out, before the flow graph is
//! built.
//!
//! 3.8 runs a `finally` body as a subroutine: the body's normal end falls into it after
//! BEGIN_FINALLY (which pushes NULL), a `return` / `break` / `continue` leaving the try body jumps
//! into it with CALL_FINALLY (which pushes the way back), an exception enters it as the handler of
//! SETUP_FINALLY, and END_FINALLY at its end goes on, jumps back or re-raises depending on what it
//! finds on the stack. 3.9 and later compile the same statement with the finally body copied onto
//! each of those paths and the handler ending in RERAISE. The control flow is the same; this pass
//! makes the copies (sharing the instructions, with fresh labels) so the ≤3.10 structuring reads
//! both versions alike:
//! - the normal path: `POP_BLOCK; BEGIN_FINALLY; L: F; END_FINALLY; X` becomes
//!   `POP_BLOCK; F'; JUMP_FORWARD X'; L: F; RERAISE; X': X`;
//! - each `CALL_FINALLY L; Y` becomes `F''; Y`.
//!
//! A `with` statement's normal end falls into the handler's WITH_CLEANUP_START too: it gets the
//! sequence the compiler writes for a `return` through the `with` (BEGIN_FINALLY;
//! WITH_CLEANUP_START; WITH_CLEANUP_FINISH; POP_FINALLY 0), and the handler a label after its
//! END_FINALLY, so it is a block of its own.
//!
//! The finally body is the code from the handler's label to the first END_FINALLY at the handler's
//! own stack depth (nested statements' END_FINALLY run deeper). A body that jumps out of that
//! range, or leaves by POP_FINALLY (`return` / `break` inside a `finally`), is left as it is, and
//! the structurer refuses it.

use framejit_bytecode::opcode::table;
use framejit_bytecode::{Arg, Bytecode, Instr, Item, Label, PyVersion};

/// Copy `bc` (3.8 only; anything else comes back unchanged) with its finally bodies and with exits
/// copied onto their paths; `offsets` (the byte offset of each item) follows the items, copies
/// keeping their original's.
pub(crate) fn lower(bc: &mut Bytecode, offsets: &mut Vec<u32>) {
    if bc.version != PyVersion::V3_8 || offsets.len() != bc.items.len() {
        return;
    }
    // `return x` in `except T as name:` moves x under the saved exception before leaving the
    // name's try/finally (3.9: after; POP_BLOCK does not touch the value stack)
    for i in 0..bc.items.len().saturating_sub(2) {
        let names: Vec<&str> = (i..i + 3)
            .map(|k| item_instr(bc, k).map_or("", |x| x.op.name))
            .collect();
        if names == ["ROT_FOUR", "POP_BLOCK", "POP_EXCEPT"] {
            bc.items.swap(i, i + 1);
            offsets.swap(i, i + 1);
        }
    }
    let mut done: Vec<Label> = Vec::new();
    // the labels after with statements' handlers: each handler is a block of its own
    let mut keep: Vec<Label> = Vec::new();
    // each round lowers one statement (innermost first) and re-reads the stack depths
    for _ in 0..512 {
        let Ok(depths) = framejit_bytecode::assemble::instruction_depths(bc) else {
            return;
        };
        let Some((setup, group)) = last_setup(bc, &done) else {
            crate::legacy_layout38::bare_except_reraise(bc);
            drop_dead(bc, offsets, &keep);
            debug_dump(bc);
            return;
        };
        let label = match item_instr(bc, setup).and_then(Instr::target) {
            Some(l) => l,
            None => return,
        };
        done.push(label);
        let is_with = item_instr(bc, setup)
            .is_some_and(|i| matches!(i.op.name, "SETUP_WITH" | "SETUP_ASYNC_WITH"));
        if is_with {
            keep.extend(lower_with(bc, offsets, group));
        } else {
            lower_finally(bc, offsets, &depths, setup, group);
        }
    }
}

/// (FRAMEJIT_DEBUG_LOWER38=1 prints the lowered items, for whoever works on the decompiler)
fn debug_dump(bc: &Bytecode) {
    if std::env::var_os("FRAMEJIT_DEBUG_LOWER38").is_none() {
        return;
    }
    for item in &bc.items {
        match item {
            Item::Label(l) => eprintln!("  {l:?}:"),
            Item::Instr(ins) => eprintln!("      {} {:?}", ins.op.name, ins.arg),
            other => eprintln!("      {other:?}"),
        }
    }
}

fn item_instr(bc: &Bytecode, i: usize) -> Option<&Instr> {
    match bc.items.get(i) {
        Some(Item::Instr(ins)) => Some(ins),
        _ => None,
    }
}

/// The SETUP_FINALLY / SETUP_WITH not yet looked at whose handler comes last in code order, and the
/// item range of the labels at its handler's start.
fn last_setup(bc: &Bytecode, done: &[Label]) -> Option<(usize, (usize, usize))> {
    let mut best: Option<(usize, (usize, usize))> = None;
    for (i, item) in bc.items.iter().enumerate() {
        let Item::Instr(ins) = item else { continue };
        if !matches!(
            ins.op.name,
            "SETUP_FINALLY" | "SETUP_WITH" | "SETUP_ASYNC_WITH"
        ) {
            continue;
        }
        let Some(l) = ins.target() else { continue };
        if done.contains(&l) {
            continue;
        }
        let Some(p) = bc
            .items
            .iter()
            .position(|x| matches!(x, Item::Label(y) if *y == l))
        else {
            continue;
        };
        // the labels around it, up to the first instruction
        let mut lo = p;
        while lo > 0 && matches!(bc.items[lo - 1], Item::Label(_)) {
            lo -= 1;
        }
        let mut hi = p;
        while matches!(bc.items.get(hi), Some(Item::Label(_))) {
            hi += 1;
        }
        if best.is_none_or(|(_, (blo, _))| lo > blo) {
            best = Some((i, (lo, hi)));
        }
    }
    best
}

/// The instruction before item `i` (labels skipped), if it is `name`.
fn instr_before(bc: &Bytecode, i: usize, name: &str) -> Option<usize> {
    let k = i.checked_sub(1)?;
    match &bc.items[k] {
        Item::Instr(ins) if ins.op.name == name => Some(k),
        _ => None,
    }
}

/// A 3.8 `with` statement's handler: `__exit__` called, the exception suppressed or re-raised.
pub(crate) const WITH_CLEANUP: [&str; 3] =
    ["WITH_CLEANUP_START", "WITH_CLEANUP_FINISH", "END_FINALLY"];
/// The same for `async with`, whose `__aexit__` call is awaited.
pub(crate) const ASYNC_WITH_CLEANUP: [&str; 6] = [
    "WITH_CLEANUP_START",
    "GET_AWAITABLE",
    "LOAD_CONST",
    "YIELD_FROM",
    "WITH_CLEANUP_FINISH",
    "END_FINALLY",
];

fn lower_with(
    bc: &mut Bytecode,
    offsets: &mut Vec<u32>,
    (lo, hi): (usize, usize),
) -> Option<Label> {
    // (`async with`: the exit call's result awaited before WITH_CLEANUP_FINISH)
    let k = match item_instr(bc, hi + 1).map(|x| x.op.name) {
        Some("GET_AWAITABLE") => 6,
        _ => 3,
    };
    let names: Vec<&str> = (hi..hi + k)
        .map(|i| item_instr(bc, i).map_or("", |x| x.op.name))
        .collect();
    if names[..] != WITH_CLEANUP[..] && names[..] != ASYNC_WITH_CLEANUP[..]
        || item_instr(bc, hi + k).is_none() && !matches!(bc.items.get(hi + k), Some(Item::Label(_)))
    {
        return None;
    }
    let (Some(pop_finally), Some(jump)) = (
        bc.table().by_name("POP_FINALLY"),
        bc.table().by_name("JUMP_FORWARD"),
    ) else {
        return None;
    };
    let after = bc.new_label();
    let end = hi + k;
    let begin = instr_before(bc, lo, "BEGIN_FINALLY");
    let mut items: Vec<(Item, u32)> = Vec::with_capacity(bc.items.len() + 8);
    for (i, (item, &off)) in bc.items.iter().zip(offsets.iter()).enumerate() {
        if i == end {
            items.push((Item::Label(after), off));
        }
        items.push((*item, off));
        if Some(i) == begin {
            // the normal path runs the exit as a `return` through the with does
            let Item::Instr(b) = item else { return None };
            for (item, &o) in bc.items[hi..end - 1].iter().zip(&offsets[hi..end - 1]) {
                items.push((*item, o));
            }
            items.push((
                Item::Instr(Instr::new(pop_finally, Arg::Raw(0), b.loc)),
                off,
            ));
            items.push((Item::Instr(Instr::new(jump, Arg::Jump(after), b.loc)), off));
        }
    }
    store(bc, offsets, items);
    Some(after)
}

fn store(bc: &mut Bytecode, offsets: &mut Vec<u32>, items: Vec<(Item, u32)>) {
    let (i, o): (Vec<Item>, Vec<u32>) = items.into_iter().unzip();
    bc.items = i;
    *offsets = o;
}

fn lower_finally(
    bc: &mut Bytecode,
    offsets: &mut Vec<u32>,
    depths: &[Option<u32>],
    setup: usize,
    (lo, hi): (usize, usize),
) {
    let Some(first) = item_instr(bc, hi) else {
        return;
    };
    let Some(d) = depths.get(hi).copied().flatten() else {
        return;
    };
    if first.op.name == "DUP_TOP" {
        // except clauses with exception tests: the END_FINALLY after the last test re-raises (3.9:
        // RERAISE), whatever follows it is dead
        except_reraise(bc, depths, hi, d);
        return;
    }
    // a bare except clause, or a with statement's handler: not a finally body (END_FINALLY
    // first: an empty one, `finally: pass`, lowered alike, its copies empty)
    if matches!(first.op.name, "POP_TOP" | "WITH_CLEANUP_START") {
        return;
    }
    // (a RERAISE there: a copy of a handler this pass made already)
    let Some(end) = (hi..bc.items.len()).find(|&i| {
        item_instr(bc, i).is_some_and(|x| matches!(x.op.name, "END_FINALLY" | "RERAISE"))
            && (depths.get(i).copied().flatten() == Some(d) || ends_by_raising(bc, depths, i, d))
    }) else {
        return;
    };
    if item_instr(bc, end).is_some_and(|x| x.op.name == "RERAISE") {
        return;
    }
    if item_instr(bc, end + 1).is_none() && !matches!(bc.items.get(end + 1), Some(Item::Label(_))) {
        return;
    }
    let group: Vec<Label> = bc.items[lo..hi]
        .iter()
        .filter_map(|x| match x {
            Item::Label(l) => Some(*l),
            _ => None,
        })
        .collect();
    let inner: Vec<Label> = bc.items[hi..end]
        .iter()
        .filter_map(|x| match x {
            Item::Label(l) => Some(*l),
            _ => None,
        })
        .collect();
    // the body's jumps stay inside it; only the setup and CALL_FINALLY enter it from outside
    let mut calls = Vec::new();
    for (i, item) in bc.items.iter().enumerate() {
        let Item::Instr(ins) = item else { continue };
        let inside = (hi..end).contains(&i);
        // (a with statement's exit in the body ends with POP_FINALLY 0 too)
        let with_exit =
            i > 0 && item_instr(bc, i - 1).is_some_and(|p| p.op.name == "WITH_CLEANUP_FINISH");
        if inside && ins.op.name == "POP_FINALLY" && !with_exit {
            return;
        }
        let Some(t) = ins.target() else { continue };
        if inside {
            if !group.contains(&t) && !inner.contains(&t) {
                return;
            }
        } else if group.contains(&t) {
            match ins.op.name {
                "CALL_FINALLY" => calls.push(i),
                _ if i == setup => {}
                _ => return,
            }
        } else if inner.contains(&t) {
            return;
        }
    }
    let (Some(jump), Some(reraise)) = (
        bc.table().by_name("JUMP_FORWARD"),
        table(PyVersion::V3_9).by_name("RERAISE"),
    ) else {
        return;
    };
    let begin = instr_before(bc, lo, "BEGIN_FINALLY");
    let after = bc.new_label();
    let mut items: Vec<(Item, u32)> = Vec::with_capacity(bc.items.len() * 2);
    let n = bc.items.len();
    for i in 0..n {
        let off = offsets[i];
        if i == end {
            let Item::Instr(e) = &bc.items[i] else { return };
            items.push((Item::Instr(Instr::new(reraise, Arg::Raw(0), e.loc)), off));
            items.push((Item::Label(after), off));
            continue;
        }
        if Some(i) == begin || calls.contains(&i) {
            // the finally body's copy, with labels of its own
            let map: Vec<(Label, Label)> = group
                .iter()
                .chain(inner.iter())
                .map(|&l| (l, bc.new_label()))
                .collect();
            let fresh = |l: Label| map.iter().find(|(o, _)| *o == l).map_or(l, |(_, f)| *f);
            for &l in &group {
                items.push((Item::Label(fresh(l)), off));
            }
            for (item, &o) in bc.items[hi..end].iter().zip(&offsets[hi..end]) {
                let item = match item {
                    Item::Label(l) => Item::Label(fresh(*l)),
                    Item::Instr(ins) => {
                        let mut c = *ins;
                        if let Arg::Jump(t) = c.arg {
                            c.arg = Arg::Jump(fresh(t));
                        }
                        Item::Instr(c)
                    }
                    other => *other,
                };
                items.push((item, o));
            }
            if Some(i) == begin {
                let Item::Instr(b) = &bc.items[i] else { return };
                items.push((Item::Instr(Instr::new(jump, Arg::Jump(after), b.loc)), off));
            }
            continue;
        }
        items.push((bc.items[i], off));
    }
    store(bc, offsets, items);
}

/// Is item `i`, an END_FINALLY nothing reaches, the end of a finally body whose handler runs at
/// stack depth `d` and whose last statement is a `raise` at the body's own level (the RAISE_VARARGS
/// right before it, its operands on top of depth `d`)? The compiler still writes the END_FINALLY
/// after it (3.9: the RERAISE after the body's copy in the handler, dead the same way). A nested
/// statement's END_FINALLY follows its own jump or runs deeper.
fn ends_by_raising(bc: &Bytecode, depths: &[Option<u32>], i: usize, d: u32) -> bool {
    if depths.get(i).copied().flatten().is_some() || i == 0 {
        return false;
    }
    let Some(raise) = item_instr(bc, i - 1).filter(|x| x.op.name == "RAISE_VARARGS") else {
        return false;
    };
    let Arg::Raw(n) = raise.arg else {
        return false;
    };
    depths.get(i - 1).copied().flatten() == Some(d + n)
}

/// The END_FINALLY of the except clauses at item `hi` (depth `d`) that runs when no clause
/// matched, as RERAISE.
fn except_reraise(bc: &mut Bytecode, depths: &[Option<u32>], hi: usize, d: u32) {
    let Some(reraise) = table(PyVersion::V3_9).by_name("RERAISE") else {
        return;
    };
    let Some(end) = (hi..bc.items.len()).find(|&i| {
        item_instr(bc, i).is_some_and(|x| matches!(x.op.name, "END_FINALLY" | "RERAISE"))
            && depths.get(i).copied().flatten() == Some(d)
    }) else {
        return;
    };
    if let Some(Item::Instr(ins)) = bc.items.get_mut(end) {
        if ins.op.name == "END_FINALLY" {
            *ins = Instr::new(reraise, Arg::Raw(0), ins.loc);
        }
    }
}

/// Remove the instructions no path reaches (labels stay): what followed a finally body's
/// END_FINALLY when the try body never completes, and what the 3.8 peephole optimizer left after a
/// jump. (3.9's compiler writes neither.)
fn drop_dead(bc: &mut Bytecode, offsets: &mut Vec<u32>, keep_labels: &[Label]) {
    use framejit_bytecode::opcode::Flow;
    let n = bc.items.len();
    let mut at: Vec<(Label, usize)> = Vec::new();
    for (i, item) in bc.items.iter().enumerate() {
        if let Item::Label(l) = item {
            at.push((*l, i));
        }
    }
    let mut live = vec![false; n];
    let mut todo = vec![0usize];
    // (a second round from the dead ways into `else:` parts of try statements whose body raises)
    for round in 0..2 {
        if round == 1 {
            todo = crate::legacy_layout38::dead_else_entries(bc, &live);
        }
        while let Some(i) = todo.pop() {
            if i >= n || std::mem::replace(&mut live[i], true) {
                continue;
            }
            let Item::Instr(ins) = &bc.items[i] else {
                todo.push(i + 1);
                continue;
            };
            if let Some(t) = ins.target() {
                match at.iter().find(|(l, _)| *l == t) {
                    Some(&(_, p)) => todo.push(p),
                    // a jump to nowhere: leave the code as it is
                    None => return,
                }
            }
            if matches!(ins.op.flow, Flow::Next | Flow::Branch) {
                todo.push(i + 1);
            }
        }
    }
    // (a `return None` ending the code stays: 3.9 keeps it too, and it tells a try statement's
    // `else:` apart, see structure/try_else.rs)
    let instrs: Vec<usize> = (0..n)
        .filter(|&i| matches!(bc.items[i], Item::Instr(_)))
        .collect();
    if let [.., a, b] = instrs[..] {
        let names = (
            item_instr(bc, a).map(|x| x.op.name),
            item_instr(bc, b).map(|x| x.op.name),
        );
        if names == (Some("LOAD_CONST"), Some("RETURN_VALUE")) {
            live[a] = true;
            live[b] = true;
        }
    }
    crate::legacy_layout38::keep_jump_after_raise(bc, &mut live);
    crate::legacy_layout38::keep_clause_exit_after_continue(bc, &mut live);
    crate::legacy_layout38::keep_body_exit_after_return(bc, &mut live);
    crate::legacy_layout38::keep_bare_except_end(bc, &mut live);
    // labels no jump goes to (copies' own, those of removed code) would split blocks for nothing
    let targets: Vec<Label> = bc
        .items
        .iter()
        .zip(&live)
        .filter_map(|(item, &l)| match item {
            Item::Instr(ins) if l => ins.target(),
            _ => None,
        })
        .collect();
    let keep: Vec<bool> = bc
        .items
        .iter()
        .zip(&live)
        .map(|(item, &l)| match item {
            Item::Instr(_) => l,
            Item::Label(x) => targets.contains(x) || keep_labels.contains(x),
            _ => true,
        })
        .collect();
    if keep.iter().all(|&k| k) {
        return;
    }
    let items: Vec<(Item, u32)> = bc
        .items
        .iter()
        .zip(offsets.iter())
        .zip(&keep)
        .filter(|(_, &k)| k)
        .map(|((item, &o), _)| (*item, o))
        .collect();
    store(bc, offsets, items);
}
