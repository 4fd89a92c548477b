//! The tensor compiler (`kiln_core::fuzz::tensor_compile`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kiln_core::fuzz::tensor_compile(data));
