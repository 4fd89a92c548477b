//! The LLVM commands: `kiln opt --convert-spirv-to-llvm`, `kiln translate
//! --spirv-to-llvmir`, `kiln run --cpu` and `kiln run-spv --cpu`.

use std::path::PathBuf;

use crate::common;
use crate::filecheck;

const MODULE: &str = r#"
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %c0 = spirv.Constant 0 : i32
    %c3 = spirv.Constant 3 : i32
    %g = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %g : vector<3xi32>
    %i = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %b = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %p = spirv.AccessChain %b[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %p : i32
    %y = spirv.IMul %x, %c3 : i32
    spirv.Store "StorageBuffer" %p, %y : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 4, 1, 1
}
"#;

fn write(name: &str, text: &str) -> PathBuf {
    let dir = common::scratch("llvm");
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn tool_accepts(tool: &str, args: &[&str], input: &str) {
    let (code, _, err) = common::run(
        std::process::Command::new(tool).args(args),
        input.as_bytes(),
    );
    assert_eq!(code, 0, "{tool} {args:?} rejects:\n{err}\n{input}");
}

#[test]
fn opt_prints_the_llvm_dialect_mlir_reads() {
    let (code, out, err) = common::kiln(&["opt", "--convert-spirv-to-llvm"], MODULE.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("llvm.func @main()"), "{out}");
    assert!(
        out.contains("llvm.mlir.global external @buf_descriptor_set0_binding0()"),
        "{out}"
    );
    tool_accepts("mlir-opt-19", &["-o", "/dev/null"], &out);
    tool_accepts(
        "mlir-translate-19",
        &["--mlir-to-llvmir", "-o", "/dev/null"],
        &out,
    );
    let (code, out, err) = common::kiln(
        &["opt", "--convert-spirv-to-llvm", "--llvm-abi", "kernel"],
        MODULE.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("llvm.func @__kiln_entry_main(%arg0: !llvm.ptr)"),
        "{out}"
    );
    tool_accepts(
        "mlir-translate-19",
        &["--mlir-to-llvmir", "-o", "/dev/null"],
        &out,
    );
}

#[test]
fn translate_prints_llvm_ir_llvm_as_reads() {
    let (code, out, err) = common::kiln(&["translate", "--spirv-to-llvmir"], MODULE.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("define void @main()"), "{out}");
    tool_accepts("llvm-as-19", &["-o", "/dev/null"], &out);
}

#[test]
fn split_input_file_converts_each_chunk_and_keeps_line_numbers() {
    let text = "spirv.func @a() \"None\" {\n  spirv.Return\n}\n// -----\nspirv.func @b(%x: i32) \"None\" {\n  %0 = spirv.GroupIAdd <Workgroup> <Reduce> %x : i32\n  spirv.Return\n}\n";
    let path = write("split.mlir", text);
    let (code, out, err) = common::kiln(
        &[
            "opt",
            "--convert-spirv-to-llvm",
            "--split-input-file",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        err.contains("split.mlir:6:8: 'spirv.GroupIAdd' has no conversion to LLVM"),
        "{err}"
    );
    let ok = text.replace("  %0 = spirv.GroupIAdd <Workgroup> <Reduce> %x : i32\n", "");
    let path = write("split_ok.mlir", &ok);
    let (code, out, err) = common::kiln(
        &[
            "translate",
            "--spirv-to-llvmir",
            "--split-input-file",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("// -----").count(), 1, "{out}");
    assert!(out.contains("define void @a()") && out.contains("define void @b(i32 %arg0)"));
}

/// A corpus binary (`core/tests/binaries/spv`, made by glslang).
fn corpus_binary(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../core/tests/binaries/spv")
        .join(name)
}

#[test]
fn translate_converts_a_glslang_binary_to_llvm_ir() {
    let path = corpus_binary("glsl-switch_cases.spv");
    let (code, out, err) = common::kiln(
        &["translate", "--spirv-to-llvmir", path.to_str().unwrap()],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("define void @main()"), "{out}");
    assert!(out.contains("switch i32"), "{out}");
    tool_accepts("llvm-as-19", &["-o", "/dev/null"], &out);
    // glslang names functions `classify(u1;`: quoted in both printers.
    let helpers = corpus_binary("glsl-early_returns.spv");
    let (code, out, err) = common::kiln(
        &["translate", "--spirv-to-llvmir", helpers.to_str().unwrap()],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("@\"classify(u1;\"("), "{out}");
    tool_accepts("llvm-as-19", &["-o", "/dev/null"], &out);
    let (code, out, err) = common::kiln(
        &["opt", "--convert-spirv-to-llvm", helpers.to_str().unwrap()],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("llvm.func @\"classify(u1;\"("), "{out}");
    tool_accepts("mlir-opt-19", &["-o", "/dev/null"], &out);
    // A binary is one module: it cannot be split.
    let (code, _, err) = common::kiln(
        &[
            "translate",
            "--spirv-to-llvmir",
            "--split-input-file",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("--split-input-file applies to text inputs, not to SPIR-V binaries"),
        "{err}"
    );
}

#[test]
fn run_spv_cpu_runs_glslang_binaries_as_lavapipe_does() {
    // The oracle is the original binary on lavapipe; the CPU runs what the
    // deserializer read from the same file.
    for (name, grid) in [
        ("glsl-loops_break_continue.spv", "4"),
        ("glsl-switch_cases.spv", "2"),
        ("glsl-early_returns.spv", "2"),
    ] {
        let path = corpus_binary(name);
        let common_args = [
            path.to_str().unwrap(),
            "--grid",
            grid,
            "--buf",
            "0:0=u32[64]=iota",
            "--buf",
            "0:1=u32[64]",
            "--print",
            "0:1",
        ];
        let (code, gpu, err) = common::kiln(&[&["run-spv"][..], &common_args[..]].concat(), b"");
        assert_eq!(code, 0, "{name} on lavapipe: {err}");
        let (code, cpu, err) =
            common::kiln(&[&["run-spv", "--cpu"][..], &common_args[..]].concat(), b"");
        assert_eq!(code, 0, "{name} on the CPU: {err}");
        assert_eq!(cpu, gpu, "{name}");
        assert!(gpu.starts_with("0:1 = ["), "{name}: {gpu}");
    }
}

#[test]
fn run_cpu_prints_what_the_runner_prints() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../gpu-tests/tests/runner/workgroup_tree_reduce.mlir");
    let (code, out, err) = common::kiln(
        &["run", "--cpu", "--no-timing", path.to_str().unwrap()],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let checks = filecheck::directives(&std::fs::read_to_string(&path).unwrap()).unwrap();
    filecheck::check(&out, &checks).unwrap_or_else(|e| panic!("{e}\n{out}"));
    // With timing, the kernel's CPU time is printed as the shader time.
    let (code, out, err) = common::kiln(&["run", "--cpu", path.to_str().unwrap()], b"");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Compute shader execution time: "), "{out}");
}

#[test]
fn run_spv_cpu_runs_and_reports_out_of_bounds_accesses() {
    let path = write("m.mlir", MODULE);
    let p = path.to_str().unwrap();
    let (code, out, err) = common::kiln(
        &[
            "run-spv",
            "--cpu",
            p,
            "--grid",
            "2",
            "--buf",
            "0:0=i32[8]=iota",
            "--print",
            "0:0",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "0:0 = [0, 3, 6, 9, 12, 15, 18, 21]");
    let (code, _, err) = common::kiln(
        &[
            "run-spv",
            "--cpu",
            p,
            "--grid",
            "3",
            "--buf",
            "0:0=i32[8]=iota",
            "--print",
            "0:0",
        ],
        b"",
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("out-of-bounds access to buffer set 0 binding 0 (@buf): index 8"),
        "{err}"
    );
    let (code, out, err) = common::kiln(
        &[
            "run-spv",
            "--cpu",
            "--robust",
            p,
            "--grid",
            "3",
            "--buf",
            "0:0=i32[8]=iota",
            "--print",
            "0:0",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "0:0 = [0, 3, 6, 9, 12, 15, 18, 21]");
}

/// Reads the built-in vectors whole: LocalInvocationId sits at context
/// offset 68 and WorkgroupId at 80 (4-byte aligned, as the harness lays
/// them out), and each invocation stores `(local id, 7)` as one vec4.
const BUILTIN_VECTORS: &str = r#"
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @lid built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @wid built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %l = spirv.mlir.addressof @lid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %l : vector<3xi32>
    %w = spirv.mlir.addressof @wid : !spirv.ptr<vector<3xi32>, Input>
    %g = spirv.Load "Input" %w : vector<3xi32>
    %gx = spirv.CompositeExtract %g[0 : i32] : vector<3xi32>
    %x = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %c4 = spirv.Constant 4 : i32
    %base = spirv.IMul %gx, %c4 : i32
    %i = spirv.IAdd %base, %x : i32
    %c7 = spirv.Constant 7 : i32
    %v4 = spirv.CompositeConstruct %v, %c7 : (vector<3xi32>, i32) -> vector<4xi32>
    %c0 = spirv.Constant 0 : i32
    %b = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>
    %p = spirv.AccessChain %b[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %p, %v4 : vector<4xi32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @lid, @wid
  spirv.ExecutionMode @main "LocalSize", 4, 1, 1
}
"#;

/// A vector load of a built-in the context holds at a 4-byte offset was
/// emitted without an alignment, so LLVM assumed 16 (its alignment of
/// `<3 x i32>`) and used an aligned load: the kernel died with SIGSEGV
/// (torch-mlir's expanded attention, through the tensor compiler, hit it
/// first). Loads and stores outside `Function` memory now carry the
/// alignment SPIR-V's layout guarantees.
#[test]
fn run_spv_cpu_reads_vector_builtins_at_unaligned_context_offsets() {
    let path = write("builtin_vectors.mlir", BUILTIN_VECTORS);
    let (code, out, err) = common::kiln(
        &[
            "run-spv",
            "--cpu",
            path.to_str().unwrap(),
            "--grid",
            "2",
            "--buf",
            "0:0=i32[32]",
            "--print",
            "0:0",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    // Element 4 * workgroup + x holds (x, 0, 0, 7).
    let expected: Vec<String> = (0..2)
        .flat_map(|_w| (0..4).flat_map(|x| [x, 0, 0, 7]))
        .map(|v| v.to_string())
        .collect();
    assert_eq!(out.trim(), format!("0:0 = [{}]", expected.join(", ")));
}
