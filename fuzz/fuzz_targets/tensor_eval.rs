//! The reference evaluator (`kiln_core::fuzz::tensor_eval`).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kiln_core::fuzz::tensor_eval(data));
