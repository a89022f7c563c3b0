//! Why a code object could not be decompiled, and where.

use crate::input::CodeInput;
use std::fmt;

/// A decompile failure naming the code object, its file, and the instruction concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecompileError {
    pub code_name: String,
    pub filename: String,
    /// Byte offset of the instruction, where known.
    pub offset: Option<u32>,
    pub opname: Option<&'static str>,
    pub message: String,
}

impl DecompileError {
    pub fn new(code: &CodeInput, message: impl Into<String>) -> Self {
        DecompileError {
            code_name: code.qualname.clone(),
            filename: code.filename.clone(),
            offset: None,
            opname: None,
            message: message.into(),
        }
    }

    pub fn op(mut self, opname: &'static str) -> Self {
        self.opname = Some(opname);
        self
    }

    pub fn at(mut self, offset: u32) -> Self {
        self.offset = Some(offset);
        self
    }
}

impl fmt::Display for DecompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.code_name, self.filename)?;
        if let Some(o) = self.offset {
            write!(f, " offset {o}")?;
        }
        if let Some(op) = self.opname {
            write!(f, " ({op})")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for DecompileError {}
