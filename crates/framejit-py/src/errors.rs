//! Rust errors → precise Python exceptions.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    _native,
    BytecodeError,
    PyValueError,
    "Bytecode that cannot be decoded or assembled; `code_name`, `filename`, `offset`, `index` and `opname` say where."
);

create_exception!(
    _native,
    PycError,
    PyValueError,
    "A .pyc or marshal image that cannot be read or written; the message names the byte offset."
);

create_exception!(
    _native,
    DecompileError,
    PyValueError,
    "Bytecode the decompiler cannot turn into source; `code_name`, `filename`, `offset` and `opname` say where."
);

/// Raise [`BytecodeError`] for `e`, naming the code object and file where known.
pub fn bytecode_error(
    e: &framejit_bytecode::BytecodeError,
    name: Option<&str>,
    filename: Option<&str>,
) -> PyErr {
    let mut prefix = String::new();
    if let Some(n) = name {
        prefix.push_str(n);
    }
    if let Some(f) = filename {
        if !prefix.is_empty() {
            prefix.push(' ');
        }
        prefix.push('(');
        prefix.push_str(f);
        prefix.push(')');
    }
    let msg = if prefix.is_empty() {
        e.to_string()
    } else {
        format!("{prefix}: {e}")
    };
    let err = BytecodeError::new_err(msg);
    Python::attach(|py| {
        let v = err.value(py);
        let kind = match e.kind {
            framejit_bytecode::ErrorKind::Decode => "decode",
            framejit_bytecode::ErrorKind::Assemble => "assemble",
            framejit_bytecode::ErrorKind::StackDepth => "stackdepth",
        };
        // Setting attributes on a fresh exception instance cannot fail in practice; ignore if it does.
        let _ = v.setattr("kind", kind);
        let _ = v.setattr("code_name", name);
        let _ = v.setattr("filename", filename);
        let _ = v.setattr("offset", e.offset);
        let _ = v.setattr("index", e.index);
        let _ = v.setattr("opname", e.opname);
    });
    err
}
