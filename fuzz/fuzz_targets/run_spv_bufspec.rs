//! `kiln run-spv`'s buffer, push-constant, binding and grid specs
//! (`cli/src/commands/bufspec.rs`, included as it is: the CLI is a binary crate).
#![no_main]
#[allow(dead_code, reason = "the fuzz target uses the parsers only")]
#[path = "../../cli/src/commands/bufspec.rs"]
mod bufspec;

libfuzzer_sys::fuzz_target!(|data: &[u8]| bufspec::fuzz_entry(data));
