//! `kiln compile` and `kiln opt --convert-to-spirv` on the real binary:
//! binaries written per gpu.module and accepted by the `spirv-val` tool,
//! the printed spv module parsing back, target envs from text, `@FILE` and
//! the device, and errors as one `error:` line.

use std::path::{Path, PathBuf};

use crate::common;

fn kiln(args: &[&str]) -> (i32, String, String) {
    common::kiln(args, b"")
}

fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/lower")
}

const MINIMAL: &str = "#spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>";

/// `spirv-val --target-env env` accepts the binary at `path`.
fn spirv_val(path: &Path, env: &str) {
    let (code, out) = common::spirv_val(path, env, &[]);
    assert_eq!(code, 0, "spirv-val rejects {}: {out}", path.display());
}

#[test]
fn compile_writes_a_valid_binary() {
    let input = kernels_dir().join("scf.mlir");
    let dir = common::scratch("compile-cli");
    let out = dir.join("scf.spv");
    let (code, _, err) = kiln(&[
        "compile",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--target-env",
        MINIMAL,
    ]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[..4], &0x0723_0203u32.to_le_bytes(), "SPIR-V magic");
    spirv_val(&out, "vulkan1.0");
}

#[test]
fn compile_names_one_binary_per_gpu_module() {
    let src = r#"module attributes {gpu.container_module} {
  gpu.module @first {
    gpu.func @a(%x: memref<4xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      gpu.return
    }
  }
  gpu.module @second {
    gpu.func @b(%x: memref<4xi32>, %n: i32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %i = gpu.thread_id x
      memref.store %n, %x[%i] : memref<4xi32>
      gpu.return
    }
  }
}
"#;
    let dir = common::scratch("compile-cli");
    let input = dir.join("two.mlir");
    std::fs::write(&input, src).unwrap();
    let out = dir.join("two.spv");
    let env_file = dir.join("min.env");
    std::fs::write(&env_file, MINIMAL).unwrap();
    let env_arg = format!("@{}", env_file.display());
    let (code, _, err) = kiln(&[
        "compile",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--target-env",
        &env_arg,
    ]);
    assert_eq!(code, 0, "{err}");
    for m in ["first", "second"] {
        let p = dir.join(format!("two.{m}.spv"));
        assert!(p.exists(), "{} missing", p.display());
        spirv_val(&p, "vulkan1.0");
    }
    assert!(
        !out.exists(),
        "with several modules OUT itself is not written"
    );
}

#[test]
fn opt_convert_to_spirv_prints_parsable_modules() {
    let input = kernels_dir().join("subgroup.mlir");
    let (code, out, err) = kiln(&[
        "opt",
        input.to_str().unwrap(),
        "--convert-to-spirv",
        "--target-env",
        MINIMAL,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("spirv.module @__spv__subgroup Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>"), "{out}");
    // The printed module goes back through kiln opt (parse + verify).
    let printed = common::scratch("compile-cli").join("subgroup.spv.mlir");
    std::fs::write(&printed, &out).unwrap();
    let (code, again, err) = kiln(&["opt", printed.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(again, out);
}

#[test]
fn opt_convert_to_spirv_with_spv_prefix() {
    let input = kernels_dir().join("gpu.mlir");
    let (code, out, err) = kiln(&[
        "opt",
        input.to_str().unwrap(),
        "--convert-to-spirv",
        "--prefix",
        "spv",
        "--target-env",
        MINIMAL,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("spv.module @__spv__ids"), "{out}");
    assert!(out.contains("spv.ControlBarrier"), "{out}");
}

#[test]
fn compile_for_the_device() {
    // lavapipe (or whatever device the machine has): the env comes from the
    // device query, the binary validates for the version it declares.
    let input = kernels_dir().join("arith_i8.mlir");
    let out = common::scratch("compile-cli").join("i8.spv");
    let (code, _, err) = kiln(&[
        "compile",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--device",
        "default",
    ]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&out).unwrap();
    assert!(bytes.len() >= 8, "{} bytes", bytes.len());
    let version = u32::from_le_bytes(bytes[4..8].try_into().unwrap());
    let env = kiln_core::validate::ValidationEnv::for_vulkan_module(
        kiln_core::grammar::Version::from_word(version),
    );
    spirv_val(&out, env.name());
}

#[test]
fn errors_are_one_line_and_name_the_op() {
    let src = r#"module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<4xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<4xi32>
      %y = arith.extsi %x : i32 to i64
      gpu.return
    }
  }
}
"#;
    let dir = common::scratch("compile-cli");
    let input = dir.join("i64.mlir");
    std::fs::write(&input, src).unwrap();
    let (code, _, err) = kiln(&[
        "compile",
        input.to_str().unwrap(),
        "-o",
        dir.join("i64.spv").to_str().unwrap(),
        "--target-env",
        MINIMAL,
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(
        err.lines().next().unwrap_or(""),
        format!(
            "error: {}:6:12: 'arith.extsi': type i64 needs capability Int64 (64-bit integers), which the target env does not offer",
            input.display()
        )
    );
}

/// `kiln opt -` reads a kernel file from stdin like a path: printed back as
/// a kernel, or lowered with `--convert-to-spirv`; the spv-only passes name
/// the mix-up instead of a parse error.
#[test]
fn kernel_text_from_stdin() {
    let src = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/tests/kernels/addf_1d.mlir"
    ))
    .unwrap();
    let (code, from_stdin, err) = common::kiln(&["opt", "-"], &src);
    assert_eq!(code, 0, "{err}");
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/tests/kernels/addf_1d.mlir"
    );
    let (code, from_path, err) = common::kiln(&["opt", path], b"");
    assert_eq!(code, 0, "{err}");
    assert_eq!(from_stdin, from_path);
    assert!(from_stdin.contains("gpu.func @kernel_add"), "{from_stdin}");

    let (code, lowered, err) = common::kiln(&["opt", "-", "--convert-to-spirv"], &src);
    assert_eq!(code, 0, "{err}");
    assert!(
        lowered.contains("spirv.module @__spv__kernels"),
        "{lowered}"
    );

    let (code, out, err) = common::kiln(&["opt", "-", "--update-vce"], &src);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        err.trim(),
        "error: <stdin>: a memref-level kernel file; --lower-abi-attrs and --update-vce work on \
         spv modules (--convert-to-spirv lowers kernels and runs both)"
    );
}

/// A pass failing after lowering is reported with the gpu.module, the pass
/// and its cause, once: `LowerError` leaves the cause to its source chain
/// and the CLI prints the chain. (`SignedZeroInfNanPreserve`, asked for by
/// `target_width`, needs SPIR-V 1.4 or `SPV_KHR_float_controls`: SPIR-V
/// spec, ExecutionMode.)
#[test]
fn pass_errors_print_their_cause_once() {
    let src = br#"module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<4xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1], target_width = 32>} {
      gpu.return
    }
  }
}
"#;
    let (code, out, err) = common::kiln(&["opt", "-", "--convert-to-spirv"], src);
    assert_eq!(code, 1, "{out}{err}");
    let cause = "'spirv.ExecutionMode': ExecutionMode SignedZeroInfNanPreserve requires \
                 SPIR-V v1.4 or extension SPV_KHR_float_controls";
    assert!(
        err.starts_with(&format!(
            "error: <stdin>: gpu.module @m: update-vce: 3:5: {cause}"
        )),
        "{err}"
    );
    assert_eq!(err.matches("SignedZeroInfNanPreserve").count(), 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}
