//! CPython's `marshal` format, versions 4 (3.8–3.13) and 5 (3.14), read and written faithfully.
//!
//! The value model keeps everything that decides the bytes: which type code each value used
//! (`'i'` versus `'l'`, `'z'` versus `'a'` versus `'u'`, `')'` versus `'('`, …), whether it had the
//! `FLAG_REF` bit, and back-references as [`Obj::Ref`] indices. So for anything [`loads`] accepts,
//! [`dumps`] gives back the same bytes.
//!
//! Back-references index the values that carried `FLAG_REF`, numbered in the order their type
//! byte appears in the stream (a container gets its number before its children). The
//! singletons (`None`, `True`, …) and `Ref` itself never get a number even when flagged, as in
//! CPython. [`RefTable`] rebuilds that numbering for a tree and resolves `Ref`s.
//!
//! Reading is defensive: every length is checked against the remaining input before anything is
//! allocated, nesting is limited to [`MAX_DEPTH`] like CPython's `MAX_MARSHAL_STACK_DEPTH`, and
//! every problem is a [`MarshalError`] with the byte offset where it was found.

use std::borrow::Cow;
use std::fmt;

use crate::PyVersion;

/// CPython's `MAX_MARSHAL_STACK_DEPTH` (non-Windows): the deepest nesting read or written.
pub const MAX_DEPTH: usize = 2000;
/// The bit added to a type code to give the value a back-reference number.
pub const FLAG_REF: u8 = 0x80;

/// `co_localspluskinds` bits (3.11+), used to derive varnames/cellvars/freevars.
pub const CO_FAST_LOCAL: u8 = 0x20;
pub const CO_FAST_CELL: u8 = 0x40;
pub const CO_FAST_FREE: u8 = 0x80;

/// The type codes, without `FLAG_REF`.
pub mod code {
    pub const NULL: u8 = b'0';
    pub const NONE: u8 = b'N';
    pub const FALSE: u8 = b'F';
    pub const TRUE: u8 = b'T';
    pub const STOPITER: u8 = b'S';
    pub const ELLIPSIS: u8 = b'.';
    pub const INT: u8 = b'i';
    pub const INT64: u8 = b'I';
    pub const LONG: u8 = b'l';
    pub const FLOAT: u8 = b'f';
    pub const BINARY_FLOAT: u8 = b'g';
    pub const COMPLEX: u8 = b'x';
    pub const BINARY_COMPLEX: u8 = b'y';
    pub const STRING: u8 = b's';
    pub const INTERNED: u8 = b't';
    pub const UNICODE: u8 = b'u';
    pub const ASCII: u8 = b'a';
    pub const ASCII_INTERNED: u8 = b'A';
    pub const SHORT_ASCII: u8 = b'z';
    pub const SHORT_ASCII_INTERNED: u8 = b'Z';
    pub const TUPLE: u8 = b'(';
    pub const SMALL_TUPLE: u8 = b')';
    pub const LIST: u8 = b'[';
    pub const DICT: u8 = b'{';
    pub const SET: u8 = b'<';
    pub const FROZENSET: u8 = b'>';
    pub const CODE: u8 = b'c';
    pub const REF: u8 = b'r';
    /// Marshal version 5 (3.14).
    pub const SLICE: u8 = b':';
}

// ---------------------------------------------------------------------------------------------
// Errors

/// Why [`loads`] or [`dumps`] failed. Offsets are byte offsets into the input (for [`dumps`],
/// into the output written so far).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MarshalError {
    /// The input ended inside `what`, which started at `offset`.
    Truncated { what: &'static str, offset: usize },
    /// A type code this marshal version does not know.
    UnknownType {
        code: u8,
        offset: usize,
        version: PyVersion,
    },
    /// A negative (or too large) length field.
    BadSize {
        what: &'static str,
        size: i64,
        offset: usize,
    },
    /// A base-2**15 digit of a long that is not below 2**15.
    LongDigit { digit: u16, offset: usize },
    /// A long whose most significant digit is zero.
    UnnormalizedLong { offset: usize },
    /// A `'u'`/`'t'` string that is not UTF-8 (surrogates allowed, as with `surrogatepass`).
    BadUtf8 { offset: usize },
    /// A back-reference to a number no value has (yet).
    RefOutOfRange {
        index: i64,
        available: usize,
        offset: usize,
    },
    /// A back-reference to a code object, frozenset or slice that is still being read.
    RefToIncomplete { index: u32, offset: usize },
    /// A NULL (`'0'`) where an object is required.
    Null {
        context: &'static str,
        offset: usize,
    },
    /// Nesting deeper than [`MAX_DEPTH`].
    TooDeep { offset: usize },
    /// [`loads`] read one object and input was left over.
    TrailingData { offset: usize, len: usize },
    /// [`dumps`]: the value cannot be written for this version (wrong code layout, a short form
    /// too long for its one-byte length, …).
    Unwritable { what: String },
}

impl fmt::Display for MarshalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MarshalError::Truncated { what, offset } => {
                write!(f, "truncated {what} at offset {offset}")
            }
            MarshalError::UnknownType {
                code,
                offset,
                version,
            } => {
                write!(f, "unknown type code {code:#04x} at offset {offset} (marshal for Python {version})")
            }
            MarshalError::BadSize { what, size, offset } => {
                write!(f, "bad {what} size {size} at offset {offset}")
            }
            MarshalError::LongDigit { digit, offset } => {
                write!(
                    f,
                    "long digit {digit:#06x} out of range (must be < 0x8000) at offset {offset}"
                )
            }
            MarshalError::UnnormalizedLong { offset } => {
                write!(f, "unnormalized long (top digit zero) at offset {offset}")
            }
            MarshalError::BadUtf8 { offset } => write!(f, "string is not UTF-8 at offset {offset}"),
            MarshalError::RefOutOfRange {
                index,
                available,
                offset,
            } => {
                write!(
                    f,
                    "ref {index} out of range ({available} refs so far) at offset {offset}"
                )
            }
            MarshalError::RefToIncomplete { index, offset } => {
                write!(
                    f,
                    "ref {index} points to an object still being read, at offset {offset}"
                )
            }
            MarshalError::Null { context, offset } => {
                write!(f, "NULL object in {context} at offset {offset}")
            }
            MarshalError::TooDeep { offset } => {
                write!(f, "nesting deeper than {MAX_DEPTH} at offset {offset}")
            }
            MarshalError::TrailingData { offset, len } => {
                write!(f, "{len} bytes of trailing data at offset {offset}")
            }
            MarshalError::Unwritable { what } => write!(f, "cannot marshal: {what}"),
        }
    }
}

impl std::error::Error for MarshalError {}

// ---------------------------------------------------------------------------------------------
// Value model

/// One marshalled object: what it is, and whether its type byte carried `FLAG_REF`.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    pub obj: Obj,
    /// The type byte had [`FLAG_REF`]: the value gets the next back-reference number (unless
    /// it is a singleton or a `Ref`, which CPython never numbers).
    pub flag_ref: bool,
}

/// The object kinds, one variant per type code (so the writer knows which code to use).
#[derive(Clone, Debug, PartialEq)]
pub enum Obj {
    /// `'0'`: CPython's NULL. Only meaningful as the dict terminator, which the model leaves
    /// implicit; [`loads`] never returns it, [`dumps`] writes it.
    Null,
    None,
    False,
    True,
    StopIteration,
    Ellipsis,
    /// `'i'`: a 32-bit int.
    Int(i32),
    /// `'I'`: a 64-bit int (never written by CPython 3, still read).
    Int64(i64),
    /// `'l'`: an int of any size in base-2**15 digits.
    Long(Long),
    /// `'f'`: a float as text (marshal version 1).
    FloatText(Vec<u8>),
    /// `'g'`: a float as IEEE-754 binary64.
    Float(f64),
    /// `'x'`: a complex as two texts.
    ComplexText(Vec<u8>, Vec<u8>),
    /// `'y'`: a complex as two binary64.
    Complex(f64, f64),
    /// `'s'`: bytes.
    Bytes(Vec<u8>),
    /// `'u'`, `'t'`, `'a'`, `'A'`, `'z'`, `'Z'`: a str.
    Str(PyStr),
    /// `'('`: a tuple with a 4-byte length.
    Tuple(Vec<Value>),
    /// `')'`: a tuple with a 1-byte length.
    SmallTuple(Vec<Value>),
    /// `'['`
    List(Vec<Value>),
    /// `'{'`: key/value pairs in stream order (terminated by NULL on the wire).
    Dict(Vec<(Value, Value)>),
    /// `'<'`
    Set(Vec<Value>),
    /// `'>'`
    FrozenSet(Vec<Value>),
    /// `'c'`
    Code(Box<CodeObject>),
    /// `':'` (marshal version 5, 3.14): start, stop, step.
    Slice(Box<[Value; 3]>),
    /// `'r'`: a back-reference to the value numbered `index` (see [`RefTable`]).
    Ref(u32),
}

/// An arbitrary-precision int as marshal stores it: sign and base-2**15 digits, least
/// significant first. Zero has no digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Long {
    pub negative: bool,
    /// Each below 2**15; the last one non-zero.
    pub digits: Vec<u16>,
}

impl Long {
    pub fn from_i128(v: i128) -> Long {
        let negative = v < 0;
        let mut m = v.unsigned_abs();
        let mut digits = Vec::new();
        while m != 0 {
            digits.push((m & 0x7fff) as u16);
            m >>= 15;
        }
        Long { negative, digits }
    }

    /// The value, if it fits in an i128.
    pub fn to_i128(&self) -> Option<i128> {
        let mut m: u128 = 0;
        for &d in self.digits.iter().rev() {
            if m >> (128 - 15) != 0 {
                return None;
            }
            m = (m << 15) | u128::from(d & 0x7fff);
        }
        if self.negative {
            0i128.checked_sub_unsigned(m)
        } else {
            i128::try_from(m).ok()
        }
    }

    /// The value, if it fits in an i64.
    pub fn to_i64(&self) -> Option<i64> {
        self.to_i128().and_then(|v| i64::try_from(v).ok())
    }

    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }
}

/// Which type code a str used: UTF-8 (`'u'`, `'t'`) or one byte per character (`'a'`, `'A'`
/// with a 4-byte length, `'z'`, `'Z'` with a 1-byte length), interned or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StrKind {
    Unicode,
    Interned,
    Ascii,
    AsciiInterned,
    ShortAscii,
    ShortAsciiInterned,
}

impl StrKind {
    pub fn code(self) -> u8 {
        match self {
            StrKind::Unicode => code::UNICODE,
            StrKind::Interned => code::INTERNED,
            StrKind::Ascii => code::ASCII,
            StrKind::AsciiInterned => code::ASCII_INTERNED,
            StrKind::ShortAscii => code::SHORT_ASCII,
            StrKind::ShortAsciiInterned => code::SHORT_ASCII_INTERNED,
        }
    }

    pub fn is_interned(self) -> bool {
        matches!(
            self,
            StrKind::Interned | StrKind::AsciiInterned | StrKind::ShortAsciiInterned
        )
    }

    /// The data is UTF-8 (with surrogates allowed) rather than one byte per character.
    pub fn is_utf8(self) -> bool {
        matches!(self, StrKind::Unicode | StrKind::Interned)
    }
}

/// A str as stored: the raw bytes and the kind of type code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PyStr {
    pub kind: StrKind,
    pub data: Vec<u8>,
}

impl PyStr {
    /// Pick the kind CPython's writer would pick for `s` (not interned).
    pub fn new(s: &str) -> PyStr {
        let kind = if !s.is_ascii() {
            StrKind::Unicode
        } else if s.len() < 256 {
            StrKind::ShortAscii
        } else {
            StrKind::Ascii
        };
        PyStr {
            kind,
            data: s.as_bytes().to_vec(),
        }
    }

    /// Like [`PyStr::new`], with the interned kinds.
    pub fn interned(s: &str) -> PyStr {
        let mut p = PyStr::new(s);
        p.kind = match p.kind {
            StrKind::Unicode => StrKind::Interned,
            StrKind::Ascii => StrKind::AsciiInterned,
            _ => StrKind::ShortAsciiInterned,
        };
        p
    }

    /// The text. UTF-8 kinds holding lone surrogates give U+FFFD for them; one-byte kinds are
    /// read as Latin-1 (which is how CPython reads a non-ASCII byte there).
    pub fn as_str(&self) -> Cow<'_, str> {
        if self.kind.is_utf8() {
            String::from_utf8_lossy(&self.data)
        } else {
            match std::str::from_utf8(&self.data) {
                Ok(s) if self.data.is_ascii() => Cow::Borrowed(s),
                _ => Cow::Owned(self.data.iter().map(|&b| char::from(b)).collect()),
            }
        }
    }

    /// The text if it is valid UTF-8 as stored (no surrogates, no Latin-1 bytes).
    pub fn to_str(&self) -> Option<&str> {
        if !self.kind.is_utf8() && !self.data.is_ascii() {
            return None;
        }
        std::str::from_utf8(&self.data).ok()
    }
}

impl Value {
    pub fn new(obj: Obj) -> Value {
        Value {
            obj,
            flag_ref: false,
        }
    }

    /// `obj` with `FLAG_REF` set.
    pub fn flagged(obj: Obj) -> Value {
        Value {
            obj,
            flag_ref: true,
        }
    }

    pub fn none() -> Value {
        Value::new(Obj::None)
    }

    /// An int the way CPython writes it: `'i'` when it fits in 32 bits, else `'l'`.
    pub fn int(v: i128) -> Value {
        match i32::try_from(v) {
            Ok(i) => Value::new(Obj::Int(i)),
            Err(_) => Value::new(Obj::Long(Long::from_i128(v))),
        }
    }

    pub fn bytes(b: impl Into<Vec<u8>>) -> Value {
        Value::new(Obj::Bytes(b.into()))
    }

    pub fn str(s: &str) -> Value {
        Value::new(Obj::Str(PyStr::new(s)))
    }

    /// A tuple the way CPython writes it: `')'` below 256 items, else `'('`.
    pub fn tuple(items: Vec<Value>) -> Value {
        if items.len() < 256 {
            Value::new(Obj::SmallTuple(items))
        } else {
            Value::new(Obj::Tuple(items))
        }
    }

    /// The type code this value is written with, `FLAG_REF` included.
    pub fn type_code(&self) -> u8 {
        let c = self.obj.type_code();
        if self.flag_ref {
            c | FLAG_REF
        } else {
            c
        }
    }

    /// Whether this value takes a back-reference number.
    pub fn is_numbered(&self) -> bool {
        self.flag_ref && self.obj.can_be_numbered()
    }

    pub fn as_bytes(&self) -> Option<&[u8]> {
        match &self.obj {
            Obj::Bytes(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_pystr(&self) -> Option<&PyStr> {
        match &self.obj {
            Obj::Str(s) => Some(s),
            _ => None,
        }
    }

    /// See [`PyStr::as_str`].
    pub fn as_str(&self) -> Option<Cow<'_, str>> {
        self.as_pystr().map(PyStr::as_str)
    }

    /// The items of a tuple (either form), list, set or frozenset.
    pub fn as_seq(&self) -> Option<&[Value]> {
        match &self.obj {
            Obj::Tuple(v) | Obj::SmallTuple(v) | Obj::List(v) | Obj::Set(v) | Obj::FrozenSet(v) => {
                Some(v)
            }
            _ => None,
        }
    }

    /// An int (`'i'`, `'I'`, or `'l'` that fits).
    pub fn as_i64(&self) -> Option<i64> {
        match &self.obj {
            Obj::Int(i) => Some(i64::from(*i)),
            Obj::Int64(i) => Some(*i),
            Obj::Long(l) => l.to_i64(),
            _ => None,
        }
    }

    /// An int that fits in an i128.
    pub fn as_i128(&self) -> Option<i128> {
        match &self.obj {
            Obj::Long(l) => l.to_i128(),
            _ => self.as_i64().map(i128::from),
        }
    }

    /// A float (binary, or text that parses).
    pub fn as_f64(&self) -> Option<f64> {
        match &self.obj {
            Obj::Float(f) => Some(*f),
            Obj::FloatText(t) => parse_float_text(t),
            _ => None,
        }
    }

    pub fn as_code(&self) -> Option<&CodeObject> {
        match &self.obj {
            Obj::Code(c) => Some(c),
            _ => None,
        }
    }

    pub fn as_code_mut(&mut self) -> Option<&mut CodeObject> {
        match &mut self.obj {
            Obj::Code(c) => Some(c),
            _ => None,
        }
    }

    /// The direct children in stream order.
    pub fn children(&self) -> Vec<&Value> {
        match &self.obj {
            Obj::Tuple(v) | Obj::SmallTuple(v) | Obj::List(v) | Obj::Set(v) | Obj::FrozenSet(v) => {
                v.iter().collect()
            }
            Obj::Dict(kv) => kv.iter().flat_map(|(k, v)| [k, v]).collect(),
            Obj::Code(c) => c.object_fields(),
            Obj::Slice(s) => s.iter().collect(),
            _ => Vec::new(),
        }
    }
}

fn parse_float_text(t: &[u8]) -> Option<f64> {
    let s = std::str::from_utf8(t).ok()?.trim();
    let lower = s.to_ascii_lowercase();
    match lower.trim_start_matches(['+', '-']) {
        "inf" | "infinity" | "nan" => {
            let neg = lower.starts_with('-');
            let v = if lower.ends_with("nan") {
                f64::NAN
            } else {
                f64::INFINITY
            };
            Some(if neg { -v } else { v })
        }
        _ => s.parse().ok(),
    }
}

impl Obj {
    /// The type code, without `FLAG_REF`.
    pub fn type_code(&self) -> u8 {
        match self {
            Obj::Null => code::NULL,
            Obj::None => code::NONE,
            Obj::False => code::FALSE,
            Obj::True => code::TRUE,
            Obj::StopIteration => code::STOPITER,
            Obj::Ellipsis => code::ELLIPSIS,
            Obj::Int(_) => code::INT,
            Obj::Int64(_) => code::INT64,
            Obj::Long(_) => code::LONG,
            Obj::FloatText(_) => code::FLOAT,
            Obj::Float(_) => code::BINARY_FLOAT,
            Obj::ComplexText(..) => code::COMPLEX,
            Obj::Complex(..) => code::BINARY_COMPLEX,
            Obj::Bytes(_) => code::STRING,
            Obj::Str(s) => s.kind.code(),
            Obj::Tuple(_) => code::TUPLE,
            Obj::SmallTuple(_) => code::SMALL_TUPLE,
            Obj::List(_) => code::LIST,
            Obj::Dict(_) => code::DICT,
            Obj::Set(_) => code::SET,
            Obj::FrozenSet(_) => code::FROZENSET,
            Obj::Code(_) => code::CODE,
            Obj::Slice(_) => code::SLICE,
            Obj::Ref(_) => code::REF,
        }
    }

    /// CPython numbers a flagged value unless it is a singleton or a `Ref`.
    fn can_be_numbered(&self) -> bool {
        !matches!(
            self,
            Obj::Null
                | Obj::None
                | Obj::False
                | Obj::True
                | Obj::StopIteration
                | Obj::Ellipsis
                | Obj::Ref(_)
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Code objects

/// How a code object stores its local names.
#[derive(Clone, Debug, PartialEq)]
pub enum CodeLocals {
    /// 3.8–3.10: `co_varnames`, `co_freevars`, `co_cellvars`.
    Split {
        varnames: Value,
        freevars: Value,
        cellvars: Value,
    },
    /// 3.11+: `co_localsplusnames` and the bytes `co_localspluskinds`.
    LocalsPlus { names: Value, kinds: Value },
}

/// A code object in marshal layout. The object fields stay [`Value`]s so that flags and
/// back-references survive a round trip; the typed accessors take a [`RefTable`] of the tree
/// the code object lives in to see through `Ref`s.
///
/// Layout per version (the `i32` fields are raw 4-byte ints on the wire, not objects):
/// - 3.8–3.10: argcount, posonlyargcount, kwonlyargcount, nlocals, stacksize, flags, code,
///   consts, names, varnames, freevars, cellvars, filename, name, firstlineno, lnotab
///   (3.10: linetable).
/// - 3.11–3.14: argcount, posonlyargcount, kwonlyargcount, stacksize, flags, code, consts,
///   names, localsplusnames, localspluskinds, filename, name, qualname, firstlineno, linetable,
///   exceptiontable.
#[derive(Clone, Debug, PartialEq)]
pub struct CodeObject {
    pub argcount: i32,
    pub posonlyargcount: i32,
    pub kwonlyargcount: i32,
    /// Written for 3.8–3.10 only (ignored for 3.11+).
    pub nlocals: i32,
    pub stacksize: i32,
    pub flags: i32,
    pub code: Value,
    pub consts: Value,
    pub names: Value,
    pub locals: CodeLocals,
    pub filename: Value,
    pub name: Value,
    /// 3.11+ only.
    pub qualname: Option<Value>,
    pub firstlineno: i32,
    /// `co_lnotab` (3.8, 3.9) or `co_linetable` (3.10+).
    pub linetable: Value,
    /// 3.11+ only.
    pub exceptiontable: Option<Value>,
}

fn str_list(refs: &RefTable<'_>, v: &Value) -> Option<Vec<String>> {
    refs.resolve(v)
        .as_seq()?
        .iter()
        .map(|x| refs.resolve(x).as_str().map(Cow::into_owned))
        .collect()
}

impl CodeObject {
    /// The object fields in stream order.
    pub fn object_fields(&self) -> Vec<&Value> {
        let mut out = vec![&self.code, &self.consts, &self.names];
        match &self.locals {
            CodeLocals::Split {
                varnames,
                freevars,
                cellvars,
            } => out.extend([varnames, freevars, cellvars]),
            CodeLocals::LocalsPlus { names, kinds } => out.extend([names, kinds]),
        }
        out.extend([&self.filename, &self.name]);
        out.extend(self.qualname.as_ref());
        out.push(&self.linetable);
        out.extend(self.exceptiontable.as_ref());
        out
    }

    /// `co_code`.
    pub fn code_bytes<'a>(&'a self, refs: &RefTable<'a>) -> Option<&'a [u8]> {
        refs.resolve(&self.code).as_bytes()
    }

    /// `co_consts` items.
    pub fn consts<'a>(&'a self, refs: &RefTable<'a>) -> Option<&'a [Value]> {
        refs.resolve(&self.consts).as_seq()
    }

    pub fn names(&self, refs: &RefTable<'_>) -> Option<Vec<String>> {
        str_list(refs, &self.names)
    }

    fn localsplus_with(
        &self,
        refs: &RefTable<'_>,
        names: &Value,
        kinds: &Value,
        bit: u8,
    ) -> Option<Vec<String>> {
        let names = str_list(refs, names)?;
        let kinds = refs.resolve(kinds).as_bytes()?;
        if kinds.len() != names.len() {
            return None;
        }
        Some(
            names
                .into_iter()
                .zip(kinds)
                .filter(|(_, &k)| k & bit != 0)
                .map(|(n, _)| n)
                .collect(),
        )
    }

    fn locals_field(&self, refs: &RefTable<'_>, which: usize) -> Option<Vec<String>> {
        match &self.locals {
            CodeLocals::Split {
                varnames,
                freevars,
                cellvars,
            } => str_list(refs, [varnames, freevars, cellvars].get(which)?),
            CodeLocals::LocalsPlus { names, kinds } => {
                let bit = [CO_FAST_LOCAL, CO_FAST_FREE, CO_FAST_CELL].get(which)?;
                self.localsplus_with(refs, names, kinds, *bit)
            }
        }
    }

    /// `co_varnames` (derived from localsplus for 3.11+).
    pub fn varnames(&self, refs: &RefTable<'_>) -> Option<Vec<String>> {
        self.locals_field(refs, 0)
    }

    /// `co_freevars` (derived from localsplus for 3.11+).
    pub fn freevars(&self, refs: &RefTable<'_>) -> Option<Vec<String>> {
        self.locals_field(refs, 1)
    }

    /// `co_cellvars` (derived from localsplus for 3.11+).
    pub fn cellvars(&self, refs: &RefTable<'_>) -> Option<Vec<String>> {
        self.locals_field(refs, 2)
    }

    pub fn filename<'a>(&'a self, refs: &RefTable<'a>) -> Option<Cow<'a, str>> {
        refs.resolve(&self.filename).as_str()
    }

    pub fn name<'a>(&'a self, refs: &RefTable<'a>) -> Option<Cow<'a, str>> {
        refs.resolve(&self.name).as_str()
    }

    /// `co_qualname` (3.11+).
    pub fn qualname<'a>(&'a self, refs: &RefTable<'a>) -> Option<Cow<'a, str>> {
        refs.resolve(self.qualname.as_ref()?).as_str()
    }

    /// `co_lnotab` (3.8, 3.9) or `co_linetable` (3.10+) bytes.
    pub fn line_table<'a>(&'a self, refs: &RefTable<'a>) -> Option<&'a [u8]> {
        refs.resolve(&self.linetable).as_bytes()
    }

    /// `co_exceptiontable` bytes (3.11+).
    pub fn exception_table<'a>(&'a self, refs: &RefTable<'a>) -> Option<&'a [u8]> {
        refs.resolve(self.exceptiontable.as_ref()?).as_bytes()
    }

    /// Replace `co_code`. The new value keeps the old one's `FLAG_REF` bit (so the numbering of
    /// every later back-reference stays valid), unless the old one was a `Ref`. If other parts
    /// of the tree refer back to the old value they will now see the new one: call [`unshare`]
    /// first when that matters.
    pub fn set_code_bytes(&mut self, bytes: Vec<u8>) {
        replace_keep_flag(&mut self.code, Obj::Bytes(bytes));
    }

    /// Replace the line table (same flag rule as [`CodeObject::set_code_bytes`]).
    pub fn set_line_table(&mut self, bytes: Vec<u8>) {
        replace_keep_flag(&mut self.linetable, Obj::Bytes(bytes));
    }

    /// Replace the exception table (3.11+; same flag rule as [`CodeObject::set_code_bytes`]).
    pub fn set_exception_table(&mut self, bytes: Vec<u8>) {
        match &mut self.exceptiontable {
            Some(v) => replace_keep_flag(v, Obj::Bytes(bytes)),
            None => self.exceptiontable = Some(Value::bytes(bytes)),
        }
    }

    pub fn set_stacksize(&mut self, stacksize: i32) {
        self.stacksize = stacksize;
    }
}

fn replace_keep_flag(slot: &mut Value, obj: Obj) {
    let flag_ref = slot.is_numbered();
    *slot = Value { obj, flag_ref };
}

// ---------------------------------------------------------------------------------------------
// Back-references

/// The back-reference numbering of a tree: the values with `FLAG_REF`, in stream order.
#[derive(Debug, Clone)]
pub struct RefTable<'a> {
    slots: Vec<&'a Value>,
}

impl<'a> RefTable<'a> {
    /// Number the flagged values of `root` in stream (pre-)order. Iterative: any depth is fine.
    pub fn build(root: &'a Value) -> RefTable<'a> {
        let mut slots = Vec::new();
        let mut stack = vec![root];
        while let Some(v) = stack.pop() {
            if v.is_numbered() {
                slots.push(v);
            }
            stack.extend(v.children().into_iter().rev());
        }
        RefTable { slots }
    }

    /// A table that resolves nothing (every `Ref` stays as it is).
    pub fn empty() -> RefTable<'a> {
        RefTable { slots: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The value numbered `index`.
    pub fn get(&self, index: u32) -> Option<&'a Value> {
        self.slots.get(usize::try_from(index).ok()?).copied()
    }

    /// `v` itself, or the value it refers back to when it is a resolvable `Ref` (one step:
    /// numbered values are never `Ref`s).
    pub fn resolve(&self, v: &'a Value) -> &'a Value {
        match v.obj {
            Obj::Ref(i) => self.get(i).unwrap_or(v),
            _ => v,
        }
    }
}

/// A copy of `root` with every `Ref` replaced by a copy of its target and every `FLAG_REF`
/// cleared: valid marshal data with no sharing, which can be edited freely. Fails on cyclic or
/// unresolvable references, nesting over [`MAX_DEPTH`], or when the copy would exceed
/// `max_nodes` values (sharing can make the unshared tree exponentially larger).
pub fn unshare(root: &Value, version: PyVersion, max_nodes: usize) -> Result<Value, MarshalError> {
    let table = RefTable::build(root);
    let mut w = Writer {
        out: Vec::new(),
        version,
        refs: Vec::new(),
        inline: Some(&table),
        budget: max_nodes,
    };
    w.run(root)?;
    loads(&w.out, version)
}

// ---------------------------------------------------------------------------------------------
// Reading

/// Read exactly one object from `data`: trailing bytes are an error.
pub fn loads(data: &[u8], version: PyVersion) -> Result<Value, MarshalError> {
    let (v, used) = loads_prefix(data, version)?;
    if used != data.len() {
        return Err(MarshalError::TrailingData {
            offset: used,
            len: data.len() - used,
        });
    }
    Ok(v)
}

/// Read one object from the start of `data`; returns it and the number of bytes it took.
pub fn loads_prefix(data: &[u8], version: PyVersion) -> Result<(Value, usize), MarshalError> {
    loads_at(data, 0, version)
}

/// Read one object starting at `data[start..]`, offsets in errors relative to `data`;
/// returns the object and the offset just after it.
pub(crate) fn loads_at(
    data: &[u8],
    start: usize,
    version: PyVersion,
) -> Result<(Value, usize), MarshalError> {
    let mut r = Reader {
        data,
        pos: start,
        version,
        refs: Vec::new(),
    };
    let offset = r.pos;
    let v = r.read_root()?;
    if v.obj == Obj::Null {
        return Err(MarshalError::Null {
            context: "top-level object",
            offset,
        });
    }
    Ok((v, r.pos))
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    version: PyVersion,
    /// One entry per number handed out: whether the value is complete (refs to incomplete
    /// code objects, frozensets and slices are invalid, as in CPython).
    refs: Vec<bool>,
}

impl<'a> Reader<'a> {
    fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    fn take(
        &mut self,
        n: usize,
        what: &'static str,
        offset: usize,
    ) -> Result<&'a [u8], MarshalError> {
        let end = self
            .pos
            .checked_add(n)
            .ok_or(MarshalError::Truncated { what, offset })?;
        let s = self
            .data
            .get(self.pos..end)
            .ok_or(MarshalError::Truncated { what, offset })?;
        self.pos = end;
        Ok(s)
    }

    fn array<const N: usize>(
        &mut self,
        what: &'static str,
        offset: usize,
    ) -> Result<[u8; N], MarshalError> {
        let s = self.take(N, what, offset)?;
        <[u8; N]>::try_from(s).map_err(|_| MarshalError::Truncated { what, offset })
    }

    fn u8(&mut self, what: &'static str, offset: usize) -> Result<u8, MarshalError> {
        Ok(self.array::<1>(what, offset)?[0])
    }

    fn i32(&mut self, what: &'static str, offset: usize) -> Result<i32, MarshalError> {
        Ok(i32::from_le_bytes(self.array(what, offset)?))
    }

    /// A 4-byte length; negative is an error.
    fn size(&mut self, what: &'static str, offset: usize) -> Result<usize, MarshalError> {
        let n = self.i32(what, offset)?;
        usize::try_from(n).map_err(|_| MarshalError::BadSize {
            what,
            size: i64::from(n),
            offset,
        })
    }

    /// Read one object without recursion: open containers live on an explicit stack, so
    /// neither the nesting limit nor hostile input depends on the thread's stack size.
    fn read_root(&mut self) -> Result<Value, MarshalError> {
        let mut stack: Vec<Frame> = Vec::new();
        loop {
            let offset = self.pos;
            let c = self.u8("type code", offset)?;
            if stack.len() >= MAX_DEPTH {
                return Err(MarshalError::TooDeep { offset });
            }
            let mut done = self.start(c, offset, &mut stack)?;
            // Hand finished values to their parents, closing every container that completes.
            while let Some(v) = done.take() {
                let Some(frame) = stack.last_mut() else {
                    return Ok(v);
                };
                if self.accept(frame, v, offset)? {
                    if let Some(f) = stack.pop() {
                        done = Some(self.finish(f));
                    }
                }
            }
        }
    }

    /// After a type byte: a finished value (scalars, empty containers) or a pushed frame.
    fn start(
        &mut self,
        c: u8,
        offset: usize,
        stack: &mut Vec<Frame>,
    ) -> Result<Option<Value>, MarshalError> {
        let flag_ref = c & FLAG_REF != 0;
        let ty = c & !FLAG_REF;
        // A flagged NULL is accepted by CPython but never written by it; refusing it keeps the
        // dict terminator implicit in the model (and so round trips exact).
        if !is_known(ty, self.version) || c == code::NULL | FLAG_REF {
            return Err(MarshalError::UnknownType {
                code: c,
                offset,
                version: self.version,
            });
        }
        let numbered = flag_ref
            && !matches!(
                ty,
                code::NULL
                    | code::NONE
                    | code::FALSE
                    | code::TRUE
                    | code::STOPITER
                    | code::ELLIPSIS
                    | code::REF
            );
        let container = matches!(
            ty,
            code::TUPLE
                | code::SMALL_TUPLE
                | code::LIST
                | code::SET
                | code::FROZENSET
                | code::DICT
                | code::CODE
                | code::SLICE
        );
        if !container {
            let obj = self.scalar(ty, offset)?;
            if numbered {
                self.refs.push(true);
            }
            return Ok(Some(Value { obj, flag_ref }));
        }
        // Containers are numbered before their children. Code objects, frozensets and slices
        // may not be referred to until complete; the rest may (cycles through tuples, lists...).
        let slot = if numbered {
            self.refs
                .push(!matches!(ty, code::CODE | code::FROZENSET | code::SLICE));
            Some(self.refs.len() - 1)
        } else {
            None
        };
        let (want, kind) = match ty {
            code::TUPLE => (self.size("tuple", offset)?, Kind::Seq("tuple")),
            code::SMALL_TUPLE => (
                usize::from(self.u8("small tuple", offset)?),
                Kind::Seq("tuple"),
            ),
            code::LIST => (self.size("list", offset)?, Kind::Seq("list")),
            code::SET | code::FROZENSET => (self.size("set", offset)?, Kind::Seq("set")),
            code::DICT => (usize::MAX, Kind::Dict(Vec::new(), None)),
            code::SLICE => (3, Kind::Seq("slice")),
            _ => {
                let new_layout = self.version >= PyVersion::V3_11;
                let mut ints = [0i32; 7];
                let count = if new_layout { 5 } else { 6 };
                for (i, slot) in ints.iter_mut().enumerate().take(count) {
                    let what = [
                        "code argcount",
                        "code posonlyargcount",
                        "code kwonlyargcount",
                    ]
                    .get(i)
                    .copied()
                    .unwrap_or("code header");
                    *slot = self.i32(what, offset)?;
                }
                (if new_layout { 10 } else { 9 }, Kind::Code(ints))
            }
        };
        let frame = Frame {
            ty,
            flag_ref,
            slot,
            offset,
            want,
            items: Vec::with_capacity(want.min(self.remaining()).min(16)),
            kind,
        };
        if want == 0 {
            return Ok(Some(self.finish(frame)));
        }
        stack.push(frame);
        Ok(None)
    }

    /// Give a finished child to its container; true when the container is complete.
    fn accept(&mut self, f: &mut Frame, v: Value, offset: usize) -> Result<bool, MarshalError> {
        let null = v.obj == Obj::Null;
        match &mut f.kind {
            Kind::Dict(kv, key) => match key.take() {
                None if null => return Ok(true),
                None => *key = Some(v),
                Some(_) if null => {
                    return Err(MarshalError::Null {
                        context: "dict value",
                        offset,
                    })
                }
                Some(k) => kv.push((k, v)),
            },
            Kind::Seq(context) => {
                if null {
                    return Err(MarshalError::Null { context, offset });
                }
                f.items.push(v);
            }
            Kind::Code(ints) => {
                if null {
                    return Err(MarshalError::Null {
                        context: "code object",
                        offset,
                    });
                }
                f.items.push(v);
                // firstlineno follows name (3.8–3.10) or qualname (3.11+): the 8th object.
                if f.items.len() == 8 {
                    ints[6] = self.i32("code firstlineno", f.offset)?;
                }
            }
        }
        Ok(f.items.len() >= f.want)
    }

    /// Build the value of a complete container and mark its number complete.
    fn finish(&mut self, f: Frame) -> Value {
        if let Some(s) = f.slot.and_then(|i| self.refs.get_mut(i)) {
            *s = true;
        }
        let items = f.items;
        let obj = match f.kind {
            Kind::Dict(kv, _) => Obj::Dict(kv),
            Kind::Code(ints) => Obj::Code(Box::new(build_code(ints, items))),
            Kind::Seq(_) => match f.ty {
                code::TUPLE => Obj::Tuple(items),
                code::SMALL_TUPLE => Obj::SmallTuple(items),
                code::LIST => Obj::List(items),
                code::SET => Obj::Set(items),
                code::FROZENSET => Obj::FrozenSet(items),
                _ => {
                    let mut it = items.into_iter();
                    let mut next = || it.next().unwrap_or_else(Value::none);
                    Obj::Slice(Box::new([next(), next(), next()]))
                }
            },
        };
        Value {
            obj,
            flag_ref: f.flag_ref,
        }
    }

    fn float_text(&mut self, offset: usize) -> Result<Vec<u8>, MarshalError> {
        let n = self.u8("float text length", offset)?;
        Ok(self.take(usize::from(n), "float text", offset)?.to_vec())
    }

    fn f64(&mut self, offset: usize) -> Result<f64, MarshalError> {
        Ok(f64::from_le_bytes(self.array("binary float", offset)?))
    }

    #[inline(never)]
    fn scalar(&mut self, ty: u8, offset: usize) -> Result<Obj, MarshalError> {
        Ok(match ty {
            code::NULL => Obj::Null,
            code::NONE => Obj::None,
            code::FALSE => Obj::False,
            code::TRUE => Obj::True,
            code::STOPITER => Obj::StopIteration,
            code::ELLIPSIS => Obj::Ellipsis,
            code::INT => Obj::Int(self.i32("int", offset)?),
            code::INT64 => Obj::Int64(i64::from_le_bytes(self.array("int64", offset)?)),
            code::LONG => Obj::Long(self.long(offset)?),
            code::FLOAT => Obj::FloatText(self.float_text(offset)?),
            code::BINARY_FLOAT => Obj::Float(self.f64(offset)?),
            code::COMPLEX => {
                let re = self.float_text(offset)?;
                Obj::ComplexText(re, self.float_text(offset)?)
            }
            code::BINARY_COMPLEX => {
                let re = self.f64(offset)?;
                Obj::Complex(re, self.f64(offset)?)
            }
            code::STRING => {
                let n = self.size("bytes", offset)?;
                Obj::Bytes(self.take(n, "bytes", offset)?.to_vec())
            }
            code::UNICODE | code::INTERNED => {
                let n = self.size("str", offset)?;
                let data = self.take(n, "str", offset)?;
                if !is_utf8_surrogatepass(data) {
                    return Err(MarshalError::BadUtf8 { offset });
                }
                let kind = if ty == code::UNICODE {
                    StrKind::Unicode
                } else {
                    StrKind::Interned
                };
                Obj::Str(PyStr {
                    kind,
                    data: data.to_vec(),
                })
            }
            code::ASCII | code::ASCII_INTERNED | code::SHORT_ASCII | code::SHORT_ASCII_INTERNED => {
                let (n, kind) = match ty {
                    code::ASCII => (self.size("ascii str", offset)?, StrKind::Ascii),
                    code::ASCII_INTERNED => {
                        (self.size("ascii str", offset)?, StrKind::AsciiInterned)
                    }
                    code::SHORT_ASCII => (
                        usize::from(self.u8("short ascii str", offset)?),
                        StrKind::ShortAscii,
                    ),
                    _ => (
                        usize::from(self.u8("short ascii str", offset)?),
                        StrKind::ShortAsciiInterned,
                    ),
                };
                Obj::Str(PyStr {
                    kind,
                    data: self.take(n, "ascii str", offset)?.to_vec(),
                })
            }
            code::REF => {
                let n = self.i32("ref", offset)?;
                let index = u32::try_from(n)
                    .ok()
                    .filter(|&i| usize::try_from(i).is_ok_and(|i| i < self.refs.len()))
                    .ok_or(MarshalError::RefOutOfRange {
                        index: i64::from(n),
                        available: self.refs.len(),
                        offset,
                    })?;
                let complete = usize::try_from(index)
                    .ok()
                    .and_then(|i| self.refs.get(i))
                    .copied()
                    .unwrap_or(false);
                if !complete {
                    return Err(MarshalError::RefToIncomplete { index, offset });
                }
                Obj::Ref(index)
            }
            _ => {
                return Err(MarshalError::UnknownType {
                    code: ty,
                    offset,
                    version: self.version,
                })
            }
        })
    }

    fn long(&mut self, offset: usize) -> Result<Long, MarshalError> {
        let n = self.i32("long", offset)?;
        if n == i32::MIN {
            return Err(MarshalError::BadSize {
                what: "long",
                size: i64::from(n),
                offset,
            });
        }
        let count = usize::try_from(n.unsigned_abs()).map_err(|_| MarshalError::BadSize {
            what: "long",
            size: i64::from(n),
            offset,
        })?;
        let raw = self.take(count.saturating_mul(2), "long", offset)?;
        let mut digits = Vec::with_capacity(count);
        for (i, pair) in raw.chunks_exact(2).enumerate() {
            let d = u16::from_le_bytes([pair[0], pair[1]]);
            let at = offset + 5 + 2 * i;
            if d >= 0x8000 {
                return Err(MarshalError::LongDigit {
                    digit: d,
                    offset: at,
                });
            }
            digits.push(d);
        }
        if digits.last() == Some(&0) {
            return Err(MarshalError::UnnormalizedLong { offset });
        }
        Ok(Long {
            negative: n < 0,
            digits,
        })
    }
}

/// A container being read.
struct Frame {
    ty: u8,
    flag_ref: bool,
    slot: Option<usize>,
    offset: usize,
    /// How many children complete it (`usize::MAX` for a dict: until NULL).
    want: usize,
    items: Vec<Value>,
    kind: Kind,
}

enum Kind {
    /// Tuple, list, set, frozenset, slice; the context names it in NULL errors.
    Seq(&'static str),
    /// Pairs so far and a key waiting for its value.
    Dict(Vec<(Value, Value)>, Option<Value>),
    /// argcount, posonlyargcount, kwonlyargcount, (nlocals,) stacksize, flags; [6] firstlineno.
    Code([i32; 7]),
}

fn is_known(ty: u8, version: PyVersion) -> bool {
    matches!(
        ty,
        code::NULL
            | code::NONE
            | code::FALSE
            | code::TRUE
            | code::STOPITER
            | code::ELLIPSIS
            | code::INT
            | code::INT64
            | code::LONG
            | code::FLOAT
            | code::BINARY_FLOAT
            | code::COMPLEX
            | code::BINARY_COMPLEX
            | code::STRING
            | code::INTERNED
            | code::UNICODE
            | code::ASCII
            | code::ASCII_INTERNED
            | code::SHORT_ASCII
            | code::SHORT_ASCII_INTERNED
            | code::TUPLE
            | code::SMALL_TUPLE
            | code::LIST
            | code::DICT
            | code::SET
            | code::FROZENSET
            | code::CODE
            | code::REF
    ) || (ty == code::SLICE && version >= PyVersion::V3_14)
}

/// A code object from its header ints and its 9 (3.8–3.10) or 10 (3.11+) object fields.
fn build_code(ints: [i32; 7], items: Vec<Value>) -> CodeObject {
    let new_layout = items.len() == 10;
    let mut it = items.into_iter();
    let mut next = || it.next().unwrap_or_else(Value::none);
    let (code, consts, names) = (next(), next(), next());
    let locals = if new_layout {
        let (names, kinds) = (next(), next());
        CodeLocals::LocalsPlus { names, kinds }
    } else {
        let (varnames, freevars, cellvars) = (next(), next(), next());
        CodeLocals::Split {
            varnames,
            freevars,
            cellvars,
        }
    };
    let (filename, name) = (next(), next());
    let qualname = new_layout.then(&mut next);
    let linetable = next();
    let exceptiontable = new_layout.then(&mut next);
    let [a, p, k, x, y, z, firstlineno] = ints;
    let (nlocals, stacksize, flags) = if new_layout { (0, x, y) } else { (x, y, z) };
    CodeObject {
        argcount: a,
        posonlyargcount: p,
        kwonlyargcount: k,
        nlocals,
        stacksize,
        flags,
        code,
        consts,
        names,
        locals,
        filename,
        name,
        qualname,
        firstlineno,
        linetable,
        exceptiontable,
    }
}

/// UTF-8 as CPython's `surrogatepass` decoder accepts it: like `str::from_utf8`, but encoded
/// surrogates (U+D800..U+DFFF as ED A0..BF xx) are allowed.
fn is_utf8_surrogatepass(mut s: &[u8]) -> bool {
    loop {
        match std::str::from_utf8(s) {
            Ok(_) => return true,
            Err(e) => {
                let bad = e.valid_up_to();
                match s.get(bad..bad + 3) {
                    Some([0xED, b1, b2])
                        if (0xA0..=0xBF).contains(b1) && (0x80..=0xBF).contains(b2) =>
                    {
                        s = s.get(bad + 3..).unwrap_or_default();
                    }
                    _ => return false,
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Writing

/// Write `value` as CPython `version` marshal data, exactly as the model says (type codes,
/// flags and back-references as stored). Fails when the value cannot be read back by that
/// version: a wrong code-object layout, a slice before 3.14, a short form over 255, a `Ref`
/// to nothing or to a value still being written, nesting over [`MAX_DEPTH`].
pub fn dumps(value: &Value, version: PyVersion) -> Result<Vec<u8>, MarshalError> {
    let mut w = Writer {
        out: Vec::new(),
        version,
        refs: Vec::new(),
        inline: None,
        budget: usize::MAX,
    };
    w.run(value)?;
    Ok(w.out)
}

/// What is left to write, on an explicit stack (no recursion, whatever the depth).
enum Task<'a> {
    /// A value at nesting `depth`; `context` set when NULL is not allowed there.
    Value {
        v: &'a Value,
        depth: usize,
        context: Option<&'static str>,
    },
    Int(i32),
    Byte(u8),
    /// The value numbered `slot` is complete.
    Done(usize),
}

struct Writer<'a> {
    out: Vec<u8>,
    version: PyVersion,
    refs: Vec<bool>,
    /// Unsharing: write each `Ref`'s target in its place and no flags.
    inline: Option<&'a RefTable<'a>>,
    budget: usize,
}

fn unwritable(what: impl Into<String>) -> MarshalError {
    MarshalError::Unwritable { what: what.into() }
}

impl<'a> Writer<'a> {
    fn i32(&mut self, v: i32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    fn size(&mut self, n: usize, what: &str) -> Result<(), MarshalError> {
        let n = i32::try_from(n).map_err(|_| unwritable(format!("{what} of {n} items/bytes")))?;
        self.i32(n);
        Ok(())
    }

    fn short(&mut self, n: usize, what: &str) -> Result<(), MarshalError> {
        let n = u8::try_from(n)
            .map_err(|_| unwritable(format!("{what} of length {n} (short form max 255)")))?;
        self.out.push(n);
        Ok(())
    }

    fn run(&mut self, root: &'a Value) -> Result<(), MarshalError> {
        let mut tasks = vec![Task::Value {
            v: root,
            depth: 1,
            context: None,
        }];
        while let Some(t) = tasks.pop() {
            match t {
                Task::Value { v, depth, context } => self.value(v, depth, context, &mut tasks)?,
                Task::Int(i) => self.i32(i),
                Task::Byte(b) => self.out.push(b),
                Task::Done(slot) => {
                    if let Some(s) = self.refs.get_mut(slot) {
                        *s = true;
                    }
                }
            }
        }
        Ok(())
    }

    fn value(
        &mut self,
        v: &'a Value,
        depth: usize,
        context: Option<&'static str>,
        tasks: &mut Vec<Task<'a>>,
    ) -> Result<(), MarshalError> {
        let offset = self.out.len();
        if depth > MAX_DEPTH {
            return Err(MarshalError::TooDeep { offset });
        }
        if let (Some(context), Obj::Null) = (context, &v.obj) {
            return Err(MarshalError::Null { context, offset });
        }
        let (v, flag_ref) = match (self.inline, &v.obj) {
            (Some(table), Obj::Ref(i)) => (
                table
                    .get(*i)
                    .ok_or_else(|| unwritable(format!("ref {i} has no target")))?,
                false,
            ),
            (Some(_), _) => (v, false),
            (None, _) => (v, v.flag_ref),
        };
        self.budget = self
            .budget
            .checked_sub(1)
            .ok_or_else(|| unwritable("unshared tree over its size limit"))?;
        if matches!(v.obj, Obj::Slice(_)) && self.version < PyVersion::V3_14 {
            return Err(unwritable(format!(
                "slice objects need marshal version 5 (3.14), not {}",
                self.version
            )));
        }
        let code = v.obj.type_code();
        self.out.push(if flag_ref { code | FLAG_REF } else { code });
        if flag_ref && v.obj.can_be_numbered() {
            let delayed = matches!(v.obj, Obj::Code(_) | Obj::FrozenSet(_) | Obj::Slice(_));
            self.refs.push(!delayed);
            if delayed {
                tasks.push(Task::Done(self.refs.len() - 1));
            }
        }
        let child = |x: &'a Value, context: &'static str| Task::Value {
            v: x,
            depth: depth + 1,
            context: Some(context),
        };
        match &v.obj {
            Obj::Null | Obj::None | Obj::False | Obj::True | Obj::StopIteration | Obj::Ellipsis => {
            }
            Obj::Int(i) => self.i32(*i),
            Obj::Int64(i) => self.out.extend_from_slice(&i.to_le_bytes()),
            Obj::Long(l) => {
                if l.digits.iter().any(|&d| d >= 0x8000) {
                    return Err(unwritable("long digit not below 2**15"));
                }
                if l.digits.last() == Some(&0) {
                    return Err(unwritable("unnormalized long (top digit zero)"));
                }
                let n = i32::try_from(l.digits.len()).map_err(|_| unwritable("long too large"))?;
                self.i32(if l.negative { -n } else { n });
                for d in &l.digits {
                    self.out.extend_from_slice(&d.to_le_bytes());
                }
            }
            Obj::FloatText(t) => {
                self.short(t.len(), "float text")?;
                self.out.extend_from_slice(t);
            }
            Obj::Float(f) => self.out.extend_from_slice(&f.to_le_bytes()),
            Obj::ComplexText(re, im) => {
                for t in [re, im] {
                    self.short(t.len(), "complex text")?;
                    self.out.extend_from_slice(t);
                }
            }
            Obj::Complex(re, im) => {
                self.out.extend_from_slice(&re.to_le_bytes());
                self.out.extend_from_slice(&im.to_le_bytes());
            }
            Obj::Bytes(b) => {
                self.size(b.len(), "bytes")?;
                self.out.extend_from_slice(b);
            }
            Obj::Str(s) => {
                if s.kind.is_utf8() && !is_utf8_surrogatepass(&s.data) {
                    return Err(MarshalError::BadUtf8 { offset });
                }
                match s.kind {
                    StrKind::ShortAscii | StrKind::ShortAsciiInterned => {
                        self.short(s.data.len(), "short ascii str")?
                    }
                    _ => self.size(s.data.len(), "str")?,
                }
                self.out.extend_from_slice(&s.data);
            }
            Obj::Tuple(items)
            | Obj::SmallTuple(items)
            | Obj::List(items)
            | Obj::Set(items)
            | Obj::FrozenSet(items) => {
                let context = match &v.obj {
                    Obj::Tuple(_) | Obj::SmallTuple(_) => "tuple",
                    Obj::List(_) => "list",
                    _ => "set",
                };
                if matches!(v.obj, Obj::SmallTuple(_)) {
                    self.short(items.len(), "small tuple")?;
                } else {
                    self.size(items.len(), context)?;
                }
                tasks.extend(items.iter().rev().map(|x| child(x, context)));
            }
            Obj::Dict(kv) => {
                tasks.push(Task::Byte(code::NULL));
                for (k, x) in kv.iter().rev() {
                    tasks.push(child(x, "dict value"));
                    tasks.push(child(k, "dict key"));
                }
            }
            Obj::Slice(s) => tasks.extend(s.iter().rev().map(|x| child(x, "slice"))),
            Obj::Code(c) => {
                let new_layout = self.version >= PyVersion::V3_11;
                let layout_ok = match &c.locals {
                    CodeLocals::Split { .. } => {
                        !new_layout && c.qualname.is_none() && c.exceptiontable.is_none()
                    }
                    CodeLocals::LocalsPlus { .. } => {
                        new_layout && c.qualname.is_some() && c.exceptiontable.is_some()
                    }
                };
                if !layout_ok {
                    return Err(unwritable(format!(
                        "code object layout does not match Python {}",
                        self.version
                    )));
                }
                self.i32(c.argcount);
                self.i32(c.posonlyargcount);
                self.i32(c.kwonlyargcount);
                if !new_layout {
                    self.i32(c.nlocals);
                }
                self.i32(c.stacksize);
                self.i32(c.flags);
                let fields = c.object_fields();
                let mut seq: Vec<Task<'a>> = Vec::with_capacity(fields.len() + 1);
                for (i, f) in fields.into_iter().enumerate() {
                    if i == 8 {
                        seq.push(Task::Int(c.firstlineno));
                    }
                    seq.push(child(f, "code object"));
                }
                tasks.extend(seq.into_iter().rev());
            }
            Obj::Ref(i) => {
                let idx = usize::try_from(*i).unwrap_or(usize::MAX);
                match self.refs.get(idx) {
                    None => {
                        return Err(MarshalError::RefOutOfRange {
                            index: i64::from(*i),
                            available: self.refs.len(),
                            offset,
                        })
                    }
                    Some(false) => return Err(MarshalError::RefToIncomplete { index: *i, offset }),
                    Some(true) => {}
                }
                let n = i32::try_from(*i).map_err(|_| unwritable("ref index over 2**31"))?;
                self.i32(n);
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Fuzzing

/// The body of the `marshal_loads` fuzz target (also replayed by `tests/fuzz_corpus.rs`): the
/// first byte picks the version, the rest is read; whatever is accepted must write back to the
/// very same bytes, and the accessors must not panic.
#[doc(hidden)]
pub fn fuzz_entry(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let version = PyVersion::ALL[usize::from(first) % PyVersion::ALL.len()];
    if let Ok((v, used)) = loads_prefix(rest, version) {
        let again = dumps(&v, version);
        assert_eq!(
            again.as_deref().ok(),
            rest.get(..used),
            "loads→dumps not byte-identical"
        );
        exercise(&v, version);
    }
}

/// Touch every accessor of every code object in the tree (must never panic).
#[doc(hidden)]
pub fn exercise(root: &Value, version: PyVersion) {
    let refs = RefTable::build(root);
    let mut stack = vec![root];
    while let Some(v) = stack.pop() {
        let r = refs.resolve(v);
        let _ = (r.as_str(), r.as_i128(), r.as_f64(), r.as_bytes());
        if let Some(c) = v.as_code() {
            let _ = (
                c.code_bytes(&refs),
                c.consts(&refs),
                c.names(&refs),
                c.varnames(&refs),
            );
            let _ = (
                c.cellvars(&refs),
                c.freevars(&refs),
                c.filename(&refs),
                c.name(&refs),
            );
            let _ = (
                c.qualname(&refs),
                c.line_table(&refs),
                c.exception_table(&refs),
            );
        }
        stack.extend(v.children());
    }
    let _ = unshare(root, version, 10_000);
}

#[cfg(test)]
mod tests {
    use super::*;

    const V: PyVersion = PyVersion::V3_12;

    fn rt(bytes: &[u8], version: PyVersion) -> Value {
        let v = loads(bytes, version).unwrap_or_else(|e| panic!("{bytes:02x?}: {e}"));
        assert_eq!(dumps(&v, version).expect("dumps"), bytes, "{v:?}");
        v
    }

    fn obj(bytes: &[u8]) -> Obj {
        rt(bytes, V).obj
    }

    #[test]
    fn singletons() {
        assert_eq!(obj(b"N"), Obj::None);
        assert_eq!(obj(b"F"), Obj::False);
        assert_eq!(obj(b"T"), Obj::True);
        assert_eq!(obj(b"S"), Obj::StopIteration);
        assert_eq!(obj(b"."), Obj::Ellipsis);
        // Flagged singletons keep their flag but take no ref number.
        let v = rt(b"\xa9\x02\xce\xe9\x05\x00\x00\x00", V);
        assert_eq!(RefTable::build(&v).len(), 2);
        assert!(v.as_seq().expect("tuple")[0].flag_ref);
        // A top-level NULL is an error, as in CPython.
        assert!(matches!(loads(b"0", V), Err(MarshalError::Null { .. })));
        assert_eq!(dumps(&Value::new(Obj::Null), V).expect("dumps"), b"0");
    }

    #[test]
    fn ints() {
        assert_eq!(obj(b"i\xff\xff\xff\xff"), Obj::Int(-1));
        assert_eq!(
            obj(b"I\x01\x00\x00\x00\x00\x00\x00\x80"),
            Obj::Int64(i64::MIN + 1)
        );
        // 2**70 and -(2**70) as CPython 3.14 wrote them.
        let big = rt(
            b"l\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x04",
            V,
        );
        assert_eq!(big.as_i128(), Some(1i128 << 70));
        assert_eq!(big.as_i64(), None);
        let neg = rt(
            b"l\xfb\xff\xff\xff\x00\x00\x00\x00\x00\x00\x00\x00\x00\x04",
            V,
        );
        assert_eq!(neg.as_i128(), Some(-(1i128 << 70)));
        assert_eq!(
            obj(b"l\x00\x00\x00\x00"),
            Obj::Long(Long {
                negative: false,
                digits: vec![]
            })
        );
        for x in [
            0i128,
            1,
            -1,
            1 << 31,
            -(1 << 31) - 1,
            i128::MAX,
            i128::MIN,
            12345678901234567890,
        ] {
            let v = Value::int(x);
            assert_eq!(v.as_i128(), Some(x));
            let b = dumps(&v, V).expect("dumps");
            assert_eq!(loads(&b, V).expect("loads").as_i128(), Some(x));
        }
        // A long wider than i128 keeps its digits.
        let mut wide = b"l\x0a\x00\x00\x00".to_vec();
        wide.extend([1u8, 0].repeat(10));
        let w = rt(&wide, V);
        assert_eq!(w.as_i128(), None);
        assert!(matches!(
            loads(b"l\x01\x00\x00\x00\x00\x80", V),
            Err(MarshalError::LongDigit {
                digit: 0x8000,
                offset: 5
            })
        ));
        assert!(matches!(
            loads(b"l\x01\x00\x00\x00\x00\x00", V),
            Err(MarshalError::UnnormalizedLong { .. })
        ));
        assert!(matches!(
            loads(b"l\x00\x00\x00\x80", V),
            Err(MarshalError::BadSize { .. })
        ));
    }

    #[test]
    fn floats_and_complex() {
        let v = rt(b"\xe7\x00\x00\x00\x00\x00\x00\xf8?", V);
        assert_eq!(v.as_f64(), Some(1.5));
        assert!(v.flag_ref);
        assert_eq!(rt(b"f\x031.5", V).as_f64(), Some(1.5));
        assert_eq!(rt(b"f\x04-inf", V).as_f64(), Some(f64::NEG_INFINITY));
        assert_eq!(
            obj(b"x\x011\x03nan"),
            Obj::ComplexText(b"1".to_vec(), b"nan".to_vec())
        );
        let c = obj(b"y\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xf0?");
        assert_eq!(c, Obj::Complex(0.0, 1.0));
        // NaN payloads survive.
        let nan = f64::from_bits(0x7ff8_0000_dead_beef);
        let b = dumps(&Value::new(Obj::Float(nan)), V).expect("dumps");
        let back = loads(&b, V).expect("loads");
        assert!(matches!(back.obj, Obj::Float(f) if f.to_bits() == nan.to_bits()));
    }

    #[test]
    fn strings() {
        assert_eq!(obj(b"s\x02\x00\x00\x00hi"), Obj::Bytes(b"hi".to_vec()));
        let u = rt("u\x02\x00\x00\x00é".as_bytes(), V);
        assert_eq!(u.as_str().as_deref(), Some("é"));
        let t = rt(b"t\x01\x00\x00\x00x", V);
        assert_eq!(t.as_pystr().map(|s| s.kind), Some(StrKind::Interned));
        for (bytes, kind) in [
            (&b"a\x01\x00\x00\x00x"[..], StrKind::Ascii),
            (b"A\x01\x00\x00\x00x", StrKind::AsciiInterned),
            (b"z\x01x", StrKind::ShortAscii),
            (b"Z\x01x", StrKind::ShortAsciiInterned),
        ] {
            let v = rt(bytes, V);
            assert_eq!(v.as_pystr().map(|s| s.kind), Some(kind));
            assert_eq!(v.as_str().as_deref(), Some("x"));
        }
        // A lone surrogate (surrogatepass) is kept as bytes and shown as U+FFFD.
        let s = rt(b"u\x03\x00\x00\x00\xed\xa0\x80", V);
        assert_eq!(s.as_pystr().and_then(PyStr::to_str), None);
        assert_eq!(s.as_str().as_deref(), Some("\u{fffd}\u{fffd}\u{fffd}"));
        assert!(matches!(
            loads(b"u\x01\x00\x00\x00\xff", V),
            Err(MarshalError::BadUtf8 { offset: 0 })
        ));
        // Latin-1 in a one-byte kind.
        assert_eq!(rt(b"z\x01\xe9", V).as_str().as_deref(), Some("é"));
        assert_eq!(Value::str("abc").type_code(), b'z');
        assert_eq!(Value::str(&"a".repeat(300)).type_code(), b'a');
        assert_eq!(Value::str("é").type_code(), b'u');
        assert!(dumps(
            &Value::new(Obj::Str(PyStr {
                kind: StrKind::ShortAscii,
                data: vec![b'a'; 256]
            })),
            V
        )
        .is_err());
    }

    #[test]
    fn containers() {
        assert!(matches!(obj(b"(\x01\x00\x00\x00N"), Obj::Tuple(ref v) if v.len() == 1));
        assert!(matches!(obj(b")\x00"), Obj::SmallTuple(ref v) if v.is_empty()));
        assert!(matches!(obj(b"[\x02\x00\x00\x00NT"), Obj::List(ref v) if v.len() == 2));
        assert!(matches!(obj(b"{NTF.0"), Obj::Dict(ref kv) if kv.len() == 2));
        assert!(matches!(obj(b"<\x01\x00\x00\x00N"), Obj::Set(ref v) if v.len() == 1));
        assert!(matches!(obj(b">\x00\x00\x00\x00"), Obj::FrozenSet(ref v) if v.is_empty()));
        assert!(matches!(
            loads(b")\x010", V),
            Err(MarshalError::Null {
                context: "tuple",
                offset: 2
            })
        ));
        assert!(matches!(
            loads(b"{N0", V),
            Err(MarshalError::Null {
                context: "dict value",
                ..
            })
        ));
        assert!(matches!(
            loads(b"[\xff\xff\xff\xff", V),
            Err(MarshalError::BadSize {
                what: "list",
                size: -1,
                ..
            })
        ));
        // A huge count with little input fails without reserving memory for it.
        assert!(matches!(
            loads(b"(\xff\xff\xff\x7fN", V),
            Err(MarshalError::Truncated { .. })
        ));
        assert!(matches!(
            loads(b"s\xff\xff\xff\x7f", V),
            Err(MarshalError::Truncated {
                what: "bytes",
                offset: 0
            })
        ));
    }

    #[test]
    fn flagged_null_is_refused() {
        // Found by fuzzing: a flagged NULL as dict terminator could not be written back.
        for b in [&b"{\xb0"[..], b"\xfb\xce\xce\xce\xce\xb0", b"\xb0"] {
            assert!(matches!(
                loads(b, V),
                Err(MarshalError::UnknownType { code: 0xb0, .. })
            ));
        }
    }

    #[test]
    fn slice_is_marshal_5_only() {
        // As CPython 3.14 wrote slice(1, None, 3).
        let b = b":\xe9\x01\x00\x00\x00N\xe9\x03\x00\x00\x00";
        let v = rt(b, PyVersion::V3_14);
        assert!(matches!(v.obj, Obj::Slice(_)));
        assert!(matches!(
            loads(b, PyVersion::V3_13),
            Err(MarshalError::UnknownType { code: b':', .. })
        ));
        assert!(dumps(&v, PyVersion::V3_13).is_err());
    }

    #[test]
    fn refs() {
        // (x, x) with x flagged: the second is a ref.
        let v = rt(b")\x02\xfa\x01xr\x00\x00\x00\x00", V);
        let refs = RefTable::build(&v);
        assert_eq!(refs.len(), 1);
        let items = v.as_seq().expect("tuple");
        assert_eq!(items[1].obj, Obj::Ref(0));
        assert_eq!(refs.resolve(&items[1]).as_str().as_deref(), Some("x"));
        // Containers are numbered before their children; a tuple may contain itself.
        let v = rt(b"\xa9\x02\xfa\x01xr\x00\x00\x00\x00", V);
        assert!(matches!(
            RefTable::build(&v).get(0).map(|x| &x.obj),
            Some(Obj::SmallTuple(_))
        ));
        // A ref to a frozenset (or code object) still being read is invalid.
        assert!(matches!(
            loads(b"\xbe\x01\x00\x00\x00r\x00\x00\x00\x00", V),
            Err(MarshalError::RefToIncomplete { .. })
        ));
        assert!(matches!(
            loads(b"r\x00\x00\x00\x00", V),
            Err(MarshalError::RefOutOfRange {
                index: 0,
                available: 0,
                offset: 0
            })
        ));
        assert!(matches!(
            loads(b")\x01r\xff\xff\xff\xff", V),
            Err(MarshalError::RefOutOfRange { index: -1, .. })
        ));
        // A flagged ref keeps its flag and takes no number.
        rt(b")\x03\xfa\x01x\xf2\x00\x00\x00\x00r\x00\x00\x00\x00", V);
        assert!(loads(b")\x03\xfa\x01x\xf2\x00\x00\x00\x00r\x01\x00\x00\x00", V).is_err());
        // dumps checks refs too.
        let bad = Value::tuple(vec![Value::new(Obj::Ref(3))]);
        assert!(matches!(
            dumps(&bad, V),
            Err(MarshalError::RefOutOfRange { index: 3, .. })
        ));
    }

    fn sample_code(version: PyVersion) -> Value {
        let new = version >= PyVersion::V3_11;
        let s = |x: &str| Value::flagged(Obj::Str(PyStr::interned(x)));
        Value::flagged(Obj::Code(Box::new(CodeObject {
            argcount: 1,
            posonlyargcount: 0,
            kwonlyargcount: 0,
            nlocals: if new { 0 } else { 1 },
            stacksize: 2,
            flags: 3,
            code: Value::bytes(vec![1, 2, 3, 4]),
            consts: Value::tuple(vec![Value::none(), Value::int(7)]),
            names: Value::tuple(vec![]),
            locals: if new {
                CodeLocals::LocalsPlus {
                    names: Value::tuple(vec![s("a"), s("c")]),
                    kinds: Value::bytes(vec![CO_FAST_LOCAL, CO_FAST_CELL]),
                }
            } else {
                CodeLocals::Split {
                    varnames: Value::tuple(vec![s("a")]),
                    freevars: Value::tuple(vec![]),
                    cellvars: Value::tuple(vec![s("c")]),
                }
            },
            filename: s("f.py"),
            name: s("f"),
            qualname: new.then(|| Value::new(Obj::Ref(4))),
            firstlineno: 10,
            linetable: Value::flagged(Obj::Bytes(vec![])),
            exceptiontable: new.then(|| Value::new(Obj::Ref(5))),
        })))
    }

    #[test]
    fn code_objects_every_version() {
        for v in PyVersion::ALL {
            let code = sample_code(v);
            let b = dumps(&code, v).expect("dumps");
            let back = rt(&b, v);
            assert_eq!(back, code);
            let refs = RefTable::build(&back);
            let c = back.as_code().expect("code");
            assert_eq!(c.code_bytes(&refs), Some(&[1u8, 2, 3, 4][..]));
            assert_eq!(c.varnames(&refs), Some(vec!["a".to_string()]));
            assert_eq!(c.cellvars(&refs), Some(vec!["c".to_string()]));
            assert_eq!(c.freevars(&refs), Some(vec![]));
            assert_eq!(c.name(&refs).as_deref(), Some("f"));
            assert_eq!(c.filename(&refs).as_deref(), Some("f.py"));
            assert_eq!(c.line_table(&refs), Some(&[][..]));
            if v.has_exception_table() {
                assert_eq!(c.qualname(&refs).as_deref(), Some("f"));
                assert_eq!(c.exception_table(&refs), Some(&[][..]));
            } else {
                assert_eq!(c.qualname(&refs), None);
            }
            // The other generation's layout is refused.
            let other = if v.has_exception_table() {
                PyVersion::V3_10
            } else {
                PyVersion::V3_11
            };
            assert!(matches!(
                dumps(&code, other),
                Err(MarshalError::Unwritable { .. })
            ));
            // A ref to the code object from inside itself is refused.
            let mut selfref = code.clone();
            if let Some(c) = selfref.as_code_mut() {
                c.consts = Value::tuple(vec![Value::new(Obj::Ref(0))]);
            }
            let b = dumps(&selfref, v);
            assert!(matches!(
                b,
                Err(MarshalError::RefToIncomplete { index: 0, .. })
            ));
        }
    }

    fn rich_sample() -> Vec<u8> {
        let mut items = vec![
            Value::none(),
            Value::new(Obj::True),
            Value::int(-5),
            Value::int(1 << 80),
            Value::new(Obj::Float(2.5)),
            Value::new(Obj::FloatText(b"2.5".to_vec())),
            Value::new(Obj::Complex(1.0, 2.0)),
            Value::new(Obj::ComplexText(b"1".to_vec(), b"2".to_vec())),
            Value::bytes(b"abc".to_vec()),
            Value::flagged(Obj::Str(PyStr::new("héllo"))),
            Value::new(Obj::Ref(0)),
            Value::new(Obj::List(vec![Value::int(1)])),
            Value::new(Obj::Dict(vec![(Value::str("k"), Value::int(2))])),
            Value::new(Obj::Set(vec![Value::int(3)])),
            Value::new(Obj::FrozenSet(vec![Value::int(4)])),
            Value::new(Obj::Tuple(vec![Value::str(&"z".repeat(300))])),
            Value::new(Obj::Int64(1)),
        ];
        items.push(sample_code(PyVersion::V3_14));
        items.push(Value::new(Obj::Slice(Box::new([
            Value::none(),
            Value::int(1),
            Value::none(),
        ]))));
        dumps(&Value::tuple(items), PyVersion::V3_14).expect("dumps")
    }

    #[test]
    fn every_truncation_is_an_error() {
        let b = rich_sample();
        rt(&b, PyVersion::V3_14);
        for n in 0..b.len() {
            let e = loads(&b[..n], PyVersion::V3_14).expect_err("truncated input must fail");
            assert!(
                matches!(e, MarshalError::Truncated { .. }),
                "prefix {n}: {e}"
            );
            assert!(!e.to_string().is_empty());
        }
        let e = loads(&[b.as_slice(), b"N"].concat(), PyVersion::V3_14).expect_err("trailing");
        assert_eq!(
            e,
            MarshalError::TrailingData {
                offset: b.len(),
                len: 1
            }
        );
        assert_eq!(
            loads_prefix(&[b.as_slice(), b"N"].concat(), PyVersion::V3_14)
                .expect("prefix")
                .1,
            b.len()
        );
    }

    #[test]
    fn depth_limit() {
        let nest = |n: usize| {
            let mut b = b")\x01".repeat(n);
            b.push(b'N');
            b
        };
        // MAX_DEPTH objects on the path (MAX_DEPTH - 1 tuples and None) are fine.
        let ok = nest(MAX_DEPTH - 1);
        let v = rt(&ok, V);
        let deep = nest(MAX_DEPTH);
        assert!(
            matches!(loads(&deep, V), Err(MarshalError::TooDeep { offset }) if offset == 2 * MAX_DEPTH)
        );
        let mut too_deep = v;
        too_deep = Value::tuple(vec![too_deep]);
        assert!(matches!(
            dumps(&too_deep, V),
            Err(MarshalError::TooDeep { .. })
        ));
        // Far deeper input: still an error, no stack overflow.
        assert!(loads(&b"[\x01\x00\x00\x00".repeat(100_000), V).is_err());
    }

    #[test]
    fn unknown_codes_and_messages() {
        let e = loads(b"\x7f", V).expect_err("unknown");
        assert_eq!(
            e.to_string(),
            "unknown type code 0x7f at offset 0 (marshal for Python 3.12)"
        );
        assert_eq!(
            loads(b"l\x01\x00", V).expect_err("truncated").to_string(),
            "truncated long at offset 0"
        );
        assert_eq!(
            loads(b")\x01r\x63\x00\x00\x00", V)
                .expect_err("ref")
                .to_string(),
            "ref 99 out of range (0 refs so far) at offset 2"
        );
        for c in 0..=255u8 {
            let _ = loads(&[c], V);
            let _ = loads(&[c, 0, 0, 0, 0], V);
        }
    }

    #[test]
    fn unshare_limits() {
        // x = (); then a tuple of 40 refs to a tuple of 40 refs ... grows fast.
        let mut b = b"\xa9\x00".to_vec();
        let mut level = vec![0u8; 0];
        level.extend(b"\xa9\x28");
        level.extend(b"r\x00\x00\x00\x00".repeat(40));
        let mut v = b")\x02".to_vec();
        v.extend(&b);
        v.extend(&level);
        let val = loads(&v, V).expect("loads");
        assert!(unshare(&val, V, 1000).is_ok());
        assert!(unshare(&val, V, 10).is_err());
        b.clear();
    }

    #[test]
    fn fuzz_entry_accepts_anything() {
        fuzz_entry(&[]);
        fuzz_entry(&[5]);
        let mut d = vec![6];
        d.extend(rich_sample());
        fuzz_entry(&d);
    }
}
