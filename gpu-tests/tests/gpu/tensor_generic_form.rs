//! MLIR's generic op form: every corpus program (`tests/tensor/*.mlir`, in
//! the standard MLIR form `gen.py --standard` writes), printed by
//! mlir-opt-19 with `--mlir-print-op-generic`, parses in kiln and gives the
//! same tensor program as its custom syntax (kiln's print of both is the
//! same text).

use std::path::Path;
use std::process::Command;

use kiln_core::tensor;

fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    let out = cmd
        .output()
        .map_err(|e| format!("{what}: cannot run: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// kiln's print of `path`'s program.
fn kiln_text(path: &Path) -> Result<String, String> {
    let src = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let m = tensor::parse(&src).map_err(|e| format!("{}:{e}", path.display()))?;
    Ok(tensor::print::print(&m))
}

#[test]
fn generic_form_of_every_corpus_program_gives_the_same_program() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = kiln_gpu_tests::scratch_dir();
    let standard = dir.join("standard");
    run(
        Command::new(kiln_gpu_tests::python_with_numpy())
            .arg(root.join("tests/tensor/gen.py"))
            .arg("--standard")
            .arg(&standard),
        "gen.py --standard",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut files: Vec<_> = std::fs::read_dir(&standard)
        .expect("gen.py --standard wrote no folder")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    assert!(files.len() >= 50, "only {} standard files", files.len());
    // Two threads (CI's two cores): mlir-opt-19 and the parses dominate.
    let half = files.len().div_ceil(2);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = files
            .chunks(half)
            .map(|chunk| scope.spawn(|| check_files(chunk, &dir)))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| {
                w.join()
                    .unwrap_or_else(|_| vec!["a worker panicked".into()])
            })
            .collect()
    });
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "{} of {} files:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// The failures of `files` (standard-form corpus files), scratch in `dir`.
fn check_files(files: &[std::path::PathBuf], dir: &Path) -> Vec<String> {
    let mut failures = Vec::new();
    for f in files {
        let name = f.file_name().unwrap_or_default().to_string_lossy();
        let generic = dir.join(format!("{name}.generic.mlir"));
        let printed = run(
            Command::new("mlir-opt-19")
                .arg("--mlir-print-op-generic")
                .arg(f)
                .arg("-o")
                .arg(&generic),
            "mlir-opt-19 --mlir-print-op-generic",
        );
        if let Err(e) = printed {
            failures.push(format!("{name}: {e}"));
            continue;
        }
        match (kiln_text(f), kiln_text(&generic)) {
            (Ok(a), Ok(b)) if a == b => {}
            (Ok(a), Ok(b)) => {
                let line = a
                    .lines()
                    .zip(b.lines())
                    .position(|(x, y)| x != y)
                    .unwrap_or(a.lines().count().min(b.lines().count()));
                failures.push(format!(
                    "{name}: the generic form gives another program (first difference at line {}):\n  custom:  {}\n  generic: {}",
                    line + 1,
                    a.lines().nth(line).unwrap_or("<end>"),
                    b.lines().nth(line).unwrap_or("<end>")
                ));
            }
            (a, b) => {
                for e in [a.err(), b.err()].into_iter().flatten() {
                    failures.push(e);
                }
            }
        }
    }
    failures
}
