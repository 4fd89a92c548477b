//! kiln-runtime's cache of compiled tensor programs, validation on: a
//! program compiled once per device (a memory hit the second time) and
//! once per cache directory (a new device on the same directory reads it
//! from `programs/*.kprog` and gives the same results); a corrupt file is
//! ignored with a warning and the program compiled again; a file of
//! another codegen target (or tuning) is not used.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use kiln_core::codegen::strategy::{Choice, Distribution, Tuning};
use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::{self, Tensor, Value};
use kiln_core::tensor::types::ElemType;
use kiln_core::tensor::TensorModule;
use kiln_gpu_tests::{assert_no_validation_messages, scratch_dir};
use kiln_runtime::e2e::device_target;
use kiln_runtime::{CacheLocation, Device, DeviceOptions, Program};

use crate::runtime_support::test_device;

/// Dynamic sizes (host computations in the compiled program), a reduction,
/// an elementwise epilogue and a constant.
const PROGRAM: &str = r#"
func.func @rows(%a: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.reduce ins(%a : tensor<?x?xf32>) outs(%f : tensor<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %y = arith.addf %x, %acc : f32
      linalg.yield %y : f32
    }
  %r = arith.addf %s, %b : tensor<?xf32>
  %two = arith.constant 2.0 : f32
  %e2 = tensor.empty(%m) : tensor<?xf32>
  %t = linalg.fill ins(%two : f32) outs(%e2 : tensor<?xf32>) -> tensor<?xf32>
  %o = arith.mulf %r, %t : tensor<?xf32>
  return %o : tensor<?xf32>
}
"#;

fn module() -> TensorModule {
    kiln_core::tensor::load(PROGRAM).unwrap()
}

fn open(dir: &Path) -> Device {
    test_device(DeviceOptions {
        cache: CacheLocation::Dir(dir.to_owned()),
        ..DeviceOptions::default()
    })
}

fn args() -> Vec<Value> {
    let (m, n) = (5, 37);
    let a: Vec<f32> = (0..m * n).map(|i| (i % 11) as f32 * 0.25 - 1.0).collect();
    let b: Vec<f32> = (0..m).map(|i| i as f32).collect();
    let t = |shape: Vec<usize>, v: Vec<f32>| {
        Value::Tensor(Rc::new(Tensor {
            elem: ElemType::F32,
            shape,
            data: Elements::F32(v),
        }))
    };
    vec![t(vec![m, n], a), t(vec![m], b)]
}

/// Runs `@rows` and checks it against the reference evaluator; returns
/// the result.
fn run(program: &Program) -> Vec<f32> {
    let out = program.run("rows", &args()).unwrap();
    let want = eval::run(&module(), "rows", &args()).unwrap();
    let (Some(got), Some(want)) = (out[0].tensor(), want[0].tensor()) else {
        panic!("tensor results");
    };
    let (Elements::F32(got), Elements::F32(want)) = (&got.data, &want.data) else {
        panic!("f32 results");
    };
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= 1e-4 * w.abs().max(1.0),
            "{got:?} vs {want:?}"
        );
    }
    got.clone()
}

fn program_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir.join("programs"))
        .map(|rd| rd.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn a_compiled_program_survives_a_restart() {
    let dir = scratch_dir();
    let (first, compiled) = {
        let device = open(&dir);
        let program = device.compile(&module()).unwrap();
        let again = Program::compile(&device, &module()).unwrap();
        let s = device.cache_stats();
        assert_eq!(
            (
                s.programs_compiled,
                s.program_disk_writes,
                s.program_memory_hits,
                s.program_disk_hits
            ),
            (1, 1, 1, 0),
            "{s:?}"
        );
        assert!(again.compiled() == program.compiled());
        let out = run(&program);
        assert_no_validation_messages(device.context());
        (out, program.compiled().clone())
    };
    assert_eq!(program_files(&dir).len(), 1);
    // "Restart": a new device on the same directory.
    let device = open(&dir);
    let program = device.compile(&module()).unwrap();
    let s = device.cache_stats();
    assert_eq!(
        (s.programs_compiled, s.program_disk_hits, s.rejected_files),
        (0, 1, 0),
        "no recompilation: {s:?}"
    );
    assert!(*program.compiled() == compiled, "the same compiled program");
    assert_eq!(run(&program), first, "the same results");
    assert!(device.warnings().is_empty(), "{:?}", device.warnings());
    assert_no_validation_messages(device.context());
    drop(device);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Rewrites the archive inside program cache file `path` with `edit`,
/// keeping the header valid (length and checksum recomputed).
fn edit_archive(path: &Path, edit: impl Fn(&mut Vec<u8>)) {
    let file = std::fs::read(path).unwrap();
    // Magic (8), key length (4), key, archive length (8), checksum (8).
    let key_len = u32::from_le_bytes(file[8..12].try_into().unwrap()) as usize;
    let head = 12 + key_len;
    let mut archive = file[head + 16..].to_vec();
    edit(&mut archive);
    let mut out = file[..head].to_vec();
    out.extend_from_slice(&(archive.len() as u64).to_le_bytes());
    // FNV-1a, as the cache computes it.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in &archive {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    out.extend_from_slice(&h.to_le_bytes());
    out.extend_from_slice(&archive);
    std::fs::write(path, out).unwrap();
}

#[test]
fn a_corrupt_program_file_is_ignored_with_a_warning() {
    let dir = scratch_dir();
    let want = run(&open(&dir).compile(&module()).unwrap());
    let path = program_files(&dir).pop().unwrap();

    // A flipped byte: the checksum catches it.
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xFF;
    std::fs::write(&path, &bytes).unwrap();
    let device = open(&dir);
    let program = device.compile(&module()).unwrap();
    let s = device.cache_stats();
    assert_eq!(
        (s.rejected_files, s.programs_compiled, s.program_disk_hits),
        (1, 1, 0),
        "{s:?}"
    );
    let warnings = device.warnings().join("\n");
    assert!(
        warnings.contains("ignoring program cache file") && warnings.contains("checksum mismatch"),
        "{warnings}"
    );
    assert_eq!(run(&program), want);
    assert_no_validation_messages(device.context());
    drop(device);

    // A valid header over a cut archive: the archive's decoder refuses it.
    edit_archive(&path, |a| a.truncate(a.len() / 2));
    let device = open(&dir);
    let program = device.compile(&module()).unwrap();
    let s = device.cache_stats();
    assert_eq!((s.rejected_files, s.programs_compiled), (1, 1), "{s:?}");
    let warnings = device.warnings().join("\n");
    assert!(warnings.contains("truncated program archive"), "{warnings}");
    assert_eq!(run(&program), want);
    drop(device);

    // Rewritten whole: the next device uses it.
    let device = open(&dir);
    run(&device.compile(&module()).unwrap());
    let s = device.cache_stats();
    assert_eq!((s.program_disk_hits, s.programs_compiled), (1, 0), "{s:?}");
    drop(device);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_program_cache_of_another_target_is_not_used() {
    let dir = scratch_dir();
    let device = open(&dir);
    let own = device_target(&device);
    let mut other = own.clone();
    other.env.limits.max_compute_workgroup_invocations =
        (own.env.limits.max_compute_workgroup_invocations / 2).max(1);
    other.env.limits.max_compute_workgroup_size[0] =
        other.env.limits.max_compute_workgroup_invocations;
    let want = run(&Program::compile_for(&device, &module(), &own).unwrap());
    let program = Program::compile_for(&device, &module(), &other).unwrap();
    assert!(program.compiled().target == other);
    assert_eq!(run(&program), want);
    let s = device.cache_stats();
    assert_eq!(
        (
            s.programs_compiled,
            s.program_memory_hits,
            s.program_disk_hits
        ),
        (2, 0, 0),
        "another target is another program: {s:?}"
    );
    drop(device);
    let files = program_files(&dir);
    assert_eq!(files.len(), 2, "{files:?}");

    // Each file only under its own key: put one target's file in the
    // other's place (a forged or colliding name).
    let (a, b) = (&files[0], &files[1]);
    std::fs::copy(a, b).unwrap();
    let device = open(&dir);
    for target in [&own, &other] {
        let program = Program::compile_for(&device, &module(), target).unwrap();
        assert!(program.compiled().target == *target);
        assert_eq!(run(&program), want);
    }
    let s = device.cache_stats();
    assert_eq!(
        (s.program_disk_hits, s.programs_compiled, s.rejected_files),
        (1, 1, 1),
        "{s:?}"
    );
    let warnings = device.warnings().join("\n");
    assert!(
        warnings.contains("made for another program, kiln build or device"),
        "{warnings}"
    );
    assert_no_validation_messages(device.context());
    drop(device);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tuned_target_is_another_program() {
    let dir = scratch_dir();
    let device = open(&dir);
    let own = device_target(&device);
    // `kiln tune` choices in the target (one that names no dispatch of
    // the program changes no strategy, but the program is still cached
    // apart: the key holds the whole tuning).
    let mut tuning = Tuning::new();
    let choice = Choice {
        workgroup: 32,
        distribution: Distribution::Points { per_invocation: 1 },
        split_k: None,
    };
    tuning.insert("elementwise 1x1 - f32", choice, "");
    let tuned = own.clone().with_tuning(tuning);
    let want = run(&Program::compile_for(&device, &module(), &own).unwrap());
    let program = Program::compile_for(&device, &module(), &tuned).unwrap();
    assert!(program.compiled().target == tuned);
    assert_eq!(run(&program), want);
    assert_eq!(device.cache_stats().programs_compiled, 2);
    drop(device);
    assert_eq!(program_files(&dir).len(), 2);
    // A restart finds the tuned one.
    let device = open(&dir);
    let program = Program::compile_for(&device, &module(), &tuned).unwrap();
    assert!(program.compiled().target == tuned);
    let s = device.cache_stats();
    assert_eq!((s.program_disk_hits, s.programs_compiled), (1, 0), "{s:?}");
    assert_no_validation_messages(device.context());
    drop(device);
    let _ = std::fs::remove_dir_all(&dir);
}
