//! Tables of the kernel ops' custom syntax: enum keywords and the
//! syntactic family of each op, shared by the parser, printer and verifier.

use crate::kernel::ops::KOpKind;
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

/// The ops of [`Form::Binary`], as a pattern.
macro_rules! binary_ops {
    () => {
        $crate::kernel::ops::KOpKind::ArithAddI
            | $crate::kernel::ops::KOpKind::ArithSubI
            | $crate::kernel::ops::KOpKind::ArithMulI
            | $crate::kernel::ops::KOpKind::ArithDivSI
            | $crate::kernel::ops::KOpKind::ArithDivUI
            | $crate::kernel::ops::KOpKind::ArithCeilDivSI
            | $crate::kernel::ops::KOpKind::ArithCeilDivUI
            | $crate::kernel::ops::KOpKind::ArithFloorDivSI
            | $crate::kernel::ops::KOpKind::ArithRemSI
            | $crate::kernel::ops::KOpKind::ArithRemUI
            | $crate::kernel::ops::KOpKind::ArithAndI
            | $crate::kernel::ops::KOpKind::ArithOrI
            | $crate::kernel::ops::KOpKind::ArithXOrI
            | $crate::kernel::ops::KOpKind::ArithShLI
            | $crate::kernel::ops::KOpKind::ArithShRSI
            | $crate::kernel::ops::KOpKind::ArithShRUI
            | $crate::kernel::ops::KOpKind::ArithMaxSI
            | $crate::kernel::ops::KOpKind::ArithMaxUI
            | $crate::kernel::ops::KOpKind::ArithMinSI
            | $crate::kernel::ops::KOpKind::ArithMinUI
            | $crate::kernel::ops::KOpKind::ArithAddF
            | $crate::kernel::ops::KOpKind::ArithSubF
            | $crate::kernel::ops::KOpKind::ArithMulF
            | $crate::kernel::ops::KOpKind::ArithDivF
            | $crate::kernel::ops::KOpKind::ArithRemF
            | $crate::kernel::ops::KOpKind::ArithMaximumF
            | $crate::kernel::ops::KOpKind::ArithMinimumF
            | $crate::kernel::ops::KOpKind::ArithMaxNumF
            | $crate::kernel::ops::KOpKind::ArithMinNumF
            | $crate::kernel::ops::KOpKind::MathPowF
            | $crate::kernel::ops::KOpKind::MathAtan2
            | $crate::kernel::ops::KOpKind::MathCopySign
    };
}
pub(crate) use binary_ops;

/// The ops of [`Form::Unary`], as a pattern.
macro_rules! unary_ops {
    () => {
        $crate::kernel::ops::KOpKind::ArithNegF
            | $crate::kernel::ops::KOpKind::MathExp
            | $crate::kernel::ops::KOpKind::MathExp2
            | $crate::kernel::ops::KOpKind::MathExpM1
            | $crate::kernel::ops::KOpKind::MathLog
            | $crate::kernel::ops::KOpKind::MathLog2
            | $crate::kernel::ops::KOpKind::MathLog10
            | $crate::kernel::ops::KOpKind::MathLog1p
            | $crate::kernel::ops::KOpKind::MathSqrt
            | $crate::kernel::ops::KOpKind::MathRsqrt
            | $crate::kernel::ops::KOpKind::MathTanh
            | $crate::kernel::ops::KOpKind::MathSin
            | $crate::kernel::ops::KOpKind::MathCos
            | $crate::kernel::ops::KOpKind::MathTan
            | $crate::kernel::ops::KOpKind::MathAsin
            | $crate::kernel::ops::KOpKind::MathAcos
            | $crate::kernel::ops::KOpKind::MathAtan
            | $crate::kernel::ops::KOpKind::MathSinh
            | $crate::kernel::ops::KOpKind::MathCosh
            | $crate::kernel::ops::KOpKind::MathAsinh
            | $crate::kernel::ops::KOpKind::MathAcosh
            | $crate::kernel::ops::KOpKind::MathAtanh
            | $crate::kernel::ops::KOpKind::MathAbsF
            | $crate::kernel::ops::KOpKind::MathAbsI
            | $crate::kernel::ops::KOpKind::MathFloor
            | $crate::kernel::ops::KOpKind::MathCeil
            | $crate::kernel::ops::KOpKind::MathRound
            | $crate::kernel::ops::KOpKind::MathRoundEven
            | $crate::kernel::ops::KOpKind::MathTrunc
            | $crate::kernel::ops::KOpKind::MathCtlz
            | $crate::kernel::ops::KOpKind::MathCttz
            | $crate::kernel::ops::KOpKind::MathCtpop
            | $crate::kernel::ops::KOpKind::MathErf
    };
}
pub(crate) use unary_ops;

/// The ops of [`Form::Ternary`], as a pattern.
macro_rules! ternary_ops {
    () => {
        $crate::kernel::ops::KOpKind::MathFma | $crate::kernel::ops::KOpKind::VectorFma
    };
}
pub(crate) use ternary_ops;

/// The ops of [`Form::Cast`], as a pattern.
macro_rules! cast_ops {
    () => {
        $crate::kernel::ops::KOpKind::ArithExtSI
            | $crate::kernel::ops::KOpKind::ArithExtUI
            | $crate::kernel::ops::KOpKind::ArithTruncI
            | $crate::kernel::ops::KOpKind::ArithExtF
            | $crate::kernel::ops::KOpKind::ArithTruncF
            | $crate::kernel::ops::KOpKind::ArithSIToFP
            | $crate::kernel::ops::KOpKind::ArithUIToFP
            | $crate::kernel::ops::KOpKind::ArithFPToSI
            | $crate::kernel::ops::KOpKind::ArithFPToUI
            | $crate::kernel::ops::KOpKind::ArithIndexCast
            | $crate::kernel::ops::KOpKind::ArithIndexCastUI
            | $crate::kernel::ops::KOpKind::ArithBitcast
            | $crate::kernel::ops::KOpKind::MemRefCast
            | $crate::kernel::ops::KOpKind::VectorBroadcast
            | $crate::kernel::ops::KOpKind::VectorBitcast
            | $crate::kernel::ops::KOpKind::IndexCastS
            | $crate::kernel::ops::KOpKind::IndexCastU
    };
}
pub(crate) use cast_ops;

/// The ops of [`Form::IndexBinary`], as a pattern.
macro_rules! index_binary_ops {
    () => {
        $crate::kernel::ops::KOpKind::IndexAdd
            | $crate::kernel::ops::KOpKind::IndexSub
            | $crate::kernel::ops::KOpKind::IndexMul
            | $crate::kernel::ops::KOpKind::IndexDivS
            | $crate::kernel::ops::KOpKind::IndexDivU
            | $crate::kernel::ops::KOpKind::IndexCeilDivS
            | $crate::kernel::ops::KOpKind::IndexCeilDivU
            | $crate::kernel::ops::KOpKind::IndexFloorDivS
            | $crate::kernel::ops::KOpKind::IndexRemS
            | $crate::kernel::ops::KOpKind::IndexRemU
            | $crate::kernel::ops::KOpKind::IndexMaxS
            | $crate::kernel::ops::KOpKind::IndexMaxU
            | $crate::kernel::ops::KOpKind::IndexMinS
            | $crate::kernel::ops::KOpKind::IndexMinU
            | $crate::kernel::ops::KOpKind::IndexShl
            | $crate::kernel::ops::KOpKind::IndexShrS
            | $crate::kernel::ops::KOpKind::IndexShrU
            | $crate::kernel::ops::KOpKind::IndexAnd
            | $crate::kernel::ops::KOpKind::IndexOr
            | $crate::kernel::ops::KOpKind::IndexXor
    };
}
pub(crate) use index_binary_ops;

/// The ops of [`Form::Dim`], as a pattern.
macro_rules! dim_ops {
    () => {
        $crate::kernel::ops::KOpKind::GpuThreadId
            | $crate::kernel::ops::KOpKind::GpuBlockId
            | $crate::kernel::ops::KOpKind::GpuBlockDim
            | $crate::kernel::ops::KOpKind::GpuGridDim
            | $crate::kernel::ops::KOpKind::GpuGlobalId
    };
}
pub(crate) use dim_ops;

/// Every op of a family other than [`Form::Special`] (parsed, printed and
/// verified by the family's rules), as a pattern: the matches over
/// special ops list it beside every special op, so that they stay
/// exhaustive without a catch-all arm.
macro_rules! family_ops {
    () => {
        $crate::kernel::forms::binary_ops!()
            | $crate::kernel::forms::unary_ops!()
            | $crate::kernel::forms::ternary_ops!()
            | $crate::kernel::forms::cast_ops!()
            | $crate::kernel::forms::index_binary_ops!()
            | $crate::kernel::forms::dim_ops!()
    };
}
pub(crate) use family_ops;

/// The form of `kind`. Every op is listed: a new op fails to compile until
/// it is given a form here.
pub(crate) fn form(kind: KOpKind) -> Form {
    use KOpKind::*;
    match kind {
        binary_ops!() => Form::Binary,
        unary_ops!() => Form::Unary,
        ternary_ops!() => Form::Ternary,
        cast_ops!() => Form::Cast,
        index_binary_ops!() => Form::IndexBinary,
        dim_ops!() => Form::Dim,
        BuiltinModule
        | GpuModule
        | GpuFunc
        | GpuReturn
        | FuncFunc
        | FuncReturn
        | FuncCall
        | GpuLaunchFunc
        | ArithConstant
        | ArithAddUIExtended
        | ArithMulUIExtended
        | ArithMulSIExtended
        | ArithCmpI
        | ArithCmpF
        | ArithSelect
        | MemRefLoad
        | MemRefStore
        | MemRefAlloc
        | MemRefAlloca
        | MemRefDealloc
        | MemRefSubView
        | MemRefDim
        | ScfFor
        | ScfIf
        | ScfWhile
        | ScfYield
        | ScfCondition
        | GpuLaneId
        | GpuSubgroupId
        | GpuSubgroupSize
        | GpuNumSubgroups
        | GpuBarrier
        | GpuShuffle
        | GpuSubgroupReduce
        | GpuSubgroupMmaLoadMatrix
        | GpuSubgroupMmaStoreMatrix
        | GpuSubgroupMmaCompute
        | GpuSubgroupMmaConstantMatrix
        | VectorLoad
        | VectorStore
        | VectorExtract
        | VectorInsert
        | VectorExtractElement
        | VectorInsertElement
        | VectorSplat
        | VectorShuffle
        | VectorInterleave
        | VectorDeinterleave
        | VectorReduction
        | IndexConstant
        | IndexCmp
        | SpirvOp => Form::Special,
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
