//! Reductions: which GroupNonUniform instruction and which combiner a
//! reduction kind (`add`, `maxsi`, ...) maps to.

use crate::ir::{Type, Value};

use crate::lower::context::Lowerer;

/// The GroupNonUniform suffix and GLSL/core combiner of a reduction kind.
pub(crate) fn reduction_ops(kind: &str, float: bool) -> Option<(&'static str, Combine)> {
    Some(match (kind, float) {
        ("add", false) => ("IAdd", Combine::Core("IAdd")),
        ("add", true) => ("FAdd", Combine::Core("FAdd")),
        ("mul", false) => ("IMul", Combine::Core("IMul")),
        ("mul", true) => ("FMul", Combine::Core("FMul")),
        ("minsi", false) => ("SMin", Combine::Glsl("SMin")),
        ("minui", false) => ("UMin", Combine::Glsl("UMin")),
        ("maxsi", false) => ("SMax", Combine::Glsl("SMax")),
        ("maxui", false) => ("UMax", Combine::Glsl("UMax")),
        ("minnumf" | "minimumf" | "minf", true) => ("FMin", Combine::Glsl("FMin")),
        ("maxnumf" | "maximumf" | "maxf", true) => ("FMax", Combine::Glsl("FMax")),
        ("and", false) => ("BitwiseAnd", Combine::Core("BitwiseAnd")),
        ("or", false) => ("BitwiseOr", Combine::Core("BitwiseOr")),
        ("xor", false) => ("BitwiseXor", Combine::Core("BitwiseXor")),
        _ => return None,
    })
}

/// How two values combine in a fallback reduction.
#[derive(Clone, Copy)]
pub(crate) enum Combine {
    /// A core instruction.
    Core(&'static str),
    /// A GLSL.std.450 instruction.
    Glsl(&'static str),
}

impl Combine {
    pub(crate) fn apply(self, l: &mut Lowerer, a: Value, b: Value, ty: Type) -> Value {
        match self {
            Combine::Core(n) => l.core_op(n, vec![a, b], ty),
            Combine::Glsl(n) => l.glsl_op(n, vec![a, b], ty),
        }
    }
}
