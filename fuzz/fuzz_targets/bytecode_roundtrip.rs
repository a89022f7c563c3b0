//! Bytecode of any version: decode then assemble; our own output must decode and assemble to the
//! same bytes again. The body is `framejit_bytecode::roundtrip::fuzz_entry`, shared with
//! `crates/bytecode/tests/fuzz_corpus.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    framejit_bytecode::roundtrip::fuzz_entry(data);
});
