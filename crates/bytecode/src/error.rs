//! The error of decoding, editing and assembling bytecode: what went wrong, and where.

use std::fmt;

/// Which stage refused the bytecode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// `co_code` (or its tables) could not be read as bytecode of the version.
    Decode,
    /// The instruction list cannot be assembled: an unknown label, an argument out of range, ...
    Assemble,
    /// The stack depth cannot be computed: underflow, or a depth that differs between paths.
    StackDepth,
}

/// A bytecode error with the byte offset and opcode it concerns, where there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BytecodeError {
    pub kind: ErrorKind,
    /// Byte offset in `co_code` (decode), or of the instruction as assembled.
    pub offset: Option<u32>,
    /// Index of the item in the instruction list (assemble).
    pub index: Option<usize>,
    pub opname: Option<&'static str>,
    pub message: String,
}

impl BytecodeError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        BytecodeError {
            kind,
            offset: None,
            index: None,
            opname: None,
            message: message.into(),
        }
    }

    pub fn at(mut self, offset: u32) -> Self {
        self.offset = Some(offset);
        self
    }

    pub fn item(mut self, index: usize) -> Self {
        self.index = Some(index);
        self
    }

    pub fn op(mut self, opname: &'static str) -> Self {
        self.opname = Some(opname);
        self
    }
}

impl fmt::Display for BytecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        if let Some(offset) = self.offset {
            write!(f, "offset {offset}")?;
            sep = " ";
        }
        if let Some(index) = self.index {
            write!(f, "{sep}item {index}")?;
            sep = " ";
        }
        if let Some(op) = self.opname {
            write!(f, "{sep}({op})")?;
            sep = " ";
        }
        if !sep.is_empty() {
            f.write_str(": ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for BytecodeError {}

pub type Result<T, E = BytecodeError> = std::result::Result<T, E>;
