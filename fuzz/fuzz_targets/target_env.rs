//! The `#spirv.target_env<...>` parser and printer.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kiln_core::fuzz::target_env(data));
