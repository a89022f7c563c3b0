//! The checked-in `.pyc` fixtures (made by `tools/make_marshal_fixtures.py` with each real
//! interpreter) read and write back byte-identically, and what we read agrees with the facts
//! the interpreter itself dumped about its code objects.

use std::path::{Path, PathBuf};

use framejit_bytecode::marshal::{self, CodeObject, Obj, RefTable, Value};
use framejit_bytecode::pyc::{self, PycSource};
use framejit_bytecode::PyVersion;

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/marshal")
}

fn pycs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("fixture dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "pyc"))
        .collect();
    v.sort();
    v
}

/// Code objects in pre-order: the module, then each code constant (also inside constant
/// tuples/frozensets), recursively — the order the fixture tool writes facts in.
fn walk<'a>(refs: &RefTable<'a>, v: &'a Value, out: &mut Vec<&'a CodeObject>) {
    let Some(c) = refs.resolve(v).as_code() else {
        return;
    };
    out.push(c);
    for k in c.consts(refs).expect("co_consts is a tuple") {
        let k = refs.resolve(k);
        if k.as_code().is_some() {
            walk(refs, k, out);
        } else if matches!(
            k.obj,
            Obj::SmallTuple(_) | Obj::Tuple(_) | Obj::FrozenSet(_)
        ) {
            for x in k.as_seq().unwrap_or_default() {
                if refs.resolve(x).as_code().is_some() {
                    walk(refs, x, out);
                }
            }
        }
    }
}

fn list(v: Option<Vec<String>>) -> String {
    let v = v.expect("a tuple of str");
    if v.is_empty() {
        "-".to_string()
    } else {
        v.join(",")
    }
}

fn facts_line(refs: &RefTable<'_>, c: &CodeObject, version: PyVersion) -> String {
    let qualname = if version >= PyVersion::V3_11 {
        c.qualname(refs).expect("qualname").into_owned()
    } else {
        "-".to_string()
    };
    [
        c.name(refs).expect("name").into_owned(),
        qualname,
        c.firstlineno.to_string(),
        c.argcount.to_string(),
        c.posonlyargcount.to_string(),
        c.kwonlyargcount.to_string(),
        c.stacksize.to_string(),
        c.flags.to_string(),
        c.code_bytes(refs).expect("co_code").len().to_string(),
        list(c.names(refs)),
        list(c.varnames(refs)),
        list(c.cellvars(refs)),
        list(c.freevars(refs)),
    ]
    .join("\t")
}

#[test]
fn fixtures_roundtrip_and_match_interpreter_facts() {
    let mut seen_versions = Vec::new();
    for v in PyVersion::ALL {
        let dir = fixtures_root().join(v.to_string());
        let recorded = std::fs::read_to_string(dir.join("VERSION.txt")).expect("VERSION.txt");
        assert!(
            recorded.starts_with(&format!("{v}.")),
            "{recorded} is not {v}"
        );
        let files = pycs(&dir);
        assert!(files.len() >= 5, "{v}: too few fixtures");
        for f in files {
            let data = std::fs::read(&f).expect("read fixture");
            let p = pyc::read(&data).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            assert_eq!(p.version, v, "{}", f.display());
            assert!(
                recorded.contains(&format!("magic {}", p.magic)),
                "{}",
                f.display()
            );
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if name.contains("checked-hash") {
                assert!(matches!(
                    p.source,
                    PycSource::Hash {
                        check_source: true,
                        ..
                    }
                ));
            } else {
                assert!(matches!(p.source, PycSource::Timestamp { .. }));
            }
            assert!(p.trailing.is_empty());
            assert_eq!(
                pyc::write(&p).expect("write"),
                data,
                "{}: not byte-identical",
                f.display()
            );
            // The payload alone also round-trips through loads/dumps.
            let payload = data.get(pyc::HEADER_LEN..).expect("payload");
            let val = marshal::loads(payload, v).expect("loads");
            assert_eq!(marshal::dumps(&val, v).expect("dumps"), payload);

            let refs = RefTable::build(&p.code);
            let mut codes = Vec::new();
            walk(&refs, &p.code, &mut codes);
            let facts = std::fs::read_to_string(f.with_extension("facts.tsv")).expect("facts");
            let expected: Vec<&str> = facts.lines().collect();
            let got: Vec<String> = codes.iter().map(|c| facts_line(&refs, c, v)).collect();
            assert_eq!(
                got.len(),
                expected.len(),
                "{}: code object count",
                f.display()
            );
            for (g, e) in got.iter().zip(&expected) {
                assert_eq!(g, e, "{}", f.display());
            }
        }
        seen_versions.push(v);
    }
    assert_eq!(seen_versions.len(), 7);
}

#[test]
fn edit_code_object_and_dump_again() {
    for v in PyVersion::ALL {
        let data =
            std::fs::read(fixtures_root().join(v.to_string()).join("bisect.pyc")).expect("fixture");
        let mut p = pyc::read(&data).expect("read");
        let code = p.code.as_code_mut().expect("module code");
        let mut bytes = code
            .code_bytes(&RefTable::empty())
            .expect("own co_code")
            .to_vec();
        bytes.extend_from_slice(&[9, 0]);
        code.set_code_bytes(bytes.clone());
        code.set_stacksize(code.stacksize + 3);
        code.set_line_table(vec![1, 2, 3]);
        if v.has_exception_table() {
            code.set_exception_table(vec![]);
        }
        let out = pyc::write(&p).expect("write");
        let back = pyc::read(&out).expect("read back");
        let refs = RefTable::build(&back.code);
        let c = back.code.as_code().expect("code");
        assert_eq!(c.code_bytes(&refs), Some(&bytes[..]));
        assert_eq!(c.line_table(&refs), Some(&[1u8, 2, 3][..]));
        assert_eq!(c.stacksize, p.code.as_code().expect("code").stacksize);
        if v.has_exception_table() {
            assert_eq!(c.exception_table(&refs), Some(&[][..]));
        }
    }
}

#[test]
fn unshare_gives_ref_free_equivalent() {
    for v in PyVersion::ALL {
        let data = std::fs::read(fixtures_root().join(v.to_string()).join("reprlib.pyc"))
            .expect("fixture");
        let p = pyc::read(&data).expect("read");
        let flat = marshal::unshare(&p.code, v, 1_000_000).expect("unshare");
        let bytes = marshal::dumps(&flat, v).expect("dumps");
        let again = marshal::loads(&bytes, v).expect("loads");
        assert_eq!(RefTable::build(&again).len(), 0);
        let (r1, r2) = (RefTable::build(&p.code), RefTable::empty());
        let mut a = Vec::new();
        let mut b = Vec::new();
        walk(&r1, &p.code, &mut a);
        walk(&r2, &again, &mut b);
        let fa: Vec<String> = a.iter().map(|c| facts_line(&r1, c, v)).collect();
        let fb: Vec<String> = b.iter().map(|c| facts_line(&r2, c, v)).collect();
        assert_eq!(fa, fb);
    }
}
