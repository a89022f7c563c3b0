//! The CPython versions framejit reads and writes, and the per-version facts that are not opcodes.

use std::fmt;

/// A CPython minor version whose bytecode this crate understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PyVersion {
    V3_8,
    V3_9,
    V3_10,
    V3_11,
    V3_12,
    V3_13,
    V3_14,
}

/// Facts about one version, kept as data: one row per version in [`VERSIONS`].
#[derive(Debug)]
pub struct VersionInfo {
    pub version: PyVersion,
    pub minor: u8,
    /// The `.pyc` magic number of the final release (`importlib.util.MAGIC_NUMBER`, little-endian u16).
    pub magic: u16,
    /// Every magic number CPython assigned during this version's development (alphas and betas included).
    pub magic_range: (u16, u16),
    /// The marshal format version `marshal.version` of that release.
    pub marshal_version: u8,
    /// Whether the compiler's stack sizing counts code that the final bytecode no longer reaches.
    /// 3.11+ size the stack while a handler is still reachable and only then drop exception-table
    /// entries whose range was optimised to nothing; 3.8-3.10 never visit unreachable code.
    pub sizes_dead_code: bool,
    /// The least `co_stacksize` the compiler gives. 3.13+ size the implicit `return None` at the end
    /// of every body before removing it when unreachable, so a stack is never smaller than 1.
    pub min_stacksize: u32,
    /// Whether the compiler reads `not (a in b)` / `not (a is b)` as `a not in b` / `a is not b`
    /// before choosing jumps (the AST optimiser's fold, through 3.13). 3.14 folds only values: a
    /// test `if not a in b:` keeps `in` and jumps the other way, so a jump's sense and the
    /// comparison's operator are two facts the source must both keep.
    pub folds_not_in_tests: bool,
    /// Whether a test `x is None` / `x is not None` compiles to a jump on `None`
    /// (`POP_JUMP_*IF_NONE`, 3.11+), the same whichever of the two is written.
    pub jumps_on_none: bool,
}

pub const VERSIONS: [VersionInfo; 7] = [
    VersionInfo {
        version: PyVersion::V3_8,
        minor: 8,
        magic: 3413,
        magic_range: (3400, 3419),
        marshal_version: 4,
        sizes_dead_code: false,
        jumps_on_none: false,
        folds_not_in_tests: true,
        min_stacksize: 0,
    },
    VersionInfo {
        version: PyVersion::V3_9,
        minor: 9,
        magic: 3425,
        magic_range: (3420, 3429),
        marshal_version: 4,
        sizes_dead_code: false,
        jumps_on_none: false,
        folds_not_in_tests: true,
        min_stacksize: 0,
    },
    VersionInfo {
        version: PyVersion::V3_10,
        minor: 10,
        magic: 3439,
        magic_range: (3430, 3449),
        marshal_version: 4,
        sizes_dead_code: false,
        jumps_on_none: false,
        folds_not_in_tests: true,
        min_stacksize: 0,
    },
    VersionInfo {
        version: PyVersion::V3_11,
        minor: 11,
        magic: 3495,
        magic_range: (3450, 3499),
        marshal_version: 4,
        sizes_dead_code: true,
        jumps_on_none: true,
        folds_not_in_tests: true,
        min_stacksize: 0,
    },
    VersionInfo {
        version: PyVersion::V3_12,
        minor: 12,
        magic: 3531,
        magic_range: (3500, 3549),
        marshal_version: 4,
        sizes_dead_code: true,
        jumps_on_none: true,
        folds_not_in_tests: true,
        min_stacksize: 0,
    },
    VersionInfo {
        version: PyVersion::V3_13,
        minor: 13,
        magic: 3571,
        magic_range: (3550, 3599),
        marshal_version: 4,
        sizes_dead_code: true,
        jumps_on_none: true,
        folds_not_in_tests: true,
        min_stacksize: 1,
    },
    VersionInfo {
        version: PyVersion::V3_14,
        minor: 14,
        magic: 3627,
        magic_range: (3600, 3649),
        marshal_version: 5,
        sizes_dead_code: true,
        jumps_on_none: true,
        folds_not_in_tests: false,
        min_stacksize: 1,
    },
];

impl PyVersion {
    pub const ALL: [PyVersion; 7] = [
        PyVersion::V3_8,
        PyVersion::V3_9,
        PyVersion::V3_10,
        PyVersion::V3_11,
        PyVersion::V3_12,
        PyVersion::V3_13,
        PyVersion::V3_14,
    ];

    pub fn info(self) -> &'static VersionInfo {
        &VERSIONS[self as usize]
    }

    pub fn minor(self) -> u8 {
        self.info().minor
    }

    /// `PyVersion` for `3.minor`, if supported.
    pub fn from_minor(minor: u8) -> Option<PyVersion> {
        VERSIONS
            .iter()
            .find(|v| v.minor == minor)
            .map(|v| v.version)
    }

    /// The version a `.pyc` magic number belongs to.
    pub fn from_magic(magic: u16) -> Option<PyVersion> {
        VERSIONS
            .iter()
            .find(|v| (v.magic_range.0..=v.magic_range.1).contains(&magic))
            .map(|v| v.version)
    }

    /// Parse `"3.11"` (or `"3.11.7"`).
    pub fn parse(s: &str) -> Option<PyVersion> {
        let mut parts = s.split('.');
        if parts.next()? != "3" {
            return None;
        }
        PyVersion::from_minor(parts.next()?.parse().ok()?)
    }

    /// 3.11 and later: exception table, location table, inline caches, localsplus.
    pub fn has_exception_table(self) -> bool {
        self >= PyVersion::V3_11
    }
}

impl fmt::Display for PyVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "3.{}", self.minor())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_in_enum_order() {
        for (i, v) in PyVersion::ALL.iter().enumerate() {
            assert_eq!(VERSIONS[i].version, *v);
        }
    }

    #[test]
    fn magic_lookup() {
        for v in PyVersion::ALL {
            assert_eq!(PyVersion::from_magic(v.info().magic), Some(v));
        }
        assert_eq!(PyVersion::from_magic(3399), None);
        assert_eq!(PyVersion::parse("3.11.7"), Some(PyVersion::V3_11));
        assert_eq!(PyVersion::parse("2.7"), None);
    }
}
