//! Replays the checked-in fuzz corpora (`fuzz/corpus/<target>/`) through the same functions
//! the cargo-fuzz targets call, so the corpus (seeds and fixed crashers) runs in the ordinary
//! test suite without cargo-fuzz or a nightly toolchain.

use std::path::{Path, PathBuf};

fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

fn replay(target: &str, body: fn(&[u8])) {
    let files = corpus(target);
    assert!(!files.is_empty(), "empty corpus for {target}");
    for f in files {
        let data = std::fs::read(&f).expect("read corpus file");
        eprintln!("{target}: {}", f.display());
        body(&data);
    }
}

#[test]
fn marshal_loads_corpus() {
    replay("marshal_loads", framejit_bytecode::marshal::fuzz_entry);
}

#[test]
fn pyc_read_corpus() {
    replay("pyc_read", framejit_bytecode::pyc::fuzz_entry);
}

#[test]
fn corpus_holds_valid_pycs_of_every_version() {
    use framejit_bytecode::{pyc, PyVersion};
    let mut seen = Vec::new();
    for f in corpus("pyc_read") {
        if let Ok(p) = pyc::read(&std::fs::read(&f).expect("read")) {
            seen.push(p.version);
        }
    }
    for v in PyVersion::ALL {
        assert!(seen.contains(&v), "no valid {v} pyc in the pyc_read corpus");
    }
}

#[test]
fn bytecode_roundtrip_corpus() {
    replay(
        "bytecode_roundtrip",
        framejit_bytecode::roundtrip::fuzz_entry,
    );
}
