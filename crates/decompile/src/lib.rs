//! framejit's decompiler: CPython 3.8-3.14 bytecode back to Python source, in pure Rust.
//!
//! - [`ast`]: the Python syntax tree the decompiler builds, and [`printer`] that writes it as source.

pub mod ast;
pub mod printer;
