//! `kiln translate --deserialize / --test-roundtrip / --test-roundtrip-binary`,
//! `--split-input-file` (translate and opt), `kiln run-spv` on spv text (texel
//! buffers included),
//! and malformed binaries given to `reflect` and `run-spv`.

use std::path::{Path, PathBuf};

use crate::common::{kiln, kiln_cmd, run_bytes, scratch};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn corpus_binary(name: &str) -> PathBuf {
    repo().join("core/tests/binaries/spv").join(name)
}

fn golden(name: &str) -> PathBuf {
    repo().join("core/tests/golden").join(name)
}

/// `kiln ARGS` must succeed; its stdout.
fn kiln_ok(args: &[&str]) -> String {
    let (code, out, err) = kiln(args, b"");
    assert_eq!(code, 0, "kiln {args:?} failed: {err}");
    out
}

#[test]
fn deserialize_prints_a_module_in_either_spelling() {
    let bin = corpus_binary("glsl-loops_break_continue.spv");
    let text = kiln_ok(&["translate", "--deserialize", bin.to_str().unwrap()]);
    assert!(text.starts_with("spirv.module Logical GLSL450"), "{text}");
    assert!(text.contains("spirv.mlir.loop"), "{text}");
    let seeds = kiln_ok(&[
        "translate",
        "--deserialize",
        "--prefix",
        "spv",
        bin.to_str().unwrap(),
    ]);
    assert!(seeds.starts_with("spv.module Logical GLSL450"), "{seeds}");
    // -o writes the file; the text parses and verifies (kiln opt).
    let dir = scratch("deser");
    let out = dir.join("out.mlir");
    kiln_ok(&[
        "translate",
        "--deserialize",
        bin.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    kiln_ok(&["opt", out.to_str().unwrap()]);
}

#[test]
fn deserialize_reports_malformed_binaries() {
    let dir = scratch("deser-bad");
    let bytes = std::fs::read(corpus_binary("mlir-loop_sum.spv")).unwrap();
    let cut = dir.join("cut.spv");
    std::fs::write(&cut, &bytes[..bytes.len() - 8]).unwrap();
    let (code, _, err) = kiln(&["translate", "--deserialize", cut.to_str().unwrap()], b"");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("runs past the end of the module") || err.contains("has no OpFunctionEnd"),
        "{err}"
    );
    // reflect and run-spv report it too, without panicking.
    let (code, _, err) = kiln(&["reflect", cut.to_str().unwrap()], b"");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with("error: ") && !err.contains("panicked"),
        "{err}"
    );
    let (code, _, err) = kiln(
        &[
            "run-spv",
            cut.to_str().unwrap(),
            "--buf",
            "0:0=i32[4]",
            "--buf",
            "0:1=i32[4]",
        ],
        b"",
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with("error: ") && !err.contains("panicked"),
        "{err}"
    );
}

#[test]
fn test_roundtrip_of_a_golden_module_gives_its_words_back() {
    let dir = scratch("roundtrip");
    let src = golden("nested_loops.mlir");
    let text = kiln_ok(&["translate", "--test-roundtrip", src.to_str().unwrap()]);
    let back = dir.join("back.mlir");
    std::fs::write(&back, &text).unwrap();
    let a = dir.join("a.spv");
    let b = dir.join("b.spv");
    kiln_ok(&[
        "translate",
        "--serialize",
        src.to_str().unwrap(),
        "-o",
        a.to_str().unwrap(),
    ]);
    kiln_ok(&[
        "translate",
        "--serialize",
        back.to_str().unwrap(),
        "-o",
        b.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn test_roundtrip_binary_reports_identity_and_stability() {
    let dir = scratch("roundtrip-bin");
    let own = dir.join("own.spv");
    kiln_ok(&[
        "translate",
        "--serialize",
        golden("selection_phi.mlir").to_str().unwrap(),
        "-o",
        own.to_str().unwrap(),
    ]);
    let report = kiln_ok(&[
        "translate",
        "--test-roundtrip-binary",
        own.to_str().unwrap(),
    ]);
    assert!(
        report.contains("identical to the input")
            && report.contains("re-importing gives the same words"),
        "{report}"
    );
    let glslang = corpus_binary("glsl-deep_nesting.spv");
    let report = kiln_ok(&[
        "translate",
        "--test-roundtrip-binary",
        glslang.to_str().unwrap(),
    ]);
    assert!(
        report.contains("differs from the input")
            && report.contains("re-importing gives the same words"),
        "{report}"
    );
}

const SPLIT: &str = "spirv.module Logical GLSL450 {\n}\n\n// -----\n\nspirv.module Logical GLSL450 {\n  spirv.func @f() \"None\" {\n    spirv.Return %x\n  }\n}\n\n// -----\nspirv.module Logical GLSL450 {\n  spirv.GlobalVariable @v : !spirv.ptr<f32, Private>\n}\n";

#[test]
fn split_input_file_processes_each_chunk_alone() {
    for args in [
        &["opt", "--split-input-file", "-"][..],
        &["translate", "--test-roundtrip", "--split-input-file", "-"][..],
    ] {
        let (code, out, err) = run_bytes(kiln_cmd().args(args), SPLIT.as_bytes());
        let out = String::from_utf8(out).unwrap();
        assert_eq!(code, 1, "{args:?}: {err}");
        // The error's line is its line in the whole input.
        assert!(err.contains("<stdin>:8:"), "{args:?}: {err}");
        let chunks: Vec<&str> = out.split("// -----\n").collect();
        assert_eq!(chunks.len(), 3, "{args:?}: {out}");
        assert!(chunks[0].contains("spirv.module"), "{out}");
        assert!(chunks[1].is_empty(), "{out}");
        assert!(chunks[2].contains("spirv.GlobalVariable @v"), "{out}");
    }
    // Without the flag the whole input is one (invalid) module.
    let (code, _, err) = run_bytes(kiln_cmd().args(["opt", "-"]), SPLIT.as_bytes());
    assert_eq!(code, 1, "{err}");
}

#[test]
fn run_spv_takes_spv_text() {
    let src = repo().join("core/tests/binaries/mlir/loop_sum.mlir");
    let bin = corpus_binary("mlir-loop_sum.spv");
    let args = |m: &Path| {
        vec![
            "run-spv".to_string(),
            m.to_str().unwrap().to_string(),
            "--grid".into(),
            "2".into(),
            "--buf".into(),
            "0:0=i32[64]=iota".into(),
            "--buf".into(),
            "0:1=i32[64]".into(),
            "--print".into(),
            "0:1".into(),
        ]
    };
    let run = |m: &Path| {
        let a = args(m);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        kiln_ok(&a)
    };
    let from_text = run(&src);
    let from_binary = run(&bin);
    assert_eq!(from_text, from_binary);
    assert!(from_text.starts_with("0:1 = ["), "{from_text}");
}

/// `c[i] = a[i] + b[i]` on vec4s, `a` and `b` `Rgba32f` uniform texel
/// buffers, `c` a storage buffer; 64 invocations.
const TEXEL_ADD: &str = r#"
!img = !spirv.image<f32, Buffer, NoDepth, NonArrayed, SingleSampled, NeedSampler, Rgba32f>
!out = !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, SampledBuffer], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @a bind(0, 0) : !spirv.ptr<!img, UniformConstant>
  spirv.GlobalVariable @b bind(0, 1) : !spirv.ptr<!img, UniformConstant>
  spirv.GlobalVariable @c bind(0, 2) : !out
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @main() "None" {
    %gp = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g = spirv.Load "Input" %gp : vector<3xi32>
    %i = spirv.CompositeExtract %g[0 : i32] : vector<3xi32>
    %ap = spirv.mlir.addressof @a : !spirv.ptr<!img, UniformConstant>
    %ai = spirv.Load "UniformConstant" %ap : !img
    %av = "spirv.ImageFetch"(%ai, %i) : (!img, i32) -> vector<4xf32>
    %bp = spirv.mlir.addressof @b : !spirv.ptr<!img, UniformConstant>
    %bi = spirv.Load "UniformConstant" %bp : !img
    %bv = "spirv.ImageFetch"(%bi, %i) : (!img, i32) -> vector<4xf32>
    %sum = spirv.FAdd %av, %bv : vector<4xf32>
    %zero = spirv.Constant 0 : i32
    %cp = spirv.mlir.addressof @c : !out
    %dst = spirv.AccessChain %cp[%zero, %i] : !out, i32, i32
    spirv.Store "StorageBuffer" %dst, %sum : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
"#;

#[test]
fn run_spv_binds_uniform_texel_buffers() {
    let dir = scratch("run-spv-texel");
    let module = dir.join("texel_add.mlir");
    std::fs::write(&module, TEXEL_ADD).unwrap();
    let out = kiln_ok(&[
        "run-spv",
        module.to_str().unwrap(),
        "--validation",
        "--buf",
        "0:0=f32[256]=iota",
        "--buf",
        "0:1=f32[256]=0.5",
        "--buf",
        "0:2=f32[256]",
        "--print",
        "0:2",
    ]);
    let want: Vec<String> = (0..256).map(|i| format!("{}", i as f32 + 0.5)).collect();
    assert_eq!(out.trim_end(), format!("0:2 = [{}]", want.join(", ")));
}
