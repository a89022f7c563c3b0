//! Decode then assemble, with the property the fuzzer checks: what the assembler writes decodes and
//! assembles to exactly the same bytes again (a fix-point), and nothing panics on any input.

use crate::assemble::{assemble, Assembled};
use crate::decode::{decode, CodeTables};
use crate::error::Result;
use crate::version::PyVersion;

/// Decode `tables` as `version` bytecode and assemble the result.
pub fn roundtrip(version: PyVersion, tables: CodeTables<'_>) -> Result<Assembled> {
    assemble(&decode(version, tables)?)
}

/// The fuzz body: byte 0 picks the version, bytes 1-2 and 3-4 the lengths of `co_code` and the line
/// table, the rest is code, line table and exception table. Panics only if the fix-point property fails.
#[doc(hidden)]
pub fn fuzz_entry(data: &[u8]) {
    let Some((&v, rest)) = data.split_first() else {
        return;
    };
    let version = PyVersion::ALL[usize::from(v) % PyVersion::ALL.len()];
    if rest.len() < 4 {
        return;
    }
    let code_len = usize::from(u16::from_le_bytes([rest[0], rest[1]])).min(rest.len() - 4);
    let lt_len = usize::from(u16::from_le_bytes([rest[2], rest[3]])).min(rest.len() - 4 - code_len);
    let body = &rest[4..];
    let (code, tail) = body.split_at(code_len);
    let (linetable, exceptiontable) = tail.split_at(lt_len);
    let tables = CodeTables {
        code,
        linetable,
        exceptiontable,
        first_line: 1,
    };
    let Ok(first) = roundtrip(version, tables) else {
        return;
    };
    let again = CodeTables {
        code: &first.code,
        linetable: &first.linetable,
        exceptiontable: &first.exceptiontable,
        first_line: 1,
    };
    match roundtrip(version, again) {
        Ok(second) => assert_eq!(
            first, second,
            "assembling our own output again changed it ({version})"
        ),
        Err(e) => panic!("our own output does not decode and assemble again ({version}): {e}"),
    }
}
