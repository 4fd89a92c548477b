//! kiln-amber's integration tests (no device needed): one test binary, one
//! module per topic.

mod no_panic;
mod parse_errors;
mod parse_scripts;
