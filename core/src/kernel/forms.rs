//! Tables of the kernel ops' custom syntax: enum keywords and the
//! syntactic family of each op, shared by the parser, printer and verifier.

use crate::kernel::ops::KOp;
use crate::kernel::types::KType;

/// `arith.cmpi` predicates, by their MLIR enum value.
pub(crate) const CMPI_PREDICATES: [&str; 10] = [
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];

/// `arith.cmpf` predicates, by their MLIR enum value.
pub(crate) const CMPF_PREDICATES: [&str; 16] = [
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
    "une", "uno", "true",
];

/// `gpu.subgroup_reduce` / `gpu.all_reduce` operations (MLIR 19).
pub(crate) const REDUCE_OPS: [&str; 13] = [
    "add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf", "and", "or", "xor",
    "minimumf", "maximumf",
];

/// `vector.reduction` kinds (MLIR 19).
pub(crate) const VECTOR_KINDS: [&str; 13] = [
    "add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf", "and", "or", "xor",
    "maximumf", "minimumf",
];

/// `gpu.shuffle` modes.
pub(crate) const SHUFFLE_MODES: [&str; 4] = ["xor", "up", "down", "idx"];

/// The syntactic family of an op's custom form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// `%a, %b [flags] : T`.
    Binary,
    /// `%a [flags] : T`.
    Unary,
    /// `%a, %b, %c [flags] : T`.
    Ternary,
    /// `%a [flags] : T to U`.
    Cast,
    /// `%a, %b` on `index` (no type).
    IndexBinary,
    /// `x [upper_bound N]` -> index.
    Dim,
    /// Anything else (parsed by a dedicated function).
    Special,
}

impl Form {
    /// The operand count of the same-type forms (`%a, ... : T`), whose
    /// operands and one result all have type `T`.
    pub(crate) fn same_type_arity(self) -> Option<usize> {
        match self {
            Form::Unary => Some(1),
            Form::Binary => Some(2),
            Form::Ternary => Some(3),
            _ => None,
        }
    }
}

/// The form of `kind`.
pub(crate) fn form(kind: KOp) -> Form {
    use KOp::*;
    match kind {
        ArithAddI | ArithSubI | ArithMulI | ArithDivSI | ArithDivUI | ArithCeilDivSI
        | ArithCeilDivUI | ArithFloorDivSI | ArithRemSI | ArithRemUI | ArithAndI | ArithOrI
        | ArithXOrI | ArithShLI | ArithShRSI | ArithShRUI | ArithMaxSI | ArithMaxUI
        | ArithMinSI | ArithMinUI | ArithAddF | ArithSubF | ArithMulF | ArithDivF | ArithRemF
        | ArithMaximumF | ArithMinimumF | ArithMaxNumF | ArithMinNumF | MathPowF | MathAtan2
        | MathCopySign => Form::Binary,
        ArithNegF | MathExp | MathExp2 | MathExpM1 | MathLog | MathLog2 | MathLog10 | MathLog1p
        | MathSqrt | MathRsqrt | MathTanh | MathSin | MathCos | MathTan | MathAsin | MathAcos
        | MathAtan | MathSinh | MathCosh | MathAbsF | MathAbsI | MathFloor | MathCeil
        | MathRound | MathRoundEven | MathTrunc | MathCtlz | MathCttz | MathCtpop | MathErf => {
            Form::Unary
        }
        MathFma | VectorFma => Form::Ternary,
        ArithExtSI | ArithExtUI | ArithTruncI | ArithExtF | ArithTruncF | ArithSIToFP
        | ArithUIToFP | ArithFPToSI | ArithFPToUI | ArithIndexCast | ArithIndexCastUI
        | ArithBitcast | MemRefCast | VectorBroadcast | VectorBitcast | IndexCastS | IndexCastU => {
            Form::Cast
        }
        IndexAdd | IndexSub | IndexMul | IndexDivS | IndexDivU | IndexCeilDivS | IndexCeilDivU
        | IndexFloorDivS | IndexRemS | IndexRemU | IndexMaxS | IndexMaxU | IndexMinS
        | IndexMinU | IndexShl | IndexShrS | IndexShrU | IndexAnd | IndexOr | IndexXor => {
            Form::IndexBinary
        }
        GpuThreadId | GpuBlockId | GpuBlockDim | GpuGridDim | GpuGlobalId => Form::Dim,
        _ => Form::Special,
    }
}

/// `i1` of the shape of `ty` (`vector<4xi1>` for `vector<4xf32>`).
pub(crate) fn bool_like(ty: &KType) -> KType {
    match ty {
        KType::Vector { shape, .. } => KType::Vector {
            shape: shape.clone(),
            elem: Box::new(KType::bool()),
        },
        _ => KType::bool(),
    }
}
