//! `arith` lowering: integer and float kernels under a minimal, a
//! subgroup-capable and lavapipe's target env, every binary through
//! spirv-val; 8-bit buffers native where the env allows them and packed
//! into 32-bit words where it does not.

use crate::lower_util as util;

use util::*;

#[test]
fn integer_ops_lower_and_validate_everywhere() {
    for (env, mods) in compile_everywhere("arith_int") {
        let m = &mods[0].module;
        for op in [
            "IAdd",
            "ISub",
            "IMul",
            "SDiv",
            "UDiv",
            "UMod",
            "BitwiseAnd",
            "BitwiseOr",
            "BitwiseXor",
            "ShiftLeftLogical",
            "ShiftRightArithmetic",
            "ShiftRightLogical",
            "GL.SMax",
            "GL.UMin",
            "SLessThan",
            "UGreaterThanEqual",
            "Select",
            "UMulExtended",
            "IAddCarry",
        ] {
            assert!(has_op(m, op), "{env}: no {op} in\n{}", print(m));
        }
        // remsi avoids OpSRem (undefined for negative operands in Vulkan).
        assert!(!has_op(m, "SRem"), "{env}: SRem used");
        assert!(has_op(m, "GL.SAbs"), "{env}: remsi emulation missing");
        assert_eq!(mods[0].name, "arith_int");
        assert_eq!(m.symbol_name(m.top()), Some("__spv__arith_int"));
    }
}

#[test]
fn float_ops_lower_and_validate_everywhere() {
    for (env, mods) in compile_everywhere("arith_float") {
        let m = &mods[0].module;
        for op in [
            "FAdd",
            "FSub",
            "FMul",
            "FDiv",
            "FRem",
            "FNegate",
            "GL.FMax",
            "GL.FMin",
            "IsNan",
            "FOrdLessThan",
            "ConvertFToS",
            "ConvertSToF",
            "Bitcast",
            "LogicalOr",
        ] {
            assert!(has_op(m, op), "{env}: no {op}");
        }
    }
}

#[test]
fn i8_buffers_are_native_on_lavapipe() {
    let km = kernels("arith_i8");
    let m = &compile(&km, &lavapipe())[0].module;
    let text = print(m);
    assert!(
        text.contains("!spirv.array<16 x i8, stride=1>"),
        "expected native i8 storage:\n{text}"
    );
    assert!(!has_op(m, "AtomicAnd"));
    let caps = capabilities(m);
    assert!(caps.contains(&"Int8".to_string()), "{caps:?}");
    assert!(
        caps.contains(&"StorageBuffer8BitAccess".to_string()),
        "{caps:?}"
    );
}

#[test]
fn i8_buffers_are_packed_without_int8() {
    let km = kernels("arith_i8");
    let m = &compile(&km, &env(MINIMAL))[0].module;
    let text = print(m);
    // 16 bytes = 4 words; no 8-bit type anywhere.
    assert!(
        text.contains("!spirv.array<4 x i32, stride=4>"),
        "expected i8 packed into i32 words:\n{text}"
    );
    assert!(!uses_int_type(m, 8), "an 8-bit type survived:\n{text}");
    // Writes merge into the word atomically; reads shift, mask and
    // sign-extend (as MLIR's emulation does).
    for op in [
        "AtomicAnd",
        "AtomicOr",
        "ShiftRightArithmetic",
        "ShiftLeftLogical",
        "Not",
    ] {
        assert!(has_op(m, op), "no {op}");
    }
    assert_eq!(capabilities(m), ["Shader"]);
}

#[test]
fn i8_values_native_but_storage_packed_without_8bit_storage() {
    // Int8 arithmetic but no StorageBuffer8BitAccess: values are i8, the
    // buffer is i32 words.
    let e = env("#spirv.target_env<#spirv.vce<v1.0, [Shader, Int8], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>");
    let m = &compile(&kernels("arith_i8"), &e)[0].module;
    let text = print(m);
    assert!(text.contains("!spirv.array<4 x i32, stride=4>"), "{text}");
    assert!(has_op(m, "AtomicOr"));
    assert!(
        text.contains("spirv.IAdd") && text.contains(": i8"),
        "{text}"
    );
    assert!(capabilities(m).contains(&"Int8".to_string()));
}

/// The form of MLIR's Vulkan-runner tests: the module's own
/// `spirv.target_env` (here without Int8 or 8-bit storage) applies when no
/// env is given, and host `func.func`s are ignored.
const RUNNER_FORM: &str = r#"module attributes {
  gpu.container_module,
  spirv.target_env = #spirv.target_env<
    #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage]>, #spirv.resource_limits<>>
} {
  gpu.module @kernels {
    gpu.func @kernel_addi(%arg0 : memref<8xi8>, %arg1 : memref<8x8xi8>, %arg2 : memref<8x8x8xi32>)
      kernel attributes { spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %x = gpu.block_id x
      %y = gpu.block_id y
      %z = gpu.block_id z
      %0 = memref.load %arg0[%x] : memref<8xi8>
      %1 = memref.load %arg1[%y, %x] : memref<8x8xi8>
      %2 = arith.addi %0, %1 : i8
      %3 = arith.extui %2 : i8 to i32
      memref.store %3, %arg2[%z, %y, %x] : memref<8x8x8xi32>
      gpu.return
    }
  }
  func.func @main() {
    %arg0 = memref.alloc() : memref<8xi8>
    return
  }
}
"#;

#[test]
fn module_target_env_applies_without_an_explicit_one() {
    let km = kernels_from(RUNNER_FORM);
    let out = kiln_core::lower::compile_to_binaries(&km, None, &Default::default())
        .expect("compiles for the module's env");
    assert_eq!(out.len(), 1);
    let m = &out[0].module;
    spirv_val(&out[0].words, out[0].validation_env.name(), "runner_form");
    let text = print(m);
    assert!(text.contains("!spirv.array<2 x i32, stride=4>"), "{text}");
    assert!(text.contains("!spirv.array<16 x i32, stride=4>"), "{text}");
    assert_eq!(capabilities(m), ["Shader"]);
}

/// `maxnumf`/`maximumf`/`minnumf`/`minimumf` lower to the GLSL op plus
/// two `IsNan` checks and selects, except under `fastmath<nnan>` or
/// `fastmath<fast>`, where the operands are promised not to be NaN and
/// the GLSL op stands alone (as MLIR 19's arith-to-spirv lowers them).
#[test]
fn nnan_min_max_lower_to_the_bare_glsl_op() {
    let src = |flags: &str| {
        format!(
            r#"
gpu.module @k {{
  gpu.func @f(%a: memref<8xf32>, %out: memref<8xf32>) kernel
      attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>}} {{
    %i = gpu.thread_id x
    %x = memref.load %a[%i] : memref<8xf32>
    %y = memref.load %out[%i] : memref<8xf32>
    %0 = arith.maxnumf %x, %y{flags} : f32
    %1 = arith.minimumf %0, %x{flags} : f32
    memref.store %1, %out[%i] : memref<8xf32>
    gpu.return
  }}
}}"#
        )
    };
    for flags in [
        " fastmath<nnan>",
        " fastmath<fast>",
        " fastmath<nnan,ninf>",
        "",
    ] {
        let km = kernels_from(&src(flags));
        let m = &compile(&km, &lavapipe())[0].module;
        let text = print(m);
        assert!(text.contains("spirv.GL.FMax"), "{flags:?}: no FMax\n{text}");
        assert!(text.contains("spirv.GL.FMin"), "{flags:?}: no FMin\n{text}");
        let checked = flags.is_empty();
        assert_eq!(
            has_op(m, "IsNan"),
            checked,
            "{flags:?}: IsNan present should be {checked}\n{text}"
        );
    }
}

/// Float arithmetic with a constant `+0.0` operand is emitted without one
/// (lavapipe folds `x * 0.0` to `+0` and `x + 0.0` to `x`: DRIVERS.md), and
/// every kernel declares `SignedZeroInfNanPreserve` for its float width
/// where the env preserves it (lavapipe), not where it does not (the
/// minimal env). The values are checked on the device by the corpus file
/// `edge_values_constant_operand.mlir`.
#[test]
fn constant_positive_zero_operands_are_rewritten() {
    use kiln_core::ir::{AttrKind, Module, OpKind};
    let km = kernels_from(
        r#"module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%a: memref<8xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<8xf32>
      %z = arith.constant 0.0 : f32
      %nz = arith.constant -0.0 : f32
      %m = arith.mulf %x, %z : f32
      %d = arith.divf %z, %m : f32
      %s = arith.addf %d, %z : f32
      %t = arith.subf %s, %nz : f32
      %u = arith.subf %z, %t : f32
      %f = math.fma %u, %x, %z : f32
      %g = arith.maximumf %f, %z : f32
      memref.store %g, %a[%i] : memref<8xf32>
      gpu.return
    }
  }
}"#,
    );
    let zero_operands = |m: &Module| {
        let mut found = Vec::new();
        m.walk(m.top(), &mut |op| {
            let name = m.op(op).kind.name().into_owned();
            if !["FAdd", "FSub", "FMul", "FDiv", "GL.Fma"].contains(&name.as_str()) {
                return;
            }
            for &v in &m.op(op).operands {
                let Some(def) = m.defining_op(v) else {
                    continue;
                };
                let plus_zero = m.op(def).kind == OpKind::Constant
                    && matches!(
                        m.attr_kind(def, "value"),
                        Some(AttrKind::Float { bits: 0, .. })
                    );
                if plus_zero {
                    found.push(name.clone());
                }
            }
        });
        found
    };
    for (env, target) in all_envs() {
        let mods = compile(&km, &target);
        let m = &mods[0].module;
        assert!(
            zero_operands(m).is_empty(),
            "{env}: {:?}\n{}",
            zero_operands(m),
            print(m)
        );
        for op in ["FMul", "FDiv", "FNegate", "GL.Fma", "Select"] {
            assert!(has_op(m, op), "{env}: no {op}");
        }
        let text = print(m);
        let mode = text.contains("spirv.ExecutionMode @k \"SignedZeroInfNanPreserve\", 32");
        assert_eq!(mode, env == "lavapipe", "{env}:\n{text}");
    }
}
