//! `kiln tune` on a matrix x vector: the row-slice strategy
//! (`Distribution::RowSlices`) is among the candidates it times
//! (lavapipe's heuristic, a row per invocation read as vec4; a slice per
//! subgroup; trees of other slices; the scalar loop per row), and a tuned slice in the device's tuning file is what a
//! later `kiln compile --explain` on the device uses.

use crate::common::scratch;
use crate::tune_cli::{kiln_in, tuning_file};

const PROGRAM: &str = r#"func.func @mv(%a: tensor<256x520xf32>, %x: tensor<520xf32>) -> tensor<256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %r = linalg.matvec ins(%a, %x : tensor<256x520xf32>, tensor<520xf32>) outs(%f : tensor<256xf32>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}
"#;

const KEY: &str = "contraction 256 r520 f32";

#[test]
fn tune_times_row_slices_and_compile_uses_a_tuned_slice() {
    let dir = scratch("tune-matvec");
    let cache = dir.join("cache");
    let file = dir.join("mv.mlir");
    std::fs::write(&file, PROGRAM).unwrap();
    let file = file.display().to_string();
    let (status, out, err) = kiln_in(
        &cache,
        &[
            "tune",
            &file,
            "--input",
            "256x520xf32=1",
            "--input",
            "520xf32=2",
            "--runs",
            "1",
            "--dry-run",
        ],
    );
    assert_eq!(status, 0, "{out}\n{err}");
    assert!(out.contains(KEY), "{out}");
    let heuristic = out
        .lines()
        .find(|l| l.contains("(heuristic)"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(heuristic.contains("wg 64 rows 1"), "{out}");
    for other in [
        "wg 64 rows 8",
        "wg 64 rows 4",
        "wg 128 rows 16",
        "wg 64 points 1",
    ] {
        assert!(
            out.lines().any(|l| l
                .trim_start()
                .trim_start_matches('*')
                .trim_start()
                .starts_with(other)),
            "{other}:\n{out}"
        );
    }

    // A tuned slice of 16 (a tree: lavapipe's subgroups are 8 lanes).
    let tuning = cache.join("tuning");
    std::fs::create_dir_all(&tuning).unwrap();
    let (status, _, err) = kiln_in(
        &cache,
        &[
            "tune",
            &file,
            "--input",
            "256x520xf32=1",
            "--input",
            "520xf32=2",
            "--runs",
            "1",
        ],
    );
    assert_eq!(status, 0, "{err}");
    let path = tuning_file(&cache);
    std::fs::write(&path, format!("{KEY} = wg 128 rows 16\n")).unwrap();
    let out_spv = dir.join("out").display().to_string();
    let (status, text, err) = kiln_in(
        &cache,
        &[
            "compile",
            "--explain",
            "--device",
            "default",
            "-o",
            &out_spv,
            &file,
        ],
    );
    assert_eq!(status, 0, "{err}");
    assert!(text.contains("tuned by kiln tune on this device"), "{text}");
    assert!(text.contains("workgroup size: [128, 1, 1]"), "{text}");
    assert!(
        text.contains("one row per slice of 16 invocations (8 rows per workgroup)"),
        "{text}"
    );
    assert!(
        text.contains("combined within the slice by a workgroup-memory tree"),
        "{text}"
    );
}
