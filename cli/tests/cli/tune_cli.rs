//! `kiln tune` and `kiln profile` on the device. `kiln tune` times a matmul's candidate strategies,
//! writes the fastest to the device's tuning file under `KILN_CACHE_DIR`,
//! and a later `kiln compile --explain --device` on the same device uses
//! exactly the choice in that file. A file naming a choice that is not a
//! candidate, or one that does not parse, changes nothing (the latter
//! with a warning).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{kiln_cmd, run, scratch};

const PROGRAM: &str = r#"func.func @mm(%a: tensor<64x48xf32>, %b: tensor<48x96xf32>) -> tensor<64x96xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x48xf32>, tensor<48x96xf32>) outs(%f : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}
"#;

const KEY: &str = "contraction 64x96 r48 f32";

/// Runs `kiln ARGS` with `KILN_CACHE_DIR` set to `cache`.
pub(crate) fn kiln_in(cache: &Path, args: &[&str]) -> (i32, String, String) {
    let mut cmd: Command = kiln_cmd();
    cmd.env("KILN_CACHE_DIR", cache).args(args);
    run(&mut cmd, b"")
}

/// The one tuning file `kiln tune` wrote under `cache`.
pub(crate) fn tuning_file(cache: &Path) -> PathBuf {
    let dir = cache.join("tuning");
    let files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

/// The choice the file holds for [`KEY`]: its invocations and the line
/// `kiln compile --explain` prints for its distribution (`wg N tile RxC`, a
/// register tile, or `wg N shared BMxBNxBK RxC [double]`, workgroup-memory tiles,
/// which `kiln tune` tries too).
fn choice_in(file: &Path) -> (u32, String) {
    let text = std::fs::read_to_string(file).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with(KEY))
        .unwrap_or_else(|| panic!("no entry for {KEY}:\n{text}"));
    let choice = line.split_once('=').unwrap().1;
    let choice = choice.split('#').next().unwrap();
    let w: Vec<&str> = choice.split_whitespace().collect();
    let wg = w[1].parse().unwrap();
    let explained = match w[2] {
        "tile" => format!("a {} register tile", w[3]),
        "shared" => {
            let b: Vec<&str> = w[3].split('x').collect();
            let double = if w.get(5) == Some(&"double") {
                " (double-buffered)"
            } else {
                ""
            };
            format!(
                "a {}x{} block per workgroup, operands staged in workgroup memory {} reduction steps at a time{double}, a {} register tile",
                b[0], b[1], b[2], w[4]
            )
        }
        other => panic!("{line}: unexpected distribution {other}"),
    };
    (wg, explained)
}

fn explain(cache: &Path, file: &str, out: &Path) -> (String, String) {
    let out = out.display().to_string();
    let (status, stdout, err) = kiln_in(
        cache,
        &[
            "compile",
            "--explain",
            "--device",
            "default",
            "-o",
            &out,
            file,
        ],
    );
    assert_eq!(status, 0, "{err}");
    (stdout, err)
}

#[test]
fn tune_writes_the_cache_and_compile_explain_uses_it() {
    let dir = scratch("tune-cli");
    let cache = dir.join("cache");
    let file = dir.join("mm.mlir");
    std::fs::write(&file, PROGRAM).unwrap();
    let file = file.display().to_string();

    let (status, out, err) = kiln_in(
        &cache,
        &[
            "tune",
            &file,
            "--input",
            "64x48xf32=1",
            "--input",
            "48x96xf32=2",
            "--runs",
            "1",
        ],
    );
    assert_eq!(status, 0, "{out}\n{err}");
    assert!(out.contains(KEY), "{out}");
    assert!(out.contains("(heuristic)"), "{out}");
    assert!(out.contains("wrote "), "{out}");
    let tuned = tuning_file(&cache);
    let (wg, explained) = choice_in(&tuned);

    // compile --explain on the same device takes the file's choice.
    let (text, _) = explain(&cache, &file, &dir.join("out1"));
    assert!(text.contains("tuned by kiln tune on this device"), "{text}");
    assert!(
        text.contains(&format!("workgroup size: [{wg}, 1, 1]")),
        "{text}"
    );
    assert!(text.contains(&explained), "{text}");

    // A hand-set candidate other than the heuristic's is used as well.
    std::fs::write(&tuned, format!("{KEY} = wg 16 tile 8x4\n")).unwrap();
    let (text, _) = explain(&cache, &file, &dir.join("out2"));
    assert!(text.contains("workgroup size: [16, 1, 1]"), "{text}");
    assert!(text.contains("a 8x4 register tile"), "{text}");
    assert!(text.contains("the heuristic's: wg 32 tile 16x4"), "{text}");

    // Workgroup-memory tiles, not the heuristic's on lavapipe, as well.
    std::fs::write(&tuned, format!("{KEY} = wg 64 shared 32x32x16 4x4\n")).unwrap();
    let (text, _) = explain(&cache, &file, &dir.join("out2s"));
    assert!(text.contains("workgroup size: [64, 1, 1]"), "{text}");
    assert!(
        text.contains("a 32x32 block per workgroup, operands staged in workgroup memory 16 reduction steps at a time, a 4x4 register tile"),
        "{text}"
    );

    // Not a candidate (7 invocations): ignored.
    std::fs::write(&tuned, format!("{KEY} = wg 7 tile 3x3\n")).unwrap();
    let (text, _) = explain(&cache, &file, &dir.join("out3"));
    assert!(!text.contains("tuned by kiln tune"), "{text}");
    assert!(text.contains("workgroup size: [32, 1, 1]"), "{text}");

    // Does not parse: ignored with a warning naming the file.
    std::fs::write(&tuned, "contraction = tile\n").unwrap();
    let (text, err) = explain(&cache, &file, &dir.join("out4"));
    assert!(!text.contains("tuned by kiln tune"), "{text}");
    assert!(
        err.contains("warning: ignoring") && err.contains(".tune"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `kiln profile` runs the program with timestamps and lists each kernel
/// with its dispatch count, largest GPU time first, then the counters.
#[test]
fn profile_lists_kernels_by_gpu_time() {
    let dir = scratch("profile-cli");
    let file = dir.join("mm.mlir");
    std::fs::write(&file, PROGRAM).unwrap();
    let file = file.display().to_string();
    let (status, out, err) = kiln_in(
        &dir.join("cache"),
        &[
            "profile",
            &file,
            "--input",
            "64x48xf32=1",
            "--input",
            "48x96xf32=2",
            "--runs",
            "3",
        ],
    );
    assert_eq!(status, 0, "{out}\n{err}");
    assert!(out.contains("3 dispatches"), "{out}");
    let row = out
        .lines()
        .find(|l| l.starts_with("mm_dispatch_0"))
        .unwrap_or_else(|| panic!("{out}"));
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cols[1], "3", "{row}");
    let us: f64 = cols[2].parse().unwrap();
    assert!(us > 0.0, "{row}");
    assert!(out.contains("counters: 3 submits, 3 dispatches"), "{out}");
    // Bad input: one error line, status 1.
    let (status, _, err) = kiln_in(&dir.join("cache"), &["profile", &file]);
    assert_eq!(status, 1, "{err}");
    assert!(
        err.starts_with("error: ") && err.contains("arguments"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
