//! `kiln opt --lower-abi-attrs` against `mlir-opt-19 --spirv-lower-abi-attrs`
//! (the oracle, installed by ci/setup.sh; missing tools fail the test) and
//! spirv-val.
//!
//! For each input in the style of MLIR's own lower-abi-attrs tests, the
//! module-level structure must agree with MLIR 19's: the same
//! `spirv.GlobalVariable`s (names, bindings, laid-out types), the same
//! `spirv.EntryPoint` and `spirv.ExecutionMode`, and the
//! `spirv.entry_point_abi<subgroup_size = N>` left on the function. Two
//! deliberate differences are checked on their own: kiln gathers scalar
//! push-constant arguments into one block without `bind` (MLIR makes one
//! bound variable per argument, which Vulkan rejects), and kiln re-types
//! uses instead of inserting `spirv.Bitcast`. Every kiln output, after
//! `--update-vce`, serializes and passes spirv-val.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use crate::common;

const MLIR_OPT: &str = "/usr/lib/llvm-19/bin/mlir-opt";

use common::run;

fn kiln(args: &[&str], stdin: &str) -> (i32, String, String) {
    run(common::kiln_cmd().args(args), stdin.as_bytes())
}

fn kiln_ok(args: &[&str], stdin: &str) -> String {
    let (code, out, err) = kiln(args, stdin);
    assert_eq!(code, 0, "kiln {args:?} failed: {err}\n{stdin}");
    out
}

fn mlir_lower(src: &str) -> String {
    let (code, out, err) = run(
        Command::new(MLIR_OPT).args(["--spirv-lower-abi-attrs", "-"]),
        src.as_bytes(),
    );
    assert_eq!(code, 0, "mlir-opt-19 failed: {err}");
    out
}

/// The trimmed lines that start with one of `prefixes`.
fn lines_with<'a>(text: &'a str, prefixes: &[&str]) -> Vec<&'a str> {
    text.lines()
        .map(str::trim)
        .filter(|l| prefixes.iter().any(|p| l.starts_with(p)))
        .collect()
}

/// An entry point line with its interface as a set (order may differ).
fn entry_point_set(line: &str) -> BTreeSet<String> {
    line.split(',').map(|s| s.trim().to_owned()).collect()
}

/// Module-level structure of kiln's and MLIR's outputs agree.
fn assert_same_structure(kiln_out: &str, mlir_out: &str) {
    let k = lines_with(kiln_out, &["spirv.GlobalVariable"]);
    let m = lines_with(mlir_out, &["spirv.GlobalVariable"]);
    assert_eq!(
        k.iter().collect::<BTreeSet<_>>(),
        m.iter().collect::<BTreeSet<_>>(),
        "global variables differ\nkiln:\n{kiln_out}\nmlir:\n{mlir_out}"
    );
    let k = lines_with(kiln_out, &["spirv.EntryPoint"]);
    let m = lines_with(mlir_out, &["spirv.EntryPoint"]);
    assert_eq!(k.len(), m.len());
    for (a, b) in k.iter().zip(&m) {
        assert_eq!(
            entry_point_set(a),
            entry_point_set(b),
            "entry points differ"
        );
    }
    assert_eq!(
        lines_with(kiln_out, &["spirv.ExecutionMode"]),
        lines_with(mlir_out, &["spirv.ExecutionMode"])
    );
    let abi = |t: &str| -> Vec<String> {
        lines_with(t, &["spirv.func"])
            .iter()
            .map(|l| {
                l.split_once("attributes")
                    .map_or("", |p| p.1)
                    .trim()
                    .to_owned()
            })
            .collect()
    };
    assert_eq!(abi(kiln_out), abi(mlir_out), "function attributes differ");
}

/// `kiln opt` output → serialize → `spirv-val --target-env env`.
fn assert_validates(lowered_text: &str, env: &str) {
    let dir = common::scratch("lower-abi");
    let spv = dir.join("m.spv");
    kiln_ok(
        &["translate", "--serialize", "-", "-o", spv.to_str().unwrap()],
        lowered_text,
    );
    let (code, out) = common::spirv_val(&spv, env, &[]);
    assert_eq!(code, 0, "spirv-val {env}: {out}\n{lowered_text}");
    let _ = std::fs::remove_dir_all(&dir);
}

const ENV_1_0: &str = "spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>";

/// A scalar in a storage buffer and a struct of an unlaid-out array; a
/// subgroup size that stays on the function.
fn scalar_and_array() -> String {
    format!(
        r#"module attributes {{ {ENV_1_0} }} {{
spirv.module Logical GLSL450 {{
  spirv.func @kernel(
    %arg0: f32 {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0), StorageBuffer>}},
    %arg1: !spirv.ptr<!spirv.struct<(!spirv.array<12 x f32>)>, StorageBuffer> {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}}) "None"
  attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1], subgroup_size = 64>}} {{
    spirv.Return
  }}
}}
}}
"#
    )
}

/// Nested arrays, vec3 members, builtins (one used, one not), loads and
/// stores through access chains of the arguments.
fn load_store() -> String {
    format!(
        r#"module attributes {{ {ENV_1_0} }} {{
spirv.module Logical GLSL450 {{
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @nwg built_in("NumWorkgroups") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @load_store(
    %a: !spirv.ptr<!spirv.struct<(!spirv.array<12 x !spirv.array<4 x f32>>)>, StorageBuffer> {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}},
    %b: !spirv.ptr<!spirv.struct<(i32, vector<3xf32>, !spirv.array<4 x vector<2xf32>>)>, StorageBuffer> {{spirv.interface_var_abi = #spirv.interface_var_abi<(1, 2)>}},
    %c: !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>>)>, StorageBuffer> {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 3)>}},
    %d: i32 {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 5), StorageBuffer>}}) "None"
  attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 4, 2]>}} {{
    %id = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %id : vector<3xi32>
    %i = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %c2 = spirv.Constant 2 : i32
    %pa = spirv.AccessChain %a[%c0, %i, %c1] : !spirv.ptr<!spirv.struct<(!spirv.array<12 x !spirv.array<4 x f32>>)>, StorageBuffer>, i32, i32, i32
    %x = spirv.Load "StorageBuffer" %pa : f32
    %pb = spirv.AccessChain %b[%c2, %i] : !spirv.ptr<!spirv.struct<(i32, vector<3xf32>, !spirv.array<4 x vector<2xf32>>)>, StorageBuffer>, i32, i32
    %row = spirv.Load "StorageBuffer" %pb : vector<2xf32>
    %y = spirv.CompositeExtract %row[1 : i32] : vector<2xf32>
    %s = spirv.FAdd %x, %y : f32
    %pc = spirv.AccessChain %c[%c0, %i, %c2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>>)>, StorageBuffer>, i32, i32, i32
    spirv.Store "StorageBuffer" %pc, %s : f32
    %pd = spirv.AccessChain %b[%c0] : !spirv.ptr<!spirv.struct<(i32, vector<3xf32>, !spirv.array<4 x vector<2xf32>>)>, StorageBuffer>, i32
    spirv.Store "StorageBuffer" %pd, %d : i32
    spirv.Return
  }}
}}
}}
"#
    )
}

#[test]
fn scalar_and_array_match_mlir() {
    let src = scalar_and_array();
    let ours = kiln_ok(&["opt", "--lower-abi-attrs", "-"], &src);
    assert_same_structure(&ours, &mlir_lower(&src));
    assert!(
        ours.contains("#spirv.entry_point_abi<subgroup_size = 64>"),
        "{ours}"
    );
    assert_validates(&kiln_ok(&["opt", "--update-vce", "-"], &ours), "vulkan1.0");
}

#[test]
fn load_store_matches_mlir_without_bitcasts() {
    let src = load_store();
    let ours = kiln_ok(&["opt", "--lower-abi-attrs", "-"], &src);
    let theirs = mlir_lower(&src);
    assert_same_structure(&ours, &theirs);
    // MLIR bridges the unlaid-out argument types with bitcasts of
    // pointers, which logical addressing forbids; kiln re-types the uses.
    assert!(theirs.contains("spirv.Bitcast"), "{theirs}");
    assert!(!ours.contains("spirv.Bitcast"), "{ours}");
    assert!(
        !ours.contains("!spirv.array<4 x f32>)"),
        "an unlaid-out type is left: {ours}"
    );
    let lowered = kiln_ok(&["opt", "--lower-abi-attrs", "--update-vce", "-"], &src);
    assert_validates(&lowered, "vulkan1.0");
}

#[test]
fn push_constants_gather_into_one_unbound_block() {
    let src = format!(
        r#"module attributes {{ {ENV_1_0} }} {{
spirv.module Logical GLSL450 {{
  spirv.func @pc(
    %n: i32 {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0), PushConstant>}},
    %out: !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32>)>, StorageBuffer> {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}},
    %k: f32 {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 2), PushConstant>}},
    %m: f32 {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 3), PushConstant>}}) "None"
  attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>}} {{
    %c0 = spirv.Constant 0 : i32
    %p = spirv.AccessChain %out[%c0, %n] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32>)>, StorageBuffer>, i32, i32
    %y = spirv.FMul %m, %k : f32
    spirv.Store "StorageBuffer" %p, %y : f32
    spirv.Return
  }}
}}
}}
"#
    );
    let ours = kiln_ok(&["opt", "--lower-abi-attrs", "-"], &src);
    let globals = lines_with(&ours, &["spirv.GlobalVariable"]);
    // std430, in argument order.
    assert!(
        globals.contains(
            &"spirv.GlobalVariable @pc_push_constants : !spirv.ptr<!spirv.struct<(i32 [0], f32 [4], f32 [8])>, PushConstant>"
        ),
        "{ours}"
    );
    assert_eq!(globals.len(), 2, "{ours}");
    // MLIR makes three bound push-constant variables.
    let theirs = mlir_lower(&src);
    assert_eq!(
        lines_with(&theirs, &["spirv.GlobalVariable"])
            .iter()
            .filter(|l| l.contains("PushConstant>") && l.contains("bind("))
            .count(),
        3,
        "{theirs}"
    );
    let lowered = kiln_ok(&["opt", "--lower-abi-attrs", "--update-vce", "-"], &src);
    assert_validates(&lowered, "vulkan1.0");
}

/// From SPIR-V 1.4 on, the entry point lists every global it uses (newer
/// MLIR does this too; MLIR 19 does not, and spirv-val then rejects its
/// module).
#[test]
fn spirv_1_4_lists_every_used_global() {
    let src = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.4, [Shader], []> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @k(
    %a: !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32>)>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>},
    %n: i32 {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1), PushConstant>}) "None"
  attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
    %id = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %id : vector<3xi32>
    %i = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %p = spirv.AccessChain %a[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32>)>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %p, %n : i32
    spirv.Return
  }
}
"#;
    let ours = kiln_ok(&["opt", "--lower-abi-attrs", "-"], src);
    let ep = lines_with(&ours, &["spirv.EntryPoint"]);
    assert_eq!(ep.len(), 1);
    assert_eq!(
        entry_point_set(ep[0]),
        entry_point_set(r#"spirv.EntryPoint "GLCompute" @k, @k_arg_0, @k_arg_1, @gid"#),
        "{ours}"
    );
    assert_validates(&ours, "vulkan1.1spv1.4");
    // With --update-vce the version drops to 1.0 (StorageBuffer through
    // the extension the 1.4 target implies) and the list follows.
    let env = "#spirv.target_env<#spirv.vce<v1.4, [Shader], []>, #spirv.resource_limits<>>";
    let lowered = kiln_ok(
        &[
            "opt",
            "--lower-abi-attrs",
            "--update-vce",
            "--target-env",
            env,
            "-",
        ],
        src,
    );
    assert!(lowered.contains("requires #spirv.vce<v1.0"), "{lowered}");
    assert!(
        lowered.contains(r#"spirv.EntryPoint "GLCompute" @k, @gid"#),
        "{lowered}"
    );
    assert_validates(&lowered, "vulkan1.0");
}

#[test]
fn errors_name_the_function_and_argument() {
    let src = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @bad(
    %a: !spirv.ptr<!spirv.struct<(f32)>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>},
    %b: !spirv.ptr<f32, Function>) "None"
  attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    spirv.Return
  }
}
"#;
    let (code, _, err) = kiln(&["opt", "--lower-abi-attrs", "-"], src);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        err.trim(),
        "error: <stdin>: 2:3: @bad: argument 1 has no spirv.interface_var_abi attribute"
    );
    let no_size = src
        .replace(",\n    %b: !spirv.ptr<f32, Function>", "")
        .replace("workgroup_size = [1, 1, 1]", "subgroup_size = 32");
    let (code, _, err) = kiln(&["opt", "--lower-abi-attrs", "-"], &no_size);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("@bad: no workgroup size"), "{err}");
}

/// A kernel writing `gid * k + bias + n` with push constants `n`, `k` and
/// a specialization constant `bias` (SpecId 4), workgroup size [4, 1, 1].
fn push_and_spec_kernel() -> String {
    format!(
        r#"module attributes {{ {ENV_1_0} }} {{
spirv.module Logical GLSL450 {{
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.SpecConstant @bias spec_id(4 : i32) = 1.0 : f32
  spirv.func @run(
    %n: i32 {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1), PushConstant>}},
    %k: f32 {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 2), PushConstant>}},
    %out: !spirv.ptr<!spirv.rtarray<f32>, StorageBuffer> {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}}) "None"
  attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>}} {{
    %id = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %id : vector<3xi32>
    %i = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %fi = spirv.ConvertSToF %i : i32 to f32
    %fn = spirv.ConvertSToF %n : i32 to f32
    %b = spirv.mlir.referenceof @bias : f32
    %t0 = spirv.FMul %fi, %k : f32
    %t1 = spirv.FAdd %t0, %b : f32
    %t2 = spirv.FAdd %t1, %fn : f32
    %p = spirv.AccessChain %out[%i] : !spirv.ptr<!spirv.rtarray<f32>, StorageBuffer>, i32
    spirv.Store "StorageBuffer" %p, %t2 : f32
    spirv.Return
  }}
}}
}}
"#
    )
}

/// The `kiln run-spv` arguments that run `push_and_spec_kernel`'s `@run`
/// from the binary at `spv` on one workgroup: a 4-float output buffer,
/// printed, and push constants `n = 10`, `k = 0.5`.
fn run_spv_args(spv: &str) -> Vec<&str> {
    vec![
        "run-spv",
        spv,
        "--entry",
        "run",
        "--grid",
        "1",
        "--validation",
        "--buf",
        "0:0=f32[4]",
        "--print",
        "0:0",
        "--push",
        "i32=10,f32=0.5",
    ]
}

/// A lowered kernel runs through `kiln run-spv` with push constants given
/// as `--push TYPE=V,TYPE=V` (one block: i32 at 0, f32 at 4) and a
/// specialization constant set with `--spec ID=VALUE`. (`spec_id(4 : i32)`
/// because the parser types a bare `spec_id(4)` as i64, which update-vce
/// then counts as a use of Int64.)
#[test]
fn lowered_kernel_runs_with_push_and_spec() {
    let src = push_and_spec_kernel();
    let lowered = kiln_ok(&["opt", "--lower-abi-attrs", "--update-vce", "-"], &src);
    let dir = common::scratch("lower-abi");
    let spv = dir.join("run.spv");
    kiln_ok(
        &["translate", "--serialize", "-", "-o", spv.to_str().unwrap()],
        &lowered,
    );
    let base = run_spv_args(spv.to_str().unwrap());
    let expect = |bias: f32| -> String {
        let v: Vec<String> = (0..4)
            .map(|i| (i as f32 * 0.5 + bias + 10.0).to_string())
            .collect();
        format!("0:0 = [{}]", v.join(", "))
    };
    let out = kiln_ok(&base, "");
    assert_eq!(out.trim(), expect(1.0));
    let mut with_spec = base.clone();
    with_spec.extend(["--spec", "4=2.25"]);
    assert_eq!(kiln_ok(&with_spec, "").trim(), expect(2.25));
    // The same push bytes as two flags.
    let mut split = base[..base.len() - 1].to_vec();
    split.extend(["i32=10", "--push", "f32=0.5"]);
    assert_eq!(kiln_ok(&split, "").trim(), expect(1.0));
    // Unknown SpecId, short push constants.
    let mut bad = base.clone();
    bad.extend(["--spec", "9=1"]);
    let (code, out, err) = kiln(&bad, "");
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(
        err.trim(),
        "error: --spec 9=1: entry point \"run\" has no specialization constant 9 (the module \
         has 4 (f32))"
    );
    let mut short = base[..base.len() - 1].to_vec();
    short.push("i32=10");
    let (code, out, err) = kiln(&short, "");
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(
        err.trim(),
        "error: entry point \"run\" takes 8 bytes of push constants, --push gave 4"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The explicit layouts lower-abi-attrs gives a uniform block (std140)
/// and a storage buffer (std430) are exactly glslang's for the same GLSL
/// declarations (compared on the disassembled decorations), and a struct
/// loaded whole from the uniform block is re-typed through
/// `spirv.CompositeExtract`.
#[test]
fn block_layouts_match_glslang() {
    let glsl = r#"#version 450
layout(local_size_x = 1) in;
struct S { float x; vec2 y; };
layout(set = 0, binding = 0, std140) uniform U { float a[4]; vec3 b; S s; float c; } u;
layout(set = 0, binding = 1, std430) buffer O { float o[8]; } o;
void main() { o.o[3] = u.a[2] + u.s.x + u.c + u.b.x; }
"#;
    let src = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.func @u(
    %u: !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32>, vector<3xf32>, !spirv.struct<(f32, vector<2xf32>)>, f32)>, Uniform> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>},
    %o: !spirv.ptr<!spirv.array<8 x f32>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}) "None"
  attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    %c0 = spirv.Constant 0 : i32
    %c2 = spirv.Constant 2 : i32
    %c3 = spirv.Constant 3 : i32
    %p = spirv.AccessChain %u[%c0, %c2] : !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32>, vector<3xf32>, !spirv.struct<(f32, vector<2xf32>)>, f32)>, Uniform>, i32, i32
    %x = spirv.Load "Uniform" %p : f32
    %q = spirv.AccessChain %u[%c2] : !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32>, vector<3xf32>, !spirv.struct<(f32, vector<2xf32>)>, f32)>, Uniform>, i32
    %s = spirv.Load "Uniform" %q : !spirv.struct<(f32, vector<2xf32>)>
    %y = spirv.CompositeExtract %s[0 : i32] : !spirv.struct<(f32, vector<2xf32>)>
    %z = spirv.FAdd %x, %y : f32
    %r = spirv.AccessChain %o[%c3] : !spirv.ptr<!spirv.array<8 x f32>, StorageBuffer>, i32
    spirv.Store "StorageBuffer" %r, %z : f32
    spirv.Return
  }
}
"#;
    let dir = common::scratch("lower-abi");
    let comp = dir.join("s.comp");
    let glsl_spv = dir.join("glsl.spv");
    std::fs::write(&comp, glsl).unwrap();
    let (code, out, err) = run(
        Command::new("glslangValidator")
            .args(["-V", "-o"])
            .arg(&glsl_spv)
            .arg(&comp),
        b"",
    );
    assert_eq!(code, 0, "glslangValidator: {out}{err}");
    let lowered = kiln_ok(&["opt", "--lower-abi-attrs", "-"], src);
    assert_validates(&lowered, "vulkan1.0");
    let kiln_spv = dir.join("kiln.spv");
    kiln_ok(
        &[
            "translate",
            "--serialize",
            "-",
            "-o",
            kiln_spv.to_str().unwrap(),
        ],
        &lowered,
    );
    // Per struct (by id), its member offsets in order; all array strides.
    let layout = |spv: &PathBuf| -> (BTreeSet<Vec<u32>>, Vec<u32>) {
        let (code, dis, err) = run(Command::new("spirv-dis").arg(spv), b"");
        assert_eq!(code, 0, "spirv-dis: {err}");
        let mut structs: std::collections::BTreeMap<String, Vec<u32>> = Default::default();
        let mut strides = Vec::new();
        for line in dis.lines() {
            let w: Vec<&str> = line.split_whitespace().collect();
            match w.as_slice() {
                ["OpMemberDecorate", id, _, "Offset", n] => structs
                    .entry(id.to_string())
                    .or_default()
                    .push(n.parse().unwrap()),
                ["OpDecorate", _, "ArrayStride", n] => strides.push(n.parse().unwrap()),
                _ => {}
            }
        }
        strides.sort_unstable();
        (structs.into_values().collect(), strides)
    };
    let (ours, theirs) = (layout(&kiln_spv), layout(&glsl_spv));
    assert_eq!(ours, theirs);
    assert!(ours.0.contains(&vec![0, 64, 80, 96]), "{ours:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--scalar-block-layout` packs a vec3 at offset 8; `kiln validate` and
/// `spirv-val` accept the binary only with their scalar-layout switch.
#[test]
fn scalar_block_layout_validates_with_the_scalar_switch() {
    let src = format!(
        r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> attributes {{{ENV_1_0}}} {{
  spirv.func @h(%a: !spirv.ptr<!spirv.struct<(f32, f32, vector<3xf32>)>, StorageBuffer> {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}}) "None"
  attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>}} {{
    spirv.Return
  }}
}}"#
    );
    let lowered = kiln_ok(
        &["opt", "--lower-abi-attrs", "--scalar-block-layout", "-"],
        &src,
    );
    assert!(
        lowered.contains("!spirv.struct<(f32 [0], f32 [4], vector<3xf32> [8])>"),
        "{lowered}"
    );
    let dir = common::scratch("lower-abi");
    let spv = dir.join("scalar.spv");
    let spv_path = spv.to_str().unwrap();
    kiln_ok(&["translate", "--serialize", "-", "-o", spv_path], &lowered);
    let validate = |extra: &[&str]| {
        let mut args = vec!["validate", "--target-env", "vulkan1.1"];
        args.extend_from_slice(extra);
        args.push(spv_path);
        kiln(&args, "")
    };
    let (code, out, _) = validate(&[]);
    assert_eq!(code, 1, "{out}");
    let (code, out, err) = validate(&["--scalar-block-layout"]);
    assert_eq!((code, out.trim()), (0, "valid"), "{err}");
    // The reference tool agrees on both counts.
    let (code, out) = common::spirv_val(&spv, "vulkan1.1", &[]);
    assert_ne!(code, 0, "{out}");
    let (code, out) = common::spirv_val(&spv, "vulkan1.1", &["--scalar-block-layout"]);
    assert_eq!(code, 0, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--workgroup-size-spec-ids`: the workgroup size becomes specialization
/// constants, chosen at pipeline creation with `run-spv --spec`.
#[test]
fn workgroup_size_from_spec_constants() {
    let lowered = kiln_ok(
        &[
            "opt",
            "--lower-abi-attrs",
            "--workgroup-size-spec-ids",
            "100,101,102",
            "--update-vce",
            "-",
        ],
        &push_and_spec_kernel(),
    );
    assert!(lowered.contains("spec_id(100"), "{lowered}");
    // The composite decorated WorkgroupSize overrides LocalSize (which
    // stays, as glslang also emits it).
    assert!(
        lowered.contains("{built_in = \"WorkgroupSize\"}"),
        "{lowered}"
    );
    let dir = common::scratch("lower-abi");
    let spv = dir.join("wg.spv");
    let spv = spv.to_str().unwrap();
    kiln_ok(&["translate", "--serialize", "-", "-o", spv], &lowered);
    let run = |extra: &[&str]| {
        let mut args = run_spv_args(spv);
        args.extend_from_slice(extra);
        kiln_ok(&args, "")
    };
    // Default: the entry_point_abi size, 4 invocations.
    assert_eq!(run(&[]).trim(), "0:0 = [11, 11.5, 12, 12.5]");
    // Two invocations: the last two elements keep their fill.
    assert_eq!(run(&["--spec", "100=2"]).trim(), "0:0 = [11, 11.5, 0, 0]");
    let (code, _, err) = kiln(
        &[
            "opt",
            "--lower-abi-attrs",
            "--workgroup-size-spec-ids",
            "1,2",
            "-",
        ],
        "",
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("expected three SpecIds X,Y,Z, got 2"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
