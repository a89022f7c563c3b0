//! `.pyc` files of CPython 3.8–3.14: a 16-byte header and a marshalled code object.
//!
//! Header (PEP 552): magic (2 bytes little-endian + `\r\n`), a flags word, then either the
//! source mtime and size (flags 0) or an 8-byte source hash (flag bit 0, bit 1 = check_source).

use std::fmt;

use crate::marshal::{self, MarshalError, Obj, Value};
use crate::PyVersion;

/// The header length of every supported version.
pub const HEADER_LEN: usize = 16;

/// How the pyc is tied to its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PycSource {
    /// Flags 0: the source's mtime and size (mod 2**32).
    Timestamp { mtime: u32, source_size: u32 },
    /// Flag bit 0: a SipHash of the source; `check_source` is flag bit 1.
    Hash { check_source: bool, hash: [u8; 8] },
}

/// A parsed `.pyc`.
#[derive(Clone, Debug, PartialEq)]
pub struct Pyc {
    pub version: PyVersion,
    /// The exact magic number (any of the version's development range).
    pub magic: u16,
    pub source: PycSource,
    /// The module's code object.
    pub code: Value,
    /// Bytes after the marshalled object (CPython ignores them; kept for byte-identity).
    pub trailing: Vec<u8>,
}

/// Why [`read`] or [`write`] failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PycError {
    /// Fewer than 16 bytes.
    TruncatedHeader { len: usize },
    /// Not a CPython 3.8–3.14 magic (`raw` are the first four bytes).
    BadMagic { raw: [u8; 4] },
    /// A flags word with bits other than 0 and 1, or bit 1 without bit 0.
    BadFlags { flags: u32 },
    /// The marshalled payload is bad; offsets are from the start of the file.
    Marshal(MarshalError),
    /// The payload is not a code object.
    NotCode { type_code: u8 },
    /// [`write`]: the magic does not belong to `version`.
    MagicMismatch { magic: u16, version: PyVersion },
}

impl fmt::Display for PycError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PycError::TruncatedHeader { len } => {
                write!(f, "truncated pyc header: {len} bytes, need {HEADER_LEN}")
            }
            PycError::BadMagic { raw } => {
                let magic = u16::from_le_bytes([raw[0], raw[1]]);
                write!(
                    f,
                    "bad magic {magic} ({raw:02x?}) at offset 0 (not CPython 3.8–3.14)"
                )
            }
            PycError::BadFlags { flags } => write!(f, "bad pyc flags {flags:#x} at offset 4"),
            PycError::Marshal(e) => write!(f, "pyc payload: {e}"),
            PycError::NotCode { type_code } => {
                write!(f, "pyc payload at offset {HEADER_LEN} is type {type_code:#04x}, expected a code object")
            }
            PycError::MagicMismatch { magic, version } => {
                write!(f, "magic {magic} does not belong to Python {version}")
            }
        }
    }
}

impl std::error::Error for PycError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PycError::Marshal(e) => Some(e),
            _ => None,
        }
    }
}

impl From<MarshalError> for PycError {
    fn from(e: MarshalError) -> Self {
        PycError::Marshal(e)
    }
}

impl Pyc {
    /// A timestamp-based pyc with the version's release magic.
    pub fn new(version: PyVersion, code: Value, mtime: u32, source_size: u32) -> Pyc {
        Pyc {
            version,
            magic: version.info().magic,
            source: PycSource::Timestamp { mtime, source_size },
            code,
            trailing: Vec::new(),
        }
    }

    /// The header's flags word.
    pub fn flags(&self) -> u32 {
        match self.source {
            PycSource::Timestamp { .. } => 0,
            PycSource::Hash { check_source, .. } => 1 | (u32::from(check_source) << 1),
        }
    }

    pub fn header(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        let [m0, m1] = self.magic.to_le_bytes();
        let tail: [u8; 8] = match self.source {
            PycSource::Timestamp { mtime, source_size } => {
                let mut t = [0u8; 8];
                t[..4].copy_from_slice(&mtime.to_le_bytes());
                t[4..].copy_from_slice(&source_size.to_le_bytes());
                t
            }
            PycSource::Hash { hash, .. } => hash,
        };
        h[..4].copy_from_slice(&[m0, m1, b'\r', b'\n']);
        h[4..8].copy_from_slice(&self.flags().to_le_bytes());
        h[8..].copy_from_slice(&tail);
        h
    }
}

fn word(data: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    if let Some(s) = data.get(at..at + 4) {
        b.copy_from_slice(s);
    }
    u32::from_le_bytes(b)
}

/// Parse a `.pyc`.
pub fn read(data: &[u8]) -> Result<Pyc, PycError> {
    let header = data
        .get(..HEADER_LEN)
        .ok_or(PycError::TruncatedHeader { len: data.len() })?;
    let raw = [header[0], header[1], header[2], header[3]];
    let magic = u16::from_le_bytes([raw[0], raw[1]]);
    let version = PyVersion::from_magic(magic)
        .filter(|_| raw[2..] == *b"\r\n")
        .ok_or(PycError::BadMagic { raw })?;
    let flags = word(data, 4);
    let source = match flags {
        0 => PycSource::Timestamp {
            mtime: word(data, 8),
            source_size: word(data, 12),
        },
        1 | 3 => {
            let mut hash = [0u8; 8];
            hash.copy_from_slice(&header[8..]);
            PycSource::Hash {
                check_source: flags == 3,
                hash,
            }
        }
        _ => return Err(PycError::BadFlags { flags }),
    };
    let (code, end) = marshal::loads_at(data, HEADER_LEN, version)?;
    if !matches!(code.obj, Obj::Code(_)) {
        return Err(PycError::NotCode {
            type_code: code.type_code(),
        });
    }
    let trailing = data.get(end..).unwrap_or_default().to_vec();
    Ok(Pyc {
        version,
        magic,
        source,
        code,
        trailing,
    })
}

/// Serialize a `.pyc` (header, marshalled code, trailing bytes).
pub fn write(pyc: &Pyc) -> Result<Vec<u8>, PycError> {
    if PyVersion::from_magic(pyc.magic) != Some(pyc.version) {
        return Err(PycError::MagicMismatch {
            magic: pyc.magic,
            version: pyc.version,
        });
    }
    let mut out = pyc.header().to_vec();
    out.extend(marshal::dumps(&pyc.code, pyc.version)?);
    out.extend_from_slice(&pyc.trailing);
    Ok(out)
}

/// The body of the `pyc_read` fuzz target (also replayed by `tests/fuzz_corpus.rs`): whatever
/// [`read`] accepts must [`write`] back to the same bytes.
#[doc(hidden)]
pub fn fuzz_entry(data: &[u8]) {
    if let Ok(pyc) = read(data) {
        let again = write(&pyc);
        assert_eq!(
            again.as_deref().ok(),
            Some(data),
            "pyc read→write not byte-identical"
        );
        marshal::exercise(&pyc.code, pyc.version);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::marshal::{dumps, CodeLocals, CodeObject};

    fn module(version: PyVersion) -> Value {
        let new = version.has_exception_table();
        let t = || Value::tuple(vec![]);
        Value::new(Obj::Code(Box::new(CodeObject {
            argcount: 0,
            posonlyargcount: 0,
            kwonlyargcount: 0,
            nlocals: 0,
            stacksize: 1,
            flags: 0,
            code: Value::bytes(vec![100, 0, 83, 0]),
            consts: Value::tuple(vec![Value::none()]),
            names: t(),
            locals: if new {
                CodeLocals::LocalsPlus {
                    names: t(),
                    kinds: Value::bytes(vec![]),
                }
            } else {
                CodeLocals::Split {
                    varnames: t(),
                    freevars: t(),
                    cellvars: t(),
                }
            },
            filename: Value::str("m.py"),
            name: Value::str("<module>"),
            qualname: new.then(|| Value::str("<module>")),
            firstlineno: 1,
            linetable: Value::bytes(vec![]),
            exceptiontable: new.then(|| Value::bytes(vec![])),
        })))
    }

    #[test]
    fn write_read_every_version_and_header_kind() {
        for v in PyVersion::ALL {
            let mut p = Pyc::new(v, module(v), 1_700_000_000, 42);
            let b = write(&p).expect("write");
            assert_eq!(
                &b[..4],
                &[
                    v.info().magic.to_le_bytes()[0],
                    v.info().magic.to_le_bytes()[1],
                    13,
                    10
                ]
            );
            assert_eq!(read(&b).expect("read"), p);
            p.source = PycSource::Hash {
                check_source: true,
                hash: *b"12345678",
            };
            p.trailing = b"junk".to_vec();
            let b = write(&p).expect("write");
            assert_eq!(&b[4..8], &[3, 0, 0, 0]);
            assert_eq!(read(&b).expect("read"), p);
        }
    }

    #[test]
    fn header_errors() {
        let v = PyVersion::V3_12;
        let good = write(&Pyc::new(v, module(v), 0, 0)).expect("write");
        for n in 0..HEADER_LEN {
            assert_eq!(read(&good[..n]), Err(PycError::TruncatedHeader { len: n }));
        }
        for n in HEADER_LEN..good.len() {
            assert!(matches!(
                read(&good[..n]),
                Err(PycError::Marshal(MarshalError::Truncated { .. }))
            ));
        }
        let mut bad = good.clone();
        bad[0..2].copy_from_slice(&3399u16.to_le_bytes());
        let e = read(&bad).expect_err("magic");
        assert!(e.to_string().starts_with("bad magic 3399"), "{e}");
        let mut bad = good.clone();
        bad[3] = b'x';
        assert!(matches!(read(&bad), Err(PycError::BadMagic { .. })));
        for flags in [2u8, 4, 0x80] {
            let mut bad = good.clone();
            bad[4] = flags;
            assert!(matches!(read(&bad), Err(PycError::BadFlags { .. })));
        }
        let mut not_code = good[..HEADER_LEN].to_vec();
        not_code.extend(dumps(&Value::none(), v).expect("dumps"));
        assert_eq!(read(&not_code), Err(PycError::NotCode { type_code: b'N' }));
        // Marshal errors carry file offsets.
        let mut unknown = good[..HEADER_LEN].to_vec();
        unknown.push(0x7f);
        let e = read(&unknown).expect_err("unknown type");
        assert!(e.to_string().contains("at offset 16"), "{e}");
        let mut p = read(&good).expect("read");
        p.magic = PyVersion::V3_11.info().magic;
        assert!(matches!(write(&p), Err(PycError::MagicMismatch { .. })));
        // Any magic of the version's development range is accepted and kept.
        let mut dev = good.clone();
        dev[0..2].copy_from_slice(&3500u16.to_le_bytes());
        assert_eq!(write(&read(&dev).expect("read")).expect("write"), dev);
    }

    #[test]
    fn fuzz_entry_smoke() {
        fuzz_entry(&[]);
        fuzz_entry(
            &write(&Pyc::new(PyVersion::V3_8, module(PyVersion::V3_8), 1, 2)).expect("write"),
        );
    }
}
