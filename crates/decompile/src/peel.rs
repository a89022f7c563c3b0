//! Generated code that enters a loop nest in the middle: the partial first iteration peeled off.
//!
//! torch.compile's resume functions start with a prologue that pushes the saved stack (iterators of
//! the loops the graph break was in) and jumps to where the original function stopped. Inside two
//! nested `for` loops that is the inner loop's latch: the outer loop is entered without its
//! header, at the inner loop, which the outer body also reaches through its own `GET_ITER`. No
//! structured Python has two ways into a loop, so the outer loop's code is copied: the prologue
//! jumps into the copy (which runs what is left of the interrupted iteration: the inner loop on the
//! saved iterator), whose jump back to the outer loop's header goes to the original header, which is
//! then entered only where a loop is. Both copies are the same instructions, so every path runs the
//! same code as before. Only where the copied span has no exception ranges, lies in none, has no
//! ≤3.10 block setups around, and nothing but the prologue jumps into it past its header (so the
//! copy is the only other way in). Tried last, after both readings of the code as it is failed.

use framejit_bytecode::opcode::Flow;
use framejit_bytecode::{Arg, Bytecode, Item, Label};
use std::collections::HashMap;

/// The bytecode with the loop that the first jump of the code enters in the middle peeled, and the
/// per-item byte offsets to go with it (copies keep their originals'); `None` where the code has no
/// such entry or the loop is not one this can copy.
pub fn peel_loop_entry(bc: &Bytecode, offsets: &[u32]) -> Option<(Bytecode, Vec<u32>)> {
    let items = &bc.items;
    if offsets.len() != items.len() {
        return None;
    }
    let mut at: HashMap<Label, usize> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        if let Item::Label(l) = item {
            at.insert(*l, i);
        }
    }
    // the prologue: straight-line code up to its first jump, which must be unconditional
    let (entry, target) = items.iter().enumerate().find_map(|(i, item)| match item {
        Item::Instr(ins) if ins.op.flow != Flow::Next => Some((i, ins)),
        _ => None,
    })?;
    if target.op.flow != Flow::Jump {
        return None;
    }
    let t = *at.get(&target.target()?)?;
    // loops by their jumps back: (header position, position of the jump back)
    let spans: Vec<(usize, usize)> = items
        .iter()
        .enumerate()
        .filter_map(|(p, item)| match item {
            Item::Instr(ins) if ins.op.flow == Flow::Jump => {
                let h = *at.get(&ins.target()?)?;
                (h < p).then_some((h, p))
            }
            _ => None,
        })
        .collect();
    // the outermost loop entered past its header
    let (h, p) = spans
        .iter()
        .copied()
        .filter(|&(h, p)| h < t && t <= p && entry < h)
        .min_by_key(|&(h, _)| h)?;
    // the labels at the header (the jump back's target and any beside it)
    let mut first = h;
    while first > 0 && matches!(items[first - 1], Item::Label(_)) {
        first -= 1;
    }
    let mut last = h;
    while last + 1 < items.len() && matches!(items[last + 1], Item::Label(_)) {
        last += 1;
    }
    let header: Vec<Label> = items[first..=last]
        .iter()
        .filter_map(|i| match i {
            Item::Label(l) => Some(*l),
            _ => None,
        })
        .collect();
    let inside = |i: usize| i > last && i <= p;
    // (a copy at the end of the code would leave an exception range the loop is in, or, ≤3.10,
    // a block a setup pushed)
    let mut open = false;
    for item in &items[..first] {
        match item {
            Item::TryBegin(_) => open = true,
            Item::TryEnd => open = false,
            _ => {}
        }
    }
    let setups = bc.instrs().any(|i| i.op.name.starts_with("SETUP_"));
    if open || setups {
        return None;
    }
    for (i, item) in items.iter().enumerate() {
        match item {
            Item::TryBegin(_) | Item::TryEnd if (first..=p).contains(&i) => return None,
            // (nothing but the prologue jumps into the loop past its header)
            Item::Instr(ins)
                if i != entry
                    && !(first..=p).contains(&i)
                    && ins
                        .target()
                        .and_then(|l| at.get(&l))
                        .is_some_and(|&x| inside(x)) =>
            {
                return None;
            }
            _ => {}
        }
    }
    // the code ends where nothing falls into the copy
    match items.iter().rev().find_map(|i| match i {
        Item::Instr(ins) => Some(ins),
        _ => None,
    }) {
        Some(ins) if matches!(ins.op.flow, Flow::Jump | Flow::Exit) => {}
        _ => return None,
    }
    let mut out = bc.clone();
    let mut map: HashMap<Label, Label> = HashMap::new();
    for item in &items[first..=p] {
        if let Item::Label(l) = item {
            if !header.contains(l) {
                let n = out.new_label();
                map.insert(*l, n);
            }
        }
    }
    let mut offs = offsets.to_vec();
    for (k, item) in items.iter().enumerate().take(p + 1).skip(last + 1) {
        let copied = match item {
            Item::Label(l) => Item::Label(*map.get(l)?),
            Item::Instr(ins) => {
                let mut ins = *ins;
                if let Arg::Jump(l) = ins.arg {
                    ins.arg = Arg::Jump(map.get(&l).copied().unwrap_or(l));
                }
                Item::Instr(ins)
            }
            _ => return None,
        };
        out.items.push(copied);
        offs.push(offsets[k]);
    }
    // (straight to where the copy's first jump goes, when it is at the entry: the latch of the
    // inner loop, so the prologue goes into that loop at its header)
    let mut l = *map.get(&target.target()?)?;
    for _ in 0..4 {
        let at_l = out.items.iter().position(|i| *i == Item::Label(l))?;
        match out.items[at_l + 1..]
            .iter()
            .find(|i| !matches!(i, Item::Label(_)))
        {
            Some(Item::Instr(j)) if j.op.flow == Flow::Jump => l = j.target()?,
            _ => break,
        }
    }
    if let Item::Instr(ins) = &mut out.items[entry] {
        ins.arg = Arg::Jump(l);
    }
    Some((out, offs))
}
