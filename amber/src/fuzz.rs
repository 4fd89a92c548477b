//! The entry point of the `amber_script` fuzz target (`fuzz/`), shared
//! with the test that replays its committed corpus in CI
//! (`tests/amber/fuzz_replay.rs`).

/// Texts longer than this are skipped (the parser is linear; long inputs
/// only slow the fuzzer down).
const MAX_TEXT: usize = 64 * 1024;

/// The AmberScript parser on arbitrary bytes: returns normally whatever
/// they are (a panic, a hang or unbounded memory is a bug the fuzzer
/// reports).
pub fn amber_script(data: &[u8]) {
    if data.len() > MAX_TEXT {
        return;
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = crate::parse(text);
    }
}
