//! Read and re-write every `.pyc` under a directory, checking the bytes come back identical.
//!
//! `cargo run --release -p framejit-bytecode --example pyc_sweep -- DIR [DIR...]`
//! Prints, per directory and per version, how many files round-tripped, differed or failed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use framejit_bytecode::pyc;

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "pyc") {
            out.push(p);
        }
    }
}

#[derive(Default)]
struct Counts {
    ok: usize,
    differ: usize,
    failed: usize,
    bytes: u64,
}

fn main() {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.is_empty() {
        eprintln!("usage: pyc_sweep DIR [DIR...]");
        std::process::exit(2);
    }
    let mut bad = 0usize;
    for dir in dirs {
        let mut files = Vec::new();
        walk(Path::new(&dir), &mut files);
        files.sort();
        let mut per: BTreeMap<String, Counts> = BTreeMap::new();
        for f in &files {
            let Ok(data) = std::fs::read(f) else { continue };
            match pyc::read(&data) {
                Ok(p) => {
                    let c = per.entry(p.version.to_string()).or_default();
                    c.bytes += data.len() as u64;
                    match pyc::write(&p) {
                        Ok(out) if out == data => c.ok += 1,
                        Ok(_) => {
                            c.differ += 1;
                            eprintln!("DIFFER {}", f.display());
                        }
                        Err(e) => {
                            c.failed += 1;
                            eprintln!("WRITE FAILED {}: {e}", f.display());
                        }
                    }
                }
                Err(e) => {
                    per.entry("unreadable".into()).or_default().failed += 1;
                    eprintln!("READ FAILED {}: {e}", f.display());
                }
            }
        }
        for (v, c) in &per {
            println!(
                "{dir}: {v}: {} files, {} identical, {} differ, {} failed, {} bytes",
                c.ok + c.differ + c.failed,
                c.ok,
                c.differ,
                c.failed,
                c.bytes
            );
            bad += c.differ + c.failed;
        }
    }
    if bad > 0 {
        std::process::exit(1);
    }
}
