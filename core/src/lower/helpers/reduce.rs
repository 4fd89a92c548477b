//! Reductions: which GroupNonUniform instruction and which combiner a
//! reduction kind (`add`, `maxsi`, ...) maps to.

use crate::grammar::{GlslOp, Opcode};
use crate::ir::{Type, Value};

use crate::lower::context::Lowerer;
use crate::lower::helpers::ints::bool_like;

/// The GroupNonUniform instruction and GLSL/core combiner of a reduction
/// kind.
pub(crate) fn reduction_ops(kind: &str, float: bool) -> Option<(Opcode, Combine)> {
    Some(match (kind, float) {
        ("add", false) => (Opcode::GroupNonUniformIAdd, Combine::Core(Opcode::IAdd)),
        ("add", true) => (Opcode::GroupNonUniformFAdd, Combine::Core(Opcode::FAdd)),
        ("mul", false) => (Opcode::GroupNonUniformIMul, Combine::Core(Opcode::IMul)),
        ("mul", true) => (Opcode::GroupNonUniformFMul, Combine::Core(Opcode::FMul)),
        ("minsi", false) => (Opcode::GroupNonUniformSMin, Combine::Glsl(GlslOp::SMin)),
        ("minui", false) => (Opcode::GroupNonUniformUMin, Combine::Glsl(GlslOp::UMin)),
        ("maxsi", false) => (Opcode::GroupNonUniformSMax, Combine::Glsl(GlslOp::SMax)),
        ("maxui", false) => (Opcode::GroupNonUniformUMax, Combine::Glsl(GlslOp::UMax)),
        ("minimumf", true) => (
            Opcode::GroupNonUniformFMin,
            Combine::NanPropagating(GlslOp::FMin),
        ),
        ("maximumf", true) => (
            Opcode::GroupNonUniformFMax,
            Combine::NanPropagating(GlslOp::FMax),
        ),
        ("minnumf" | "minf", true) => (Opcode::GroupNonUniformFMin, Combine::Glsl(GlslOp::FMin)),
        ("maxnumf" | "maxf", true) => (Opcode::GroupNonUniformFMax, Combine::Glsl(GlslOp::FMax)),
        ("and", false) => (
            Opcode::GroupNonUniformBitwiseAnd,
            Combine::Core(Opcode::BitwiseAnd),
        ),
        ("or", false) => (
            Opcode::GroupNonUniformBitwiseOr,
            Combine::Core(Opcode::BitwiseOr),
        ),
        ("xor", false) => (
            Opcode::GroupNonUniformBitwiseXor,
            Combine::Core(Opcode::BitwiseXor),
        ),
        _ => return None,
    })
}

/// How two values combine in a fallback reduction.
#[derive(Clone, Copy)]
pub(crate) enum Combine {
    /// A core instruction.
    Core(Opcode),
    /// A GLSL.std.450 instruction.
    Glsl(GlslOp),
    /// GLSL `FMax` / `FMin` with a NaN operand giving NaN (`maximumf` /
    /// `minimumf`; the GLSL ops leave NaN undefined, lavapipe returns the
    /// other operand).
    NanPropagating(GlslOp),
}

impl Combine {
    pub(crate) fn apply(self, l: &mut Lowerer, a: Value, b: Value, ty: Type) -> Value {
        match self {
            Combine::Core(n) => l.core_op(n, vec![a, b], ty),
            Combine::Glsl(n) => l.glsl_op(n, vec![a, b], ty),
            Combine::NanPropagating(n) => {
                let m = l.glsl_op(n, vec![a, b], ty);
                with_nan_operands(l, a, b, m, ty, true)
            }
        }
    }
}

/// `m`, GLSL `FMax` / `FMin` of `a` and `b` (which leave a NaN operand
/// undefined), with NaN operands settled as MLIR defines them: with
/// `propagate_nan` (`maximumf` / `minimumf`) a NaN operand is the result,
/// else (`maxnumf` / `minnumf`) the other operand is.
pub(crate) fn with_nan_operands(
    l: &mut Lowerer,
    a: Value,
    b: Value,
    m: Value,
    ty: Type,
    propagate_nan: bool,
) -> Value {
    let bt = bool_like(l, ty);
    let a_nan = l.core_op(Opcode::IsNan, vec![a], bt);
    let b_nan = l.core_op(Opcode::IsNan, vec![b], bt);
    let (on_a_nan, on_b_nan) = if propagate_nan { (a, b) } else { (b, a) };
    let x = l.core_op(Opcode::Select, vec![b_nan, on_b_nan, m], ty);
    l.core_op(Opcode::Select, vec![a_nan, on_a_nan, x], ty)
}
