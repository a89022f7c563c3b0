//! The 3.11+ exception table (`co_exceptiontable`).
//!
//! A sequence of entries, each four varints: start, length, target (all in code units) and
//! `depth << 1 | lasti`. A varint is big-endian groups of six bits, every group but the last
//! with 0x40 set; the first byte of each entry, and only that byte, has 0x80 set (CPython finds
//! entry starts by it). CPython's writer uses the fewest groups; so does [`encode_exception_table`].
//!
//! Leniency: [`decode_exception_table`] checks the byte-level format only: it accepts empty
//! ranges, entries out of order and non-minimal varints, as CPython's own parsers do
//! (`dis._parse_exception_table`, the interpreter's handler search). Values must fit in 32 bits.
//! CPython's writer is only correct below 2^30 (larger values overflow its first group); this
//! writer is minimal for every `u32`, so both agree wherever CPython's output is well formed.

use std::fmt;

/// One handler range, in code units; `end` is exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExceptionTableEntry {
    pub start: u32,
    pub end: u32,
    pub target: u32,
    pub depth: u32,
    pub lasti: bool,
}

/// Why an exception table could not be decoded. Offsets are byte offsets into the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExceptionTableError {
    /// The entry starting at `offset` ends in the middle.
    Truncated { offset: usize },
    /// The byte at `offset` should start an entry (0x80 set) but does not, or lies inside one and
    /// has 0x80 set.
    BadByte { offset: usize, byte: u8 },
    /// The varint at `offset` does not fit in 32 bits.
    VarintOverflow { offset: usize },
    /// The entry at `offset` ends past `u32::MAX`.
    EndOverflow { offset: usize },
}

impl fmt::Display for ExceptionTableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ExceptionTableError::Truncated { offset } => {
                write!(f, "exception table truncated in the entry at byte {offset}")
            }
            ExceptionTableError::BadByte { offset, byte } => {
                write!(
                    f,
                    "unexpected byte {byte:#04x} at byte {offset} of the exception table"
                )
            }
            ExceptionTableError::VarintOverflow { offset } => {
                write!(
                    f,
                    "varint at byte {offset} of the exception table overflows 32 bits"
                )
            }
            ExceptionTableError::EndOverflow { offset } => {
                write!(
                    f,
                    "exception table entry at byte {offset} ends past 2^32 code units"
                )
            }
        }
    }
}

impl std::error::Error for ExceptionTableError {}

const START: u8 = 0x80;
const MORE: u8 = 0x40;

fn read_varint(
    table: &[u8],
    pos: &mut usize,
    entry: usize,
    first: bool,
) -> Result<u32, ExceptionTableError> {
    let offset = *pos;
    let mut val: u32 = 0;
    loop {
        let at = *pos;
        let b = *table
            .get(at)
            .ok_or(ExceptionTableError::Truncated { offset: entry })?;
        let start_bit = at == entry && first;
        if (b & START != 0) != start_bit {
            return Err(ExceptionTableError::BadByte {
                offset: at,
                byte: b,
            });
        }
        *pos += 1;
        if val > u32::MAX >> 6 {
            return Err(ExceptionTableError::VarintOverflow { offset });
        }
        val = (val << 6) | u32::from(b & 0x3f);
        if b & MORE == 0 {
            return Ok(val);
        }
    }
}

/// Decode `co_exceptiontable`.
pub fn decode_exception_table(
    table: &[u8],
) -> Result<Vec<ExceptionTableEntry>, ExceptionTableError> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < table.len() {
        let entry = pos;
        let start = read_varint(table, &mut pos, entry, true)?;
        let len = read_varint(table, &mut pos, entry, false)?;
        let target = read_varint(table, &mut pos, entry, false)?;
        let dl = read_varint(table, &mut pos, entry, false)?;
        let end = start
            .checked_add(len)
            .ok_or(ExceptionTableError::EndOverflow { offset: entry })?;
        out.push(ExceptionTableEntry {
            start,
            end,
            target,
            depth: dl >> 1,
            lasti: dl & 1 != 0,
        });
    }
    Ok(out)
}

fn push_varint(out: &mut Vec<u8>, val: u32, mut flag: u8) {
    let mut shift = 30;
    while shift > 0 && val >> shift == 0 {
        shift -= 6;
    }
    while shift > 0 {
        out.push(flag | MORE | ((val >> shift) & 0x3f) as u8);
        flag = 0;
        shift -= 6;
    }
    out.push(flag | (val & 0x3f) as u8);
}

/// Write `co_exceptiontable` for `entries`, in the order given. An entry with `end < start` is
/// written with length 0; `depth` must be below 2^31 (it is stored shifted left by one).
pub fn encode_exception_table(entries: &[ExceptionTableEntry]) -> Vec<u8> {
    let mut out = Vec::new();
    for e in entries {
        push_varint(&mut out, e.start, START);
        push_varint(&mut out, e.end.saturating_sub(e.start), 0);
        push_varint(&mut out, e.target, 0);
        push_varint(&mut out, (e.depth << 1) | u32::from(e.lasti), 0);
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn e(start: u32, end: u32, target: u32, depth: u32, lasti: bool) -> ExceptionTableEntry {
        ExceptionTableEntry {
            start,
            end,
            target,
            depth,
            lasti,
        }
    }

    #[test]
    fn known_bytes() {
        let entries = [e(0, 4, 10, 1, true), e(64, 64 + 4096, 63, 0, false)];
        let table = encode_exception_table(&entries);
        #[rustfmt::skip]
        assert_eq!(table, [
            0x80, 0x04, 0x0a, 0x03,
            0xc1, 0x00, 0x41, 0x40, 0x00, 0x3f, 0x00,
        ]);
        assert_eq!(decode_exception_table(&table).unwrap(), entries);
        assert_eq!(decode_exception_table(&[]).unwrap(), []);
    }

    #[test]
    fn varint_boundaries() {
        for v in [
            0,
            1,
            63,
            64,
            4095,
            4096,
            (1 << 18) - 1,
            1 << 18,
            (1 << 24) - 1,
            1 << 24,
            (1 << 30) - 1,
            1 << 30,
            u32::MAX,
        ] {
            let entries = [e(v, v, v, v >> 1, v & 1 == 1), e(0, v, 0, 0, false)];
            let table = encode_exception_table(&entries);
            assert_eq!(decode_exception_table(&table).unwrap(), entries, "{v}");
            // Only entry starts have the top bit.
            assert_eq!(table.iter().filter(|&&b| b & 0x80 != 0).count(), 2);
        }
        // Six groups for 2^30 and more.
        assert_eq!(
            encode_exception_table(&[e(1 << 30, 1 << 30, 0, 0, false)])[..6],
            [0xc1, 0x40, 0x40, 0x40, 0x40, 0x00]
        );
    }

    #[test]
    fn errors() {
        let d = decode_exception_table;
        assert_eq!(
            d(&[0x80, 0x04, 0x0a]),
            Err(ExceptionTableError::Truncated { offset: 0 })
        );
        assert_eq!(
            d(&[0x80, 0x04, 0x0a, 0x03, 0x80]),
            Err(ExceptionTableError::Truncated { offset: 4 })
        );
        assert_eq!(
            d(&[0x04, 0x04, 0x0a, 0x03]),
            Err(ExceptionTableError::BadByte {
                offset: 0,
                byte: 0x04
            })
        );
        assert_eq!(
            d(&[0x80, 0x84, 0x0a, 0x03]),
            Err(ExceptionTableError::BadByte {
                offset: 1,
                byte: 0x84
            })
        );
        assert_eq!(
            d(&[0x80, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00, 0, 0]),
            Err(ExceptionTableError::VarintOverflow { offset: 1 })
        );
        let table = encode_exception_table(&[e(u32::MAX, u32::MAX, 0, 0, false)]);
        let mut bad = table.clone();
        bad[6] = 0x01; // length 1 past u32::MAX
        assert_eq!(d(&bad), Err(ExceptionTableError::EndOverflow { offset: 0 }));
        assert!(d(&bad).unwrap_err().to_string().contains("byte 0"));
    }

    #[test]
    fn random_tables_never_panic() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..50_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 16) as usize;
            let table: Vec<u8> = x
                .to_le_bytes()
                .iter()
                .chain(&x.rotate_left(7).to_be_bytes())
                .copied()
                .take(len)
                .collect();
            if let Ok(entries) = decode_exception_table(&table) {
                let again = encode_exception_table(&entries);
                assert_eq!(decode_exception_table(&again).unwrap(), entries);
            }
        }
    }
}
