//! framejit's decompiler: CPython 3.8-3.14 bytecode back to Python source, in pure Rust.
//!
//! - [`input`]: the code object to decompile, in pure Rust.
//! - [`flow`]: basic blocks, dominators, post-dominators and loops of a code object.
//! - [`ast`]: the Python syntax tree the decompiler builds, and [`printer`] that writes it as source.

pub mod ast;
pub mod flow;
pub mod input;
pub mod printer;
