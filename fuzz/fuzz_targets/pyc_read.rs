//! A whole `.pyc`; accepted input must write back byte-identically. The body is
//! `framejit_bytecode::pyc::fuzz_entry`, shared with `crates/bytecode/tests/fuzz_corpus.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    framejit_bytecode::pyc::fuzz_entry(data);
});
