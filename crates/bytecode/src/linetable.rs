//! Line tables of CPython 3.8–3.14: decode them to one [`Location`] per code unit, and write them
//! back byte-for-byte as CPython's compiler does.
//!
//! Three formats:
//!
//! - **3.8, 3.9 `co_lnotab`**: pairs `(bytecode delta, line delta)`, the bytecode delta an
//!   unsigned byte counted in bytes, the line delta a *signed* byte. A pair means "after
//!   `bytecode delta` more bytes, the line changes by `line delta`"; the line before the first
//!   pair is `co_firstlineno`. The compiler writes a pair only at an instruction whose line differs
//!   from the last one written (instructions with no line, `i_lineno == 0`, write nothing and so
//!   inherit the line before them). Deltas too large for a byte are split: first `(255, 0)` pairs
//!   for the bytecode, then `(rest, ±127/-128)` and `(0, ±127/-128)` pairs for the line, then the
//!   remainder.
//! - **3.10 `co_linetable`**: pairs `(range length, line delta)`: the next `range length` bytes
//!   (0..=254) have line `previous line + line delta` (−127..=127), or no line when the delta byte
//!   is −128; "previous line" is the last line that was not "no line", starting at
//!   `co_firstlineno`. Line jumps beyond ±127 are written first as `(0, ±127)` pairs, ranges longer
//!   than 254 bytes are split into `(254, delta)` then `(254, 0)` (or `(254, −128)`) pairs.
//! - **3.11+ location table**: entries starting with a byte `1cccclll` (`c` the form, `l` the
//!   length in code units minus one, 1..=8), followed by form-specific bytes with the top bit clear:
//!   short forms 0–9 (same line, one byte of columns), one-line forms 10–12 (line +0..2, a byte each
//!   for the column and the end column), 13 "no column" (a signed varint line delta), 14 long (signed
//!   varint line delta, varints for end line delta, column + 1, end column + 1) and 15 "no
//!   location". Varints are little-endian groups of six bits, 0x40 marking continuation; a signed
//!   varint stores `|v| << 1 | sign`. 3.11 writes at least one entry per instruction; 3.12 and later
//!   merge consecutive instructions with the same location first; either way an entry covers at
//!   most 8 code units.
//!
//! ## What "none" decodes to
//!
//! - 3.8/3.9: every code unit has a line; other fields are always `None`.
//! - 3.10: a `-128` line delta decodes to `line: None`; other fields are always `None`.
//! - 3.11+: the "no location" form decodes to all four fields `None`; the "no column" form to
//!   `end_line == line` and both columns `None`; a long form's column or end column of `-1`
//!   (stored as 0) to `None`. CPython's `co_positions()` reports exactly these `None`s.
//!
//! When encoding, `line: None` means "no line" (3.8/3.9: the instruction inherits the previous
//! line, as `i_lineno == 0` does in the compiler, which is also how `Some(0)` is treated there;
//! 3.10: the `-128` marker; 3.11+: the "no location" form). A `None` column or end column is the
//! compiler's `-1`, a `None` end line likewise.
//!
//! ## Coverage and leniency
//!
//! 3.10+ tables must cover exactly `code_units` code units ([`LineTableError::Overrun`],
//! [`LineTableError::Underrun`]). A 3.8/3.9 `co_lnotab` has no length of its own: its last line
//! runs to the end of the code, and pairs whose offset lies past the end are parsed but have no
//! effect, as in CPython (`PyCode_Addr2Line` simply stops there).
//!
//! Reproducing CPython's bytes needs the instruction boundaries (3.8–3.11 write per instruction),
//! which is why [`encode_locations`] takes `(size, location)` per instruction.

use std::fmt;

use crate::version::PyVersion;

/// Source location of one instruction or code unit; 3.8–3.10 use only `line`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Location {
    pub line: Option<i32>,
    pub end_line: Option<i32>,
    pub col: Option<i32>,
    pub end_col: Option<i32>,
}

impl Location {
    /// No location at all.
    pub const NONE: Location = Location {
        line: None,
        end_line: None,
        col: None,
        end_col: None,
    };

    /// Only a line (the 3.8–3.10 kind of location).
    pub const fn line(line: i32) -> Location {
        Location {
            line: Some(line),
            end_line: None,
            col: None,
            end_col: None,
        }
    }

    /// A full 3.11+ position.
    pub const fn new(line: i32, end_line: i32, col: i32, end_col: i32) -> Location {
        Location {
            line: Some(line),
            end_line: Some(end_line),
            col: Some(col),
            end_col: Some(end_col),
        }
    }
}

/// Why a line table could not be decoded. Offsets are byte offsets into the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineTableError {
    /// A pair table (3.8–3.10) has an odd number of bytes.
    OddLength { len: usize },
    /// The entry at `offset` needs more bytes than the table has.
    Truncated { offset: usize },
    /// A bytecode delta at `offset` is odd: it must count whole 2-byte code units.
    OddBytecodeDelta { offset: usize, delta: u8 },
    /// 3.11+: the byte at `offset` should start an entry (top bit set) but does not, or should
    /// continue one (top bit clear) but does not.
    BadByte { offset: usize, byte: u8 },
    /// 3.11+: a varint at `offset` does not fit in 32 bits.
    VarintOverflow { offset: usize },
    /// The line number computed at `offset` overflows an `i32`.
    LineOverflow { offset: usize },
    /// The entry at `offset` covers code units past `code_units`.
    Overrun { offset: usize, code_units: usize },
    /// The table ends after covering `covered` of the `code_units` code units.
    Underrun { covered: usize, code_units: usize },
}

impl fmt::Display for LineTableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LineTableError::OddLength { len } => write!(f, "line table has odd length {len}"),
            LineTableError::Truncated { offset } => {
                write!(f, "line table truncated in the entry at byte {offset}")
            }
            LineTableError::OddBytecodeDelta { offset, delta } => {
                write!(f, "odd bytecode delta {delta} at byte {offset} of the line table")
            }
            LineTableError::BadByte { offset, byte } => {
                write!(f, "unexpected byte {byte:#04x} at byte {offset} of the location table")
            }
            LineTableError::VarintOverflow { offset } => {
                write!(f, "varint at byte {offset} of the location table overflows 32 bits")
            }
            LineTableError::LineOverflow { offset } => {
                write!(f, "line number overflows at byte {offset} of the line table")
            }
            LineTableError::Overrun { offset, code_units } => write!(
                f,
                "line table entry at byte {offset} runs past the end of the code ({code_units} code units)"
            ),
            LineTableError::Underrun { covered, code_units } => write!(
                f,
                "line table covers {covered} code units, the code has {code_units}"
            ),
        }
    }
}

impl std::error::Error for LineTableError {}

/// Decode a line table into one [`Location`] per 2-byte code unit of `co_code`.
///
/// `table` is `co_lnotab` for 3.8/3.9, `co_linetable` for 3.10+.
pub fn decode_locations(
    version: PyVersion,
    table: &[u8],
    firstlineno: i32,
    code_units: usize,
) -> Result<Vec<Location>, LineTableError> {
    match version {
        PyVersion::V3_8 | PyVersion::V3_9 => decode_lnotab(table, firstlineno, code_units),
        PyVersion::V3_10 => decode_linetable_310(table, firstlineno, code_units),
        _ => decode_location_table(table, firstlineno, code_units),
    }
}

/// Write the line table CPython's compiler writes for a code object whose instructions are
/// `instrs`: per instruction in order, its size in code units (its `EXTENDED_ARG` prefixes and
/// inline `CACHE` units included) and its location.
pub fn encode_locations(
    version: PyVersion,
    firstlineno: i32,
    instrs: &[(u32, Location)],
) -> Vec<u8> {
    match version {
        PyVersion::V3_8 | PyVersion::V3_9 => encode_lnotab(firstlineno, instrs),
        PyVersion::V3_10 => encode_linetable_310(firstlineno, instrs),
        PyVersion::V3_11 => encode_location_table(firstlineno, instrs, false),
        _ => encode_location_table(firstlineno, instrs, true),
    }
}

// ---------------------------------------------------------------------------------------------
// 3.8 / 3.9: co_lnotab

fn decode_lnotab(
    table: &[u8],
    firstlineno: i32,
    code_units: usize,
) -> Result<Vec<Location>, LineTableError> {
    if table.len() % 2 != 0 {
        return Err(LineTableError::OddLength { len: table.len() });
    }
    let mut out = Vec::new();
    let mut line = firstlineno;
    let mut unit = 0usize;
    for (k, pair) in table.chunks_exact(2).enumerate() {
        let offset = 2 * k;
        let (bdelta, ldelta) = (pair[0], pair[1] as i8);
        if bdelta % 2 != 0 {
            return Err(LineTableError::OddBytecodeDelta {
                offset,
                delta: bdelta,
            });
        }
        let next = unit.saturating_add(usize::from(bdelta / 2));
        let fill = next.min(code_units);
        if fill > out.len() {
            out.resize(fill, Location::line(line));
        }
        unit = next;
        line = line
            .checked_add(i32::from(ldelta))
            .ok_or(LineTableError::LineOverflow { offset })?;
    }
    // The last line runs to the end of the code; `code_units` is the caller's own length of the
    // code, so this allocation is the size of the answer asked for.
    out.resize(code_units, Location::line(line));
    Ok(out)
}

fn encode_lnotab(firstlineno: i32, instrs: &[(u32, Location)]) -> Vec<u8> {
    lnotab_writer(
        firstlineno,
        instrs.iter().map(|&(size, loc)| (size, loc.line, false)),
        false,
    )
}

/// 3.8/3.9: the code units at which a `co_lnotab` pair starts a new range, whether or not the line
/// changes there (the `(255, 0)` pairs of a long bytecode delta excepted: they end mid-unit).
///
/// 3.8's compiler writes a pair for every instruction that *starts a line*, one that opened a
/// statement or an expression on another line, even when its line equals the previous one; such
/// `(n, 0)` pairs are invisible in the per-unit lines yet make 3.8's tracer fire a `line` event.
/// [`decode_locations`] cannot show them; this does, and [`encode_lnotab_with_starts`] writes them
/// back. (3.9 never writes a pair that leaves the line unchanged.)
pub fn decode_lnotab_starts(table: &[u8], code_units: usize) -> Result<Vec<bool>, LineTableError> {
    if table.len() % 2 != 0 {
        return Err(LineTableError::OddLength { len: table.len() });
    }
    let mut starts = vec![false; code_units];
    let mut bytes = 0usize;
    for pair in table.chunks_exact(2) {
        bytes = bytes.saturating_add(usize::from(pair[0]));
        if pair != [255, 0] && bytes % 2 == 0 {
            if let Some(s) = starts.get_mut(bytes / 2) {
                *s = true;
            }
        }
    }
    Ok(starts)
}

/// 3.8/3.9: [`encode_locations`] with, per instruction, whether it starts a line (see
/// [`decode_lnotab_starts`]). For 3.8, an instruction that starts a line gets a pair even if its
/// line is unchanged (unless it is at the offset of the last pair); 3.9 ignores the flag. Any
/// other version falls back to [`encode_locations`].
pub fn encode_lnotab_with_starts(
    version: PyVersion,
    firstlineno: i32,
    instrs: &[(u32, Location, bool)],
) -> Vec<u8> {
    match version {
        PyVersion::V3_8 | PyVersion::V3_9 => lnotab_writer(
            firstlineno,
            instrs
                .iter()
                .map(|&(size, loc, start)| (size, loc.line, start)),
            version == PyVersion::V3_8,
        ),
        _ => {
            let plain: Vec<(u32, Location)> =
                instrs.iter().map(|&(size, loc, _)| (size, loc)).collect();
            encode_locations(version, firstlineno, &plain)
        }
    }
}

/// The 3.8/3.9 compiler's pair writer; `marks`: write a pair for a line start whose line did not
/// change (3.8).
fn lnotab_writer(
    firstlineno: i32,
    instrs: impl Iterator<Item = (u32, Option<i32>, bool)>,
    marks: bool,
) -> Vec<u8> {
    let mut out = Vec::new();
    let mut last_line = firstlineno;
    let mut last_offset: u64 = 0; // in code units
    let mut offset: u64 = 0;
    for (size, line, start) in instrs {
        if let Some(line) = line.filter(|&l| l != 0) {
            let mut dline = i64::from(line) - i64::from(last_line);
            let mut dbytes = (offset - last_offset) * 2;
            if dline != 0 || (marks && start && dbytes != 0) {
                while dbytes > 255 {
                    out.extend_from_slice(&[255, 0]);
                    dbytes -= 255;
                }
                if !(-128..=127).contains(&dline) {
                    let step: i64 = if dline < 0 { -128 } else { 127 };
                    let n = dline / step;
                    dline -= n * step;
                    out.extend_from_slice(&[dbytes as u8, step as i8 as u8]);
                    dbytes = 0;
                    for _ in 1..n {
                        out.extend_from_slice(&[0, step as i8 as u8]);
                    }
                }
                out.extend_from_slice(&[dbytes as u8, dline as i8 as u8]);
                last_line = line;
                last_offset = offset;
            }
        }
        offset += u64::from(size);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// 3.10: co_linetable

const NO_LINE_310: i8 = -128;

fn decode_linetable_310(
    table: &[u8],
    firstlineno: i32,
    code_units: usize,
) -> Result<Vec<Location>, LineTableError> {
    if table.len() % 2 != 0 {
        return Err(LineTableError::OddLength { len: table.len() });
    }
    // Each pair covers at most 127 code units: refuse before allocating for a code the table
    // cannot cover.
    if code_units > table.len() / 2 * 127 {
        let covered = table.chunks_exact(2).map(|p| usize::from(p[0] / 2)).sum();
        return Err(LineTableError::Underrun {
            covered,
            code_units,
        });
    }
    let mut out = Vec::with_capacity(code_units);
    let mut line = firstlineno;
    for (k, pair) in table.chunks_exact(2).enumerate() {
        let offset = 2 * k;
        let (bdelta, ldelta) = (pair[0], pair[1] as i8);
        if bdelta % 2 != 0 {
            return Err(LineTableError::OddBytecodeDelta {
                offset,
                delta: bdelta,
            });
        }
        let loc = if ldelta == NO_LINE_310 {
            Location::NONE
        } else {
            line = line
                .checked_add(i32::from(ldelta))
                .ok_or(LineTableError::LineOverflow { offset })?;
            Location::line(line)
        };
        let end = out.len() + usize::from(bdelta / 2);
        if end > code_units {
            return Err(LineTableError::Overrun { offset, code_units });
        }
        out.resize(end, loc);
    }
    if out.len() != code_units {
        return Err(LineTableError::Underrun {
            covered: out.len(),
            code_units,
        });
    }
    Ok(out)
}

fn encode_linetable_310(firstlineno: i32, instrs: &[(u32, Location)]) -> Vec<u8> {
    struct State {
        out: Vec<u8>,
        prev_line: i64,
        start: u64,
    }
    // Write the range [state.start, offset) whose line is `line`.
    fn range(st: &mut State, line: Option<i32>, offset: u64) {
        let mut bdelta = (offset - st.start) * 2;
        if bdelta == 0 {
            return;
        }
        let mut ldelta: i64 = match line {
            None => i64::from(NO_LINE_310),
            Some(line) => {
                let mut d = i64::from(line) - st.prev_line;
                st.prev_line = i64::from(line);
                while d > 127 {
                    st.out.extend_from_slice(&[0, 127]);
                    d -= 127;
                }
                while d < -127 {
                    st.out.extend_from_slice(&[0, -127i8 as u8]);
                    d += 127;
                }
                d
            }
        };
        while bdelta > 254 {
            st.out.extend_from_slice(&[254, ldelta as i8 as u8]);
            ldelta = if line.is_none() {
                i64::from(NO_LINE_310)
            } else {
                0
            };
            bdelta -= 254;
        }
        st.out
            .extend_from_slice(&[bdelta as u8, ldelta as i8 as u8]);
        st.start = offset;
    }
    let mut st = State {
        out: Vec::new(),
        prev_line: i64::from(firstlineno),
        start: 0,
    };
    let mut cur = Some(firstlineno);
    let mut offset: u64 = 0;
    for &(size, loc) in instrs {
        let line = loc.line.filter(|&l| l >= 0);
        if line != cur {
            range(&mut st, cur, offset);
            cur = line;
        }
        offset += u64::from(size);
    }
    range(&mut st, cur, offset);
    st.out
}

// ---------------------------------------------------------------------------------------------
// 3.11+: location table

const FORM_ONE_LINE0: u8 = 10;
const FORM_NO_COLUMN: u8 = 13;
const FORM_LONG: u8 = 14;
const FORM_NONE: u8 = 15;

struct Reader<'a> {
    table: &'a [u8],
    pos: usize,
    entry: usize,
}

impl Reader<'_> {
    /// A byte inside the current entry (top bit clear).
    fn byte(&mut self) -> Result<u8, LineTableError> {
        let offset = self.pos;
        let b = *self
            .table
            .get(offset)
            .ok_or(LineTableError::Truncated { offset: self.entry })?;
        if b & 0x80 != 0 {
            return Err(LineTableError::BadByte { offset, byte: b });
        }
        self.pos += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u32, LineTableError> {
        let offset = self.pos;
        let mut val: u64 = 0;
        let mut shift = 0u32;
        loop {
            let b = self.byte()?;
            val |= u64::from(b & 0x3f) << shift;
            if b & 0x40 == 0 {
                break;
            }
            shift += 6;
            if shift > 30 {
                return Err(LineTableError::VarintOverflow { offset });
            }
        }
        u32::try_from(val).map_err(|_| LineTableError::VarintOverflow { offset })
    }

    fn svarint(&mut self) -> Result<i32, LineTableError> {
        let v = self.varint()?;
        let mag = (v >> 1) as i32;
        Ok(if v & 1 != 0 { mag.wrapping_neg() } else { mag })
    }
}

fn decode_location_table(
    table: &[u8],
    firstlineno: i32,
    code_units: usize,
) -> Result<Vec<Location>, LineTableError> {
    // Each entry (at least one byte) covers at most 8 code units.
    if code_units > table.len().saturating_mul(8) {
        return Err(LineTableError::Underrun {
            covered: location_table_coverage(table),
            code_units,
        });
    }
    let mut out = Vec::with_capacity(code_units);
    let mut line = firstlineno;
    let mut rd = Reader {
        table,
        pos: 0,
        entry: 0,
    };
    while let Some(&first) = table.get(rd.pos) {
        let entry = rd.pos;
        rd.entry = entry;
        if first & 0x80 == 0 {
            return Err(LineTableError::BadByte {
                offset: entry,
                byte: first,
            });
        }
        rd.pos += 1;
        let form = (first >> 3) & 0x0f;
        let len = usize::from(first & 7) + 1;
        let overflow = LineTableError::LineOverflow { offset: entry };
        let loc = match form {
            FORM_NONE => Location::NONE,
            FORM_LONG => {
                line = line.checked_add(rd.svarint()?).ok_or(overflow)?;
                let end_line = line.wrapping_add(rd.varint()? as i32);
                let col = rd.varint()?;
                let end_col = rd.varint()?;
                Location {
                    line: Some(line),
                    end_line: Some(end_line),
                    col: column(col),
                    end_col: column(end_col),
                }
            }
            FORM_NO_COLUMN => {
                line = line.checked_add(rd.svarint()?).ok_or(overflow)?;
                Location {
                    line: Some(line),
                    end_line: Some(line),
                    col: None,
                    end_col: None,
                }
            }
            FORM_ONE_LINE0..=12 => {
                line = line
                    .checked_add(i32::from(form - FORM_ONE_LINE0))
                    .ok_or(overflow)?;
                let col = i32::from(rd.byte()?);
                let end_col = i32::from(rd.byte()?);
                Location::new(line, line, col, end_col)
            }
            _ => {
                let b = rd.byte()?;
                let col = i32::from(form) * 8 + i32::from(b >> 4);
                Location::new(line, line, col, col + i32::from(b & 0x0f))
            }
        };
        let end = out.len() + len;
        if end > code_units {
            return Err(LineTableError::Overrun {
                offset: entry,
                code_units,
            });
        }
        out.resize(end, loc);
    }
    if out.len() != code_units {
        return Err(LineTableError::Underrun {
            covered: out.len(),
            code_units,
        });
    }
    Ok(out)
}

/// A stored `column + 1` back to the column, 0 (the compiler's -1) being `None`.
fn column(stored: u32) -> Option<i32> {
    if stored == 0 {
        None
    } else {
        Some(stored.wrapping_sub(1) as i32)
    }
}

/// Code units covered by the well-formed prefix of a location table (for error reports).
fn location_table_coverage(table: &[u8]) -> usize {
    table
        .iter()
        .filter(|&&b| b & 0x80 != 0)
        .map(|&b| usize::from(b & 7) + 1)
        .sum()
}

fn push_varint(out: &mut Vec<u8>, mut val: u32) {
    while val >= 0x40 {
        out.push(0x40 | (val & 0x3f) as u8);
        val >>= 6;
    }
    out.push(val as u8);
}

fn push_svarint(out: &mut Vec<u8>, val: i32) {
    let v = if val < 0 {
        (val.unsigned_abs() << 1) | 1
    } else {
        (val as u32) << 1
    };
    push_varint(out, v);
}

struct LocationWriter {
    out: Vec<u8>,
    line: i32,
}

impl LocationWriter {
    fn head(&mut self, form: u8, len: u32) {
        self.out.push(0x80 | (form << 3) | (len - 1) as u8);
    }

    /// One entry of 1..=8 code units.
    fn entry(&mut self, loc: &Location, len: u32) {
        let Some(line) = loc.line.filter(|&l| l >= 0) else {
            self.head(FORM_NONE, len);
            return;
        };
        let delta = line.wrapping_sub(self.line);
        let col = loc.col.unwrap_or(-1);
        let end_col = loc.end_col.unwrap_or(-1);
        let end_line = loc.end_line.unwrap_or(-1);
        if col < 0 || end_col < 0 {
            if end_line == line || end_line == -1 {
                self.head(FORM_NO_COLUMN, len);
                push_svarint(&mut self.out, delta);
                self.line = line;
                return;
            }
        } else if end_line == line {
            if delta == 0 && col < 80 && end_col >= col && end_col - col < 16 {
                self.head((col / 8) as u8, len);
                self.out.push((((col % 8) << 4) | (end_col - col)) as u8);
                return;
            }
            if (0..3).contains(&delta) && col < 128 && end_col < 128 {
                self.head(FORM_ONE_LINE0 + delta as u8, len);
                self.out.extend_from_slice(&[col as u8, end_col as u8]);
                self.line = line;
                return;
            }
        }
        self.head(FORM_LONG, len);
        push_svarint(&mut self.out, delta);
        push_varint(&mut self.out, end_line.wrapping_sub(line) as u32);
        push_varint(&mut self.out, col.wrapping_add(1) as u32);
        push_varint(&mut self.out, end_col.wrapping_add(1) as u32);
        self.line = line;
    }

    /// A run of `size` code units with one location, in entries of at most 8.
    fn run(&mut self, loc: &Location, mut size: u64) {
        while size > 8 {
            self.entry(loc, 8);
            size -= 8;
        }
        if size > 0 {
            self.entry(loc, size as u32);
        }
    }
}

fn encode_location_table(firstlineno: i32, instrs: &[(u32, Location)], merge: bool) -> Vec<u8> {
    let mut w = LocationWriter {
        out: Vec::new(),
        line: firstlineno,
    };
    if !merge {
        for (size, loc) in instrs {
            w.run(loc, u64::from(*size));
        }
        return w.out;
    }
    let mut cur = Location::NONE;
    let mut size: u64 = 0;
    for (isize, loc) in instrs {
        if *loc != cur {
            w.run(&cur, size);
            cur = *loc;
            size = 0;
        }
        size += u64::from(*isize);
    }
    w.run(&cur, size);
    w.out
}
