//! First byte picks the Python version, the rest is marshal data; accepted input must dump back
//! byte-identically. The body is `framejit_bytecode::marshal::fuzz_entry`, shared with
//! `crates/bytecode/tests/fuzz_corpus.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    framejit_bytecode::marshal::fuzz_entry(data);
});
