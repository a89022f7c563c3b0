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

#[cfg(test)]
mod tests {
    use super::*;
    use framejit_bytecode::linetable::Location;
    use framejit_bytecode::{Instr, PyVersion, TryBegin};

    enum Op {
        I(&'static str, u32),
        J(&'static str, u32),
        L(u32),
    }
    use Op::{I, J, L};

    fn code(ops: &[Op]) -> Bytecode {
        let mut bc = Bytecode::new(PyVersion::V3_11, 1);
        let t = bc.table();
        for op in ops {
            let item = match *op {
                I(n, a) => Item::Instr(Instr::new(
                    t.by_name(n).expect(n),
                    Arg::Raw(a),
                    Location::default(),
                )),
                J(n, l) => Item::Instr(Instr::new(
                    t.by_name(n).expect(n),
                    Arg::Jump(Label(l)),
                    Location::default(),
                )),
                L(l) => Item::Label(Label(l)),
            };
            if let Item::Label(l) = item {
                bc.reserve_label(l);
            }
            bc.items.push(item);
        }
        bc
    }

    /// The resume-function shape: a prologue with two iterators jumping to the inner loop's latch.
    fn nested(prologue_target: u32) -> Vec<Op> {
        vec![
            I("LOAD_FAST", 0),
            I("LOAD_FAST", 1),
            J("JUMP_FORWARD", prologue_target),
            I("GET_ITER", 0),
            L(1),
            J("FOR_ITER", 5),
            I("STORE_FAST", 2),
            I("LOAD_FAST", 3),
            I("GET_ITER", 0),
            L(2),
            J("FOR_ITER", 4),
            I("STORE_FAST", 4),
            L(3),
            J("JUMP_BACKWARD", 2),
            L(4),
            J("JUMP_BACKWARD", 1),
            L(5),
            I("LOAD_CONST", 0),
            I("RETURN_VALUE", 0),
        ]
    }

    #[test]
    fn entry_into_the_inner_latch_gets_a_copy_of_the_outer_loop() {
        let bc = code(&nested(3));
        let offsets: Vec<u32> = (0..bc.items.len() as u32).collect();
        let (out, offs) = peel_loop_entry(&bc, &offsets).expect("peeled");
        assert_eq!(offs.len(), out.items.len());
        // the original items stay, the copy (header labels left out) follows them
        let n = bc.items.len();
        assert_eq!(out.items.len(), n + 11);
        assert_eq!(out.items[3..n], bc.items[3..n]);
        // the prologue goes straight to the copy's inner header (the copied latch only jumps)
        let Item::Instr(entry) = out.items[2] else {
            panic!("entry")
        };
        let target = entry.target().expect("a jump");
        let at = out.items.iter().position(|i| *i == Item::Label(target));
        assert!(at.is_some_and(|a| a > n), "{target:?} at {at:?}");
        assert!(
            matches!(out.items[at.unwrap_or(0) + 1], Item::Instr(i) if i.op.name == "FOR_ITER")
        );
        // the copy's jump back to the outer header goes to the original header
        let Some(Item::Instr(last)) = out.items.last() else {
            panic!("last")
        };
        assert_eq!(last.op.name, "JUMP_BACKWARD");
        assert_eq!(last.target(), Some(Label(1)));
    }

    #[test]
    fn entry_at_a_header_or_under_a_range_is_left_alone() {
        // (a jump to the outer loop's header is a proper entry)
        let bc = code(&nested(1));
        let offsets: Vec<u32> = (0..bc.items.len() as u32).collect();
        assert!(peel_loop_entry(&bc, &offsets).is_none());
        // (the loop inside an exception range: a copy at the end would leave it)
        let mut bc = code(&nested(3));
        bc.items.insert(
            3,
            Item::TryBegin(TryBegin {
                handler: Label(5),
                depth: 0,
                lasti: false,
            }),
        );
        bc.items.insert(17, Item::TryEnd);
        let offsets: Vec<u32> = (0..bc.items.len() as u32).collect();
        assert!(peel_loop_entry(&bc, &offsets).is_none());
    }
}
