//! `co_code` and its tables → [`Bytecode`]: EXTENDED_ARG folded, caches skipped, jump targets and
//! exception ranges turned into labels and markers, a location on every instruction.

use crate::error::{BytecodeError, ErrorKind, Result};
use crate::exceptiontable::{decode_exception_table, ExceptionTableEntry};
use crate::instr::{Arg, Bytecode, Instr, Item, Label, TryBegin};
use crate::linetable::{decode_lnotab_starts, decode_locations, Location};
use crate::opcode::{table, JumpDir, JumpUnit, OpInfo};
use crate::version::PyVersion;

/// The raw material of a code object that bytecode decoding needs.
#[derive(Clone, Copy, Debug)]
pub struct CodeTables<'a> {
    pub code: &'a [u8],
    /// `co_lnotab` (3.8, 3.9) or `co_linetable` (3.10+).
    pub linetable: &'a [u8],
    /// `co_exceptiontable` (3.11+; empty before).
    pub exceptiontable: &'a [u8],
    pub first_line: i32,
}

/// One instruction as laid out in `co_code`.
#[derive(Clone, Copy, Debug)]
pub struct RawInstr {
    /// Code unit of the first EXTENDED_ARG prefix, or of the opcode when there is none.
    pub start: u32,
    /// Code units taken, prefixes and inline caches included.
    pub size: u32,
    pub op: &'static OpInfo,
    pub arg: u32,
}

fn err(message: impl Into<String>) -> BytecodeError {
    BytecodeError::new(ErrorKind::Decode, message)
}

/// Split `code` into instructions, folding EXTENDED_ARG prefixes and skipping inline caches.
pub fn raw_instructions(version: PyVersion, code: &[u8]) -> Result<Vec<RawInstr>> {
    if code.len() % 2 != 0 {
        return Err(err(format!("co_code has odd length {}", code.len())));
    }
    let t = table(version);
    let units = code.len() / 2;
    let mut out = Vec::with_capacity(units);
    let mut i = 0usize;
    let mut start = 0usize;
    let mut ext: u64 = 0;
    let mut in_prefix = false;
    while i < units {
        let byte = code[2 * i];
        let arg = u64::from(code[2 * i + 1]);
        let offset = (2 * i) as u32;
        let op = t
            .op(byte)
            .ok_or_else(|| err(format!("unknown opcode {byte} for Python {version}")).at(offset))?;
        let op = t.deopt(op);
        if !in_prefix {
            start = i;
        }
        // EXTENDED_ARG, or a specialised form of it (3.11's EXTENDED_ARG_QUICK): a prefix
        if op.code == u16::from(t.extended_arg) {
            ext = (ext | arg) << 8;
            if ext > u64::from(u32::MAX) {
                return Err(
                    err("EXTENDED_ARG prefixes make an argument wider than 32 bits")
                        .at(offset)
                        .op(op.name),
                );
            }
            in_prefix = true;
            i += 1;
            continue;
        }
        in_prefix = false;
        let full = (ext | arg) as u32;
        ext = 0;
        let caches = usize::from(op.caches);
        if i + 1 + caches > units {
            return Err(err(format!(
                "{} inline cache entries run past the end of the code",
                caches
            ))
            .at(offset)
            .op(op.name));
        }
        out.push(RawInstr {
            start: start as u32,
            size: (i + 1 + caches - start) as u32,
            op,
            arg: full,
        });
        i += 1 + caches;
    }
    if in_prefix {
        return Err(
            err("EXTENDED_ARG at the end of the code, with no instruction to extend")
                .at((2 * start) as u32),
        );
    }
    Ok(out)
}

/// The code unit a jump goes to (may be out of range: the caller checks).
pub fn jump_target(ins: &RawInstr) -> Option<i64> {
    let j = ins.op.jump()?;
    let arg = i64::from(ins.arg);
    let delta = match j.unit {
        JumpUnit::Bytes => {
            if arg % 2 != 0 {
                return Some(-1);
            }
            arg / 2
        }
        JumpUnit::CodeUnits => arg,
    };
    let end = i64::from(ins.start) + i64::from(ins.size);
    Some(match j.dir {
        JumpDir::Absolute => delta,
        JumpDir::Forward => end + delta,
        JumpDir::Backward => end - delta,
    })
}

/// Decode a code object's bytecode.
pub fn decode(version: PyVersion, tables: CodeTables<'_>) -> Result<Bytecode> {
    let raws = raw_instructions(version, tables.code)?;
    let units = tables.code.len() / 2;
    // (code with no jump and no exception table, straight-line code, has no label and no range:
    // the per-unit lists below that only serve those are not made for it)
    let placed = !tables.exceptiontable.is_empty() || raws.iter().any(|r| r.op.jump().is_some());
    let per_unit = if placed { units + 1 } else { 0 };

    // Which code units start an instruction (index into raws + 1; 0 for none).
    let mut starts = vec![0u32; per_unit];
    if placed {
        for (n, r) in raws.iter().enumerate() {
            starts[r.start as usize] = n as u32 + 1;
        }
    }
    let is_boundary = |unit: i64| -> bool {
        unit == units as i64 || (unit >= 0 && (unit as usize) < units && starts[unit as usize] != 0)
    };

    // Labels: one per distinct jump target or handler, numbered by position.
    let mut label_at = vec![u32::MAX; per_unit];
    let mut targets: Vec<Option<u32>> = Vec::with_capacity(if placed { raws.len() } else { 0 });
    for r in raws.iter().filter(|_| placed) {
        match jump_target(r) {
            None => targets.push(None),
            Some(t) => {
                if !is_boundary(t) || t == units as i64 {
                    return Err(err(format!(
                        "jump target {} is not the start of an instruction",
                        describe_unit(t)
                    ))
                    .at(r.start * 2)
                    .op(r.op.name));
                }
                label_at[t as usize] = 0;
                targets.push(Some(t as u32));
            }
        }
    }

    let entries = if version.has_exception_table() {
        decode_exception_table(tables.exceptiontable)
            .map_err(|e| err(format!("exception table: {e}")))?
    } else {
        if !tables.exceptiontable.is_empty() {
            return Err(err(format!("Python {version} has no exception table")));
        }
        Vec::new()
    };
    check_entries(&entries, units, &is_boundary)?;
    for e in &entries {
        label_at[e.target as usize] = 0;
    }
    let mut bc = Bytecode::new(version, tables.first_line);
    if version <= PyVersion::V3_9 {
        bc.source_linetable = Some(tables.linetable.to_vec());
    }
    for slot in label_at.iter_mut() {
        if *slot == 0 {
            *slot = bc.new_label().0;
        }
    }

    // An empty table is how code made without positions says "no locations" (CPython accepts it).
    let locs = if tables.linetable.is_empty() {
        vec![Location::default(); units]
    } else {
        decode_locations(version, tables.linetable, tables.first_line, units)
            .map_err(|e| err(format!("line table: {e}")))?
    };

    let line_starts = if version == PyVersion::V3_8 {
        decode_lnotab_starts(tables.linetable, units)
            .map_err(|e| err(format!("line table: {e}")))?
    } else {
        Vec::new()
    };

    // Exception-range markers, keyed by code unit.
    // (none where the code has no exception table, as before 3.11 and in most functions after)
    let size = if entries.is_empty() { 0 } else { units + 1 };
    let mut begins: Vec<Option<&ExceptionTableEntry>> = vec![None; size];
    let mut ends = vec![false; size];
    for e in &entries {
        begins[e.start as usize] = Some(e);
        ends[e.end as usize] = true;
    }

    bc.items.reserve(raws.len() + entries.len() * 2 + 8);
    let push_markers = |bc: &mut Bytecode, unit: usize| {
        if !placed {
            return;
        }
        if ends.get(unit) == Some(&true) {
            bc.items.push(Item::TryEnd);
        }
        if label_at[unit] != u32::MAX {
            bc.items.push(Item::Label(Label(label_at[unit])));
        }
        if let Some(Some(e)) = begins.get(unit) {
            bc.items.push(Item::TryBegin(TryBegin {
                handler: Label(label_at[e.target as usize]),
                depth: e.depth,
                lasti: e.lasti,
            }));
        }
    };
    for (k, r) in raws.iter().enumerate() {
        push_markers(&mut bc, r.start as usize);
        let arg = match targets.get(k).copied().flatten() {
            Some(t) => Arg::Jump(Label(label_at[t as usize])),
            None => Arg::Raw(r.arg),
        };
        let loc = locs
            .get(r.start as usize)
            .copied()
            .unwrap_or(Location::default());
        // Keep the prefix count as written: an encoder may pad (3.8/3.9's peephole leaves
        // `EXTENDED_ARG 0`), and jump layouts can have several self-consistent solutions (3.8/3.9
        // iterate from zero and need not reach the least one). The assembler starts from it.
        let pad = (r.size - 1 - u32::from(r.op.caches)) as u8;
        bc.items.push(Item::Instr(Instr {
            op: r.op,
            arg,
            loc,
            pad,
            line_start: line_starts.get(r.start as usize).copied().unwrap_or(false),
        }));
    }
    push_markers(&mut bc, units);
    Ok(bc)
}

fn describe_unit(unit: i64) -> String {
    format!("offset {}", unit * 2)
}

fn check_entries(
    entries: &[ExceptionTableEntry],
    units: usize,
    is_boundary: &dyn Fn(i64) -> bool,
) -> Result<()> {
    let mut prev_end = 0u32;
    for e in entries {
        let what = format!(
            "exception-table entry {}..{} -> {}",
            u64::from(e.start) * 2,
            u64::from(e.end) * 2,
            u64::from(e.target) * 2
        );
        if e.start >= e.end || (e.end as usize) > units {
            return Err(err(format!("{what}: empty or out of the code")));
        }
        if e.start < prev_end {
            return Err(err(format!("{what}: overlaps the previous entry")));
        }
        for (name, unit) in [("start", e.start), ("end", e.end), ("handler", e.target)] {
            if !is_boundary(i64::from(unit)) || (name == "handler" && unit as usize == units) {
                return Err(err(format!(
                    "{what}: {name} is not the start of an instruction"
                )));
            }
        }
        prev_end = e.end;
    }
    Ok(())
}
