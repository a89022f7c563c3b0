//! Placeholder until tools/gen_opcodes.py generates this table.
use crate::opcode::{OpcodeTable, NO_OP};
use crate::version::PyVersion;

pub static TABLE: OpcodeTable = OpcodeTable {
    version: PyVersion::V3_11,
    generated_from: "placeholder",
    ops: &[],
    by_code: [NO_OP; 256],
    by_name: &[],
    extended_arg: 0,
    cache: None,
    have_argument: None,
};
