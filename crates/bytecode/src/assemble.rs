//! [`Bytecode`] → `co_code`, line table, exception table and `co_stacksize`.
//!
//! Jump arguments depend on offsets, which depend on how many EXTENDED_ARG prefixes each argument needs:
//! the layout is found by a fix-point that starts from no prefixes on jumps and only ever grows, the
//! least solution, which is the one CPython's assembler reaches.

use crate::error::{BytecodeError, ErrorKind, Result};
use crate::exceptiontable::{encode_exception_table, ExceptionTableEntry};
use crate::instr::{Arg, Bytecode, Instr, Item, Label};
use crate::linetable::{
    decode_lnotab_starts, decode_locations, encode_lnotab_with_starts, Location,
};
use crate::opcode::{JumpDir, JumpUnit, OpInfo, OpcodeTable};
use crate::stackdepth::{walk, FlowInstr};
use crate::version::PyVersion;

/// The stack walk's view of laid-out slots: instructions with jump targets, and handler ranges with
/// their entry depths.
#[allow(clippy::type_complexity)]
fn flow_of(
    slots: &[Slot],
    starts: &[u32],
    ranges: &[Range],
) -> (Vec<FlowInstr>, Vec<(usize, usize, usize, u32)>) {
    let flow = slots
        .iter()
        .enumerate()
        .map(|(i, s)| FlowInstr {
            op: s.op,
            arg: s.arg,
            target: s.target,
            offset: starts[i] * 2,
            item: s.item,
        })
        .collect();
    let handlers = ranges
        .iter()
        .map(|r| (r.start, r.end, r.handler, r.depth + 1 + u32::from(r.lasti)))
        .collect();
    (flow, handlers)
}

/// The stack depth before each item of `bc` (`None` for labels and markers, and for instructions no
/// path reaches), as the assembler's stack walk finds it.
///
/// No code is laid out for this: a jump's stack effect does not depend on its argument (every jump
/// of the tables has constant effects: `jump_effects_are_constant`), and whether a jump reaches its
/// target in its direction follows from the order of the instructions alone (each takes at least one
/// code unit). The instructions are read once, refused where [`collect`] refuses them, and a jump
/// that points the wrong way takes its other-direction form as [`layout`] would (or is refused as
/// there); the depths are those of the assembler's walk over the laid-out code
/// (`depths_match_the_laid_out_walk`). Offsets in errors are those of the code as written (each
/// instruction with its `pad` prefixes, as decoded).
pub fn instruction_depths(bc: &Bytecode) -> Result<Vec<Option<u32>>> {
    let t = bc.table();
    let label_pos = LabelSlots::new(bc)?;
    let resolve = |l: Label, i: usize, what: &str| -> Result<usize> {
        label_pos.get(l).ok_or_else(|| {
            err(format!(
                "{what} label {} is not in the instruction list",
                l.0
            ))
            .item(i)
        })
    };
    let mut flow: Vec<FlowInstr> = Vec::with_capacity(label_pos.instrs);
    let mut handlers: Vec<(usize, usize, usize, u32)> = Vec::new();
    let mut open: Option<(usize, usize, crate::instr::TryBegin)> = None;
    let mut unit = 0u32;
    for (i, item) in bc.items.iter().enumerate() {
        match item {
            Item::Label(_) => {}
            Item::Instr(ins) => {
                let mut op = ins.op;
                let target = match (ins.arg, op.jump()) {
                    (Arg::Jump(l), Some(_)) => Some(resolve(l, i, "jump")?),
                    (Arg::Raw(_), None) => None,
                    (Arg::Jump(_), None) => {
                        return Err(err("only jump instructions take a label")
                            .item(i)
                            .op(op.name));
                    }
                    (Arg::Raw(_), Some(_)) => {
                        return Err(err("a jump instruction needs a label as its argument")
                            .item(i)
                            .op(op.name));
                    }
                };
                if op.code == u16::from(t.extended_arg) {
                    return Err(err(
                        "EXTENDED_ARG is written by the assembler as arguments need it: give the full argument to the next instruction",
                    )
                    .item(i)
                    .op(op.name));
                }
                if matches!(op.kind, crate::opcode::OpKind::Pseudo { .. }) {
                    return Err(err("pseudo-instructions exist only inside the compiler")
                        .item(i)
                        .op(op.name));
                }
                let k = flow.len();
                if let (Some(to), Some(j)) = (target, op.jump()) {
                    // forward: the target starts at or after this instruction's end (slot k + 1);
                    // backward: at or before it
                    let reaches = match j.dir {
                        JumpDir::Absolute => true,
                        JumpDir::Forward => to > k,
                        JumpDir::Backward => to <= k + 1,
                    };
                    if !reaches {
                        op = flipped(t, op).ok_or_else(|| {
                            err(format!(
                                "{} cannot reach its target in its direction",
                                op.name
                            ))
                            .item(i)
                            .op(op.name)
                        })?;
                    }
                }
                let arg = ins.raw_arg();
                flow.push(FlowInstr {
                    op,
                    arg,
                    target,
                    offset: unit.saturating_mul(2),
                    item: i,
                });
                let ext = needed_prefixes(arg).max(u32::from(ins.pad).min(3));
                unit = unit.saturating_add(ext + 1 + u32::from(op.caches));
            }
            Item::TryBegin(tb) => {
                if let Some((_, at, _)) = open {
                    return Err(err(format!(
                        "TryBegin while the range opened at item {at} is still open (ranges do not nest)"
                    ))
                    .item(i));
                }
                if !bc.version.has_exception_table() {
                    return Err(
                        err(format!("Python {} has no exception table", bc.version)).item(i)
                    );
                }
                open = Some((flow.len(), i, *tb));
            }
            Item::TryEnd => {
                let Some((start, at, tb)) = open.take() else {
                    return Err(err("TryEnd without an open TryBegin").item(i));
                };
                let handler = resolve(tb.handler, at, "handler")?;
                handlers.push((
                    start,
                    flow.len(),
                    handler,
                    tb.depth + 1 + u32::from(tb.lasti),
                ));
            }
        }
    }
    if let Some((start, at, tb)) = open {
        let handler = resolve(tb.handler, at, "handler")?;
        handlers.push((
            start,
            flow.len(),
            handler,
            tb.depth + 1 + u32::from(tb.lasti),
        ));
    }
    if handlers.iter().any(|h| h.2 >= flow.len()) {
        return Err(err(
            "an exception handler label is at the end of the code, after every instruction",
        ));
    }
    let (_, depths) = crate::stackdepth::walk_in(bc.version, &flow, &handlers)?;
    let mut out = vec![None; bc.items.len()];
    for (ins, depth) in flow.iter().zip(depths) {
        out[ins.item] = u32::try_from(depth).ok();
    }
    Ok(out)
}

/// [`instruction_depths`] the long way: collect, lay out, walk (what it stood for before it read
/// the order of the instructions instead of their layout); the tests compare the two.
#[doc(hidden)]
pub fn laid_out_depths(bc: &Bytecode) -> Result<Vec<Option<u32>>> {
    let (mut slots, ranges) = collect(bc)?;
    let starts = layout(bc.table(), &mut slots)?;
    let (flow, handlers) = flow_of(&slots, &starts, &ranges);
    let (_, depths) = walk(bc.version, &flow, &handlers)?;
    let mut out = vec![None; bc.items.len()];
    for (slot, depth) in slots.iter().zip(depths) {
        out[slot.item] = depth;
    }
    Ok(out)
}

/// The assembled parts of a code object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assembled {
    pub code: Vec<u8>,
    /// `co_lnotab` (3.8, 3.9) or `co_linetable` (3.10+).
    pub linetable: Vec<u8>,
    /// Empty before 3.11.
    pub exceptiontable: Vec<u8>,
    pub stacksize: u32,
}

fn err(message: impl Into<String>) -> BytecodeError {
    BytecodeError::new(ErrorKind::Assemble, message)
}

/// How many EXTENDED_ARG prefixes `arg` needs.
pub fn needed_prefixes(arg: u32) -> u32 {
    match arg {
        0..=0xff => 0,
        0x100..=0xffff => 1,
        0x1_0000..=0xff_ffff => 2,
        _ => 3,
    }
}

/// An instruction with everything layout needs.
struct Slot {
    /// Index of the item in `Bytecode::items`.
    item: usize,
    op: &'static OpInfo,
    arg: u32,
    /// Index into `slots` of the jump target (== slots.len() for the end of the code).
    target: Option<usize>,
    ext: u32,
    /// Prefixes to write at least.
    pad: u32,
    loc: Location,
    line_start: bool,
}

impl Slot {
    fn size(&self) -> u32 {
        self.ext + 1 + u32::from(self.op.caches)
    }
}

/// A range of the exception table, by slot index.
struct Range {
    start: usize,
    end: usize,
    handler: usize,
    depth: u32,
    lasti: bool,
}

/// Label → the index of the slot it stands before.
struct LabelSlots {
    /// Indexed by label number where the numbers are few (the decoder numbers labels from 0):
    /// `usize::MAX` for a label not placed.
    dense: Vec<usize>,
    /// Otherwise (label, slot), sorted, searched by halves (hashing cost more than the rest of the
    /// walk).
    sorted: Vec<(u32, usize)>,
    /// How many instructions there are.
    instrs: usize,
}

impl LabelSlots {
    fn new(bc: &Bytecode) -> Result<LabelSlots> {
        let mut labels = 0usize;
        let mut max = 0u32;
        for item in &bc.items {
            if let Item::Label(l) = item {
                labels += 1;
                max = max.max(l.0);
            }
        }
        let mut n = 0usize;
        // (the first label placed a second time, in item order, is the one named)
        let twice = |l: Label, i: usize| err(format!("label {} is placed twice", l.0)).item(i);
        if (max as usize) < 2 * labels + 64 {
            let mut dense = vec![usize::MAX; if labels == 0 { 0 } else { max as usize + 1 }];
            for (i, item) in bc.items.iter().enumerate() {
                match item {
                    Item::Label(l) => {
                        let slot = &mut dense[l.0 as usize];
                        if *slot != usize::MAX {
                            return Err(twice(*l, i));
                        }
                        *slot = n;
                    }
                    Item::Instr(_) => n += 1,
                    Item::TryBegin(_) | Item::TryEnd => {}
                }
            }
            return Ok(LabelSlots {
                dense,
                sorted: Vec::new(),
                instrs: n,
            });
        }
        let mut label_pos: Vec<(u32, usize, usize)> = Vec::with_capacity(labels);
        for (i, item) in bc.items.iter().enumerate() {
            match item {
                Item::Label(l) => label_pos.push((l.0, n, i)),
                Item::Instr(_) => n += 1,
                Item::TryBegin(_) | Item::TryEnd => {}
            }
        }
        label_pos.sort_by_key(|&(l, _, i)| (l, i));
        if let Some(&(l, _, i)) = label_pos
            .windows(2)
            .filter(|w| w[0].0 == w[1].0)
            .map(|w| &w[1])
            .min_by_key(|x| x.2)
        {
            return Err(twice(Label(l), i));
        }
        Ok(LabelSlots {
            dense: Vec::new(),
            sorted: label_pos
                .into_iter()
                .map(|(l, slot, _)| (l, slot))
                .collect(),
            instrs: n,
        })
    }

    fn get(&self, l: Label) -> Option<usize> {
        if !self.dense.is_empty() || self.sorted.is_empty() {
            return self
                .dense
                .get(l.0 as usize)
                .copied()
                .filter(|&s| s != usize::MAX);
        }
        let k = self.sorted.partition_point(|x| x.0 < l.0);
        self.sorted.get(k).filter(|x| x.0 == l.0).map(|x| x.1)
    }
}

/// Resolve labels: the slot index each label stands before, and the slots themselves.
fn collect(bc: &Bytecode) -> Result<(Vec<Slot>, Vec<Range>)> {
    let label_pos = LabelSlots::new(bc)?;
    let n = label_pos.instrs;
    let resolve = |l: Label, i: usize, what: &str| -> Result<usize> {
        label_pos.get(l).ok_or_else(|| {
            err(format!(
                "{what} label {} is not in the instruction list",
                l.0
            ))
            .item(i)
        })
    };
    let mut slots = Vec::with_capacity(n);
    let mut ranges = Vec::new();
    let mut open: Option<(usize, usize, crate::instr::TryBegin)> = None;
    for (i, item) in bc.items.iter().enumerate() {
        match item {
            Item::Label(_) => {}
            Item::Instr(Instr {
                op,
                arg,
                loc,
                pad,
                line_start,
            }) => {
                let (arg, target) = match (arg, op.jump()) {
                    (Arg::Jump(l), Some(_)) => (0, Some(resolve(*l, i, "jump")?)),
                    (Arg::Raw(a), None) => (*a, None),
                    (Arg::Jump(_), None) => {
                        return Err(err("only jump instructions take a label")
                            .item(i)
                            .op(op.name));
                    }
                    (Arg::Raw(_), Some(_)) => {
                        return Err(err("a jump instruction needs a label as its argument")
                            .item(i)
                            .op(op.name));
                    }
                };
                if op.code == u16::from(bc.table().extended_arg) {
                    return Err(err(
                        "EXTENDED_ARG is written by the assembler as arguments need it: give the full argument to the next instruction",
                    )
                    .item(i)
                    .op(op.name));
                }
                if matches!(op.kind, crate::opcode::OpKind::Pseudo { .. }) {
                    return Err(err("pseudo-instructions exist only inside the compiler")
                        .item(i)
                        .op(op.name));
                }
                let pad = u32::from(*pad).min(3);
                slots.push(Slot {
                    item: i,
                    op,
                    arg,
                    target,
                    ext: needed_prefixes(arg).max(pad),
                    pad,
                    loc: *loc,
                    line_start: *line_start,
                });
            }
            Item::TryBegin(tb) => {
                if let Some((_, at, _)) = open {
                    return Err(err(format!(
                        "TryBegin while the range opened at item {at} is still open (ranges do not nest)"
                    ))
                    .item(i));
                }
                if !bc.version.has_exception_table() {
                    return Err(
                        err(format!("Python {} has no exception table", bc.version)).item(i)
                    );
                }
                open = Some((slots.len(), i, *tb));
            }
            Item::TryEnd => {
                let Some((start, at, tb)) = open.take() else {
                    return Err(err("TryEnd without an open TryBegin").item(i));
                };
                let handler = resolve(tb.handler, at, "handler")?;
                ranges.push(Range {
                    start,
                    end: slots.len(),
                    handler,
                    depth: tb.depth,
                    lasti: tb.lasti,
                });
            }
        }
    }
    if let Some((start, at, tb)) = open {
        let handler = resolve(tb.handler, at, "handler")?;
        ranges.push(Range {
            start,
            end: slots.len(),
            handler,
            depth: tb.depth,
            lasti: tb.lasti,
        });
    }
    for r in &ranges {
        if r.handler >= slots.len() {
            return Err(err(
                "an exception handler label is at the end of the code, after every instruction",
            ));
        }
    }
    Ok((slots, ranges))
}

/// The encoded argument of a jump from `slot` (starting at code unit `start`) to code unit `target`, or
/// `None` if the jump cannot go that way.
fn jump_arg(op: &OpInfo, start: u32, size: u32, target: u32) -> Option<u32> {
    let j = op.jump()?;
    let end = i64::from(start) + i64::from(size);
    let t = i64::from(target);
    let units = match j.dir {
        JumpDir::Absolute => t,
        JumpDir::Forward => t - end,
        JumpDir::Backward => end - t,
    };
    if units < 0 {
        return None;
    }
    let v = match j.unit {
        JumpUnit::Bytes => units * 2,
        JumpUnit::CodeUnits => units,
    };
    u32::try_from(v).ok()
}

/// The same jump going the other way (JUMP_FORWARD ↔ JUMP_BACKWARD, 3.11's POP_JUMP_FORWARD_IF_* ↔
/// POP_JUMP_BACKWARD_IF_*), where the version has one.
fn flipped(t: &OpcodeTable, op: &OpInfo) -> Option<&'static OpInfo> {
    let name = if op.name.contains("FORWARD") {
        op.name.replace("FORWARD", "BACKWARD")
    } else if op.name.contains("BACKWARD") && !op.name.contains("NO_INTERRUPT") {
        op.name.replace("BACKWARD", "FORWARD")
    } else {
        return None;
    };
    t.by_name(&name).filter(|o| o.is_jump())
}

/// Lay the slots out: fix the EXTENDED_ARG counts and jump arguments; returns each slot's start unit
/// (plus the end of the code as the last element).
fn layout(t: &OpcodeTable, slots: &mut [Slot]) -> Result<Vec<u32>> {
    let mut starts = vec![0u32; slots.len() + 1];
    // Each pass can only grow prefixes (at most 3 per jump), so the loop ends; the bound is a safety net.
    let max_passes = 4 * slots.len() + 8;
    for _ in 0..max_passes {
        let mut off = 0u32;
        for (i, s) in slots.iter().enumerate() {
            starts[i] = off;
            off = off
                .checked_add(s.size())
                .ok_or_else(|| err("code too large"))?;
        }
        starts[slots.len()] = off;
        let mut changed = false;
        for i in 0..slots.len() {
            let Some(target) = slots[i].target else {
                continue;
            };
            let tstart = starts[target];
            let arg = match jump_arg(slots[i].op, starts[i], slots[i].size(), tstart) {
                Some(a) => a,
                None => {
                    let other = flipped(t, slots[i].op).ok_or_else(|| {
                        err(format!(
                            "{} cannot reach offset {} from offset {}",
                            slots[i].op.name,
                            u64::from(tstart) * 2,
                            u64::from(starts[i]) * 2
                        ))
                        .item(slots[i].item)
                        .op(slots[i].op.name)
                    })?;
                    slots[i].op = other;
                    changed = true;
                    continue;
                }
            };
            slots[i].arg = arg;
            let need = needed_prefixes(arg).max(slots[i].pad);
            if need > slots[i].ext {
                slots[i].ext = need;
                changed = true;
            }
        }
        if !changed {
            return Ok(starts);
        }
    }
    Err(err(
        "jump layout does not settle (a jump keeps changing direction)",
    ))
}

/// Assemble `bc`.
pub fn assemble(bc: &Bytecode) -> Result<Assembled> {
    assemble_with(bc, true)
}

/// The source line table of `bc`, if it describes exactly the lines (and 3.8 line starts) of `fresh`.
fn same_lines(bc: &Bytecode, fresh: &[u8], units: usize) -> Option<Vec<u8>> {
    let source = bc.source_linetable.as_ref()?;
    if source == fresh {
        return None;
    }
    let a = decode_locations(bc.version, source, bc.first_line, units).ok()?;
    let b = decode_locations(bc.version, fresh, bc.first_line, units).ok()?;
    if a != b {
        return None;
    }
    if bc.version == PyVersion::V3_8
        && decode_lnotab_starts(source, units).ok()? != decode_lnotab_starts(fresh, units).ok()?
    {
        return None;
    }
    Some(source.clone())
}

/// [`assemble`]; with `keep_source_linetable` false, the line table is always freshly encoded (to
/// measure how often the encoder alone reproduces CPython's bytes).
pub fn assemble_with(bc: &Bytecode, keep_source_linetable: bool) -> Result<Assembled> {
    let t = bc.table();
    let (mut slots, ranges) = collect(bc)?;
    let starts = layout(t, &mut slots)?;
    let total = starts.last().copied().unwrap_or(0) as usize;

    let mut code = Vec::with_capacity(total * 2);
    let cache = t.cache.unwrap_or(0);
    for s in &slots {
        for k in (1..=s.ext).rev() {
            code.push(t.extended_arg);
            code.push((s.arg >> (8 * k)) as u8);
        }
        let byte = u8::try_from(s.op.code)
            .map_err(|_| err("opcode number above 255").item(s.item).op(s.op.name))?;
        code.push(byte);
        code.push(s.arg as u8);
        for _ in 0..s.op.caches {
            code.push(cache);
            code.push(0);
        }
    }

    let locs: Vec<(u32, Location, bool)> = slots
        .iter()
        .map(|s| (s.size(), s.loc, s.line_start))
        .collect();
    let mut linetable = encode_lnotab_with_starts(bc.version, bc.first_line, &locs);
    if keep_source_linetable {
        if let Some(source) = same_lines(bc, &linetable, total) {
            linetable = source;
        }
    }

    let entries: Vec<ExceptionTableEntry> = ranges
        .iter()
        .filter(|r| r.start < r.end)
        .map(|r| ExceptionTableEntry {
            start: starts[r.start],
            end: starts[r.end],
            target: starts[r.handler],
            depth: r.depth,
            lasti: r.lasti,
        })
        .collect();
    let exceptiontable = if bc.version.has_exception_table() {
        encode_exception_table(&entries)
    } else {
        Vec::new()
    };

    let (flow, handlers) = flow_of(&slots, &starts, &ranges);
    let (stacksize, _) = walk(bc.version, &flow, &handlers)?;

    Ok(Assembled {
        code,
        linetable,
        exceptiontable,
        stacksize,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::{decode, CodeTables};
    use crate::instr::TryBegin;
    use crate::opcode::{table, OpInfo};

    fn op(v: PyVersion, name: &str) -> &'static OpInfo {
        table(v)
            .by_name(name)
            .unwrap_or_else(|| panic!("{name} in {v}"))
    }

    fn instr(v: PyVersion, name: &str, arg: u32) -> Item {
        Item::Instr(Instr::new(op(v, name), Arg::Raw(arg), Location::default()))
    }

    fn jump(v: PyVersion, name: &str, l: Label) -> Item {
        Item::Instr(Instr::new(op(v, name), Arg::Jump(l), Location::default()))
    }

    fn redecode(v: PyVersion, a: &Assembled) -> Bytecode {
        let t = CodeTables {
            code: &a.code,
            linetable: &a.linetable,
            exceptiontable: &a.exceptiontable,
            first_line: 1,
        };
        decode(v, t).expect("our output decodes")
    }

    /// Labels numbered far apart (not as the decoder numbers them) go through the sorted lookup,
    /// densely numbered ones through the indexed one: both lay out the same code, and both name the
    /// first label placed a second time.
    #[test]
    fn label_lookup_dense_and_sparse() {
        let v = PyVersion::V3_11;
        let build = |a: Label, b: Label| {
            let mut bc = Bytecode::new(v, 1);
            bc.items.push(instr(v, "RESUME", 0));
            bc.items.push(instr(v, "LOAD_FAST", 0));
            bc.items.push(jump(v, "POP_JUMP_FORWARD_IF_FALSE", a));
            bc.items.push(jump(v, "JUMP_FORWARD", b));
            bc.items.push(Item::Label(a));
            bc.items.push(instr(v, "NOP", 0));
            bc.items.push(Item::Label(b));
            bc.items.push(instr(v, "LOAD_CONST", 0));
            bc.items.push(instr(v, "RETURN_VALUE", 0));
            bc
        };
        let dense = assemble(&build(Label(0), Label(1))).expect("assembles");
        let sparse = assemble(&build(Label(7), Label(1_000_000))).expect("assembles");
        assert_eq!(dense, sparse);
        for (a, b) in [(Label(0), Label(1)), (Label(5), Label(900_000))] {
            let mut bc = build(a, b);
            bc.items.push(Item::Label(b));
            bc.items.push(Item::Label(a));
            let e = assemble(&bc).expect_err("a label placed twice");
            assert!(
                e.message
                    .contains(&format!("label {} is placed twice", b.0)),
                "{e}"
            );
        }
    }

    #[test]
    fn forward_jump_grows_an_extended_arg() {
        let v = PyVersion::V3_11;
        let mut bc = Bytecode::new(v, 1);
        let end = bc.new_label();
        bc.items.push(jump(v, "JUMP_FORWARD", end));
        bc.items.extend((0..300).map(|_| instr(v, "NOP", 0)));
        bc.items.push(Item::Label(end));
        bc.items.push(instr(v, "LOAD_CONST", 0));
        bc.items.push(instr(v, "RETURN_VALUE", 0));
        let a = assemble(&bc).expect("assembles");
        let t = table(v);
        // EXTENDED_ARG 1, JUMP_FORWARD 44: 0x12c = 300 code units past the jump's end
        assert_eq!(
            &a.code[..4],
            &[t.extended_arg, 1, op(v, "JUMP_FORWARD").code as u8, 44]
        );
        assert_eq!(a.stacksize, 1);
        assert_eq!(assemble(&redecode(v, &a)).expect("again"), a);
    }

    #[test]
    fn backward_jump_counts_its_own_prefix() {
        // 255 NOPs then JUMP_BACKWARD to the start: without a prefix the distance is 256 (needs one);
        // with the prefix it is 257. The fix-point must settle on 257 with one prefix.
        let v = PyVersion::V3_12;
        let mut bc = Bytecode::new(v, 1);
        let top = bc.new_label();
        bc.items.push(Item::Label(top));
        bc.items.extend((0..255).map(|_| instr(v, "NOP", 0)));
        bc.items.push(jump(v, "JUMP_BACKWARD", top));
        let a = assemble(&bc).expect("assembles");
        let n = a.code.len();
        assert_eq!(
            &a.code[n - 4..],
            &[
                table(v).extended_arg,
                1,
                op(v, "JUMP_BACKWARD").code as u8,
                1
            ]
        );
        let back = redecode(v, &a);
        assert!(
            matches!(back.items[0], Item::Label(_)),
            "the target is still the first instruction"
        );
    }

    #[test]
    fn jump_direction_is_chosen_from_the_layout() {
        let v = PyVersion::V3_11;
        let mut bc = Bytecode::new(v, 1);
        let top = bc.new_label();
        bc.items.push(Item::Label(top));
        bc.items.push(instr(v, "NOP", 0));
        bc.items.push(jump(v, "JUMP_FORWARD", top)); // written forward, goes backward
        let a = assemble(&bc).expect("assembles");
        assert_eq!(a.code[2], op(v, "JUMP_BACKWARD").code as u8);
        assert_eq!(a.code[3], 2);
    }

    #[test]
    fn absolute_jumps_count_bytes_in_3_8() {
        let v = PyVersion::V3_8;
        let mut bc = Bytecode::new(v, 1);
        let l = bc.new_label();
        bc.items.push(instr(v, "LOAD_CONST", 0));
        bc.items.push(jump(v, "POP_JUMP_IF_FALSE", l));
        bc.items.push(Item::Label(l));
        bc.items.push(instr(v, "LOAD_CONST", 0));
        bc.items.push(instr(v, "RETURN_VALUE", 0));
        let a = assemble(&bc).expect("assembles");
        assert_eq!(a.code[3], 4, "target byte offset 4");
    }

    #[test]
    fn exception_ranges_become_table_entries() {
        let v = PyVersion::V3_11;
        let mut bc = Bytecode::new(v, 1);
        let h = bc.new_label();
        bc.items.push(instr(v, "NOP", 0));
        bc.items.push(Item::TryBegin(TryBegin {
            handler: h,
            depth: 0,
            lasti: true,
        }));
        bc.items.push(instr(v, "LOAD_CONST", 0));
        bc.items.push(instr(v, "RETURN_VALUE", 0));
        bc.items.push(Item::TryEnd);
        bc.items.push(Item::Label(h));
        bc.items.push(instr(v, "POP_TOP", 0));
        bc.items.push(instr(v, "POP_TOP", 0));
        bc.items.push(instr(v, "LOAD_CONST", 0));
        bc.items.push(instr(v, "RETURN_VALUE", 0));
        let a = assemble(&bc).expect("assembles");
        let entries =
            crate::exceptiontable::decode_exception_table(&a.exceptiontable).expect("table");
        assert_eq!(entries.len(), 1);
        let e = entries[0];
        assert_eq!(
            (e.start, e.end, e.target, e.depth, e.lasti),
            (1, 3, 3, 0, true)
        );
        assert_eq!(
            a.stacksize, 2,
            "handler entered with lasti and the exception"
        );
        let back = redecode(v, &a);
        assert!(back.items.iter().any(|i| matches!(i, Item::TryBegin(_))));
    }

    #[test]
    fn depths_before_each_instruction() {
        let v = PyVersion::V3_11;
        let mut bc = Bytecode::new(v, 1);
        let h = bc.new_label();
        bc.items.push(instr(v, "LOAD_CONST", 0));
        bc.items.push(Item::TryBegin(TryBegin {
            handler: h,
            depth: 1,
            lasti: false,
        }));
        bc.items.push(instr(v, "LOAD_CONST", 0));
        bc.items.push(instr(v, "BINARY_OP", 0));
        bc.items.push(instr(v, "RETURN_VALUE", 0));
        bc.items.push(Item::TryEnd);
        bc.items.push(Item::Label(h));
        bc.items.push(instr(v, "POP_TOP", 0));
        bc.items.push(instr(v, "RETURN_VALUE", 0));
        let d = instruction_depths(&bc).expect("walks");
        assert_eq!(
            d,
            vec![
                Some(0),
                None,
                Some(1),
                Some(2),
                Some(1),
                None,
                None,
                Some(2),
                Some(1)
            ]
        );
    }

    #[test]
    fn errors_name_the_item_and_opcode() {
        let v = PyVersion::V3_11;
        let mut bc = Bytecode::new(v, 1);
        let nowhere = bc.new_label();
        bc.items.push(jump(v, "JUMP_FORWARD", nowhere));
        let e = assemble(&bc).expect_err("unplaced label");
        assert_eq!((e.kind, e.index), (ErrorKind::Assemble, Some(0)));

        let mut bc = Bytecode::new(v, 1);
        bc.items.push(instr(v, "POP_TOP", 0));
        bc.items.push(instr(v, "RETURN_VALUE", 0));
        let e = assemble(&bc).expect_err("underflow");
        assert_eq!(
            (e.kind, e.opname, e.offset),
            (ErrorKind::StackDepth, Some("POP_TOP"), Some(0))
        );

        let mut bc = Bytecode::new(v, 1);
        let h = bc.new_label();
        bc.items.push(Item::TryBegin(TryBegin {
            handler: h,
            depth: 0,
            lasti: false,
        }));
        bc.items.push(Item::TryBegin(TryBegin {
            handler: h,
            depth: 0,
            lasti: false,
        }));
        let e = assemble(&bc).expect_err("nested");
        assert_eq!(e.index, Some(1));

        let mut bc = Bytecode::new(v, 1);
        bc.items.push(instr(v, "NOP", 0));
        let e = assemble(&bc).expect_err("falls off the end");
        assert_eq!(e.kind, ErrorKind::StackDepth);
    }

    #[test]
    fn decode_rejects_bad_code_with_offsets() {
        let v = PyVersion::V3_11;
        let t = |code: &'static [u8]| CodeTables {
            code,
            linetable: &[],
            exceptiontable: &[],
            first_line: 1,
        };
        let e = decode(v, t(&[9])).expect_err("odd");
        assert_eq!(e.kind, ErrorKind::Decode);
        let ext = table(v).extended_arg;
        let e = decode(
            v,
            CodeTables {
                code: &[9, 0, ext, 1],
                linetable: &[],
                exceptiontable: &[],
                first_line: 1,
            },
        )
        .expect_err("trailing prefix");
        assert_eq!(e.offset, Some(2));
        let jf = op(v, "JUMP_FORWARD").code as u8;
        let e = decode(
            v,
            CodeTables {
                code: &[jf, 5],
                linetable: &[],
                exceptiontable: &[],
                first_line: 1,
            },
        )
        .expect_err("jump past the end");
        assert_eq!((e.offset, e.opname), (Some(0), Some("JUMP_FORWARD")));
        let v8 = PyVersion::V3_8;
        let ja = op(v8, "JUMP_ABSOLUTE").code as u8;
        let e = decode(
            v8,
            CodeTables {
                code: &[ja, 1, 9, 0],
                linetable: &[],
                exceptiontable: &[],
                first_line: 1,
            },
        )
        .expect_err("odd byte target");
        assert_eq!(e.opname, Some("JUMP_ABSOLUTE"));
    }
}
