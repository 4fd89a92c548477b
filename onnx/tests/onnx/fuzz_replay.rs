//! The committed seeds and regression inputs of the `onnx_import` fuzz
//! target (`fuzz/corpus/onnx_import`, `fuzz/regressions/onnx_import`)
//! replayed through its entry point ([`kiln_onnx::fuzz::onnx_import`]), so
//! a known crash fails CI without a nightly toolchain. Long fuzzing runs:
//! `ci/fuzz.sh onnx_import`.

use std::path::Path;

#[test]
fn onnx_import_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut n = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join("onnx_import")) else {
            continue;
        };
        let mut paths: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths {
            let data = std::fs::read(&p).unwrap();
            kiln_onnx::fuzz::onnx_import(&data);
            n += 1;
        }
    }
    assert!(
        n >= 20,
        "the onnx_import corpus is missing ({n} inputs under fuzz/)"
    );
}
