//! Version-tagged code objects read from `.pyc` files of any version: `CodeModel` (the fields of one
//! code object, converted to Python on demand), `load_pyc` and `dump_pyc`.
//!
//! A `CodeModel` points into the marshal tree it was read from; `replace()` records overrides. Writing
//! keeps the original tree wherever nothing changed, so an unedited round trip is byte-identical: an
//! override is written over the original value only when that cannot shift marshal's back-reference
//! numbering (the old value is neither numbered nor a reference, or the new one is equal). Anything else
//! is written from a copy of the tree with all sharing removed: valid, just not byte-identical.

use std::collections::HashMap;
use std::sync::Arc;

use framejit_bytecode::marshal::{self, CodeLocals, CodeObject, Long, Obj, PyStr, RefTable, Value};
use framejit_bytecode::pyc::{self, Pyc, PycSource};
use framejit_bytecode::PyVersion;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{
    PyBytes, PyComplex, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple,
};

use crate::bytecode::{decode_parts, host_version, NativeBytecode};
use framejit_bytecode::decode::CodeTables;

/// The fields a `CodeModel` shows, by attribute name.
const FIELDS: &[&str] = &[
    "co_argcount",
    "co_posonlyargcount",
    "co_kwonlyargcount",
    "co_nlocals",
    "co_stacksize",
    "co_flags",
    "co_code",
    "co_consts",
    "co_names",
    "co_varnames",
    "co_cellvars",
    "co_freevars",
    "co_filename",
    "co_name",
    "co_qualname",
    "co_firstlineno",
    "co_lnotab",
    "co_linetable",
    "co_exceptiontable",
    "_localsplusnames",
];

fn pyc_err(e: impl std::fmt::Display) -> PyErr {
    crate::errors::PycError::new_err(e.to_string())
}

/// A read `.pyc`: the marshal tree, shared by every `CodeModel` taken from it.
struct Tree {
    version: PyVersion,
    root: Value,
}

/// One code object of a version-tagged marshal tree.
#[pyclass(module = "framejit._native", name = "CodeModel", frozen)]
pub struct CodeModel {
    tree: Arc<Tree>,
    /// Indices into `co_consts` from the root code object to this one.
    path: Vec<usize>,
    /// Fields given by `replace`, by name.
    overrides: Py<PyDict>,
    /// Converted field values, by name (filled on first access).
    cache: Py<PyDict>,
}

impl CodeModel {
    fn node<'a>(tree: &'a Tree, refs: &RefTable<'a>, path: &[usize]) -> Option<&'a CodeObject> {
        let mut v = refs.resolve(&tree.root);
        for &i in path {
            let code = v.as_code()?;
            let consts = refs.resolve(&code.consts).as_seq()?;
            v = refs.resolve(consts.get(i)?);
        }
        v.as_code()
    }

    fn with_node<R>(
        &self,
        f: impl FnOnce(&CodeObject, &RefTable<'_>) -> PyResult<R>,
    ) -> PyResult<R> {
        let refs = RefTable::build(&self.tree.root);
        let node = Self::node(&self.tree, &refs, &self.path).ok_or_else(|| {
            PyValueError::new_err("the code object is no longer in its marshal tree")
        })?;
        f(node, &refs)
    }

    fn py_version(&self) -> PyVersion {
        self.tree.version
    }

    /// The field `name` as stored (before overrides), converted to Python.
    fn original<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let cache = self.cache.bind(py);
        if cache.is_empty() {
            // Convert every field of this code object, and of the code objects nested in it, in one
            // pass over the tree with one back-reference table.
            self.with_node(|code, refs| {
                let mut conv = ToPython {
                    py,
                    tree: &self.tree,
                    refs,
                    memo: HashMap::new(),
                };
                fill(&mut conv, code, &self.path, cache)
            })?;
        }
        cache.get_item(name)?.ok_or_else(|| {
            pyo3::exceptions::PyAttributeError::new_err(format!(
                "{name} (not in Python {})",
                self.tree.version
            ))
        })
    }

    fn field<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        if let Some(v) = self.overrides.bind(py).get_item(name)? {
            return Ok(v);
        }
        self.original(py, name)
    }
}

/// Every field of `code` into `cache`.
fn fill<'a, 'py>(
    conv: &mut ToPython<'a, 'py>,
    code: &'a CodeObject,
    path: &[usize],
    cache: &Bound<'py, PyDict>,
) -> PyResult<()> {
    for name in FIELDS {
        if let Some(v) = convert_field(conv, code, path, name)? {
            cache.set_item(*name, v)?;
        }
    }
    Ok(())
}

/// One field of `code` as Python, or `None` where the version has no such field.
fn convert_field<'a, 'py>(
    conv: &mut ToPython<'a, 'py>,
    code: &'a CodeObject,
    path: &[usize],
    name: &str,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = conv.py;
    let refs = conv.refs;
    let version = conv.tree.version;
    let v = match name {
        "co_argcount" => code.argcount.into_pyobject(py)?.into_any(),
        "co_posonlyargcount" => code.posonlyargcount.into_pyobject(py)?.into_any(),
        "co_kwonlyargcount" => code.kwonlyargcount.into_pyobject(py)?.into_any(),
        "co_stacksize" => code.stacksize.into_pyobject(py)?.into_any(),
        "co_flags" => code.flags.into_pyobject(py)?.into_any(),
        "co_firstlineno" => code.firstlineno.into_pyobject(py)?.into_any(),
        "co_nlocals" => match &code.locals {
            CodeLocals::Split { .. } => code.nlocals.into_pyobject(py)?.into_any(),
            CodeLocals::LocalsPlus { .. } => {
                let names = locals_of(code, refs, CodeLocalKind::Var);
                names.len().into_pyobject(py)?.into_any()
            }
        },
        "co_code" => conv.value(&code.code, None)?,
        "co_consts" => conv.consts(code, path)?,
        "co_names" => conv.value(&code.names, None)?,
        "co_filename" => conv.value(&code.filename, None)?,
        "co_name" => conv.value(&code.name, None)?,
        "co_qualname" => match &code.qualname {
            Some(q) => conv.value(q, None)?,
            None => conv.value(&code.name, None)?,
        },
        "co_lnotab" | "co_linetable" => {
            let want_lnotab = version < PyVersion::V3_10;
            if (name == "co_lnotab") != want_lnotab {
                return Ok(None);
            }
            conv.value(&code.linetable, None)?
        }
        "co_exceptiontable" => match &code.exceptiontable {
            Some(t) => conv.value(t, None)?,
            None => PyBytes::new(py, b"").into_any(),
        },
        "co_varnames" | "co_cellvars" | "co_freevars" => match &code.locals {
            CodeLocals::Split {
                varnames,
                freevars,
                cellvars,
            } => {
                let v = match name {
                    "co_varnames" => varnames,
                    "co_cellvars" => cellvars,
                    _ => freevars,
                };
                conv.value(v, None)?
            }
            CodeLocals::LocalsPlus { .. } => {
                let kind = match name {
                    "co_varnames" => CodeLocalKind::Var,
                    "co_cellvars" => CodeLocalKind::Cell,
                    _ => CodeLocalKind::Free,
                };
                PyTuple::new(py, locals_of(code, refs, kind))?.into_any()
            }
        },
        "_localsplusnames" => match &code.locals {
            CodeLocals::LocalsPlus { names, .. } => conv.value(names, None)?,
            CodeLocals::Split { .. } => py.None().into_bound(py),
        },
        _ => return Ok(None),
    };
    Ok(Some(v))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CodeLocalKind {
    Var,
    Cell,
    Free,
}

/// 3.11+: the names of one kind from `co_localsplusnames` / `co_localspluskinds`, as CPython's
/// `co_varnames` / `co_cellvars` / `co_freevars` give them.
fn locals_of(code: &CodeObject, refs: &RefTable<'_>, kind: CodeLocalKind) -> Vec<String> {
    let CodeLocals::LocalsPlus { names, kinds } = &code.locals else {
        return Vec::new();
    };
    let names: Vec<String> = refs
        .resolve(names)
        .as_seq()
        .map(|s| {
            s.iter()
                .filter_map(|n| refs.resolve(n).as_str().map(|c| c.into_owned()))
                .collect()
        })
        .unwrap_or_default();
    let kinds = refs.resolve(kinds).as_bytes().unwrap_or(&[]);
    names
        .into_iter()
        .zip(kinds.iter())
        .filter(|(_, &k)| match kind {
            CodeLocalKind::Var => k & marshal::CO_FAST_LOCAL != 0,
            CodeLocalKind::Cell => k & marshal::CO_FAST_CELL != 0,
            CodeLocalKind::Free => k & marshal::CO_FAST_FREE != 0,
        })
        .map(|(n, _)| n)
        .collect()
}

/// Marshal values → Python objects, sharing what marshal shares.
struct ToPython<'a, 'py> {
    py: Python<'py>,
    tree: &'a Arc<Tree>,
    refs: &'a RefTable<'a>,
    memo: HashMap<usize, Bound<'py, PyAny>>,
}

impl<'a, 'py> ToPython<'a, 'py> {
    fn consts(&mut self, code: &'a CodeObject, path: &[usize]) -> PyResult<Bound<'py, PyAny>> {
        let items = self.refs.resolve(&code.consts).as_seq().unwrap_or(&[]);
        let mut out = Vec::with_capacity(items.len());
        for (i, v) in items.iter().enumerate() {
            let mut p = path.to_vec();
            p.push(i);
            out.push(self.value(v, Some(p))?);
        }
        Ok(PyTuple::new(self.py, out)?.into_any())
    }

    fn value(&mut self, v: &'a Value, path: Option<Vec<usize>>) -> PyResult<Bound<'py, PyAny>> {
        let target = self.refs.resolve(v);
        let key = target as *const Value as usize;
        if let Some(o) = self.memo.get(&key) {
            return Ok(o.clone());
        }
        let py = self.py;
        let o: Bound<'py, PyAny> = match &target.obj {
            Obj::Null | Obj::None => py.None().into_bound(py),
            Obj::False => false.into_pyobject(py)?.to_owned().into_any(),
            Obj::True => true.into_pyobject(py)?.to_owned().into_any(),
            Obj::StopIteration => py
                .get_type::<pyo3::exceptions::PyStopIteration>()
                .into_any(),
            Obj::Ellipsis => py.Ellipsis().into_bound(py),
            Obj::Int(i) => i.into_pyobject(py)?.into_any(),
            Obj::Int64(i) => i.into_pyobject(py)?.into_any(),
            Obj::Long(l) => long_to_py(py, l)?,
            Obj::FloatText(t) => {
                let s = std::str::from_utf8(t)
                    .map_err(|_| PyValueError::new_err("float text is not ASCII"))?;
                py.get_type::<PyFloat>().call1((s,))?
            }
            Obj::Float(f) => f.into_pyobject(py)?.into_any(),
            Obj::ComplexText(a, b) => {
                let f = |t: &[u8]| -> PyResult<f64> {
                    std::str::from_utf8(t)
                        .ok()
                        .and_then(|s| s.trim().parse().ok())
                        .ok_or_else(|| PyValueError::new_err("bad complex text"))
                };
                PyComplex::from_doubles(py, f(a)?, f(b)?).into_any()
            }
            Obj::Complex(a, b) => PyComplex::from_doubles(py, *a, *b).into_any(),
            Obj::Bytes(b) => PyBytes::new(py, b).into_any(),
            Obj::Str(s) => str_to_py(py, s)?,
            Obj::Tuple(items) | Obj::SmallTuple(items) => {
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    out.push(self.value(x, None)?);
                }
                PyTuple::new(py, out)?.into_any()
            }
            Obj::List(items) => {
                let out = PyList::empty(py);
                for x in items {
                    out.append(self.value(x, None)?)?;
                }
                out.into_any()
            }
            Obj::Set(items) | Obj::FrozenSet(items) => {
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    out.push(self.value(x, None)?);
                }
                if matches!(target.obj, Obj::Set(_)) {
                    PySet::new(py, &out)?.into_any()
                } else {
                    PyFrozenSet::new(py, &out)?.into_any()
                }
            }
            Obj::Dict(pairs) => {
                let d = PyDict::new(py);
                for (k, x) in pairs {
                    d.set_item(self.value(k, None)?, self.value(x, None)?)?;
                }
                d.into_any()
            }
            Obj::Slice(parts) => {
                let [a, b, c] = parts.as_ref();
                let (a, b, c) = (
                    self.value(a, None)?,
                    self.value(b, None)?,
                    self.value(c, None)?,
                );
                py.import("builtins")?.getattr("slice")?.call1((a, b, c))?
            }
            Obj::Code(child) => {
                // A code object outside co_consts (never written by CPython) gets a path that leads
                // nowhere: it can be read, and writing it back reports that it cannot be found.
                let path = path.unwrap_or_else(|| vec![usize::MAX]);
                let cache = PyDict::new(py);
                fill(self, child, &path, &cache)?;
                let model = CodeModel {
                    tree: Arc::clone(self.tree),
                    path,
                    overrides: PyDict::new(py).unbind(),
                    cache: cache.unbind(),
                };
                Bound::new(py, model)?.into_any()
            }
            Obj::Ref(i) => {
                return Err(PyValueError::new_err(format!(
                    "back-reference {i} points nowhere"
                )))
            }
        };
        self.memo.insert(key, o.clone());
        Ok(o)
    }
}

fn long_to_py<'py>(py: Python<'py>, l: &Long) -> PyResult<Bound<'py, PyAny>> {
    if let Some(v) = l.to_i128() {
        return Ok(v.into_pyobject(py)?.into_any());
    }
    // Beyond i128: sum the base-2**15 digits in Python.
    let mut acc = 0i64.into_pyobject(py)?.into_any();
    for d in l.digits.iter().rev() {
        acc = acc
            .call_method1("__lshift__", (15,))?
            .call_method1("__or__", (*d,))?;
    }
    if l.negative {
        acc = acc.call_method0("__neg__")?;
    }
    Ok(acc)
}

fn str_to_py<'py>(py: Python<'py>, s: &PyStr) -> PyResult<Bound<'py, PyAny>> {
    if let Ok(t) = std::str::from_utf8(&s.data) {
        if s.kind.is_utf8() || s.data.is_ascii() {
            return Ok(PyString::new(py, t).into_any());
        }
    }
    let enc = if s.kind.is_utf8() {
        ("utf-8", "surrogatepass")
    } else {
        ("latin-1", "strict")
    };
    PyBytes::new(py, &s.data).call_method1("decode", enc)
}

/// Python objects → marshal values (fresh: no sharing, no flags).
fn py_to_value(obj: &Bound<'_, PyAny>, version: PyVersion, depth: usize) -> PyResult<Value> {
    if depth > marshal::MAX_DEPTH {
        return Err(PyValueError::new_err(
            "object nested too deeply for marshal",
        ));
    }
    let py = obj.py();
    let v = if obj.is_none() {
        Obj::None
    } else if obj.is(py.Ellipsis()) {
        Obj::Ellipsis
    } else if obj.is(py.get_type::<pyo3::exceptions::PyStopIteration>().as_any()) {
        Obj::StopIteration
    } else if let Ok(b) = obj.cast::<pyo3::types::PyBool>() {
        if b.is_true() {
            Obj::True
        } else {
            Obj::False
        }
    } else if obj.is_instance_of::<PyInt>() {
        if let Ok(i) = obj.extract::<i32>() {
            Obj::Int(i)
        } else {
            let negative = obj.lt(0)?;
            let mut rest = if negative {
                obj.call_method0("__neg__")?
            } else {
                obj.clone()
            };
            let mut digits = Vec::new();
            while rest.gt(0)? {
                digits.push(rest.call_method1("__and__", (0x7fff,))?.extract::<u16>()?);
                rest = rest.call_method1("__rshift__", (15,))?;
            }
            Obj::Long(Long { negative, digits })
        }
    } else if let Ok(f) = obj.cast::<PyFloat>() {
        Obj::Float(f.value())
    } else if let Ok(c) = obj.cast::<PyComplex>() {
        Obj::Complex(c.real(), c.imag())
    } else if let Ok(b) = obj.cast::<PyBytes>() {
        Obj::Bytes(b.as_bytes().to_vec())
    } else if let Ok(s) = obj.cast::<PyString>() {
        let raw: Vec<u8> = s
            .call_method1("encode", ("utf-8", "surrogatepass"))?
            .extract()?;
        match std::str::from_utf8(&raw) {
            Ok(t) => Obj::Str(PyStr::new(t)),
            Err(_) => Obj::Str(PyStr {
                kind: marshal::StrKind::Unicode,
                data: raw,
            }),
        }
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        let items = t
            .iter()
            .map(|x| py_to_value(&x, version, depth + 1))
            .collect::<PyResult<Vec<_>>>()?;
        if items.len() < 256 {
            Obj::SmallTuple(items)
        } else {
            Obj::Tuple(items)
        }
    } else if let Ok(l) = obj.cast::<PyList>() {
        Obj::List(
            l.iter()
                .map(|x| py_to_value(&x, version, depth + 1))
                .collect::<PyResult<_>>()?,
        )
    } else if let Ok(s) = obj.cast::<PyFrozenSet>() {
        Obj::FrozenSet(
            s.iter()
                .map(|x| py_to_value(&x, version, depth + 1))
                .collect::<PyResult<_>>()?,
        )
    } else if let Ok(s) = obj.cast::<PySet>() {
        Obj::Set(
            s.iter()
                .map(|x| py_to_value(&x, version, depth + 1))
                .collect::<PyResult<_>>()?,
        )
    } else if let Ok(d) = obj.cast::<PyDict>() {
        let mut pairs = Vec::new();
        for (k, x) in d.iter() {
            pairs.push((
                py_to_value(&k, version, depth + 1)?,
                py_to_value(&x, version, depth + 1)?,
            ));
        }
        Obj::Dict(pairs)
    } else if let Ok(m) = obj.cast::<CodeModel>() {
        let m = m.get();
        if m.py_version() != version {
            return Err(PyTypeError::new_err(format!(
                "a Python {} code object cannot go into a Python {version} one",
                m.py_version()
            )));
        }
        return build(
            py,
            m,
            &mut Builder {
                fresh: true,
                shared: None,
            },
        );
    } else if obj.is_instance(&py.import("types")?.getattr("CodeType")?)?
        && host_version(py)? == version
    {
        let data: Vec<u8> = py
            .import("marshal")?
            .call_method1("dumps", (obj,))?
            .extract()?;
        return marshal::loads(&data, version).map_err(pyc_err);
    } else {
        return Err(PyTypeError::new_err(format!(
            "{} objects cannot be marshalled",
            obj.get_type().name()?
        )));
    };
    Ok(Value::new(v))
}

struct Builder {
    /// Write everything from values with no sharing (set once an override could shift numbering).
    fresh: bool,
    /// The tree without sharing, when `fresh`.
    shared: Option<Arc<Tree>>,
}

/// Has the original value a back-reference number, or is it one (so replacing it shifts numbering)?
fn shared(v: &Value) -> bool {
    v.is_numbered() || matches!(v.obj, Obj::Ref(_))
}

/// Set when an override would have to replace a shared value: the caller retries with `fresh`.
struct NeedsFresh;

/// The marshal value of `model`, overrides applied.
fn build(py: Python<'_>, model: &CodeModel, b: &mut Builder) -> PyResult<Value> {
    match build_in(py, model, b) {
        Ok(v) => Ok(v),
        Err(Ok(NeedsFresh)) => {
            let unshared = marshal::unshare(&model.tree.root, model.py_version(), 50_000_000)
                .map_err(pyc_err)?;
            let tree = Arc::new(Tree {
                version: model.py_version(),
                root: unshared,
            });
            let mut fb = Builder {
                fresh: true,
                shared: Some(Arc::clone(&tree)),
            };
            build_in(py, model, &mut fb).map_err(|e| match e {
                Ok(NeedsFresh) => PyValueError::new_err("cannot write the code object"),
                Err(e) => e,
            })
        }
        Err(Err(e)) => Err(e),
    }
}

fn build_in(
    py: Python<'_>,
    model: &CodeModel,
    b: &mut Builder,
) -> Result<Value, Result<NeedsFresh, PyErr>> {
    let tree = b.shared.clone().unwrap_or_else(|| Arc::clone(&model.tree));
    let version = model.py_version();
    let refs = RefTable::build(&tree.root);
    let node = CodeModel::node(&tree, &refs, &model.path).ok_or_else(|| {
        Err(PyValueError::new_err(
            "the code object is no longer in its marshal tree",
        ))
    })?;
    let mut code = node.clone();
    let overrides = model.overrides.bind(py);
    let e = |e: PyErr| Err(e);
    for (k, v) in overrides.iter() {
        let name: String = k.extract().map_err(e)?;
        let int = || -> Result<i32, Result<NeedsFresh, PyErr>> { v.extract::<i32>().map_err(e) };
        match name.as_str() {
            "co_argcount" => code.argcount = int()?,
            "co_posonlyargcount" => code.posonlyargcount = int()?,
            "co_kwonlyargcount" => code.kwonlyargcount = int()?,
            "co_nlocals" => code.nlocals = int()?,
            "co_stacksize" => code.stacksize = int()?,
            "co_flags" => code.flags = int()?,
            "co_firstlineno" => code.firstlineno = int()?,
            "co_code" | "co_lnotab" | "co_linetable" | "co_exceptiontable" => {
                let bytes: Vec<u8> = v.extract().map_err(e)?;
                let slot = match name.as_str() {
                    "co_code" => &mut code.code,
                    "co_exceptiontable" => match &mut code.exceptiontable {
                        Some(s) => s,
                        None => continue,
                    },
                    _ => &mut code.linetable,
                };
                let same = refs.resolve(slot).as_bytes() == Some(&bytes[..]);
                if !same {
                    if shared(slot) && !b.fresh {
                        return Err(Ok(NeedsFresh));
                    }
                    *slot = Value {
                        obj: Obj::Bytes(bytes),
                        flag_ref: slot.is_numbered() && !b.fresh,
                    };
                }
            }
            "co_consts" => {
                let orig_py = model.original(py, "co_consts").map_err(e)?;
                let orig_py = orig_py.cast::<PyTuple>().map_err(|x| Err(x.into()))?;
                let new = v.cast::<PyTuple>().map_err(|x| Err(x.into()))?;
                let orig_vals = refs.resolve(&code.consts).as_seq().unwrap_or(&[]).to_vec();
                let mut items = Vec::with_capacity(new.len());
                for (i, x) in new.iter().enumerate() {
                    let same = i < orig_py.len() && orig_py.get_item(i).map_err(e)?.is(&x);
                    if same && i < orig_vals.len() {
                        items.push(orig_vals[i].clone());
                        continue;
                    }
                    if let Ok(m) = x.cast::<CodeModel>() {
                        let m = m.get();
                        if m.py_version() != version {
                            return Err(Err(PyTypeError::new_err(
                                "a code object of another version in co_consts",
                            )));
                        }
                        let mut child = build_in(py, m, b)?;
                        // keep the numbering bit of the code object it replaces, when it replaces one
                        let replaces = i < orig_vals.len() && orig_vals[i].as_code().is_some();
                        if replaces && !b.fresh {
                            child.flag_ref = orig_vals[i].is_numbered();
                        } else if !b.fresh {
                            return Err(Ok(NeedsFresh));
                        }
                        items.push(child);
                        continue;
                    }
                    if !b.fresh {
                        return Err(Ok(NeedsFresh));
                    }
                    items.push(py_to_value(&x, version, 1).map_err(e)?);
                }
                let old = refs.resolve(&code.consts);
                let obj = match (&old.obj, items.len() == orig_vals.len()) {
                    (Obj::Tuple(_), true) => Obj::Tuple(items),
                    (Obj::SmallTuple(_), true) => Obj::SmallTuple(items),
                    _ if !b.fresh => return Err(Ok(NeedsFresh)),
                    _ if items.len() < 256 => Obj::SmallTuple(items),
                    _ => Obj::Tuple(items),
                };
                if matches!(code.consts.obj, Obj::Ref(_)) && !b.fresh {
                    return Err(Ok(NeedsFresh));
                }
                code.consts = Value {
                    obj,
                    flag_ref: code.consts.is_numbered() && !b.fresh,
                };
            }
            other => {
                // names and the like: equal to the original means nothing to write
                let orig = model.original(py, other).map_err(e)?;
                if orig.eq(&v).map_err(e)? {
                    continue;
                }
                if !b.fresh {
                    return Err(Ok(NeedsFresh));
                }
                let value = py_to_value(&v, version, 1).map_err(e)?;
                match other {
                    "co_names" => code.names = value,
                    "co_filename" => code.filename = value,
                    "co_name" => code.name = value,
                    "co_qualname" => code.qualname = Some(value),
                    "co_varnames" | "co_cellvars" | "co_freevars" => {
                        set_locals(py, model, &mut code, other, &v).map_err(e)?
                    }
                    _ => {
                        return Err(Err(PyValueError::new_err(format!(
                            "{other} cannot be replaced"
                        ))));
                    }
                }
            }
        }
    }
    Ok(Value {
        obj: Obj::Code(Box::new(code)),
        flag_ref: node_flag(&tree, &refs, &model.path) && !b.fresh,
    })
}

fn node_flag(tree: &Tree, refs: &RefTable<'_>, path: &[usize]) -> bool {
    let mut v = &tree.root;
    for &i in path {
        let Some(code) = refs.resolve(v).as_code() else {
            return false;
        };
        let Some(c) = refs.resolve(&code.consts).as_seq().and_then(|s| s.get(i)) else {
            return false;
        };
        v = c;
    }
    v.is_numbered()
}

/// Replace one of `co_varnames` / `co_cellvars` / `co_freevars` (fresh mode).
fn set_locals(
    py: Python<'_>,
    model: &CodeModel,
    code: &mut CodeObject,
    which: &str,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let get = |n: &str| -> PyResult<Vec<String>> {
        if n == which {
            value.extract()
        } else {
            model.field(py, n)?.extract()
        }
    };
    let (vars, cells, frees) = (
        get("co_varnames")?,
        get("co_cellvars")?,
        get("co_freevars")?,
    );
    let strs =
        |v: &[String]| Value::new(Obj::SmallTuple(v.iter().map(|s| Value::str(s)).collect()));
    match &code.locals {
        CodeLocals::Split { .. } => {
            code.locals = CodeLocals::Split {
                varnames: strs(&vars),
                freevars: strs(&frees),
                cellvars: strs(&cells),
            };
            code.nlocals = i32::try_from(vars.len()).unwrap_or(i32::MAX);
        }
        CodeLocals::LocalsPlus { .. } => {
            let mut names = Vec::new();
            let mut kinds = Vec::new();
            for v in &vars {
                names.push(v.clone());
                kinds.push(
                    marshal::CO_FAST_LOCAL
                        | if cells.contains(v) {
                            marshal::CO_FAST_CELL
                        } else {
                            0
                        },
                );
            }
            for c in cells.iter().filter(|c| !vars.contains(c)) {
                names.push(c.clone());
                kinds.push(marshal::CO_FAST_CELL);
            }
            for f in &frees {
                names.push(f.clone());
                kinds.push(marshal::CO_FAST_FREE);
            }
            code.locals = CodeLocals::LocalsPlus {
                names: strs(&names),
                kinds: Value::bytes(kinds),
            };
        }
    }
    Ok(())
}

#[pymethods]
impl CodeModel {
    /// `(3, minor)` of the bytecode.
    #[getter]
    fn version(&self) -> (u8, u8) {
        (3, self.tree.version.minor())
    }

    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        if FIELDS.contains(&name) {
            self.field(py, name)
        } else {
            Err(pyo3::exceptions::PyAttributeError::new_err(format!(
                "CodeModel has no attribute {name:?}"
            )))
        }
    }

    /// A copy with some `co_*` fields replaced (as `types.CodeType.replace`).
    #[pyo3(signature = (**fields))]
    fn replace(&self, py: Python<'_>, fields: Option<&Bound<'_, PyDict>>) -> PyResult<CodeModel> {
        let overrides = self.overrides.bind(py).copy()?;
        if let Some(f) = fields {
            for (k, v) in f.iter() {
                let name: String = k.extract()?;
                if !FIELDS.contains(&name.as_str()) || name == "_localsplusnames" {
                    return Err(PyTypeError::new_err(format!(
                        "replace() got an unexpected field {name:?}"
                    )));
                }
                overrides.set_item(k, v)?;
            }
        }
        Ok(CodeModel {
            tree: Arc::clone(&self.tree),
            path: self.path.clone(),
            overrides: overrides.unbind(),
            cache: self.cache.clone_ref(py),
        })
    }

    /// This code object's bytecode, decoded (the native half of `Bytecode.from_code`).
    fn _decode(&self, py: Python<'_>) -> PyResult<NativeBytecode> {
        let lt = if self.tree.version >= PyVersion::V3_10 {
            "co_linetable"
        } else {
            "co_lnotab"
        };
        let code: Vec<u8> = self.field(py, "co_code")?.extract()?;
        let linetable: Vec<u8> = self.field(py, lt)?.extract()?;
        let exc: Vec<u8> = self.field(py, "co_exceptiontable")?.extract()?;
        let first: i32 = self.field(py, "co_firstlineno")?.extract()?;
        let name: Option<String> = self.field(py, "co_qualname")?.extract().ok();
        let filename: Option<String> = self.field(py, "co_filename")?.extract().ok();
        decode_parts(
            self.tree.version,
            CodeTables {
                code: &code,
                linetable: &linetable,
                exceptiontable: &exc,
                first_line: first,
            },
            name,
            filename,
        )
    }

    /// The marshal bytes of this code object (overrides applied).
    fn _marshal<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let v = build(
            py,
            self,
            &mut Builder {
                fresh: false,
                shared: None,
            },
        )?;
        let data = marshal::dumps(&v, self.tree.version).map_err(pyc_err)?;
        Ok(PyBytes::new(py, &data))
    }

    /// A live code object, when this interpreter runs the same version.
    fn to_code<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let host = host_version(py)?;
        if host != self.tree.version {
            return Err(crate::errors::BytecodeError::new_err(format!(
                "cannot make a live code object for Python {} on Python {host}",
                self.tree.version
            )));
        }
        let data = self._marshal(py)?;
        py.import("marshal")?.call_method1("loads", (data,))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let name: String = self.field(py, "co_name")?.extract().unwrap_or_default();
        let file: String = self.field(py, "co_filename")?.extract().unwrap_or_default();
        let line: i64 = self
            .field(py, "co_firstlineno")?
            .extract()
            .unwrap_or_default();
        Ok(format!(
            "<CodeModel {name} (Python {}), file \"{file}\", line {line}>",
            self.tree.version
        ))
    }
}

/// Read a `.pyc` image: `(version, magic, flags, mtime_or_None, source_size_or_None, hash_or_None, code)`.
#[pyfunction]
pub fn load_pyc<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyTuple>> {
    let p = pyc::read(data).map_err(pyc_err)?;
    let flags = p.flags();
    let (mtime, size, hash) = match p.source {
        PycSource::Timestamp { mtime, source_size } => (Some(mtime), Some(source_size), None),
        PycSource::Hash { hash, .. } => (None, None, Some(PyBytes::new(py, &hash))),
    };
    if !matches!(p.code.obj, Obj::Code(_)) {
        return Err(pyc_err("the .pyc does not hold a code object"));
    }
    let tree = Arc::new(Tree {
        version: p.version,
        root: p.code,
    });
    let model = CodeModel {
        tree,
        path: Vec::new(),
        overrides: PyDict::new(py).unbind(),
        cache: PyDict::new(py).unbind(),
    };
    (
        p.version.minor(),
        p.magic,
        flags,
        mtime,
        size,
        hash,
        Bound::new(py, model)?,
        PyBytes::new(py, &p.trailing),
    )
        .into_pyobject(py)
}

/// Write a `.pyc` image for `code` with the given header fields.
#[pyfunction]
#[pyo3(signature = (code, magic, flags, mtime=None, source_size=None, hash=None, trailing=None))]
#[allow(clippy::too_many_arguments)]
pub fn dump_pyc<'py>(
    py: Python<'py>,
    code: &Bound<'py, CodeModel>,
    magic: u16,
    flags: u32,
    mtime: Option<u32>,
    source_size: Option<u32>,
    hash: Option<[u8; 8]>,
    trailing: Option<Vec<u8>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let m = code.get();
    let value = build(
        py,
        m,
        &mut Builder {
            fresh: false,
            shared: None,
        },
    )?;
    let source = match hash {
        Some(hash) => PycSource::Hash {
            check_source: flags & 2 != 0,
            hash,
        },
        None => PycSource::Timestamp {
            mtime: mtime.unwrap_or(0),
            source_size: source_size.unwrap_or(0),
        },
    };
    let p = Pyc {
        version: m.tree.version,
        magic,
        source,
        code: value,
        trailing: trailing.unwrap_or_default(),
    };
    let data = pyc::write(&p).map_err(pyc_err)?;
    Ok(PyBytes::new(py, &data))
}
