//! Line tables and exception tables against what CPython wrote and reported.
//!
//! The dumps are written by `tools/dump_tables.py` (see its docstring for the format). For every
//! code object: decoding the line table gives the per-code-unit locations the interpreter itself
//! reported, re-encoding them per instruction gives CPython's bytes back, and the exception table
//! decodes and re-encodes to the same bytes.
//!
//! `tables_fixtures` runs on the small checked-in fixtures under `fixtures/tables/`;
//! `tables_stdlib_dumps` (ignored) on whole-stdlib dumps named by `FRAMEJIT_TABLES_DUMPS`
//! (paths separated by `:`), e.g.
//! `FRAMEJIT_TABLES_DUMPS=/tmp/tables/dump38.txt:/tmp/tables/dump311.txt cargo test --release
//! -p framejit-bytecode --test tables_roundtrip -- --ignored --nocapture`.

use std::collections::BTreeMap;
use std::path::Path;

use framejit_bytecode::exceptiontable::{decode_exception_table, encode_exception_table};
use framejit_bytecode::linetable::{
    decode_lnotab_starts, decode_locations, encode_lnotab_with_starts, encode_locations, Location,
};
use framejit_bytecode::PyVersion;

struct Record {
    file: String,
    qualname: String,
    firstlineno: i32,
    code_units: usize,
    sizes: Vec<u32>,
    linetable: Vec<u8>,
    exceptiontable: Option<Vec<u8>>,
    locations: Vec<Location>,
}

fn hex(s: &str) -> Vec<u8> {
    if s == "-" {
        return Vec::new();
    }
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// `S` or `SxN` (N instructions of size S), comma-separated.
fn parse_sizes(s: &str) -> Vec<u32> {
    let mut out = Vec::new();
    if s == "-" {
        return out;
    }
    for item in s.split(',') {
        let (size, n) = item.split_once('x').unwrap_or((item, "1"));
        let size: u32 = size.parse().expect("size");
        out.extend(std::iter::repeat_n(size, n.parse().expect("count")));
    }
    out
}

fn opt(s: &str) -> Option<i32> {
    if s == "_" {
        None
    } else {
        Some(s.parse().expect("int"))
    }
}

fn parse_dump(text: &str) -> (PyVersion, Vec<Record>) {
    let mut lines = text.lines();
    let header = lines.next().expect("header");
    let version =
        PyVersion::parse(header.trim_start_matches('#').trim()).expect("version in header");
    let mut file = String::new();
    let mut out = Vec::new();
    for line in lines {
        if let Some(f) = line.strip_prefix("#file ") {
            file = f.to_string();
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 7, "bad record: {line}");
        let mut locations = Vec::new();
        if f[6] != "-" {
            for run in f[6].split(',') {
                let p: Vec<&str> = run.split(':').collect();
                let n: usize = p[0].parse().expect("count");
                let loc = Location {
                    line: opt(p[1]),
                    end_line: opt(p[2]),
                    col: opt(p[3]),
                    end_col: opt(p[4]),
                };
                locations.extend(std::iter::repeat_n(loc, n));
            }
        }
        out.push(Record {
            file: file.clone(),
            qualname: f[0].to_string(),
            firstlineno: f[1].parse().expect("firstlineno"),
            code_units: f[2].parse().expect("code units"),
            sizes: parse_sizes(f[3]),
            linetable: hex(f[4]),
            exceptiontable: version.has_exception_table().then(|| hex(f[5])),
            locations,
        });
    }
    (version, out)
}

#[derive(Default, Debug)]
struct Stats {
    codes: usize,
    decoded: usize,
    lines_identical: usize,
    lines_identical_with_starts: usize,
    exceptions_identical: usize,
    failures: BTreeMap<&'static str, (usize, String)>,
}

impl Stats {
    /// Failures other than the classified 3.8/3.9 residue.
    fn unexplained(&self) -> usize {
        self.failures
            .iter()
            .filter(|(k, _)| !k.starts_with("lnotab residue"))
            .map(|(_, v)| v.0)
            .sum()
    }

    fn fail(&mut self, kind: &'static str, r: &Record, detail: String) {
        let e = self.failures.entry(kind).or_insert((0, String::new()));
        if e.0 == 0 {
            e.1 = format!(
                "{}:{} (firstlineno {}): {detail}",
                r.file, r.qualname, r.firstlineno
            );
        }
        e.0 += 1;
    }
}

/// 3.8/3.9 tables that no encoder fed the line of each instruction can reproduce (`with_starts`:
/// and the line starts the table shows): pairs left behind by the peephole optimizer, which
/// removes instructions after the table is written and only shrinks the bytecode deltas, and
/// (without starts) 3.8's pairs that leave the line unchanged. Returns why, or `None`.
fn lnotab_residue(
    version: PyVersion,
    table: &[u8],
    code_units: usize,
    with_starts: bool,
) -> Option<&'static str> {
    if version > PyVersion::V3_9 {
        return None;
    }
    let why = lnotab_residue_kind(table, code_units, with_starts)?;
    Some(if with_starts { why.1 } else { why.0 })
}

fn lnotab_residue_kind(
    table: &[u8],
    code_units: usize,
    with_starts: bool,
) -> Option<(&'static str, &'static str)> {
    let pairs: Vec<(u8, i8)> = table.chunks_exact(2).map(|p| (p[0], p[1] as i8)).collect();
    let bytes: usize = pairs.iter().map(|p| usize::from(p.0)).sum();
    if bytes >= 2 * code_units && pairs.last().is_some_and(|p| p.1 != 0) {
        return Some((
            "lnotab residue: line change at the end of the code (instructions removed after the table was written)",
            "lnotab residue, with starts: line change at the end of the code",
        ));
    }
    for (i, &(b, d)) in pairs.iter().enumerate() {
        if d == 0 && b != 255 && !with_starts {
            return Some((
                "lnotab residue: pair that leaves the line unchanged (3.8 line start)",
                "",
            ));
        }
        let after_split =
            i > 0 && (matches!(pairs[i - 1].1, 127 | -128) || pairs[i - 1] == (255, 0));
        if b == 0 && i > 0 && !after_split {
            return Some((
                "lnotab residue: empty range (instructions removed after the table was written)",
                "lnotab residue, with starts: empty range",
            ));
        }
    }
    None
}

fn check(version: PyVersion, records: &[Record]) -> Stats {
    let mut st = Stats::default();
    for r in records {
        st.codes += 1;
        assert_eq!(
            r.sizes.iter().map(|&s| s as usize).sum::<usize>(),
            r.code_units,
            "{}",
            r.qualname
        );
        match decode_locations(version, &r.linetable, r.firstlineno, r.code_units) {
            Ok(locs) if locs == r.locations => st.decoded += 1,
            Ok(locs) => {
                let at = locs.iter().zip(&r.locations).position(|(a, b)| a != b);
                st.fail(
                    "decode differs",
                    r,
                    format!("first difference at unit {at:?}"),
                );
            }
            Err(e) => st.fail("decode error", r, e.to_string()),
        }
        // Re-encode from what the interpreter reported, location of each instruction at its first unit.
        let mut instrs = Vec::with_capacity(r.sizes.len());
        let mut unit = 0usize;
        for &size in &r.sizes {
            instrs.push((size, r.locations.get(unit).copied().unwrap_or_default()));
            unit += size as usize;
        }
        let table = encode_locations(version, r.firstlineno, &instrs);
        if table == r.linetable {
            st.lines_identical += 1;
        } else {
            let at = table.iter().zip(&r.linetable).position(|(a, b)| a != b);
            st.fail(
                lnotab_residue(version, &r.linetable, r.code_units, false)
                    .unwrap_or("line table differs"),
                r,
                format!(
                    "first difference at byte {at:?}\n  cpython {:02x?}\n  ours    {:02x?}",
                    r.linetable, table
                ),
            );
        }
        // 3.8/3.9: with the line starts the table shows, as an assembler re-encoding it would.
        if version <= PyVersion::V3_9 {
            let starts = decode_lnotab_starts(&r.linetable, r.code_units).expect("starts");
            let mut unit = 0usize;
            let marked: Vec<_> = instrs
                .iter()
                .map(|&(size, loc)| {
                    let start = starts.get(unit).copied().unwrap_or(false);
                    unit += size as usize;
                    (size, loc, start)
                })
                .collect();
            let table = encode_lnotab_with_starts(version, r.firstlineno, &marked);
            if table == r.linetable {
                st.lines_identical_with_starts += 1;
            } else {
                st.fail(
                    lnotab_residue(version, &r.linetable, r.code_units, true)
                        .unwrap_or("line table with starts differs"),
                    r,
                    format!(
                        "with starts\n  cpython {:02x?}\n  ours    {:02x?}",
                        r.linetable, table
                    ),
                );
            }
        }
        if let Some(exc) = &r.exceptiontable {
            match decode_exception_table(exc) {
                Ok(entries) if encode_exception_table(&entries) == *exc => {
                    st.exceptions_identical += 1
                }
                Ok(_) => st.fail("exception table differs", r, format!("{exc:02x?}")),
                Err(e) => st.fail("exception table error", r, e.to_string()),
            }
        }
    }
    st
}

fn report(path: &Path) -> (PyVersion, Stats) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (version, records) = parse_dump(&text);
    let st = check(version, &records);
    println!(
        "{version} {}: {} code objects, decoded {}, line tables identical {} (with line starts {}), exception tables identical {}",
        path.display(),
        st.codes,
        st.decoded,
        st.lines_identical,
        if version <= PyVersion::V3_9 { st.lines_identical_with_starts.to_string() } else { "n/a".into() },
        if version.has_exception_table() { st.exceptions_identical.to_string() } else { "n/a".into() },
    );
    for (kind, (n, example)) in &st.failures {
        println!("  {kind}: {n}, e.g. {example}");
    }
    (version, st)
}

#[test]
fn tables_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/tables");
    let mut seen = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures/tables")
        .map(|e| e.expect("entry").path())
        .collect();
    paths.sort();
    for path in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
    {
        let (version, st) = report(path);
        assert!(st.codes >= 100, "{}: too few code objects", path.display());
        assert!(
            st.unexplained() == 0,
            "{}: {:#?}",
            path.display(),
            st.failures
        );
        seen.push(version);
    }
    seen.sort();
    assert_eq!(seen, PyVersion::ALL.to_vec(), "one fixture per version");
}

#[test]
#[ignore = "needs FRAMEJIT_TABLES_DUMPS: whole-stdlib dumps from tools/dump_tables.py"]
fn tables_stdlib_dumps() {
    let paths = std::env::var("FRAMEJIT_TABLES_DUMPS").expect("FRAMEJIT_TABLES_DUMPS");
    let mut clean = true;
    for p in paths.split(':').filter(|p| !p.is_empty()) {
        let (_, st) = report(Path::new(p));
        clean &= st.unexplained() == 0;
    }
    assert!(clean, "see the differences above");
}
