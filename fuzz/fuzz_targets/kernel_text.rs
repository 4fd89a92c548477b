//! The memref-level kernel parser (then verifier, printer).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kiln_core::fuzz::kernel_text(data));
