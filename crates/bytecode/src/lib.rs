//! framejit's bytecode core: CPython 3.8–3.14 bytecode from any host, in pure Rust.
//!
//! - [`version`]: the supported versions and their non-opcode facts.
//! - [`opcode`] and `opcodes/`: the generated per-version opcode tables.
//! - [`linetable`], [`exceptiontable`]: the line/location tables and the exception table of each version.
//! - [`marshal`], [`pyc`]: code objects and values in marshal format, `.pyc` files.

pub mod assemble;
pub mod decode;
pub mod error;
pub mod exceptiontable;
pub mod instr;
pub mod linetable;
pub mod marshal;
pub mod opcode;
pub mod opcodes;
pub mod pyc;
pub mod roundtrip;
pub mod stackdepth;
pub mod version;

pub use assemble::{assemble, Assembled};
pub use decode::{decode, CodeTables};
pub use error::{BytecodeError, ErrorKind};
pub use instr::{Arg, Bytecode, Instr, Item, Label, TryBegin};
pub use version::PyVersion;
