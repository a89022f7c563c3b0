//! The decompiler bridge: a live code object or a `.pyc`'s `CodeModel` → `CodeInput` → source.

use framejit_bytecode::decode::CodeTables;
use framejit_bytecode::PyVersion;
use framejit_decompile::ast::{Constant, Expr, StrValue};
use framejit_decompile::exprs::FuncVal;
use framejit_decompile::{CodeInput, CodeParts, Const};
use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyBytes, PyComplex, PyFloat, PyFrozenSet, PyInt, PyList, PySlice, PyString, PyTuple,
};

use crate::bytecode::{host_version, version_arg};
use crate::errors::{bytecode_error, DecompileError};
use crate::pyc::CodeModel;

// `PyUnicode_AsUTF8AndSize` is in the limited API from 3.10 only, so pyo3 built for abi3-py39 reads
// a str through a temporary UTF-8 `bytes` object. The function itself is exported by every CPython
// this module loads into (3.9 included): the UTF-8 text is borrowed from the str's own cache, with
// no object made.
extern "C" {
    #[link_name = "PyUnicode_AsUTF8AndSize"]
    fn unicode_as_utf8(
        unicode: *mut pyo3::ffi::PyObject,
        size: *mut pyo3::ffi::Py_ssize_t,
    ) -> *const std::os::raw::c_char;
}

/// The UTF-8 text of `s`, borrowed from the str object; an error for lone surrogates.
fn text<'a>(s: &'a Bound<'_, PyString>) -> PyResult<&'a str> {
    let mut size: pyo3::ffi::Py_ssize_t = 0;
    // SAFETY: `s` is a live str (the GIL is held through `Bound`); on success the pointer is to
    // `size` bytes of UTF-8 that the str keeps for its lifetime, which `'a` does not outlive.
    let data = unsafe { unicode_as_utf8(s.as_ptr(), &mut size) };
    if data.is_null() {
        return Err(PyErr::fetch(s.py()));
    }
    let len = usize::try_from(size).unwrap_or(0);
    // SAFETY: as above; CPython's UTF-8 view of a str is valid UTF-8.
    let bytes = unsafe { std::slice::from_raw_parts(data.cast::<u8>(), len) };
    Ok(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// An attribute value that must be a str, as a `String` (an exact str read in place).
fn string_of(value: &Bound<'_, PyAny>) -> PyResult<String> {
    match value.cast_exact::<PyString>() {
        Ok(s) => Ok(text(s)?.to_owned()),
        Err(_) => value.extract(),
    }
}

/// Objects with no literal spelling, in the order their references were made.
struct Opaque<'py> {
    objects: Bound<'py, PyList>,
}

impl<'py> Opaque<'py> {
    fn reference(&mut self, obj: &Bound<'py, PyAny>) -> PyResult<String> {
        for (i, o) in self.objects.iter().enumerate() {
            if o.is(obj) {
                return Ok(format!("__framejit_const_{i}"));
            }
        }
        self.objects.append(obj)?;
        Ok(format!("__framejit_const_{}", self.objects.len() - 1))
    }
}

fn constant<'py>(
    obj: &Bound<'py, PyAny>,
    version: PyVersion,
    opaque: &mut Opaque<'py>,
    depth: usize,
) -> PyResult<Const> {
    let py = obj.py();
    if depth > 200 {
        return Err(PyTypeError::new_err("constants nested too deeply"));
    }
    let value = if obj.is_none() {
        Constant::None
    } else if obj.is(py.Ellipsis()) {
        Constant::Ellipsis
    } else if let Ok(b) = obj.cast::<PyBool>() {
        Constant::Bool(b.is_true())
    } else if obj.get_type().is(py.get_type::<PyInt>()) {
        Constant::Int(int_text(obj)?)
    } else if obj.get_type().is(py.get_type::<PyFloat>()) {
        Constant::Float(obj.extract()?)
    } else if let Ok(c) = obj.cast::<PyComplex>() {
        Constant::Complex {
            real: c.real(),
            imag: c.imag(),
        }
    } else if let Ok(b) = obj.cast::<PyBytes>() {
        Constant::Bytes(b.as_bytes().to_vec())
    } else if let Ok(s) = obj.cast::<PyString>() {
        // (code points, lone surrogates included; the UTF-8 view fails only on those)
        let points: Vec<u32> = match text(s) {
            Ok(text) => {
                // (one allocation: a string has no more code points than UTF-8 bytes)
                let mut points = Vec::with_capacity(text.len());
                if text.is_ascii() {
                    // (a byte is a code point: no UTF-8 decoding, and the loop vectorises)
                    points.extend(text.bytes().map(u32::from));
                } else {
                    points.extend(text.chars().map(u32::from));
                }
                points
            }
            Err(_) => {
                let raw: Vec<u8> = s
                    .call_method1(
                        intern!(py, "encode"),
                        (intern!(py, "utf-32-le"), intern!(py, "surrogatepass")),
                    )?
                    .extract()?;
                raw.chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect()
            }
        };
        Constant::Str(StrValue(points))
    } else if obj.get_type().is(py.get_type::<PyTuple>())
        || obj.get_type().is(py.get_type::<PyFrozenSet>())
    {
        let mut items = Vec::new();
        for x in obj.try_iter()? {
            match constant(&x?, version, opaque, depth + 1)? {
                Const::Value(v) => items.push(v),
                Const::Code(_) | Const::Slice(_) => {
                    return Ok(Const::Value(Constant::Opaque(opaque.reference(obj)?)))
                }
            }
        }
        if obj.cast::<PyTuple>().is_ok() {
            Constant::Tuple(items)
        } else {
            Constant::FrozenSet(items)
        }
    } else if obj.get_type().is(py.get_type::<PySlice>()) {
        // 3.14 folds `a[1:]` into a slice constant: its parts are constants
        let mut parts = Vec::new();
        for attr in [
            intern!(py, "start"),
            intern!(py, "stop"),
            intern!(py, "step"),
        ] {
            match constant(&obj.getattr(attr)?, version, opaque, depth + 1)? {
                Const::Value(v @ (Constant::None | Constant::Int(_) | Constant::Str(_))) => {
                    parts.push(v)
                }
                _ => return Ok(Const::Value(Constant::Opaque(opaque.reference(obj)?))),
            }
        }
        let [a, b, c]: [Constant; 3] = match parts.try_into() {
            Ok(p) => p,
            Err(_) => return Ok(Const::Value(Constant::Opaque(opaque.reference(obj)?))),
        };
        return Ok(Const::Slice(Box::new([a, b, c])));
    } else if obj.hasattr(intern!(py, "co_code"))? {
        let mut code = code_input(obj, version, opaque)?;
        // (generated code may use it as a value; the table keeps only names the source uses)
        code.reference = Some(opaque.reference(obj)?);
        return Ok(Const::Code(Box::new(code)));
    } else if is_builtin(obj)? {
        // int, str, len, ...: by name, as a person would write them
        Constant::Opaque(obj.getattr(intern!(py, "__name__"))?.extract()?)
    } else {
        Constant::Opaque(opaque.reference(obj)?)
    };
    Ok(Const::Value(value))
}

/// The decimal text of an exact int, as `str()` writes it: one that fits a C `long` formatted
/// here (the same digits and sign), a larger one by `str()` (ASCII digits: its UTF-8 view).
fn int_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let mut overflow: std::os::raw::c_int = 0;
    // SAFETY: `obj` is a live exact int (GIL held); the call sets `overflow` instead of raising
    // where the value does not fit, and raises nothing else for an int.
    let v = unsafe { pyo3::ffi::PyLong_AsLongAndOverflow(obj.as_ptr(), &mut overflow) };
    if overflow == 0 && !(v == -1 && PyErr::occurred(obj.py())) {
        return Ok(v.to_string());
    }
    if PyErr::occurred(obj.py()) {
        let _ = PyErr::take(obj.py());
    }
    Ok(text(&obj.str()?)?.to_owned())
}

/// Is `obj` the builtin of its own name (a builtin type or function)?
fn is_builtin(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let Ok(name) = obj
        .getattr(intern!(obj.py(), "__name__"))
        .and_then(|n| n.extract::<String>())
    else {
        return Ok(false);
    };
    let builtins = obj.py().import(intern!(obj.py(), "builtins"))?;
    Ok(builtins.getattr(name.as_str()).is_ok_and(|b| b.is(obj)))
}

fn expr_of(c: Const) -> Expr {
    match c {
        Const::Value(v) => Expr::constant(v),
        Const::Code(code) => Expr::constant(Constant::Opaque(code.name.clone())),
        s @ Const::Slice(_) => framejit_decompile::exprs::constant_expr(&s),
    }
}

fn strings<'py>(
    obj: &AttrReader<'_, 'py>,
    at: usize,
    attr: &Bound<'py, PyString>,
) -> PyResult<Vec<String>> {
    let value = obj.get(at, attr)?;
    // (a code object's name tuples: read item by item in one pass, without the generic sequence
    // protocol; anything else, or an item that is not an exact str, goes the generic way)
    if let Ok(t) = value.cast::<PyTuple>() {
        let n = t.len();
        if n == 0 {
            return Ok(Vec::new());
        }
        let mut out = Vec::with_capacity(n);
        for x in t.iter_borrowed() {
            match x.cast_exact::<PyString>() {
                Ok(s) => out.push(text(&s)?.to_owned()),
                Err(_) => return value.extract(),
            }
        }
        return Ok(out);
    }
    value.extract()
}

/// The bytes of a `bytes` object in place (a code object's tables are `bytes`); anything else that
/// converts to bytes, copied.
fn byte_string<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<std::borrow::Cow<'a, [u8]>> {
    match obj.cast::<PyBytes>() {
        Ok(b) => Ok(std::borrow::Cow::Borrowed(b.as_bytes())),
        Err(_) => Ok(std::borrow::Cow::Owned(obj.extract::<Vec<u8>>()?)),
    }
}

/// The `co_*` attributes `code_input` reads.
const CODE_ATTRS: [&str; 17] = [
    "co_code",
    "co_linetable",
    "co_lnotab",
    "co_exceptiontable",
    "co_name",
    "co_qualname",
    "co_filename",
    "co_consts",
    "co_firstlineno",
    "co_flags",
    "co_argcount",
    "co_posonlyargcount",
    "co_kwonlyargcount",
    "co_names",
    "co_varnames",
    "co_cellvars",
    "co_freevars",
];

// (indexes into [`CODE_ATTRS`])
const CO_CODE: usize = 0;
const CO_LINETABLE: usize = 1;
const CO_LNOTAB: usize = 2;
const CO_EXCEPTIONTABLE: usize = 3;
const CO_NAME: usize = 4;
const CO_QUALNAME: usize = 5;
const CO_FILENAME: usize = 6;
const CO_CONSTS: usize = 7;
const CO_FIRSTLINENO: usize = 8;
const CO_FLAGS: usize = 9;
const CO_ARGCOUNT: usize = 10;
const CO_POSONLYARGCOUNT: usize = 11;
const CO_KWONLYARGCOUNT: usize = 12;
const CO_NAMES: usize = 13;
const CO_VARNAMES: usize = 14;
const CO_CELLVARS: usize = 15;
const CO_FREEVARS: usize = 16;

/// The host's `types.CodeType` and, per attribute of [`CODE_ATTRS`] (at its index there), the
/// descriptor in the type's own dict and that descriptor's `__get__` slot.
struct CodeDescriptors {
    code_type: Py<PyAny>,
    found: Vec<Option<(Py<PyAny>, pyo3::ffi::descrgetfunc)>>,
}

static CODE_DESCRIPTORS: pyo3::sync::PyOnceLock<Option<CodeDescriptors>> =
    pyo3::sync::PyOnceLock::new();

impl CodeDescriptors {
    /// `None` before 3.10 (`PyType_GetSlot` takes a static type such as a descriptor's only from
    /// 3.10) or where anything is not as expected: every read then goes the generic way.
    fn get(py: Python<'_>) -> Option<&'static CodeDescriptors> {
        CODE_DESCRIPTORS
            .get_or_init(py, || Self::find(py).ok().flatten())
            .as_ref()
    }

    fn find(py: Python<'_>) -> PyResult<Option<CodeDescriptors>> {
        if host_version(py)? < PyVersion::V3_10 {
            return Ok(None);
        }
        let code_type = py
            .import(intern!(py, "types"))?
            .getattr(intern!(py, "CodeType"))?;
        let dict = code_type.getattr(intern!(py, "__dict__"))?;
        let mut found = Vec::with_capacity(CODE_ATTRS.len());
        for name in CODE_ATTRS {
            // (the entry of the type's own dict: what the generic lookup on an instance finds)
            let Ok(descr) = dict.get_item(name) else {
                found.push(None);
                continue;
            };
            // SAFETY: `descr` is a live object (GIL held); its type is a live type object.
            let slot = unsafe {
                pyo3::ffi::PyType_GetSlot(
                    pyo3::ffi::Py_TYPE(descr.as_ptr()),
                    pyo3::ffi::Py_tp_descr_get,
                )
            };
            if slot.is_null() {
                // (no `__get__`, or the slot could not be read: this attribute goes the generic way)
                if PyErr::occurred(py) {
                    let _ = PyErr::take(py);
                }
                found.push(None);
                continue;
            }
            // SAFETY: the `tp_descr_get` slot of a type holds a `descrgetfunc`.
            let get = unsafe {
                std::mem::transmute::<*mut std::ffi::c_void, pyo3::ffi::descrgetfunc>(slot)
            };
            found.push(Some((descr.unbind(), get)));
        }
        Ok(Some(CodeDescriptors {
            code_type: code_type.unbind(),
            found,
        }))
    }
}

/// Reads the attributes of one object for `code_input`. For an exact code object of the host
/// (whose type looks attributes up generically and whose instances have no dict), the
/// descriptor the generic lookup would find is called as that lookup calls it, without the
/// lookup; anything else (a `CodeModel`, another type, a name not cached) goes through `getattr`.
struct AttrReader<'a, 'py> {
    obj: &'a Bound<'py, PyAny>,
    fast: Option<&'static CodeDescriptors>,
}

impl<'a, 'py> AttrReader<'a, 'py> {
    fn new(obj: &'a Bound<'py, PyAny>) -> Self {
        let py = obj.py();
        let fast = CodeDescriptors::get(py).filter(|d| obj.get_type().is(d.code_type.bind(py)));
        AttrReader { obj, fast }
    }

    /// Attribute `name`, which is `CODE_ATTRS[at]`.
    fn get(&self, at: usize, name: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyAny>> {
        if let Some(Some((descr, get))) = self.fast.and_then(|d| d.found.get(at)) {
            let code_type = self
                .fast
                .map_or(std::ptr::null_mut(), |d| d.code_type.as_ptr());
            // SAFETY: the descriptor, the object and its type are live (GIL held); this is
            // the call the generic lookup makes for a data descriptor found on the type, and
            // it returns a new reference or NULL with an exception set.
            return unsafe {
                let r = get(descr.as_ptr(), self.obj.as_ptr(), code_type);
                Bound::from_owned_ptr_or_err(self.obj.py(), r)
            };
        }
        self.obj.getattr(name)
    }
}

/// `CodeInput` from anything with a code object's `co_*` attributes, of `version`.
fn code_input<'py>(
    code: &Bound<'py, PyAny>,
    version: PyVersion,
    opaque: &mut Opaque<'py>,
) -> PyResult<CodeInput> {
    let py = code.py();
    let attrs = AttrReader::new(code);
    let code_obj = attrs.get(CO_CODE, intern!(py, "co_code"))?;
    let co_code = byte_string(&code_obj)?;
    let linetable_obj = if version >= PyVersion::V3_10 {
        attrs.get(CO_LINETABLE, intern!(py, "co_linetable"))?
    } else {
        attrs.get(CO_LNOTAB, intern!(py, "co_lnotab"))?
    };
    let linetable = byte_string(&linetable_obj)?;
    let exc_obj = if version.has_exception_table() {
        Some(attrs.get(CO_EXCEPTIONTABLE, intern!(py, "co_exceptiontable"))?)
    } else {
        None
    };
    let exc = match &exc_obj {
        Some(e) => byte_string(e)?,
        None => std::borrow::Cow::Borrowed(&[][..]),
    };
    let name = string_of(&attrs.get(CO_NAME, intern!(py, "co_name"))?)?;
    let qualname = attrs
        .get(CO_QUALNAME, intern!(py, "co_qualname"))
        .and_then(|q| string_of(&q))
        .unwrap_or_else(|_| name.clone());
    let filename = string_of(&attrs.get(CO_FILENAME, intern!(py, "co_filename"))?)?;
    let consts_obj = attrs.get(CO_CONSTS, intern!(py, "co_consts"))?;
    let mut consts = Vec::new();
    match consts_obj.cast::<PyTuple>() {
        Ok(t) => {
            consts.reserve(t.len());
            for c in t.iter_borrowed() {
                consts.push(constant(&c, version, opaque, 0)?);
            }
        }
        Err(_) => {
            for c in consts_obj.try_iter()? {
                consts.push(constant(&c?, version, opaque, 0)?);
            }
        }
    }
    let parts = CodeParts {
        tables: CodeTables {
            code: &co_code,
            linetable: &linetable,
            exceptiontable: &exc,
            first_line: attrs
                .get(CO_FIRSTLINENO, intern!(py, "co_firstlineno"))?
                .extract()?,
        },
        name,
        qualname,
        filename,
        flags: attrs.get(CO_FLAGS, intern!(py, "co_flags"))?.extract()?,
        argcount: attrs
            .get(CO_ARGCOUNT, intern!(py, "co_argcount"))?
            .extract()?,
        posonlyargcount: attrs
            .get(CO_POSONLYARGCOUNT, intern!(py, "co_posonlyargcount"))?
            .extract()?,
        kwonlyargcount: attrs
            .get(CO_KWONLYARGCOUNT, intern!(py, "co_kwonlyargcount"))?
            .extract()?,
        consts,
        names: strings(&attrs, CO_NAMES, intern!(py, "co_names"))?,
        varnames: strings(&attrs, CO_VARNAMES, intern!(py, "co_varnames"))?,
        cellvars: strings(&attrs, CO_CELLVARS, intern!(py, "co_cellvars"))?,
        freevars: strings(&attrs, CO_FREEVARS, intern!(py, "co_freevars"))?,
    };
    CodeInput::new_or_parts(version, parts)
        .map_err(|(e, p)| bytecode_error(&e, Some(&p.qualname), Some(&p.filename)))
}

fn decompile_error(e: &framejit_decompile::DecompileError) -> PyErr {
    let err = DecompileError::new_err(e.to_string());
    Python::attach(|py| {
        let v = err.value(py);
        let _ = v.setattr("code_name", &e.code_name);
        let _ = v.setattr("filename", &e.filename);
        let _ = v.setattr("offset", e.offset);
        let _ = v.setattr("opname", e.opname);
    });
    err
}

/// Decompile a code object (live, or a `CodeModel` of any version): `(source, opaque objects)` where
/// `__framejit_const_<i>` in the source stands for `objects[i]`.
#[pyfunction]
#[pyo3(signature = (code, minor=None, defaults=None, kwdefaults=None, annotations=None))]
#[inline(never)]
pub fn decompile_code<'py>(
    code: &Bound<'py, PyAny>,
    minor: Option<u8>,
    defaults: Option<&Bound<'py, PyAny>>,
    kwdefaults: Option<&Bound<'py, PyAny>>,
    annotations: Option<&Bound<'py, PyAny>>,
) -> PyResult<(String, Bound<'py, PyList>)> {
    crate::alloc::arena_call(|| decompile_code_in(code, minor, defaults, kwdefaults, annotations))
}

fn decompile_code_in<'py>(
    code: &Bound<'py, PyAny>,
    minor: Option<u8>,
    defaults: Option<&Bound<'py, PyAny>>,
    kwdefaults: Option<&Bound<'py, PyAny>>,
    annotations: Option<&Bound<'py, PyAny>>,
) -> PyResult<(String, Bound<'py, PyList>)> {
    let py = code.py();
    let version = match (code.cast::<CodeModel>(), minor) {
        (Ok(m), _) => version_arg(m.getattr(intern!(py, "version"))?.extract::<(u8, u8)>()?.1)?,
        (Err(_), Some(minor)) => version_arg(minor)?,
        (Err(_), None) => host_version(py)?,
    };
    let mut opaque = Opaque {
        objects: PyList::empty(py),
    };
    let input = code_input(code, version, &mut opaque)?;
    // The function object's own attributes: defaults, keyword-only defaults, annotations.
    let mut f = FuncVal {
        code: 0,
        defaults: Vec::new(),
        kwdefaults: Vec::new(),
        annotations: Vec::new(),
        decorators: Vec::new(),
    };
    if let Some(d) = defaults.filter(|d| !d.is_none()) {
        for v in d.try_iter()? {
            let c = constant(&v?, version, &mut opaque, 0)?;
            f.defaults.push(expr_of(c));
        }
    }
    for (src, dst) in [
        (kwdefaults, &mut f.kwdefaults),
        (annotations, &mut f.annotations),
    ] {
        if let Some(d) = src.filter(|d| !d.is_none()) {
            for item in d.call_method0(intern!(d.py(), "items"))?.try_iter()? {
                let (k, v): (String, Bound<'py, PyAny>) = item?.extract()?;
                let c = constant(&v, version, &mut opaque, 0)?;
                dst.push((k, expr_of(c)));
            }
        }
    }
    let source =
        framejit_decompile::decompile_source_with(&input, &f).map_err(|e| decompile_error(&e))?;
    Ok((source, opaque.objects))
}
