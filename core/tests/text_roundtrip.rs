//! Round trips of the text form: parse -> print -> parse -> print is stable,
//! for both dialect prefixes, on the files `mlir-opt-19` printed
//! (`tests/mlir_ref/`) and on hand-written snippets.

use std::path::Path;

use kiln_core::text::{self, Prefix, PrintOptions};

fn print(m: &kiln_core::ir::Module, prefix: Prefix) -> String {
    text::print(m, &PrintOptions { prefix })
}

/// Parses, prints with both prefixes, and checks each print is a fixpoint.
fn round_trip(name: &str, src: &str) -> String {
    let m = text::parse(src).unwrap_or_else(|e| panic!("{name}: {e}"));
    let out = print(&m, Prefix::Spirv);
    for prefix in [Prefix::Spirv, Prefix::Spv] {
        let first = print(&m, prefix);
        let again = text::parse(&first).unwrap_or_else(|e| panic!("{name} ({prefix:?}) reparse: {e}\n{first}"));
        let second = print(&again, prefix);
        assert_eq!(first, second, "{name}: print is not a fixpoint with {prefix:?}");
    }
    out
}

#[test]
fn mlir_ref_files_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mlir_ref");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/mlir_ref exists") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "mlir") {
            let src = std::fs::read_to_string(&path).unwrap();
            let out = round_trip(&path.display().to_string(), &src);
            if std::env::var_os("KILN_SHOW").is_some() {
                eprintln!("==== {}\n{out}", path.display());
            }
            n += 1;
        }
    }
    assert!(n >= 3, "expected the mlir_ref corpus, found {n} files");
}
