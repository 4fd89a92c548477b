//! The ONNX models of `fuzz/regressions/onnx_import` that crashed, aborted
//! or hung the importer once through the real binary: `kiln compile
//! MODEL.onnx` prints one `error:` line naming what is wrong and exits 1.
//! (`lstm-91-steps-slow-compile.onnx` and `slice-step-min.onnx` are valid
//! models: not here.) About 2 s for the fourteen models (debug build).

use std::path::Path;

use crate::common;

#[test]
fn fuzz_regressions_are_one_error_line_each() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/onnx_import");
    let out = common::scratch("onnx-fuzz");
    for (file, says) in [
        ("avgpool-kernel-huge-pads.onnx", "too large a divisor table"),
        ("constantofshape-overflow.onnx", "too large to address"),
        ("dft-length-huge.onnx", "DFT's matrix"),
        ("dft-of-a-scalar.onnx", "last dim must be 1 (real) or 2"),
        ("input-huge-dims.onnx", "too large to address"),
        ("loop-huge.onnx", "runs past 4096 iterations"),
        ("mel-huge.onnx", "too large to address"),
        ("pad-huge.onnx", "overflow axis"),
        ("range-huge.onnx", "cannot be computed on the host"),
        ("raw-size-wraps.onnx", "is too large"),
        ("reshape-shape-product-overflows.onnx", "in the shape"),
        ("reshape-product-overflow.onnx", "overflows 64 bits"),
        ("resize-huge.onnx", "too many taps"),
        ("tile-huge.onnx", "kiln tiles at most 65536 copies"),
    ] {
        let model = dir.join(file);
        let (code, _, err) = common::kiln(
            &[
                "compile",
                model.to_str().unwrap(),
                "-o",
                out.join("o").to_str().unwrap(),
            ],
            b"",
        );
        assert!(!err.contains("panicked"), "{file}:\n{err}");
        assert_eq!(code, 1, "{file}:\n{err}");
        assert_eq!(err.lines().count(), 1, "{file}:\n{err}");
        assert!(err.starts_with("error: "), "{file}:\n{err}");
        assert!(err.contains(says), "{file} should say {says:?}:\n{err}");
    }
}
