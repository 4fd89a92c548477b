//! `math` lowering to GLSL.std.450 (plus expansions for ops it lacks or
//! defines differently), under every test env, through spirv-val; f64 math
//! without `Float64` is an error naming the capability.

use crate::lower_util as util;

use util::*;

#[test]
fn math_ops_map_to_glsl() {
    for (env, mods) in compile_everywhere("math") {
        let m = &mods[0].module;
        for op in [
            "GL.Exp",
            "GL.Exp2",
            "GL.Log",
            "GL.Log2",
            "GL.Sqrt",
            "GL.InverseSqrt",
            "GL.Sin",
            "GL.Cos",
            "GL.Tan",
            "GL.Atan",
            "GL.Atan2",
            "GL.Pow",
            "GL.Fma",
            "GL.FAbs",
            "GL.Floor",
            "GL.Ceil",
            "GL.RoundEven",
            "GL.Trunc",
            "GL.SAbs",
            "GL.FindUMsb",
            "GL.FindILsb",
            "BitCount",
        ] {
            assert!(has_op(m, op), "{env}: no {op}");
        }
        // math.round is not GL.Round (whose halfway rounding is undefined).
        assert!(!has_op(m, "GL.Round"), "{env}: GL.Round used");
        // math.tanh is expanded (fdlibm's expm1 formula, lower/libm):
        // lavapipe's GL.Tanh loses every digit near 0.
        assert!(!has_op(m, "GL.Tanh"), "{env}: GL.Tanh used");
    }
}

#[test]
fn f64_math_needs_float64() {
    let src = r#"
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<4xf64>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<4xf64>
      %y = math.sqrt %x : f64
      memref.store %y, %a[%i] : memref<4xf64>
      gpu.return
    }
  }
}
"#;
    let km = kernels_from(src);
    let err = lower_err(&km, &env(MINIMAL)).to_string();
    assert!(
        err.contains("'gpu.func': type memref<4xf64>: ")
            || err.contains("f64 needs capability Float64"),
        "{err}"
    );
    assert!(err.contains("Float64"), "{err}");
    // lavapipe has Float64: it compiles and declares it.
    let m = &compile(&km, &lavapipe())[0].module;
    assert!(capabilities(m).contains(&"Float64".to_string()));
    assert!(has_op(m, "GL.Sqrt"));
}
