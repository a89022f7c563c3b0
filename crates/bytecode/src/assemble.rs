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
use crate::stackdepth::{stack_depth, FlowInstr};
use crate::version::PyVersion;

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

/// Resolve labels: the slot index each label stands before, and the slots themselves.
fn collect(bc: &Bytecode) -> Result<(Vec<Slot>, Vec<Range>)> {
    let mut label_pos: std::collections::HashMap<Label, usize> = std::collections::HashMap::new();
    let mut n = 0usize;
    for (i, item) in bc.items.iter().enumerate() {
        match item {
            Item::Label(l) => {
                if label_pos.insert(*l, n).is_some() {
                    return Err(err(format!("label {} is placed twice", l.0)).item(i));
                }
            }
            Item::Instr(_) => n += 1,
            Item::TryBegin(_) | Item::TryEnd => {}
        }
    }
    let resolve = |l: Label, i: usize, what: &str| -> Result<usize> {
        label_pos.get(&l).copied().ok_or_else(|| {
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

    let flow: Vec<FlowInstr> = slots
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
    let handlers: Vec<(usize, usize, usize, u32)> = ranges
        .iter()
        .map(|r| (r.start, r.end, r.handler, r.depth + 1 + u32::from(r.lasti)))
        .collect();
    let stacksize = stack_depth(bc.version, &flow, &handlers)?;

    Ok(Assembled {
        code,
        linetable,
        exceptiontable,
        stacksize,
    })
}
