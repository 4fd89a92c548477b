//! kiln-amber's AmberScript parser.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kiln_amber::fuzz::amber_script(data));
