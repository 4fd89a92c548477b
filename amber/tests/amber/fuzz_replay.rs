//! The committed corpus of the `amber_script` fuzz target
//! (`fuzz/corpus/amber_script`, `fuzz/regressions/amber_script`) replayed
//! through the target's own entry point, so a known crash fails CI without
//! a nightly toolchain. Long fuzzing runs: `ci/fuzz.sh`.

use std::path::Path;

#[test]
fn amber_script_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut n = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join("amber_script")) else {
            continue;
        };
        let mut paths: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths {
            kiln_amber::fuzz::amber_script(&std::fs::read(&p).unwrap());
            n += 1;
        }
    }
    assert!(n >= 20, "the amber_script corpus is missing ({n} inputs)");
}
