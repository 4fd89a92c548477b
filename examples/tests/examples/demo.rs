//! The README's demo: the command it shows runs the MLP example on the
//! default device (lavapipe without a GPU) and the example reports its
//! results matched the reference evaluator with memory flat.

use std::path::Path;
use std::process::Command;

/// The demo command as the README shows it.
const DEMO: &str = "cargo run --release -p kiln-examples --bin mlp";

#[test]
fn readme_demo_runs_the_mlp_example() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .expect("README.md");
    assert!(readme.contains(DEMO), "README.md no longer shows `{DEMO}`");
    // The same binary, with fewer batches than the demo's 100 (CI time),
    // its disk cache in a directory of its own.
    let cache = std::env::temp_dir().join(format!("kiln-demo-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_mlp"))
        .arg("5")
        .env("KILN_PROFILE", "1")
        .env("KILN_CACHE_DIR", &cache)
        .output()
        .expect("running the mlp example");
    let _ = std::fs::remove_dir_all(&cache);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the demo failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("first and last match the reference evaluator"),
        "{stdout}"
    );
    assert!(stdout.contains("memory flat over 5 batches"), "{stdout}");
    assert!(stdout.contains("per-kernel GPU time"), "{stdout}");
}
