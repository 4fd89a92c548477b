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

#[test]
fn binary_input_names_the_missing_deserializer() {
    let words: Vec<u8> = [0x0723_0203u32, 0x0001_0000, 0, 1, 0]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let path = common::scratch("llvm").join("m.spv");
    std::fs::write(&path, words).unwrap();
    let (code, _, err) = common::kiln(
        &["translate", "--spirv-to-llvmir", path.to_str().unwrap()],
        b"",
    );
    assert_eq!(code, 1);
    assert!(err.contains("needs the SPIR-V deserializer"), "{err}");
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
