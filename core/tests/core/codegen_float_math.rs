//! Math on f64 and f16 against GLSL.std.450's type rules: the functions it
//! defines for 16- and 32-bit floats only (the trigonometric and
//! hyperbolic ones, erf) are refused on f64 with an error naming the op
//! and its line, never emitted as a module spirv-val rejects; exp, log,
//! powf, tanh and their relatives have f64 expansions of kiln's own
//! (`lower::libm`) that validate, as do the functions GLSL.std.450
//! defines for 64-bit floats too; f16 math validates; and a backend's
//! error text keeps its causes (a validator's own words reach the user).

use kiln_core::codegen::{compile_function, prepare_module};
use kiln_core::tensor::e2e::BackendError;

use crate::common::{kernels_validate, lavapipe_target};

fn unary_program(op: &str, ty: &str) -> String {
    let args = if op == "math.powf" || op == "math.atan2" {
        "%a, %a"
    } else if op == "math.fma" {
        "%a, %a, %a"
    } else {
        "%a"
    };
    format!(
        "func.func @f(%a: tensor<8x{ty}>) -> tensor<8x{ty}> {{\n  %c = {op} {args} : tensor<8x{ty}>\n  return %c : tensor<8x{ty}>\n}}"
    )
}

fn compile(text: &str) -> Result<kiln_core::codegen::CompiledFunction, String> {
    let m = kiln_core::tensor::load(text).map_err(|e| e.to_string())?;
    let prepared = prepare_module(&m).map_err(|e| e.to_string())?;
    let f = prepared.funcs()[0];
    compile_function(&prepared, f, &lavapipe_target()).map_err(|e| BackendError::chain(&e))
}

const GLSL_32BIT_ONLY: [&str; 13] = [
    "math.sin",
    "math.cos",
    "math.tan",
    "math.asin",
    "math.acos",
    "math.atan",
    "math.atan2",
    "math.sinh",
    "math.cosh",
    "math.asinh",
    "math.acosh",
    "math.atanh",
    "math.erf",
];

/// The f64 functions kiln expands itself (`lower::libm`).
const F64_EXPANDED: [&str; 9] = [
    "math.exp",
    "math.exp2",
    "math.expm1",
    "math.log",
    "math.log2",
    "math.log10",
    "math.log1p",
    "math.powf",
    "math.tanh",
];

#[test]
fn f64_transcendentals_are_refused_naming_the_op() {
    for op in GLSL_32BIT_ONLY {
        let err = compile(&unary_program(op, "f64")).expect_err(op);
        assert_eq!(
            err,
            format!(
                "2:8: '{op}' op on f64 is refused: GLSL.std.450 defines it for 16- and 32-bit \
                 floats only, and kiln has no f64-accurate lowering (computing it in f32 would \
                 give f32 accuracy)"
            )
        );
    }
}

#[test]
fn f64_expansions_validate() {
    for op in F64_EXPANDED {
        let f = compile(&unary_program(op, "f64")).unwrap_or_else(|e| panic!("{op}: {e}"));
        kernels_validate(&f);
    }
}

#[test]
fn expm1_log1p_and_tanh_expansions_validate_on_f32_and_f16() {
    for ty in ["f32", "f16"] {
        for op in ["math.expm1", "math.log1p", "math.tanh"] {
            let f = compile(&unary_program(op, ty)).unwrap_or_else(|e| panic!("{op} {ty}: {e}"));
            kernels_validate(&f);
        }
    }
}

#[test]
fn f64_math_glsl_defines_for_doubles_validates() {
    for op in [
        "math.sqrt",
        "math.rsqrt",
        "math.absf",
        "math.floor",
        "math.ceil",
        "math.trunc",
        "math.roundeven",
        "math.fma",
    ] {
        let f = compile(&unary_program(op, "f64")).unwrap_or_else(|e| panic!("{op}: {e}"));
        kernels_validate(&f);
    }
}

#[test]
fn f16_and_f32_math_validates() {
    for ty in ["f16", "f32"] {
        for op in GLSL_32BIT_ONLY {
            let f = compile(&unary_program(op, ty)).unwrap_or_else(|e| panic!("{op} {ty}: {e}"));
            kernels_validate(&f);
        }
    }
}

/// f16/bf16 `math.fma` is computed in f32 rounded to odd (kernel attribute
/// `kiln.round_to_odd`, `lower/libm/fma.rs`) and validates; its values are
/// checked by the corpus file `fma_f16_bf16.mlir`.
#[test]
fn half_fma_rounded_to_odd_validates() {
    for ty in ["f16", "bf16"] {
        let f = compile(&unary_program("math.fma", ty)).unwrap_or_else(|e| panic!("{ty}: {e}"));
        kernels_validate(&f);
    }
}

#[derive(Debug)]
struct Outer(Inner);

#[derive(Debug)]
struct Inner;

impl std::fmt::Display for Outer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "gpu.module @k: spirv-val")
    }
}

impl std::fmt::Display for Inner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "spirv-val (vulkan1.1): GLSL.std.450 Pow: expected Result Type"
        )
    }
}

impl std::error::Error for Outer {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

impl std::error::Error for Inner {}

#[test]
fn backend_errors_keep_their_causes() {
    assert_eq!(
        BackendError::chain(&Outer(Inner)),
        "gpu.module @k: spirv-val: spirv-val (vulkan1.1): GLSL.std.450 Pow: expected Result Type"
    );
}
