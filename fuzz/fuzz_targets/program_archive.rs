//! The compiled-program archive's decoder (`kiln_core::fuzz::program_archive`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kiln_core::fuzz::program_archive(data));
