//! What the decompiler reads: one code object of any version, in pure Rust. The Python bridge builds it
//! from a live code object or a `.pyc`'s `CodeModel`; tests build it from raw parts.

use crate::ast::Constant;
use framejit_bytecode::decode::{decode, CodeTables};
use framejit_bytecode::{Bytecode, BytecodeError, PyVersion};

/// A constant of `co_consts`: a value (with [`Constant::Opaque`] for objects that have no literal
/// spelling, as `torch.compile` puts in generated code), or a nested code object.
#[derive(Clone, Debug)]
pub enum Const {
    Value(Constant),
    /// A nested code object (function, lambda, class body, comprehension).
    Code(Box<CodeInput>),
    /// 3.14: a slice of constants (start, stop, step), folded from a subscript `a[1:]`.
    Slice(Box<[Constant; 3]>),
}

impl Const {
    /// The text of a `str` constant (lone surrogates become U+FFFD), if it is one.
    pub fn as_text(&self) -> Option<String> {
        match self {
            Const::Value(Constant::Str(s)) => Some(
                s.0.iter()
                    .map(|&c| char::from_u32(c).unwrap_or('\u{fffd}'))
                    .collect(),
            ),
            _ => None,
        }
    }

    pub fn str(s: &str) -> Const {
        Const::Value(Constant::str(s))
    }
}

/// One code object to decompile.
#[derive(Clone, Debug)]
pub struct CodeInput {
    pub version: PyVersion,
    pub bytecode: Bytecode,
    pub name: String,
    pub qualname: String,
    pub filename: String,
    pub first_line: i32,
    pub flags: u32,
    pub argcount: u32,
    pub posonlyargcount: u32,
    pub kwonlyargcount: u32,
    pub consts: Vec<Const>,
    pub names: Vec<String>,
    pub varnames: Vec<String>,
    pub cellvars: Vec<String>,
    pub freevars: Vec<String>,
    /// Temporaries the decompiler has named in this code object so far (`_tmp1`, ...): blocks are
    /// decompiled one by one, and a temporary must not be reused while another still holds a value.
    pub temps: std::cell::Cell<usize>,
    /// Per item of `bytecode.items`: the byte offset of the instruction (after its EXTENDED_ARG
    /// prefixes, as `dis` shows it), for error messages.
    pub offsets: Vec<u32>,
}

/// The parts of a code object, as its attributes give them.
#[derive(Clone, Debug)]
pub struct CodeParts<'a> {
    pub tables: CodeTables<'a>,
    pub name: String,
    pub qualname: String,
    pub filename: String,
    pub flags: u32,
    pub argcount: u32,
    pub posonlyargcount: u32,
    pub kwonlyargcount: u32,
    pub consts: Vec<Const>,
    pub names: Vec<String>,
    pub varnames: Vec<String>,
    pub cellvars: Vec<String>,
    pub freevars: Vec<String>,
}

/// `co_flags` bits the decompiler reads.
pub mod flags {
    pub const OPTIMIZED: u32 = 0x01;
    pub const VARARGS: u32 = 0x04;
    pub const VARKEYWORDS: u32 = 0x08;
    pub const NESTED: u32 = 0x10;
    pub const GENERATOR: u32 = 0x20;
    pub const COROUTINE: u32 = 0x80;
    pub const ITERABLE_COROUTINE: u32 = 0x100;
    pub const ASYNC_GENERATOR: u32 = 0x200;
    /// `from __future__ import annotations` is in effect.
    pub const FUTURE_ANNOTATIONS: u32 = 0x100_0000;
    /// 3.14: the first constant is the docstring.
    pub const HAS_DOCSTRING: u32 = 0x400_0000;
}

impl CodeInput {
    /// Decode `parts` as bytecode of `version`.
    pub fn new(version: PyVersion, parts: CodeParts<'_>) -> Result<CodeInput, BytecodeError> {
        let mut bytecode = decode(version, parts.tables)?;
        let mut offsets = item_offsets(&bytecode);
        crate::legacy38::lower(&mut bytecode, &mut offsets);
        Ok(CodeInput {
            version,
            bytecode,
            name: parts.name,
            qualname: parts.qualname,
            filename: parts.filename,
            first_line: parts.tables.first_line,
            flags: parts.flags,
            argcount: parts.argcount,
            posonlyargcount: parts.posonlyargcount,
            kwonlyargcount: parts.kwonlyargcount,
            consts: parts.consts,
            names: parts.names,
            varnames: parts.varnames,
            cellvars: parts.cellvars,
            freevars: parts.freevars,
            temps: std::cell::Cell::new(0),
            offsets,
        })
    }

    /// 3.11+: the fast-local slots in order (locals and arguments, cells that are not arguments,
    /// free variables); before 3.11, the locals only.
    pub fn fast_names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self.varnames.iter().map(String::as_str).collect();
        if self.version >= PyVersion::V3_11 {
            out.extend(
                self.cellvars
                    .iter()
                    .filter(|c| !self.varnames.contains(c))
                    .map(String::as_str),
            );
            out.extend(self.freevars.iter().map(String::as_str));
        }
        out
    }

    /// The name a cell/free-variable argument refers to (≤3.10: cells then frees; 3.11+: fast slots).
    pub fn deref_name(&self, arg: u32) -> Option<&str> {
        let i = usize::try_from(arg).ok()?;
        if self.version >= PyVersion::V3_11 {
            self.fast_names().get(i).copied()
        } else {
            self.cellvars
                .iter()
                .chain(self.freevars.iter())
                .nth(i)
                .map(String::as_str)
        }
    }

    pub fn is_generator(&self) -> bool {
        self.flags & (flags::GENERATOR | flags::COROUTINE | flags::ASYNC_GENERATOR) != 0
    }

    /// Every code object nested in this one's constants (not recursively).
    pub fn nested(&self) -> impl Iterator<Item = &CodeInput> {
        self.consts.iter().filter_map(|c| match c {
            Const::Code(c) => Some(c.as_ref()),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_names_follow_the_version_layout() {
        let parts = || CodeParts {
            tables: CodeTables {
                code: &[],
                linetable: &[],
                exceptiontable: &[],
                first_line: 1,
            },
            name: "f".into(),
            qualname: "f".into(),
            filename: "x.py".into(),
            flags: 0,
            argcount: 1,
            posonlyargcount: 0,
            kwonlyargcount: 0,
            consts: vec![Const::Value(Constant::None), Const::str("é")],
            names: vec![],
            varnames: vec!["a".into(), "b".into()],
            cellvars: vec!["a".into(), "c".into()],
            freevars: vec!["d".into()],
        };
        let new = CodeInput::new(PyVersion::V3_11, parts()).expect("empty code decodes");
        assert_eq!(new.fast_names(), vec!["a", "b", "c", "d"]);
        assert_eq!(new.deref_name(3), Some("d"));
        let old = CodeInput::new(PyVersion::V3_10, parts()).expect("empty code decodes");
        assert_eq!(old.fast_names(), vec!["a", "b"]);
        assert_eq!(old.deref_name(1), Some("c"));
        assert_eq!(old.deref_name(2), Some("d"));
        assert_eq!(new.consts[1].as_text().as_deref(), Some("é"));
    }
}

/// The byte offset of each instruction item as decoded (labels and exception markers take none).
fn item_offsets(bytecode: &Bytecode) -> Vec<u32> {
    let mut out = Vec::with_capacity(bytecode.items.len());
    let mut at: u32 = 0;
    for item in &bytecode.items {
        match item {
            framejit_bytecode::Item::Instr(ins) => {
                let own = at + 2 * u32::from(ins.pad);
                out.push(own);
                at = own + 2 * (1 + u32::from(ins.op.caches));
            }
            _ => out.push(at),
        }
    }
    out
}
