//! The program archive ([`kiln_core::codegen::archive`]): every function of
//! the tensor corpus (`gpu-tests/tests/tensor/`) and the examples' models
//! that compiles comes back equal from its bytes, and encodes to the same
//! bytes again.

use std::path::Path;

use kiln_core::codegen::{archive, compile_function, CodegenTarget, CompiledProgram, DriverFacts};

use crate::common::{mlir_files, prepared_tensor_module};

/// Every function of `path` that compiles for `target`, as one program.
fn compile_file(path: &Path, target: &CodegenTarget) -> CompiledProgram {
    let prepared = prepared_tensor_module(path);
    let functions = prepared
        .funcs()
        .iter()
        .filter(|&&f| prepared.func(f).body.is_some())
        .filter_map(|&f| compile_function(&prepared, f, target).ok())
        .collect();
    CompiledProgram {
        target: target.clone(),
        functions,
    }
}

#[test]
fn compiled_programs_round_trip() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = mlir_files(&root.join("gpu-tests/tests/tensor"));
    files.extend(mlir_files(&root.join("examples/models")));
    assert!(files.len() >= 50, "corpus files are missing");
    let target = CodegenTarget::new(kiln_core::lower::default_env(), DriverFacts::conservative());
    let (mut functions, mut kernels, mut host_slots) = (0, 0, 0);
    for path in &files {
        let program = compile_file(path, &target);
        functions += program.functions.len();
        for f in &program.functions {
            host_slots += f.host.slots.len();
            kernels += f.dispatches.iter().map(|d| d.kernels.len()).sum::<usize>();
        }
        let bytes = archive::encode(&program).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let back = archive::decode(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Compared through Debug: a NaN constant (edge_values.mlir's) is
        // not `==` itself; its bits are checked by the re-encoding below.
        assert!(
            format!("{back:?}") == format!("{program:?}"),
            "{}: not equal after a round trip",
            path.display()
        );
        assert_eq!(
            archive::encode(&back).unwrap(),
            bytes,
            "{}: encoding is deterministic",
            path.display()
        );
    }
    // The corpus exercises what the format holds: many functions and
    // kernels, dynamic sizes computed on the host.
    assert!(functions >= 200, "{functions} functions compiled");
    assert!(kernels >= functions, "{kernels} kernels");
    assert!(host_slots > 0, "no host computation in the corpus");
}

#[test]
fn a_corrupt_archive_is_an_error() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/models/mlp.mlir");
    let target = CodegenTarget::new(kiln_core::lower::default_env(), DriverFacts::conservative());
    let bytes = archive::encode(&compile_file(&path, &target)).unwrap();
    // A cut anywhere in the first kilobytes (the header, the target, the
    // first function's host program and buffers) and at the end.
    for n in (0..bytes.len().min(4096)).chain(bytes.len() - 64..bytes.len()) {
        assert!(archive::decode(&bytes[..n]).is_err(), "cut at {n}");
    }
    let mut v = bytes.clone();
    v[0] ^= 1;
    assert_eq!(
        archive::decode(&v).unwrap_err(),
        archive::ArchiveError::BadMagic
    );
}

/// The fuzz target's seed archives (`fuzz/corpus/program_archive`) are of
/// this build's format: a seed the decoder refuses at its version word
/// fuzzes nothing past it. A change of [`archive::VERSION`] updates them
/// (for a field appended to the one function of each: its bytes appended).
#[test]
fn the_fuzz_seed_archives_decode() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/program_archive");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).expect("the seed folder") {
        let path = e.expect("an entry").path();
        let bytes = std::fs::read(&path).expect("readable");
        archive::decode(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        n += 1;
    }
    assert!(n >= 20, "{n} seeds");
}
