//! Generated opcode tables, one module per version: see `tools/gen_opcodes.py`. Do not edit by hand.

pub mod ids;
pub mod v3_10;
pub mod v3_11;
pub mod v3_12;
pub mod v3_13;
pub mod v3_14;
pub mod v3_8;
pub mod v3_9;

#[cfg(test)]
mod tests;
