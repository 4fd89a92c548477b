//! The tensor-program parser (then verifier, printer, re-parse).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kiln_core::fuzz::tensor_text(data));
