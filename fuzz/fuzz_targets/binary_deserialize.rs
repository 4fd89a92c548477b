//! The SPIR-V deserializer (then verifier, printer, serializer, re-import).
//!
//! Structure-aware: `kiln_core::fuzz::mutate_in_place` mutates the words
//! instruction by instruction three times in four.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| kiln_core::fuzz::binary_deserialize(data));

libfuzzer_sys::fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    kiln_core::fuzz::mutate_in_place(data, size, max_size, seed, libfuzzer_sys::fuzzer_mutate)
});
