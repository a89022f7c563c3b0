//! framejit's bytecode core: CPython 3.8–3.14 bytecode from any host, in pure Rust.
//!
//! - [`version`]: the supported versions and their non-opcode facts.
//! - [`opcode`] and `opcodes/`: the generated per-version opcode tables.
//! - [`linetable`], [`exceptiontable`]: the line/location tables and the exception table of each version.
//! - [`marshal`], [`pyc`]: code objects and values in marshal format, `.pyc` files.

pub mod exceptiontable;
pub mod linetable;
pub mod marshal;
pub mod opcode;
pub mod opcodes;
pub mod pyc;
pub mod version;

pub use version::PyVersion;
