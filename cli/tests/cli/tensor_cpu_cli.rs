//! `kiln run --cpu` of tensor programs (IREE's end-to-end test format):
//! the kernels the tensor compiler makes run on the CPU through LLVM 19
//! (kiln-cpu), with the output and exit status of `kiln run`. Needs
//! `llc-19`, `opt-19` and a C compiler (ci/setup.sh installs them).

use std::path::{Path, PathBuf};

use crate::common::{kiln, scratch};

fn tensor_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../gpu-tests/tests/tensor")
}

/// The `.mlir` files of `dir`, sorted.
fn mlir_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    files
}

/// Every file of the tensor corpus (`gpu-tests/tests/tensor/*.mlir`: all
/// element types, every op family and strategy, dynamic shapes) passes on
/// the CPU, and prints exactly what `kiln run` prints on the Vulkan device
/// (lavapipe in CI): the same iree-check-module text.
#[test]
fn corpus_files_pass_on_the_cpu_with_the_devices_output() {
    let files = mlir_files(&tensor_dir());
    assert!(files.len() >= 50, "the tensor corpus is missing");
    let mut failures = Vec::new();
    for f in &files {
        let path = f.display().to_string();
        let (status, out, err) = kiln(&["run", "--cpu", "--no-timing", &path], b"");
        let (dev_status, dev_out, dev_err) = kiln(&["run", "--no-timing", &path], b"");
        assert_eq!(dev_status, 0, "{path}: device: {dev_err}");
        if status != 0 || !err.is_empty() {
            failures.push(format!("{path}: exit {status}\n{out}\n{err}"));
        } else if out != dev_out {
            failures.push(format!(
                "{path}: CPU output differs from the device's:\n{out}\n---\n{dev_out}"
            ));
        } else if !out.contains("[  PASSED  ]") || out.contains("FAILED") {
            failures.push(format!("{path}: not every test passed:\n{out}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The framework programs (`gpu-tests/tests/frameworks/*.mlir`: JAX
/// functions lowered through StableHLO and IREE's input conversion by
/// `gen_jax.py`, JAX's own outputs as the expected values; ONNX graphs
/// lowered by torch-mlir's passes by `gen_onnx_torch.py`, ONNX's reference
/// outputs expected; PyTorch modules exported by torch-mlir's FX importer
/// by `gen_torch_fx.py`, weights as `dense_resource` blobs, PyTorch's
/// outputs expected) pass on the device with the validation layer on, on
/// the CPU and in the reference evaluator.
#[test]
fn framework_programs_pass_on_every_backend() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../gpu-tests/tests/frameworks");
    let files = mlir_files(&dir);
    assert!(files.len() >= 21, "the framework programs are missing");
    let mut failures = Vec::new();
    for f in &files {
        let path = f.display().to_string();
        for mode in [&["--validation"][..], &["--cpu"], &["--reference"]] {
            let mut args = vec!["run", "--no-timing"];
            args.extend_from_slice(mode);
            args.push(&path);
            let (status, out, err) = kiln(&args, b"");
            if status != 0 || !out.contains("[  PASSED  ]") || out.contains("FAILED") {
                failures.push(format!("{path} {mode:?}: exit {status}\n{out}\n{err}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const SUM: &str = r#"func.func @sum() {
  %in = util.unfoldable_constant dense<2> : tensor<1000xi32>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<i32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %s = linalg.reduce ins(%in : tensor<1000xi32>) outs(%f : tensor<i32>) dimensions = [0]
    (%x: i32, %acc: i32) {
      %a = arith.addi %x, %acc : i32
      linalg.yield %a : i32
    }
  check.expect_eq_const(%s, dense<2000> : tensor<i32>) : tensor<i32>
  return
}
"#;

#[test]
fn a_failing_check_on_the_cpu_exits_with_1() {
    let dir = scratch("tensor-cpu");
    let good = dir.join("sum.mlir");
    std::fs::write(&good, SUM).unwrap();
    let (status, out, err) = kiln(
        &["run", "--cpu", "--no-timing", &good.display().to_string()],
        b"",
    );
    assert_eq!(status, 0, "{out}{err}");
    assert!(out.contains("[       OK ] module.sum"), "{out}");
    let bad = dir.join("bad.mlir");
    std::fs::write(&bad, SUM.replace("dense<2000>", "dense<2001>")).unwrap();
    let (status, out, err) = kiln(
        &["run", "--cpu", "--no-timing", &bad.display().to_string()],
        b"",
    );
    assert_eq!(status, 1, "{out}{err}");
    assert!(err.is_empty(), "{err}");
    assert!(
        out.contains("The first failure occurs at index 0 as the lhs value 2000 differs from the rhs value 2001."),
        "{out}"
    );
    // With the timing lines, as `kiln run` prints them.
    let (status, out, _) = kiln(&["run", "--cpu", &good.display().to_string()], b"");
    assert_eq!(status, 0);
    assert!(out.contains("[       OK ] module.sum ("), "{out}");
}

/// The bad inputs of the corpus (`gpu-tests/tests/tensor/errors/`) are one
/// `error:` line with the text of their `// ERROR:` marker on the CPU too.
#[test]
fn corpus_bad_inputs_are_one_error_line_on_the_cpu() {
    let dir = tensor_dir().join("errors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "the bad-input corpus is missing");
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let want = text
            .lines()
            .find_map(|l| {
                l.split_once("// ERROR: ")
                    .map(|(_, t)| t.trim().to_string())
            })
            .expect("an ERROR marker");
        let path = f.display().to_string();
        let (status, _out, err) = kiln(&["run", "--cpu", "--no-timing", &path], b"");
        let lines: Vec<&str> = err.lines().collect();
        let one = lines.len() == 1 && lines[0].starts_with("error: ");
        if status != 1 || !one || !err.contains(&want) || err.contains("panicked") {
            failures.push(format!("{path}: exit {status}, wanted '{want}' in: {err}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn cpu_and_reference_exclude_each_other() {
    let path = tensor_dir().join("matmul_f32.mlir").display().to_string();
    let (status, out, err) = kiln(&["run", "--cpu", "--reference", &path], b"");
    assert_eq!(status, 1);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("--reference and --cpu exclude each other"),
        "{err}"
    );
}

/// `--subgroup-size` sets both the env the tensor compiler targets (whose
/// reductions may use subgroup operations) and the runner's subgroups: the
/// checks pass with subgroups of 1, 4 and 32 invocations.
#[test]
fn reductions_pass_with_any_subgroup_size() {
    let path = tensor_dir()
        .join("linalg_reduce.mlir")
        .display()
        .to_string();
    // Every function of the file passes, however many it holds.
    let functions = std::fs::read_to_string(&path)
        .expect("linalg_reduce.mlir")
        .matches("func.func @")
        .count();
    let passed = format!("[  PASSED  ] {functions} tests.");
    for sg in ["1", "4", "32"] {
        let (status, out, err) = kiln(
            &["run", "--cpu", "--no-timing", "--subgroup-size", sg, &path],
            b"",
        );
        assert_eq!(status, 0, "subgroup size {sg}: {out}{err}");
        assert!(out.contains(&passed), "subgroup size {sg}: {out}");
    }
}

/// The corpus's cooperative-matrix programs compiled for the two
/// committed envs with `SPV_KHR_cooperative_matrix`
/// (`nvidia-h200-coop.env`, subgroups of 32; `coop-sg16.env`, subgroups of
/// 16, other tile shapes, and a device type that leaves the heuristic the
/// largest tile and subgroup grids) run on the CPU runner, which executes
/// the cooperative-matrix ops (kiln_core's `llvm/convert/coop.rs`), and
/// pass the same numpy checks as the reference evaluator, with the same
/// output: `matmul_f16_tiles.mlir` (f16 matmuls with f32 and f16
/// results whose shapes reach every f16 x f16 -> f32 configuration of both
/// envs; f16 results accumulate in f32 too)
/// and `matmul_f16_coop.mlir` (ragged sizes staged with zero padding, fused
/// epilogues, transposed and batched operands). That the kernels are
/// cooperative-matrix kernels for every configuration is checked by
/// kiln-cpu's `device_envs_with_cooperative_matrices_keep_them_on_the_cpu`.
/// `matmul_f16_bf16.mlir` adds f16 results of long sums (K up to 4,096),
/// which must round once from f32 accumulators on the matrix units too;
/// `matmul_f16_coop_staged.mlir` whole blocks staged in workgroup memory
/// with wide reads (single- and double-buffered steps, K tails, ragged
/// edges beside staged blocks, transposed and batched operands, an
/// epilogue, f16 results); `conv_f16_coop.mlir` convolutions as implicit
/// GEMMs (A gathered from the input into workgroup memory: 3x3 and 1x1,
/// strides, dilations, ragged sizes, a padding, an epilogue; about 3 s of
/// the test's time, most of it the LLVM compile for `coop-sg16.env`);
/// `attention_f16_coop.mlir` attention's two batch matmuls (the keys read
/// through a transpose as column-major tiles, ragged and whole sizes) with
/// a softmax between them.
#[test]
fn cooperative_matrix_kernels_pass_on_the_cpu_for_both_coop_envs() {
    let envs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/lower/envs");
    for (file, count) in [
        ("matmul_f16_tiles.mlir", 7),
        ("matmul_f16_coop.mlir", 9),
        ("matmul_f16_bf16.mlir", 12),
        ("matmul_f16_coop_staged.mlir", 13),
        ("conv_f16_coop.mlir", 7),
        ("attention_f16_coop.mlir", 2),
    ] {
        cpu_matches_the_reference(file, count, &["nvidia-h200-coop.env", "coop-sg16.env"]);
    }
    let path = tensor_dir()
        .join("matmul_f16_tiles.mlir")
        .display()
        .to_string();
    // A subgroup size other than the env's is refused, not run wrongly.
    let arg = format!("@{}", envs.join("coop-sg16.env").display());
    let (status, _, err) = kiln(
        &[
            "run",
            "--cpu",
            "--subgroup-size",
            "8",
            "--target-env",
            &arg,
            &path,
        ],
        b"",
    );
    assert_eq!(status, 1, "{err}");
    assert!(err.contains("subgroup size 16"), "{err}");
}

/// `matmul_read_transposed.mlir` (matmuls and batch_matmuls read through
/// a transpose in the same dispatch, then an elementwise op; numpy's
/// values) compiled for the offline envs whose strategy stages the
/// operands in workgroup memory (`lavapipe.env`, `mobile.env`,
/// `coop-sg16.env`, without the device's driver facts) runs on the CPU
/// runner with the reference's output. On main six of its eight
/// functions were refused on each ("the block's rows and columns are not
/// the root's last parallel loops"). Costs about three seconds.
#[test]
fn matmuls_read_through_a_transpose_pass_on_the_cpu_for_the_offline_envs() {
    cpu_matches_the_reference(
        "matmul_read_transposed.mlir",
        8,
        &["lavapipe.env", "mobile.env", "coop-sg16.env"],
    );
}

/// Corpus file `file` passes its `count` tests on the reference evaluator,
/// and on the CPU runner compiled for each of `envs`
/// (`core/tests/lower/envs`) prints exactly the reference's output, with
/// nothing on stderr.
fn cpu_matches_the_reference(file: &str, count: usize, envs: &[&str]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/lower/envs");
    let path = tensor_dir().join(file).display().to_string();
    let (status, reference, err) = kiln(&["run", "--reference", "--no-timing", &path], b"");
    assert_eq!(status, 0, "{reference}{err}");
    assert!(
        reference.contains(&format!("[  PASSED  ] {count} tests.")),
        "{reference}"
    );
    for env in envs {
        let arg = format!("@{}", dir.join(env).display());
        let (status, out, err) = kiln(
            &["run", "--cpu", "--no-timing", "--target-env", &arg, &path],
            b"",
        );
        assert_eq!(status, 0, "{file} {env}: {out}{err}");
        assert!(err.is_empty(), "{file} {env}: {err}");
        assert_eq!(out, reference, "{file} {env}");
    }
}

/// Buffers larger than the target env's `maxStorageBufferRange` (lowered
/// to 4 KiB here) are bound as arrays of descriptors, one per chunk; the
/// CPU runner binds each chunk as its own slot and runs
/// `split_buffers.mlir` (element-wise ops, sums, a matmul, a gather of rows
/// from every chunk, i8 elements; numpy's values in its checks). On main it
/// refused these kernels ("binding N is an array of descriptors"). Then
/// `split_buffers_dynamic.mlir`, whose sizes are known at run time: their
/// `_chunked` variants (on main: refused past 4 KiB). Costs about three
/// seconds (the kernels compiled by LLVM).
#[test]
fn split_buffers_pass_on_the_cpu_under_a_small_storage_range() {
    let path = tensor_dir()
        .join("split_buffers.mlir")
        .display()
        .to_string();
    let env = "#spirv.target_env<#spirv.vce<v1.3, [Shader, Int8, Int16, Int64, Float16, \
        StorageBuffer8BitAccess, StorageBuffer16BitAccess, GroupNonUniform, \
        GroupNonUniformArithmetic, GroupNonUniformShuffle], \
        [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, SPV_KHR_16bit_storage]>, \
        #spirv.resource_limits<max_storage_buffer_range = 4096 : i64, \
        max_compute_workgroup_invocations = 1024 : i32, \
        max_compute_shared_memory_size = 32768 : i32, subgroup_size = 8 : i32, \
        min_subgroup_size = 8 : i32, max_subgroup_size = 8 : i32>>";
    // The kernels do bind chunks under this env.
    let dir = scratch("tensor-cpu-split");
    let add = dir.join("add.mlir");
    std::fs::write(
        &add,
        "func.func @f(%a: tensor<2000xf32>, %b: tensor<2000xf32>) -> tensor<2000xf32> {\n  \
         %c = arith.addf %a, %b : tensor<2000xf32>\n  return %c : tensor<2000xf32>\n}\n",
    )
    .unwrap();
    let out = dir.join("out").display().to_string();
    let add = add.display().to_string();
    let (status, explain, err) = kiln(
        &[
            "compile",
            &add,
            "-o",
            &out,
            "--explain",
            "--target-env",
            env,
        ],
        b"",
    );
    assert_eq!(status, 0, "{err}");
    assert!(
        explain.contains("binding 2 (buffer 2): 2 descriptors, one per chunk"),
        "{explain}"
    );
    let (status, out, err) = kiln(
        &["run", "--cpu", "--no-timing", "--target-env", env, &path],
        b"",
    );
    assert_eq!(status, 0, "{out}\n{err}");
    assert!(
        out.contains("[  PASSED  ] 5 tests.") && !out.contains("FAILED"),
        "{out}\n{err}"
    );
    // Sizes known at run time (`split_buffers_dynamic.mlir`): the
    // `_chunked` variants, their descriptors within lavapipe's 32 per
    // stage (the default, Vulkan's minimum of 4, leaves too few for any).
    let dynamic = tensor_dir()
        .join("split_buffers_dynamic.mlir")
        .display()
        .to_string();
    let env = env.replace(
        "max_storage_buffer_range = 4096 : i64,",
        "max_storage_buffer_range = 4096 : i64, \
         max_per_stage_descriptor_storage_buffers = 32 : i32,",
    );
    let (status, out, err) = kiln(
        &[
            "run",
            "--cpu",
            "--no-timing",
            "--target-env",
            &env,
            &dynamic,
        ],
        b"",
    );
    assert_eq!(status, 0, "{out}\n{err}");
    assert!(
        out.contains("[  PASSED  ] 6 tests.") && !out.contains("FAILED"),
        "{out}\n{err}"
    );
}

/// Kernels compiled for a GPU (here the H200's env) refine each f32
/// quotient with an fma residual step (a GPU's `OpFDiv` is only as exact
/// as Vulkan requires): on the CPU (whose division is exact) every
/// edge-value quotient — zeros of both signs, infinities, NaN, denormals,
/// the largest finite values — and `1 / x` come out as numpy's, so the
/// refinement never changes a correctly rounded result.
#[test]
fn refined_division_keeps_every_edge_value() {
    let envs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/lower/envs");
    let arg = format!("@{}", envs.join("nvidia-h200.env").display());
    for (file, count) in [("edge_values.mlir", 106), ("cf_assert.mlir", 6)] {
        let path = tensor_dir().join(file).display().to_string();
        let (status, out, err) = kiln(
            &["run", "--cpu", "--no-timing", "--target-env", &arg, &path],
            b"",
        );
        assert_eq!(status, 0, "{file}: {out}{err}");
        assert!(
            out.contains(&format!("[  PASSED  ] {count} tests.")),
            "{file}: {out}"
        );
    }
}
