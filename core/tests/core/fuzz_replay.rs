//! The committed fuzz corpora and regression inputs (`fuzz/corpus/TARGET`,
//! `fuzz/regressions/TARGET`) replayed through the fuzz targets' own entry
//! points ([`kiln_core::fuzz`]), so a known crash fails CI without a
//! nightly toolchain. The `run_spv_bufspec` target replays in the CLI's
//! unit tests (its parsers live in the binary crate). Long fuzzing runs:
//! `ci/fuzz.sh`.

use std::path::Path;

fn replay(target: &str, entry: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut n = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        let mut paths: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths {
            let data = std::fs::read(&p).unwrap();
            entry(&data);
            n += 1;
        }
    }
    assert!(
        n >= 20,
        "the {target} corpus is missing ({n} inputs under fuzz/)"
    );
}

#[test]
fn spv_text_corpus() {
    replay("spv_text", kiln_core::fuzz::spv_text);
}

#[test]
fn kernel_text_corpus() {
    replay("kernel_text", kiln_core::fuzz::kernel_text);
}

#[test]
fn binary_deserialize_corpus() {
    replay("binary_deserialize", kiln_core::fuzz::binary_deserialize);
}

#[test]
fn binary_reflect_corpus() {
    replay("binary_reflect", kiln_core::fuzz::binary_reflect);
}

#[test]
fn target_env_corpus() {
    replay("target_env", kiln_core::fuzz::target_env);
}

#[test]
fn tensor_text_corpus() {
    replay("tensor_text", kiln_core::fuzz::tensor_text);
}

#[test]
fn tensor_compile_corpus() {
    replay("tensor_compile", kiln_core::fuzz::tensor_compile);
}

#[test]
fn tensor_eval_corpus() {
    replay("tensor_eval", kiln_core::fuzz::tensor_eval);
}

#[test]
fn program_archive_corpus() {
    replay("program_archive", kiln_core::fuzz::program_archive);
}

#[test]
#[ignore = "open: fuzz/open/binary_deserialize holds inputs the deserializer does not yet \
            import stably (fuzz/RESULTS.md); move each to fuzz/regressions once fixed"]
fn binary_deserialize_open_findings() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/open/binary_deserialize");
    // No folder (git keeps no empty one): nothing open.
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
    paths.sort();
    for p in paths {
        kiln_core::fuzz::binary_deserialize(&std::fs::read(p).unwrap());
    }
}
