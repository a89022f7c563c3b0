//! 3.14 inlines `all(genexp)`, `any(genexp)` and `tuple(genexp)`: the callee is loaded, tested
//! against the builtin (`COPY 1; LOAD_COMMON_CONSTANT all; IS_OP 0; POP_JUMP_IF_FALSE slow`), and when
//! it is the builtin a loop over the generator computes the result in place (a fast path); otherwise
//! the plain call runs (`slow: PUSH_NULL; <generator>; CALL 1`). Both paths compute the same value, so
//! the fast path is dropped before decompiling and the call is what remains; compiled again, the
//! call is inlined the same way.
//!
//! Only a fast path that is exactly the compiler's expansion of the slow path's call is dropped: the
//! same instructions make the generator, the loop is the builtin's (short-circuit on the test the
//! builtin makes, or collecting into a list turned into a tuple), and each way out either jumps to
//! where the call's value is used or is a copy of the code that follows the call up to its
//! `return`. Anything else is left as it is (and refused further on).

use crate::input::Const;
use framejit_bytecode::opcode::ArgKind;
use framejit_bytecode::{Arg, Bytecode, Instr, Item, Label, TryBegin};

/// What a builtin's fast path computes: the test that ends the loop early and the value then, or
/// (None) collecting every item into a list made into a tuple.
struct Inlined {
    name: &'static str,
    /// (POP_JUMP_IF_TRUE when true, the value on leaving early, the value after the last item)
    short: Option<(bool, bool, bool)>,
}

/// The builtins 3.14 inlines (codegen's `maybe_optimize_function_call`), by their common-constant name.
const INLINED: &[Inlined] = &[
    Inlined {
        name: "all",
        short: Some((false, false, true)),
    },
    Inlined {
        name: "any",
        short: Some((true, true, false)),
    },
    Inlined {
        name: "tuple",
        short: None,
    },
];

/// `(bytecode, offsets)` with every recognised fast path removed (`offsets` is per item).
pub fn fold(bytecode: &mut Bytecode, offsets: &mut Vec<u32>, consts: &[Const]) {
    let mut at = 0;
    while at < bytecode.items.len() {
        match fast_path_at(&bytecode.items, at, consts) {
            Some(end) => {
                bytecode.items.drain(at..end);
                if offsets.len() >= end {
                    offsets.drain(at..end);
                }
            }
            None => at += 1,
        }
    }
}

fn instr(items: &[Item], i: usize) -> Option<&Instr> {
    match items.get(i) {
        Some(Item::Instr(ins)) => Some(ins),
        _ => None,
    }
}

fn named(ins: &Instr) -> Option<&'static str> {
    match (ins.op.arg, ins.arg) {
        (ArgKind::Named { names, shift }, Arg::Raw(raw)) => {
            names.get((raw >> shift) as usize).copied()
        }
        _ => None,
    }
}

fn is(ins: Option<&Instr>, name: &str, raw: Option<u32>) -> bool {
    ins.is_some_and(|i| i.op.name == name && raw.is_none_or(|r| i.arg == Arg::Raw(r)))
}

/// The same instruction, line numbers aside.
fn same(a: &Instr, b: &Instr) -> bool {
    a.op.name == b.op.name && a.arg == b.arg
}

fn label_index(items: &[Item], l: Label) -> Option<usize> {
    items.iter().position(|it| *it == Item::Label(l))
}

/// Skip NOT_TAKEN / NOP (3.14's branch markers and line placeholders) and exception-range markers
/// (a range ends where a NOT_TAKEN; JUMP_BACKWARD is left uncovered).
fn skip_nops(items: &[Item], mut i: usize) -> usize {
    while match items.get(i) {
        Some(Item::Instr(ins)) => matches!(ins.op.name, "NOT_TAKEN" | "NOP"),
        Some(Item::TryBegin(_) | Item::TryEnd) => true,
        _ => false,
    } {
        i += 1;
    }
    i
}

/// The index of label `l` at `i`, past no-ops, range markers and other labels (those inside the
/// fast path are jumped to by none but its own jumps, checked at the end).
fn to_label(items: &[Item], mut i: usize, l: Label) -> Option<usize> {
    loop {
        match items.get(i)? {
            Item::Label(x) if *x == l => return Some(i),
            Item::Label(_) | Item::TryBegin(_) | Item::TryEnd => i += 1,
            Item::Instr(ins) if matches!(ins.op.name, "NOT_TAKEN" | "NOP") => i += 1,
            Item::Instr(_) => return None,
        }
    }
}

/// A fast path starting with `COPY 1` at `at`: the end (exclusive) of the items to remove, which are
/// the test and the fast path up to and including the slow path's label.
fn fast_path_at(items: &[Item], at: usize, consts: &[Const]) -> Option<usize> {
    if !is(instr(items, at), "COPY", Some(1)) {
        return None;
    }
    let constant = instr(items, at + 1).filter(|i| i.op.name == "LOAD_COMMON_CONSTANT")?;
    let kind = INLINED.iter().find(|k| Some(k.name) == named(constant))?;
    if !is(instr(items, at + 2), "IS_OP", Some(0)) {
        return None;
    }
    let test = instr(items, at + 3).filter(|i| i.op.name == "POP_JUMP_IF_FALSE")?;
    let slow_label = test.target()?;
    let slow = label_index(items, slow_label)?;
    if slow <= at + 3 {
        return None;
    }
    // the slow path: PUSH_NULL; the generator; CALL 1; what follows (`tail`)
    if !is(instr(items, slow + 1), "PUSH_NULL", None) {
        return None;
    }
    // the fast path: POP_TOP (the callee); [BUILD_LIST 0]; the generator; the loop
    let mut i = skip_nops(items, at + 4);
    if !is(instr(items, i), "POP_TOP", None) {
        return None;
    }
    i += 1;
    if kind.short.is_none() {
        if !is(instr(items, i), "BUILD_LIST", Some(0)) {
            return None;
        }
        i += 1;
    }
    // the generator, as in the slow path, ending in `CALL 0` (its own control flow, an inlined
    // comprehension or a conditional expression, with its labels and exception ranges in the
    // same places)
    let gen_start = i;
    let below = if kind.short.is_some() { 2 } else { 1 };
    let len = same_code(items, gen_start, slow + 2, below)?;
    let i = gen_start + len;
    if len == 0 || !is(instr(items, i - 1), "CALL", Some(0)) {
        return None;
    }
    let call = slow + 2 + len;
    if !is(instr(items, call), "CALL", Some(1)) {
        return None;
    }
    // the loop: a label, FOR_ITER to its end
    let Some(Item::Label(head)) = items.get(i) else {
        return None;
    };
    let for_iter = instr(items, i + 1).filter(|x| x.op.name == "FOR_ITER")?;
    let end_label = for_iter.target()?;
    let mut i = i + 2;
    let mut exits: Vec<(usize, usize)> = Vec::new(); // (first item, end) of each way out's code
    let is_bool = |ins: Option<&Instr>, v: bool| {
        ins.is_some_and(|x| {
            x.op.name == "LOAD_CONST"
                && matches!(consts.get(x.raw_arg() as usize), Some(Const::Value(crate::ast::Constant::Bool(b))) if *b == v)
        })
    };
    let back_to_head = |ins: Option<&Instr>| {
        ins.is_some_and(|x| x.op.name.starts_with("JUMP_BACKWARD") && x.target() == Some(*head))
    };
    match kind.short {
        Some((jump_if_true, early, last)) => {
            if !is(instr(items, i), "TO_BOOL", None) {
                return None;
            }
            let jump = instr(items, i + 1)?;
            let want = if jump_if_true {
                "POP_JUMP_IF_TRUE"
            } else {
                "POP_JUMP_IF_FALSE"
            };
            if jump.op.name != want {
                return None;
            }
            let short_label = jump.target()?;
            i = skip_nops(items, i + 2);
            while matches!(items.get(i), Some(Item::Label(_))) {
                i = skip_nops(items, i + 1);
            }
            if !back_to_head(instr(items, i)) {
                return None;
            }
            i = skip_nops(items, to_label(items, i + 1, short_label)? + 1);
            // the two ways out follow, early exit first
            if !is(instr(items, i), "POP_ITER", None) || !is_bool(instr(items, i + 1), early) {
                return None;
            }
            let e = exit(items, i + 2, call, slow)?;
            exits.push((i + 2, e));
            i = skip_nops(items, to_label(items, e, end_label)? + 1);
            if !is(instr(items, i), "END_FOR", None)
                || !is(instr(items, i + 1), "POP_ITER", None)
                || !is_bool(instr(items, i + 2), last)
            {
                return None;
            }
            let e = exit(items, i + 3, call, slow)?;
            exits.push((i + 3, e));
            i = e;
        }
        None => {
            if !is(instr(items, i), "LIST_APPEND", Some(2)) || !back_to_head(instr(items, i + 1)) {
                return None;
            }
            i = skip_nops(items, to_label(items, i + 2, end_label)? + 1);
            let to_tuple = instr(items, i + 2).filter(|x| x.op.name == "CALL_INTRINSIC_1")?;
            if !is(instr(items, i), "END_FOR", None)
                || !is(instr(items, i + 1), "POP_ITER", None)
                || named(to_tuple) != Some("INTRINSIC_LIST_TO_TUPLE")
            {
                return None;
            }
            let e = exit(items, i + 3, call, slow)?;
            exits.push((i + 3, e));
            i = e;
        }
    }
    let i = to_label(items, i, slow_label)?;
    // the fast path ends where the slow path starts, and nothing else jumps into it or to the slow
    // path's label (the removed items)
    if i != slow {
        return None;
    }
    let inside: Vec<Label> = items[at..=slow]
        .iter()
        .filter_map(|it| match it {
            Item::Label(l) => Some(*l),
            _ => None,
        })
        .collect();
    let jumps_in = items.iter().enumerate().any(|(k, it)| {
        let target = match it {
            Item::Instr(x) => x.target(),
            Item::TryBegin(t) => Some(t.handler),
            _ => None,
        };
        (k < at || k > slow) && target.is_some_and(|t| inside.contains(&t))
    });
    // (exception ranges that end and start again inside the fast path: removed, every
    // instruction keeps its handler when the range open after it is the one open before)
    if jumps_in || open_range(items, at) != open_range(items, slow + 1) {
        return None;
    }
    Some(slow + 1)
}

/// The exception range open at item `i` (3.11+ ranges are flat).
fn open_range(items: &[Item], i: usize) -> Option<TryBegin> {
    let mut open = None;
    for it in &items[..i.min(items.len())] {
        match it {
            Item::TryBegin(t) => open = Some(*t),
            Item::TryEnd => open = None,
            _ => {}
        }
    }
    open
}

/// The length of the code at `a` that the code at `b` repeats, up to where `a` goes on with a
/// loop (a label, then FOR_ITER) while `b` calls (`CALL 1`): the same instructions, labels and
/// exception ranges (the stack under `b`'s `below` values deeper), jumps going to the same places
/// in each (inside the code), handlers that run the same straight-line code.
fn same_code(items: &[Item], a: usize, b: usize, below: u32) -> Option<usize> {
    let mut labels: Vec<(Label, Label)> = Vec::new();
    let mut targets: Vec<(Label, Label)> = Vec::new();
    let mut handlers: Vec<(Label, Label)> = Vec::new();
    let mut k = 0;
    loop {
        let (x, y) = (items.get(a + k)?, items.get(b + k)?);
        let ends = matches!(x, Item::Label(_))
            && is(instr(items, a + k + 1), "FOR_ITER", None)
            && is(instr(items, b + k), "CALL", Some(1));
        if ends {
            break;
        }
        match (x, y) {
            (Item::Label(p), Item::Label(q)) => labels.push((*p, *q)),
            (Item::Instr(p), Item::Instr(q)) => {
                if p.op.name != q.op.name {
                    return None;
                }
                match (p.target(), q.target()) {
                    (Some(s), Some(t)) => targets.push((s, t)),
                    (None, None) if p.arg == q.arg => {}
                    _ => return None,
                }
            }
            (Item::TryBegin(p), Item::TryBegin(q)) => {
                // (the slow path keeps the callee and a NULL where the fast path has nothing,
                // or the list it collects into)
                if p.lasti != q.lasti || p.depth + below != q.depth {
                    return None;
                }
                handlers.push((p.handler, q.handler));
            }
            (Item::TryEnd, Item::TryEnd) => {}
            _ => return None,
        }
        k += 1;
    }
    // each jump goes to the label at the same place in its copy
    if !targets.iter().all(|t| labels.contains(t)) {
        return None;
    }
    // a handler outside the code: the same straight-line code in both
    for &(p, q) in &handlers {
        if labels.contains(&(p, q)) {
            continue;
        }
        let (mut i, mut j) = (label_index(items, p)? + 1, label_index(items, q)? + 1);
        loop {
            let (x, y) = (instr(items, i)?, instr(items, j)?);
            if !same(x, y) || x.op.is_jump() {
                return None;
            }
            if matches!(x.op.name, "RERAISE" | "RAISE_VARARGS" | "RETURN_VALUE") {
                break;
            }
            i += 1;
            j += 1;
        }
    }
    Some(k)
}

/// A fast path's way out starting at `i`: a jump to just after the slow path's call (`call`), or a
/// copy of the code after the call up to its `RETURN_VALUE`. The end (exclusive) of its items, which
/// must not reach past the slow path's label `slow`.
fn exit(items: &[Item], i: usize, call: usize, slow: usize) -> Option<usize> {
    let first = instr(items, i)?;
    if matches!(first.op.name, "JUMP_FORWARD" | "JUMP" | "JUMP_NO_INTERRUPT") {
        let target = label_index(items, first.target()?)?;
        // the target label is where the call's value goes on (labels may stack up there)
        let after_call = items[call + 1..=target]
            .iter()
            .all(|it| matches!(it, Item::Label(_)));
        return (target > call && after_call).then_some(i + 1);
    }
    // the code after the call, labels (jump targets, not code) skipped
    let mut tail = items[call + 1..]
        .iter()
        .filter(|it| !matches!(it, Item::Label(_)));
    let mut k = 0;
    loop {
        let (Some(a), Some(Item::Instr(b))) = (instr(items, i + k), tail.next()) else {
            return None;
        };
        if !same(a, b) || a.op.is_jump() || i + k >= slow {
            return None;
        }
        if a.op.name == "RETURN_VALUE" {
            return Some(i + k + 1);
        }
        k += 1;
    }
}
