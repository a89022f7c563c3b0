//! The bytecode bridge: code objects (live, or the parts of one of any version) in, decoded
//! instruction lists and assembled parts out. Items cross into Python only when asked for.

use framejit_bytecode::assemble::assemble_with;
use framejit_bytecode::decode::{jump_target, raw_instructions, CodeTables};
use framejit_bytecode::linetable::{decode_locations, Location};
use framejit_bytecode::opcode::{table, ArgKind, Flow, JumpDir, JumpUnit, OpKind};
use framejit_bytecode::{decode, Arg, Bytecode, Instr, Item, Label, PyVersion, TryBegin};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};

use crate::errors::bytecode_error;

/// The interpreter this module runs in.
pub fn host_version(py: Python<'_>) -> PyResult<PyVersion> {
    // (asked once: the interpreter a module runs in does not change; importing `sys` per call
    // was a tenth of a small decompile)
    static MINOR: std::sync::OnceLock<u8> = std::sync::OnceLock::new();
    let minor = match MINOR.get() {
        Some(&m) => m,
        None => {
            let m: u8 = py
                .import("sys")?
                .getattr("version_info")?
                .getattr("minor")?
                .extract()?;
            *MINOR.get_or_init(|| m)
        }
    };
    PyVersion::from_minor(minor)
        .ok_or_else(|| PyValueError::new_err(format!("Python 3.{minor} is not supported")))
}

pub fn version_arg(minor: u8) -> PyResult<PyVersion> {
    PyVersion::from_minor(minor).ok_or_else(|| {
        PyValueError::new_err(format!(
            "Python 3.{minor} is not supported (3.8 to 3.14 are)"
        ))
    })
}

fn opt_str(obj: &Bound<'_, PyAny>, attr: &Bound<'_, pyo3::types::PyString>) -> Option<String> {
    obj.getattr(attr).ok().and_then(|v| v.extract().ok())
}

fn bytes_attr<'py>(
    obj: &Bound<'py, PyAny>,
    name: &Bound<'py, pyo3::types::PyString>,
) -> PyResult<Bound<'py, PyBytes>> {
    let v = obj.getattr(name)?;
    v.cast_into::<PyBytes>()
        .map_err(|_| PyTypeError::new_err(format!("{} is not bytes", name)))
}

/// A decoded instruction list, kept in Rust.
#[pyclass(module = "framejit._native", name = "NativeBytecode")]
pub struct NativeBytecode {
    pub bc: Bytecode,
    pub name: Option<String>,
    pub filename: Option<String>,
}

impl NativeBytecode {
    fn err(&self, e: &framejit_bytecode::BytecodeError) -> PyErr {
        bytecode_error(e, self.name.as_deref(), self.filename.as_deref())
    }
}

/// Decode a code object's bytecode, naming it in errors.
pub fn decode_parts(
    version: PyVersion,
    tables: CodeTables<'_>,
    name: Option<String>,
    filename: Option<String>,
) -> PyResult<NativeBytecode> {
    match decode(version, tables) {
        Ok(bc) => Ok(NativeBytecode { bc, name, filename }),
        Err(e) => Err(bytecode_error(&e, name.as_deref(), filename.as_deref())),
    }
}

fn loc_tuple<'py>(py: Python<'py>, loc: &Location) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, [loc.line, loc.end_line, loc.col, loc.end_col])
}

fn loc_from(obj: &Bound<'_, PyAny>) -> PyResult<Location> {
    if obj.is_none() {
        return Ok(Location::default());
    }
    let (line, end_line, col, end_col): (Option<i32>, Option<i32>, Option<i32>, Option<i32>) =
        obj.extract()?;
    Ok(Location {
        line,
        end_line,
        col,
        end_col,
    })
}

#[pymethods]
impl NativeBytecode {
    /// Decode a live code object of this interpreter.
    #[staticmethod]
    fn from_code(py: Python<'_>, code: &Bound<'_, PyAny>) -> PyResult<Self> {
        let version = host_version(py)?;
        let co_code = bytes_attr(code, intern!(py, "co_code"))?;
        let lt_name = if version >= PyVersion::V3_10 {
            intern!(py, "co_linetable")
        } else {
            intern!(py, "co_lnotab")
        };
        let linetable = bytes_attr(code, lt_name)?;
        let exc;
        let exc_bytes: &[u8] = if version.has_exception_table() {
            exc = bytes_attr(code, intern!(py, "co_exceptiontable"))?;
            exc.as_bytes()
        } else {
            &[]
        };
        let first_line: i32 = code.getattr(intern!(py, "co_firstlineno"))?.extract()?;
        let name = opt_str(code, intern!(py, "co_qualname"))
            .or_else(|| opt_str(code, intern!(py, "co_name")));
        let filename = opt_str(code, intern!(py, "co_filename"));
        decode_parts(
            version,
            CodeTables {
                code: co_code.as_bytes(),
                linetable: linetable.as_bytes(),
                exceptiontable: exc_bytes,
                first_line,
            },
            name,
            filename,
        )
    }

    /// Decode the parts of a code object of Python `3.minor`.
    #[staticmethod]
    #[pyo3(signature = (minor, code, linetable, exceptiontable, first_line, name=None, filename=None))]
    fn from_parts(
        minor: u8,
        code: &[u8],
        linetable: &[u8],
        exceptiontable: &[u8],
        first_line: i32,
        name: Option<String>,
        filename: Option<String>,
    ) -> PyResult<Self> {
        decode_parts(
            version_arg(minor)?,
            CodeTables {
                code,
                linetable,
                exceptiontable,
                first_line,
            },
            name,
            filename,
        )
    }

    /// Build from items as [`NativeBytecode::items`] gives them.
    #[staticmethod]
    #[pyo3(signature = (minor, first_line, items, name=None, filename=None))]
    fn from_items(
        minor: u8,
        first_line: i32,
        items: &Bound<'_, PyAny>,
        name: Option<String>,
        filename: Option<String>,
    ) -> PyResult<Self> {
        let version = version_arg(minor)?;
        let t = table(version);
        let mut bc = Bytecode::new(version, first_line);
        for (i, obj) in items.try_iter()?.enumerate() {
            let obj = obj?;
            let tup = obj
                .cast::<PyTuple>()
                .map_err(|_| PyTypeError::new_err(format!("item {i}: not a tuple")))?;
            let tag: u8 = tup.get_item(0)?.extract()?;
            let item = match tag {
                0 => {
                    let opname: String = tup.get_item(1)?.extract()?;
                    let op = t.by_name(&opname).ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "item {i}: {opname} is no opcode of Python {version}"
                        ))
                    })?;
                    let raw: u32 = tup.get_item(2)?.extract()?;
                    let is_jump: bool = tup.get_item(3)?.extract()?;
                    let arg = if is_jump {
                        let l = Label(raw);
                        bc.reserve_label(l);
                        Arg::Jump(l)
                    } else {
                        Arg::Raw(raw)
                    };
                    Item::Instr(Instr::new(op, arg, loc_from(&tup.get_item(4)?)?))
                }
                1 => {
                    let l = Label(tup.get_item(1)?.extract()?);
                    bc.reserve_label(l);
                    Item::Label(l)
                }
                2 => Item::TryBegin(TryBegin {
                    handler: Label(tup.get_item(1)?.extract()?),
                    depth: tup.get_item(2)?.extract()?,
                    lasti: tup.get_item(3)?.extract()?,
                }),
                3 => Item::TryEnd,
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "item {i}: unknown tag {tag}"
                    )))
                }
            };
            bc.items.push(item);
        }
        Ok(NativeBytecode { bc, name, filename })
    }

    #[getter]
    fn minor(&self) -> u8 {
        self.bc.version.minor()
    }

    #[getter]
    fn first_line(&self) -> i32 {
        self.bc.first_line
    }

    fn __len__(&self) -> usize {
        self.bc.items.len()
    }

    /// The items as tuples: `(0, opname, arg_or_label, is_jump, (line, end_line, col, end_col))`,
    /// `(1, label)`, `(2, handler_label, depth, lasti)`, `(3,)`.
    fn items<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for item in &self.bc.items {
            let t = match item {
                Item::Instr(ins) => {
                    let (arg, is_jump) = match ins.arg {
                        Arg::Raw(a) => (a, false),
                        Arg::Jump(l) => (l.0, true),
                    };
                    (0u8, ins.op.name, arg, is_jump, loc_tuple(py, &ins.loc)?)
                        .into_pyobject(py)?
                        .into_any()
                }
                Item::Label(l) => (1u8, l.0).into_pyobject(py)?.into_any(),
                Item::TryBegin(tb) => (2u8, tb.handler.0, tb.depth, tb.lasti)
                    .into_pyobject(py)?
                    .into_any(),
                Item::TryEnd => (3u8,).into_pyobject(py)?.into_any(),
            };
            out.append(t)?;
        }
        Ok(out)
    }

    /// Assemble: `(code, linetable, exceptiontable, stacksize)`. With `keep_source_linetable` (the
    /// default), a 3.8/3.9 line table that describes the same lines as the fresh encoding is kept as
    /// decoded (their peephole optimizer leaves entries for deleted code no encoder can reproduce).
    #[pyo3(signature = (keep_source_linetable=true))]
    fn assemble<'py>(
        &self,
        py: Python<'py>,
        keep_source_linetable: bool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let a = assemble_with(&self.bc, keep_source_linetable).map_err(|e| self.err(&e))?;
        (
            PyBytes::new(py, &a.code),
            PyBytes::new(py, &a.linetable),
            PyBytes::new(py, &a.exceptiontable),
            a.stacksize,
        )
            .into_pyobject(py)
    }
}

fn arg_kind_tag(kind: &ArgKind) -> (&'static str, u8, Vec<&'static str>) {
    match kind {
        ArgKind::None => ("none", 0, vec![]),
        ArgKind::Int => ("int", 0, vec![]),
        ArgKind::Const => ("const", 0, vec![]),
        ArgKind::Name { shift } => ("name", *shift, vec![]),
        ArgKind::Local => ("local", 0, vec![]),
        ArgKind::LocalPair => ("localpair", 0, vec![]),
        ArgKind::Free => ("free", 0, vec![]),
        ArgKind::Named { names, shift } => ("named", *shift, names.to_vec()),
        ArgKind::Jump(j) => (
            match (j.dir, j.unit) {
                (JumpDir::Absolute, _) => "jabs",
                (JumpDir::Forward, _) => "jfwd",
                (JumpDir::Backward, _) => "jback",
            },
            u8::from(j.unit == JumpUnit::Bytes),
            vec![],
        ),
    }
}

/// The opcode table of Python `3.minor` as a list of
/// `(name, code, arg_kind, shift, names, caches, flow, kind, base)`.
#[pyfunction]
pub fn opcode_table(py: Python<'_>, minor: u8) -> PyResult<Bound<'_, PyList>> {
    let t = table(version_arg(minor)?);
    let out = PyList::empty(py);
    for op in t.ops {
        let (kind, shift, names) = arg_kind_tag(&op.arg);
        let flow = match op.flow {
            Flow::Next => "next",
            Flow::Branch => "branch",
            Flow::Jump => "jump",
            Flow::Exit => "exit",
        };
        let (opkind, base): (&str, Option<u16>) = match op.kind {
            OpKind::Real => ("real", None),
            OpKind::Specialized { base } => ("specialized", Some(base)),
            OpKind::Pseudo { .. } => ("pseudo", None),
            OpKind::Instrumented { base } => ("instrumented", base),
        };
        out.append(
            (
                op.name, op.code, kind, shift, names, op.caches, flow, opkind, base,
            )
                .into_pyobject(py)?,
        )?;
    }
    Ok(out)
}

/// `dis.stack_effect` for any version.
#[pyfunction]
#[pyo3(signature = (minor, name, oparg=0, jump=None))]
pub fn stack_effect(minor: u8, name: &str, oparg: u32, jump: Option<bool>) -> PyResult<i32> {
    let version = version_arg(minor)?;
    let op = table(version)
        .by_name(name)
        .ok_or_else(|| PyValueError::new_err(format!("{name} is no opcode of Python {version}")))?;
    Ok(op.stack_effect(oparg, jump))
}

/// A `dis`-style listing of raw bytecode: per instruction
/// `(offset, start, opname, arg, target, line, is_target)` where `offset` is the opcode's own byte
/// offset (after EXTENDED_ARG prefixes), `start` that of its first prefix, `target` a jump's byte offset.
#[pyfunction]
#[pyo3(signature = (minor, code, linetable, first_line))]
pub fn listing<'py>(
    py: Python<'py>,
    minor: u8,
    code: &[u8],
    linetable: &[u8],
    first_line: i32,
) -> PyResult<Bound<'py, PyList>> {
    let version = version_arg(minor)?;
    let raws = raw_instructions(version, code).map_err(|e| bytecode_error(&e, None, None))?;
    let locs = decode_locations(version, linetable, first_line, code.len() / 2)
        .map_err(|e| PyValueError::new_err(format!("line table: {e}")))?;
    let mut targets = std::collections::HashSet::new();
    for r in &raws {
        if let Some(t) = jump_target(r) {
            targets.insert(t);
        }
    }
    let out = PyList::empty(py);
    for r in &raws {
        let prefixes = r.size - 1 - u32::from(r.op.caches);
        let offset = (r.start + prefixes) * 2;
        let target = jump_target(r).map(|t| t * 2);
        let line = locs.get(r.start as usize).and_then(|l| l.line);
        out.append(
            (
                offset,
                r.start * 2,
                r.op.name,
                r.arg,
                target,
                line,
                targets.contains(&i64::from(r.start)),
            )
                .into_pyobject(py)?,
        )?;
    }
    Ok(out)
}

/// The entries of a 3.11+ exception table as `(start, end, target, depth, lasti)` byte offsets.
#[pyfunction]
pub fn exception_entries<'py>(py: Python<'py>, table: &[u8]) -> PyResult<Bound<'py, PyList>> {
    let entries = framejit_bytecode::exceptiontable::decode_exception_table(table)
        .map_err(|e| PyValueError::new_err(format!("exception table: {e}")))?;
    let out = PyList::empty(py);
    for e in entries {
        out.append((e.start * 2, e.end * 2, e.target * 2, e.depth, e.lasti).into_pyobject(py)?)?;
    }
    Ok(out)
}
