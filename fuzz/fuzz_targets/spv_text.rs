//! The spv text parser (then verifier, printer, serializer).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kiln_core::fuzz::spv_text(data));
