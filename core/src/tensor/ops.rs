//! What each op of the tensor IR is: [`OpKind`] and its families.
//!
//! An op is an [`OpKind`] (which op, with its static attributes as typed
//! fields) plus SSA operands, results and regions held by the
//! [`OpData`](super::module::OpData). Dynamic parts of an op (dynamic
//! sizes, offsets, indices) are always operands, in MLIR's generic operand
//! order; the kind only records where they go ([`Mixed::Dynamic`]).

use super::affine::AffineMap;
use super::attr::{
    CmpFPred, CmpIPred, ConstAttr, DenseElements, FastMath, IteratorType, Mixed, Overflow,
};

/// An op.
#[derive(Clone, Debug, PartialEq)]
pub enum OpKind {
    /// `func.call @callee(args)`.
    Call {
        /// The called function's name.
        callee: String,
    },
    /// `func.return` (`return`): the function's results.
    Return,
    /// `arith.constant`: a scalar or dense tensor constant.
    Constant(ConstAttr),
    /// An `arith` op on scalars or, elementwise, on tensors of one shape.
    Arith {
        /// Which op.
        op: ArithOp,
        /// `fastmath<...>` (float ops).
        fastmath: FastMath,
        /// `overflow<...>` (`addi`, `subi`, `muli`, `shli`).
        overflow: Overflow,
    },
    /// A `math` op on scalars or, elementwise, on tensors.
    Math {
        /// Which op.
        op: MathOp,
        /// `fastmath<...>`.
        fastmath: FastMath,
    },
    /// A structured `linalg` op (named or generic); see
    /// [`structured`](mod@super::structured).
    Linalg(LinalgOp),
    /// `linalg.yield`: the terminator of a structured op's body.
    LinalgYield,
    /// `linalg.index N`: the current position along loop `dim`.
    LinalgIndex {
        /// The loop.
        dim: u32,
    },
    /// A `tensor` dialect op.
    Tensor(TensorOp),
    /// `tensor.yield`: the terminator of `tensor.pad`'s region.
    TensorYield,
    /// `util.unfoldable_constant` (IREE): a constant the compiler must not fold.
    UnfoldableConstant(ConstAttr),
    /// `util.optimization_barrier` (IREE): its operands, unchanged.
    OptimizationBarrier,
    /// `flow.tensor.dynamic_constant` (IREE): a dense constant whose
    /// result type has dynamic (`?`) dimensions.
    DynamicConstant(DenseElements),
    /// A `check` op (IREE's end-to-end test assertions).
    Check(CheckOp),
    /// `cf.assert %cond, "message"`: a run-time check; the call fails with
    /// the message when the `i1` condition is false.
    Assert {
        /// The message.
        message: String,
    },
}

/// `arith` ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[allow(missing_docs, reason = "each variant is the MLIR op of the same name")]
pub enum ArithOp {
    AddF,
    SubF,
    MulF,
    DivF,
    RemF,
    NegF,
    MaximumF,
    MinimumF,
    MaxNumF,
    MinNumF,
    AddI,
    SubI,
    MulI,
    DivSI,
    DivUI,
    CeilDivSI,
    CeilDivUI,
    FloorDivSI,
    RemSI,
    RemUI,
    AndI,
    OrI,
    XOrI,
    ShLI,
    ShRSI,
    ShRUI,
    MaxSI,
    MaxUI,
    MinSI,
    MinUI,
    CmpI(CmpIPred),
    CmpF(CmpFPred),
    Select,
    ExtSI,
    ExtUI,
    TruncI,
    ExtF,
    TruncF,
    SIToFP,
    UIToFP,
    FPToSI,
    FPToUI,
    IndexCast,
    IndexCastUI,
    Bitcast,
}

/// How an op's operand and result types relate (for parsing, printing and
/// verification).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signature {
    /// `N` operands and the result of one type, `op %a, %b : T`.
    Same(usize),
    /// A comparison: two operands of one type, an `i1` (or `i1` tensor) result.
    Compare,
    /// `arith.select %c, %a, %b : [C,] T`.
    Select,
    /// A cast `op %a : T to U`.
    Cast,
    /// `math.fpowi %x, %n : F, I`: a float and an integer operand (or
    /// tensors of one shape with those elements); the result has the
    /// float operand's type.
    FloatInt,
}

/// Which element types an op accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accepts {
    /// Floats.
    Float,
    /// Integers and `index`.
    Int,
    /// Anything (select, bitcast).
    Any,
}

macro_rules! op_table {
    ($ty:ident, $prefix:literal { $($v:ident => $s:literal, $sig:expr, $acc:ident;)* }) => {
        impl $ty {
            /// Every op (comparisons with their first predicate).
            pub const ALL: &'static [$ty] = &[$($ty::$v),*];
            /// The op's name without the dialect (`addf`).
            pub fn short_name(self) -> &'static str {
                match self { $($ty::$v => $s,)* }
            }
            /// The op with this name without the dialect.
            pub fn from_short_name(s: &str) -> Option<$ty> {
                match s { $($s => Some($ty::$v),)* _ => None }
            }
            /// The operand/result shape of the op.
            pub fn signature(self) -> Signature {
                match self { $($ty::$v => $sig,)* }
            }
            /// The element types the op accepts (of its operands).
            pub fn accepts(self) -> Accepts {
                match self { $($ty::$v => Accepts::$acc,)* }
            }
            /// The op's full name (`arith.addf`).
            pub fn name(self) -> String {
                format!(concat!($prefix, ".{}"), self.short_name())
            }
        }
    };
}

use Signature::*;

impl ArithOp {
    /// Every op (comparisons with their first predicate).
    pub const ALL: &'static [ArithOp] = &[
        ArithOp::AddF,
        ArithOp::SubF,
        ArithOp::MulF,
        ArithOp::DivF,
        ArithOp::RemF,
        ArithOp::NegF,
        ArithOp::MaximumF,
        ArithOp::MinimumF,
        ArithOp::MaxNumF,
        ArithOp::MinNumF,
        ArithOp::AddI,
        ArithOp::SubI,
        ArithOp::MulI,
        ArithOp::DivSI,
        ArithOp::DivUI,
        ArithOp::CeilDivSI,
        ArithOp::CeilDivUI,
        ArithOp::FloorDivSI,
        ArithOp::RemSI,
        ArithOp::RemUI,
        ArithOp::AndI,
        ArithOp::OrI,
        ArithOp::XOrI,
        ArithOp::ShLI,
        ArithOp::ShRSI,
        ArithOp::ShRUI,
        ArithOp::MaxSI,
        ArithOp::MaxUI,
        ArithOp::MinSI,
        ArithOp::MinUI,
        ArithOp::CmpI(CmpIPred::Eq),
        ArithOp::CmpF(CmpFPred::False),
        ArithOp::Select,
        ArithOp::ExtSI,
        ArithOp::ExtUI,
        ArithOp::TruncI,
        ArithOp::ExtF,
        ArithOp::TruncF,
        ArithOp::SIToFP,
        ArithOp::UIToFP,
        ArithOp::FPToSI,
        ArithOp::FPToUI,
        ArithOp::IndexCast,
        ArithOp::IndexCastUI,
        ArithOp::Bitcast,
    ];

    /// The op's name without `arith.` (`addf`, `cmpi`).
    pub fn short_name(self) -> &'static str {
        use ArithOp::*;
        match self {
            AddF => "addf",
            SubF => "subf",
            MulF => "mulf",
            DivF => "divf",
            RemF => "remf",
            NegF => "negf",
            MaximumF => "maximumf",
            MinimumF => "minimumf",
            MaxNumF => "maxnumf",
            MinNumF => "minnumf",
            AddI => "addi",
            SubI => "subi",
            MulI => "muli",
            DivSI => "divsi",
            DivUI => "divui",
            CeilDivSI => "ceildivsi",
            CeilDivUI => "ceildivui",
            FloorDivSI => "floordivsi",
            RemSI => "remsi",
            RemUI => "remui",
            AndI => "andi",
            OrI => "ori",
            XOrI => "xori",
            ShLI => "shli",
            ShRSI => "shrsi",
            ShRUI => "shrui",
            MaxSI => "maxsi",
            MaxUI => "maxui",
            MinSI => "minsi",
            MinUI => "minui",
            CmpI(_) => "cmpi",
            CmpF(_) => "cmpf",
            Select => "select",
            ExtSI => "extsi",
            ExtUI => "extui",
            TruncI => "trunci",
            ExtF => "extf",
            TruncF => "truncf",
            SIToFP => "sitofp",
            UIToFP => "uitofp",
            FPToSI => "fptosi",
            FPToUI => "fptoui",
            IndexCast => "index_cast",
            IndexCastUI => "index_castui",
            Bitcast => "bitcast",
        }
    }

    /// The op with this name without `arith.` (comparisons with a
    /// placeholder predicate the parser replaces).
    pub fn from_short_name(s: &str) -> Option<ArithOp> {
        ArithOp::ALL.iter().copied().find(|o| o.short_name() == s)
    }

    /// The op's full name (`arith.addf`).
    pub fn name(self) -> String {
        format!("arith.{}", self.short_name())
    }

    /// The operand/result shape of the op.
    pub fn signature(self) -> Signature {
        use ArithOp::*;
        match self {
            NegF => Same(1),
            CmpI(_) | CmpF(_) => Compare,
            Select => Signature::Select,
            ExtSI | ExtUI | TruncI | ExtF | TruncF | SIToFP | UIToFP | FPToSI | FPToUI
            | IndexCast | IndexCastUI | Bitcast => Cast,
            _ => Same(2),
        }
    }

    /// The element types the op accepts (of its operands).
    pub fn accepts(self) -> Accepts {
        use ArithOp::*;
        match self {
            AddF | SubF | MulF | DivF | RemF | NegF | MaximumF | MinimumF | MaxNumF | MinNumF
            | CmpF(_) | ExtF | TruncF | FPToSI | FPToUI => Accepts::Float,
            Select | Bitcast => Accepts::Any,
            _ => Accepts::Int,
        }
    }

    /// Whether the op takes `fastmath<...>`.
    pub fn has_fastmath(self) -> bool {
        use ArithOp::*;
        matches!(
            self,
            AddF | SubF
                | MulF
                | DivF
                | RemF
                | NegF
                | MaximumF
                | MinimumF
                | MaxNumF
                | MinNumF
                | CmpF(_)
                | ExtF
                | TruncF
        )
    }

    /// Whether the op takes `overflow<...>`.
    pub fn has_overflow(self) -> bool {
        matches!(
            self,
            ArithOp::AddI | ArithOp::SubI | ArithOp::MulI | ArithOp::ShLI
        )
    }
}

/// `math` ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[allow(missing_docs, reason = "each variant is the MLIR op of the same name")]
pub enum MathOp {
    AbsF,
    AbsI,
    Acos,
    Acosh,
    Asin,
    Asinh,
    Atan,
    Atan2,
    Atanh,
    Cbrt,
    Ceil,
    CopySign,
    Cos,
    Cosh,
    Ctlz,
    Cttz,
    Ctpop,
    Erf,
    Exp,
    Exp2,
    ExpM1,
    Floor,
    Fma,
    Log,
    Log10,
    Log1p,
    Log2,
    PowF,
    IPowI,
    Round,
    RoundEven,
    Rsqrt,
    Sin,
    Sinh,
    Sqrt,
    Tan,
    Tanh,
    Trunc,
    FPowI,
}

op_table!(MathOp, "math" {
    AbsF => "absf", Same(1), Float;
    AbsI => "absi", Same(1), Int;
    Acos => "acos", Same(1), Float;
    Acosh => "acosh", Same(1), Float;
    Asin => "asin", Same(1), Float;
    Asinh => "asinh", Same(1), Float;
    Atan => "atan", Same(1), Float;
    Atan2 => "atan2", Same(2), Float;
    Atanh => "atanh", Same(1), Float;
    Cbrt => "cbrt", Same(1), Float;
    Ceil => "ceil", Same(1), Float;
    CopySign => "copysign", Same(2), Float;
    Cos => "cos", Same(1), Float;
    Cosh => "cosh", Same(1), Float;
    Ctlz => "ctlz", Same(1), Int;
    Cttz => "cttz", Same(1), Int;
    Ctpop => "ctpop", Same(1), Int;
    Erf => "erf", Same(1), Float;
    Exp => "exp", Same(1), Float;
    Exp2 => "exp2", Same(1), Float;
    ExpM1 => "expm1", Same(1), Float;
    Floor => "floor", Same(1), Float;
    Fma => "fma", Same(3), Float;
    Log => "log", Same(1), Float;
    Log10 => "log10", Same(1), Float;
    Log1p => "log1p", Same(1), Float;
    Log2 => "log2", Same(1), Float;
    PowF => "powf", Same(2), Float;
    IPowI => "ipowi", Same(2), Int;
    Round => "round", Same(1), Float;
    RoundEven => "roundeven", Same(1), Float;
    Rsqrt => "rsqrt", Same(1), Float;
    Sin => "sin", Same(1), Float;
    Sinh => "sinh", Same(1), Float;
    Sqrt => "sqrt", Same(1), Float;
    Tan => "tan", Same(1), Float;
    Tanh => "tanh", Same(1), Float;
    Trunc => "trunc", Same(1), Float;
    FPowI => "fpowi", FloatInt, Float;
});

impl MathOp {
    /// Whether the op takes `fastmath<...>`.
    pub fn has_fastmath(self) -> bool {
        self.accepts() == Accepts::Float
    }
}

/// A structured `linalg` op: its kind and how its operands split into
/// inputs (`ins`) and outputs (`outs`). Operands are the inputs followed by
/// the outputs; results are one tensor per output.
#[derive(Clone, Debug, PartialEq)]
pub struct LinalgOp {
    /// Which op, with its attributes.
    pub kind: LinalgKind,
    /// How many operands are inputs (the rest are outputs).
    pub num_inputs: usize,
}

/// The `strides`/`dilations` attributes (one value per spatial dimension) of convolutions and
/// poolings, kept as written (`dense<2> : tensor<2xi64>` or
/// `vector<2xi64>`); absent means all ones.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConvAttrs {
    /// `strides`.
    pub strides: Option<DenseElements>,
    /// `dilations`.
    pub dilations: Option<DenseElements>,
}

/// The convolution and pooling ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConvKind {
    /// `linalg.conv_2d_nhwc_hwcf`: input NHWC, filter HWCF, output NHWF.
    Conv2dNhwcHwcf,
    /// `linalg.conv_2d_nchw_fchw`: input NCHW, filter FCHW, output NFHW.
    Conv2dNchwFchw,
    /// `linalg.depthwise_conv_2d_nhwc_hwc`: input NHWC, filter HWC, output NHWC.
    DepthwiseConv2dNhwcHwc,
    /// `linalg.pooling_nhwc_max`: input NHWC, window HW (shape only), output NHWC.
    PoolingNhwcMax,
    /// `linalg.pooling_nhwc_sum`.
    PoolingNhwcSum,
    /// `linalg.pooling_nhwc_min`.
    PoolingNhwcMin,
    /// `linalg.pooling_nchw_max`: input NCHW, window HW (shape only),
    /// output NCHW (torch-mlir's max pooling).
    PoolingNchwMax,
    /// `linalg.pooling_nchw_sum` (torch-mlir's average pooling, before the
    /// division).
    PoolingNchwSum,
    /// `linalg.depthwise_conv_2d_nchw_chw`: input NCHW, filter CHW, output
    /// NCHW (torch-mlir's grouped convolution with one channel per group).
    DepthwiseConv2dNchwChw,
    /// `linalg.conv_1d_ncw_fcw`: input NCW, filter FCW, output NFW.
    Conv1dNcwFcw,
    /// `linalg.conv_3d_ncdhw_fcdhw`: input NCDHW, filter FCDHW, output NFDHW.
    Conv3dNcdhwFcdhw,
    /// `linalg.pooling_ncw_max`: input NCW, window W (shape only), output NCW.
    PoolingNcwMax,
    /// `linalg.pooling_ncw_sum`.
    PoolingNcwSum,
    /// `linalg.pooling_ndhwc_max`: input NDHWC, window DHW (shape only),
    /// output NDHWC.
    PoolingNdhwcMax,
    /// `linalg.pooling_ndhwc_sum`.
    PoolingNdhwcSum,
}

/// The contraction ops (`out += lhs * rhs` summed over a reduction loop).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContractionKind {
    /// `linalg.matmul`: (M,K) x (K,N) -> (M,N).
    Matmul,
    /// `linalg.matmul_transpose_a`: (K,M) x (K,N) -> (M,N).
    MatmulTransposeA,
    /// `linalg.matmul_transpose_b`: (M,K) x (N,K) -> (M,N).
    MatmulTransposeB,
    /// `linalg.batch_matmul`: (B,M,K) x (B,K,N) -> (B,M,N).
    BatchMatmul,
    /// `linalg.matvec`: (M,N) x (N) -> (M).
    Matvec,
    /// `linalg.vecmat`: (M) x (M,N) -> (N).
    Vecmat,
    /// `linalg.batch_matvec`: (B,M,K) x (B,K) -> (B,M).
    BatchMatvec,
    /// `linalg.dot`: (N) x (N) -> ().
    Dot,
}

/// The elementwise named ops (`linalg.add`, `linalg.exp`, ...): identity
/// maps, all loops parallel, one scalar op in the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(
    missing_docs,
    reason = "each variant is the linalg op of the same name"
)]
pub enum ElementwiseKind {
    Add,
    Sub,
    Mul,
    Div,
    DivUnsigned,
    Max,
    Min,
    Exp,
    Log,
    Abs,
    Ceil,
    Floor,
    NegF,
    Sqrt,
    Rsqrt,
    Tanh,
    Erf,
    Powf,
    Reciprocal,
    Square,
}

/// Which structured op, with its attributes.
#[derive(Clone, Debug, PartialEq)]
pub enum LinalgKind {
    /// `linalg.generic`.
    Generic {
        /// One map per operand (inputs then outputs), from the iteration
        /// space to the operand's coordinates.
        indexing_maps: Vec<AffineMap>,
        /// One per loop.
        iterator_types: Vec<IteratorType>,
    },
    /// `linalg.fill ins(%scalar) outs(%t)`.
    Fill,
    /// `linalg.copy`.
    Copy,
    /// `linalg.map`: an elementwise body over inputs of the output's shape.
    Map,
    /// `linalg.reduce ... dimensions = [...]`: reduces the inputs along
    /// `dimensions` into outputs of the remaining dims.
    Reduce {
        /// The reduced input dimensions (sorted).
        dimensions: Vec<u64>,
    },
    /// `linalg.transpose ... permutation = [...]`: `out[i] = in[permuted i]`
    /// with `out dim k = in dim permutation[k]`.
    Transpose {
        /// The permutation.
        permutation: Vec<u64>,
    },
    /// `linalg.broadcast ... dimensions = [...]`: `dimensions` are the
    /// output dims the input does not have.
    Broadcast {
        /// The added output dimensions (sorted).
        dimensions: Vec<u64>,
    },
    /// A contraction (matmul family, dot).
    Contraction(ContractionKind),
    /// A convolution or pooling.
    Conv(ConvKind, ConvAttrs),
    /// An elementwise named op.
    Elementwise(ElementwiseKind),
    /// `linalg.softmax dimension(d)`: not a single structured op (see
    /// [`structured`](mod@super::structured)).
    Softmax {
        /// The normalized dimension.
        dimension: u64,
    },
}

impl ConvKind {
    /// The op's name.
    pub fn name(self) -> &'static str {
        match self {
            ConvKind::Conv2dNhwcHwcf => "linalg.conv_2d_nhwc_hwcf",
            ConvKind::Conv2dNchwFchw => "linalg.conv_2d_nchw_fchw",
            ConvKind::DepthwiseConv2dNhwcHwc => "linalg.depthwise_conv_2d_nhwc_hwc",
            ConvKind::PoolingNhwcMax => "linalg.pooling_nhwc_max",
            ConvKind::PoolingNhwcSum => "linalg.pooling_nhwc_sum",
            ConvKind::PoolingNhwcMin => "linalg.pooling_nhwc_min",
            ConvKind::PoolingNchwMax => "linalg.pooling_nchw_max",
            ConvKind::PoolingNchwSum => "linalg.pooling_nchw_sum",
            ConvKind::DepthwiseConv2dNchwChw => "linalg.depthwise_conv_2d_nchw_chw",
            ConvKind::Conv1dNcwFcw => "linalg.conv_1d_ncw_fcw",
            ConvKind::Conv3dNcdhwFcdhw => "linalg.conv_3d_ncdhw_fcdhw",
            ConvKind::PoolingNcwMax => "linalg.pooling_ncw_max",
            ConvKind::PoolingNcwSum => "linalg.pooling_ncw_sum",
            ConvKind::PoolingNdhwcMax => "linalg.pooling_ndhwc_max",
            ConvKind::PoolingNdhwcSum => "linalg.pooling_ndhwc_sum",
        }
    }

    /// How many spatial dimensions the op slides its window over (the
    /// length of its `strides` and `dilations`).
    pub fn spatial_rank(self) -> usize {
        match self {
            ConvKind::Conv1dNcwFcw | ConvKind::PoolingNcwMax | ConvKind::PoolingNcwSum => 1,
            ConvKind::Conv3dNcdhwFcdhw | ConvKind::PoolingNdhwcMax | ConvKind::PoolingNdhwcSum => 3,
            _ => 2,
        }
    }

    /// The rank of the filter (the window's for poolings).
    pub fn filter_rank(self) -> usize {
        match self {
            ConvKind::DepthwiseConv2dNhwcHwc | ConvKind::DepthwiseConv2dNchwChw => 3,
            k if k.is_pooling() => k.spatial_rank(),
            k => k.spatial_rank() + 2,
        }
    }

    /// Whether this is a pooling op (the second input only gives the
    /// window's shape).
    pub fn is_pooling(self) -> bool {
        matches!(
            self,
            ConvKind::PoolingNhwcMax
                | ConvKind::PoolingNhwcSum
                | ConvKind::PoolingNhwcMin
                | ConvKind::PoolingNchwMax
                | ConvKind::PoolingNchwSum
                | ConvKind::PoolingNcwMax
                | ConvKind::PoolingNcwSum
                | ConvKind::PoolingNdhwcMax
                | ConvKind::PoolingNdhwcSum
        )
    }

    /// Every convolution and pooling op.
    pub const ALL: [ConvKind; 15] = [
        ConvKind::Conv2dNhwcHwcf,
        ConvKind::Conv2dNchwFchw,
        ConvKind::DepthwiseConv2dNhwcHwc,
        ConvKind::PoolingNhwcMax,
        ConvKind::PoolingNhwcSum,
        ConvKind::PoolingNhwcMin,
        ConvKind::PoolingNchwMax,
        ConvKind::PoolingNchwSum,
        ConvKind::DepthwiseConv2dNchwChw,
        ConvKind::Conv1dNcwFcw,
        ConvKind::Conv3dNcdhwFcdhw,
        ConvKind::PoolingNcwMax,
        ConvKind::PoolingNcwSum,
        ConvKind::PoolingNdhwcMax,
        ConvKind::PoolingNdhwcSum,
    ];
}

impl ContractionKind {
    /// Every contraction op.
    pub const ALL: [ContractionKind; 8] = [
        ContractionKind::Matmul,
        ContractionKind::MatmulTransposeA,
        ContractionKind::MatmulTransposeB,
        ContractionKind::BatchMatmul,
        ContractionKind::Matvec,
        ContractionKind::Vecmat,
        ContractionKind::BatchMatvec,
        ContractionKind::Dot,
    ];

    /// The op's name.
    pub fn name(self) -> &'static str {
        match self {
            ContractionKind::Matmul => "linalg.matmul",
            ContractionKind::MatmulTransposeA => "linalg.matmul_transpose_a",
            ContractionKind::MatmulTransposeB => "linalg.matmul_transpose_b",
            ContractionKind::BatchMatmul => "linalg.batch_matmul",
            ContractionKind::Matvec => "linalg.matvec",
            ContractionKind::Vecmat => "linalg.vecmat",
            ContractionKind::BatchMatvec => "linalg.batch_matvec",
            ContractionKind::Dot => "linalg.dot",
        }
    }
}

impl ElementwiseKind {
    /// Every elementwise named op.
    pub const ALL: [ElementwiseKind; 20] = {
        use ElementwiseKind::*;
        [
            Add,
            Sub,
            Mul,
            Div,
            DivUnsigned,
            Max,
            Min,
            Exp,
            Log,
            Abs,
            Ceil,
            Floor,
            NegF,
            Sqrt,
            Rsqrt,
            Tanh,
            Erf,
            Powf,
            Reciprocal,
            Square,
        ]
    };

    /// The op's name.
    pub fn name(self) -> &'static str {
        use ElementwiseKind::*;
        match self {
            Add => "linalg.add",
            Sub => "linalg.sub",
            Mul => "linalg.mul",
            Div => "linalg.div",
            DivUnsigned => "linalg.div_unsigned",
            Max => "linalg.max",
            Min => "linalg.min",
            Exp => "linalg.exp",
            Log => "linalg.log",
            Abs => "linalg.abs",
            Ceil => "linalg.ceil",
            Floor => "linalg.floor",
            NegF => "linalg.negf",
            Sqrt => "linalg.sqrt",
            Rsqrt => "linalg.rsqrt",
            Tanh => "linalg.tanh",
            Erf => "linalg.erf",
            Powf => "linalg.powf",
            Reciprocal => "linalg.reciprocal",
            Square => "linalg.square",
        }
    }

    /// How many inputs the op takes.
    pub fn arity(self) -> usize {
        use ElementwiseKind::*;
        match self {
            Add | Sub | Mul | Div | DivUnsigned | Max | Min | Powf => 2,
            _ => 1,
        }
    }
}

impl LinalgKind {
    /// The op's name (`linalg.matmul`); named ops keep it so a strategy
    /// can choose by op family.
    pub fn name(&self) -> &'static str {
        match self {
            LinalgKind::Generic { .. } => "linalg.generic",
            LinalgKind::Fill => "linalg.fill",
            LinalgKind::Copy => "linalg.copy",
            LinalgKind::Map => "linalg.map",
            LinalgKind::Reduce { .. } => "linalg.reduce",
            LinalgKind::Transpose { .. } => "linalg.transpose",
            LinalgKind::Broadcast { .. } => "linalg.broadcast",
            LinalgKind::Contraction(c) => c.name(),
            LinalgKind::Conv(c, _) => c.name(),
            LinalgKind::Elementwise(e) => e.name(),
            LinalgKind::Softmax { .. } => "linalg.softmax",
        }
    }
}

/// `tensor` dialect ops. Mixed static/dynamic lists take their dynamic
/// entries from the operands, in the order the lists are written.
#[derive(Clone, Debug, PartialEq)]
pub enum TensorOp {
    /// `tensor.empty(%dyn sizes...)`: a tensor of unspecified contents.
    Empty,
    /// `tensor.extract_slice %src[offsets] [sizes] [strides]`; operands:
    /// source, dynamic offsets, sizes, strides. The result drops no dims
    /// unless its rank is lower (rank-reducing: unit sizes are dropped).
    ExtractSlice {
        /// Offsets.
        offsets: Vec<Mixed>,
        /// Sizes.
        sizes: Vec<Mixed>,
        /// Strides.
        strides: Vec<Mixed>,
    },
    /// `tensor.insert_slice %src into %dest[offsets] [sizes] [strides]`;
    /// operands: source, dest, dynamic offsets, sizes, strides.
    InsertSlice {
        /// Offsets.
        offsets: Vec<Mixed>,
        /// Sizes.
        sizes: Vec<Mixed>,
        /// Strides.
        strides: Vec<Mixed>,
    },
    /// `tensor.collapse_shape %src [[0, 1], [2]]`: each result dim is the
    /// product of a group of consecutive source dims.
    CollapseShape {
        /// The source dims of each result dim.
        reassociation: Vec<Vec<u64>>,
    },
    /// `tensor.expand_shape %src [[0, 1], [2]] output_shape [...]`: each
    /// source dim splits into a group of result dims; operands: source,
    /// dynamic output sizes.
    ExpandShape {
        /// The result dims of each source dim.
        reassociation: Vec<Vec<u64>>,
        /// The result shape.
        output_shape: Vec<Mixed>,
    },
    /// `tensor.pad %src low[...] high[...] { yield %v }`: operands: source,
    /// dynamic lows, dynamic highs; the region (one `index` argument per
    /// dim) yields the padding value.
    Pad {
        /// Padding before each dim.
        low: Vec<Mixed>,
        /// Padding after each dim.
        high: Vec<Mixed>,
        /// `nofold`.
        nofold: bool,
    },
    /// `tensor.cast %t : A to B` (static <-> dynamic dims).
    Cast,
    /// `tensor.dim %t, %i`.
    Dim,
    /// `tensor.extract %t[%i, ...]`.
    Extract,
    /// `tensor.insert %s into %t[%i, ...]`.
    Insert,
    /// `tensor.concat dim(d) %a, %b, ...`.
    Concat {
        /// The concatenated dimension.
        dim: u64,
    },
    /// `tensor.splat %s[%dyn sizes] : T`.
    Splat,
    /// `tensor.from_elements %a, %b, ... : T` (row-major).
    FromElements,
}

impl TensorOp {
    /// The op's name.
    pub fn name(&self) -> &'static str {
        match self {
            TensorOp::Empty => "tensor.empty",
            TensorOp::ExtractSlice { .. } => "tensor.extract_slice",
            TensorOp::InsertSlice { .. } => "tensor.insert_slice",
            TensorOp::CollapseShape { .. } => "tensor.collapse_shape",
            TensorOp::ExpandShape { .. } => "tensor.expand_shape",
            TensorOp::Pad { .. } => "tensor.pad",
            TensorOp::Cast => "tensor.cast",
            TensorOp::Dim => "tensor.dim",
            TensorOp::Extract => "tensor.extract",
            TensorOp::Insert => "tensor.insert",
            TensorOp::Concat { .. } => "tensor.concat",
            TensorOp::Splat => "tensor.splat",
            TensorOp::FromElements => "tensor.from_elements",
        }
    }

    /// Where the op's host-known operands start: from this operand on,
    /// every scalar operand is a size, an offset, a stride, a pad amount
    /// or (`tensor.dim`) a dimension index, which the compiler computes
    /// on the host and checks for every op, live or dead; `None` for ops
    /// with no such operand (a `tensor.extract`'s element indices are
    /// not among them).
    pub fn first_size_operand(&self) -> Option<usize> {
        match self {
            TensorOp::Empty => Some(0),
            TensorOp::Dim
            | TensorOp::Splat
            | TensorOp::ExpandShape { .. }
            | TensorOp::ExtractSlice { .. }
            | TensorOp::Pad { .. } => Some(1),
            TensorOp::InsertSlice { .. } => Some(2),
            TensorOp::CollapseShape { .. }
            | TensorOp::Cast
            | TensorOp::Extract
            | TensorOp::Insert
            | TensorOp::Concat { .. }
            | TensorOp::FromElements => None,
        }
    }
}

/// IREE's `check` ops.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckOp {
    /// `check.expect_true(%i) : iN`: nonzero.
    ExpectTrue,
    /// `check.expect_false(%i) : iN`: zero.
    ExpectFalse,
    /// `check.expect_eq(%a, %b) : T`: bitwise equal, same shape.
    ExpectEq,
    /// `check.expect_eq_const(%a, dense<...>) : T`.
    ExpectEqConst(DenseElements),
    /// `check.expect_almost_eq(%a, %b[, atol A][, rtol R]) : T`.
    ExpectAlmostEq {
        /// `atol` as written (default [`DEFAULT_ATOL`]).
        atol: Option<f32>,
        /// `rtol` as written (default [`DEFAULT_RTOL`]).
        rtol: Option<f32>,
    },
    /// `check.expect_almost_eq_const(%a, dense<...>[, atol A][, rtol R]) : T`.
    ExpectAlmostEqConst {
        /// The expected value.
        value: DenseElements,
        /// `atol` as written.
        atol: Option<f32>,
        /// `rtol` as written.
        rtol: Option<f32>,
    },
}

/// IREE's default absolute tolerance of `check.expect_almost_eq` (`1.e-4f`).
pub const DEFAULT_ATOL: f32 = 1.0e-4;
/// IREE's default relative tolerance of `check.expect_almost_eq` (`0.f`).
pub const DEFAULT_RTOL: f32 = 0.0;

impl CheckOp {
    /// The op's name.
    pub fn name(&self) -> &'static str {
        match self {
            CheckOp::ExpectTrue => "check.expect_true",
            CheckOp::ExpectFalse => "check.expect_false",
            CheckOp::ExpectEq => "check.expect_eq",
            CheckOp::ExpectEqConst(_) => "check.expect_eq_const",
            CheckOp::ExpectAlmostEq { .. } => "check.expect_almost_eq",
            CheckOp::ExpectAlmostEqConst { .. } => "check.expect_almost_eq_const",
        }
    }
}

impl OpKind {
    /// The op's MLIR name (`linalg.matmul`, `arith.addf`, `check.expect_eq`).
    pub fn name(&self) -> String {
        match self {
            OpKind::Call { .. } => "func.call".into(),
            OpKind::Return => "func.return".into(),
            OpKind::Constant(_) => "arith.constant".into(),
            OpKind::Arith { op, .. } => op.name(),
            OpKind::Math { op, .. } => op.name(),
            OpKind::Linalg(l) => l.kind.name().into(),
            OpKind::LinalgYield => "linalg.yield".into(),
            OpKind::LinalgIndex { .. } => "linalg.index".into(),
            OpKind::Tensor(t) => t.name().into(),
            OpKind::TensorYield => "tensor.yield".into(),
            OpKind::UnfoldableConstant(_) => "util.unfoldable_constant".into(),
            OpKind::OptimizationBarrier => "util.optimization_barrier".into(),
            OpKind::DynamicConstant(_) => "flow.tensor.dynamic_constant".into(),
            OpKind::Check(c) => c.name().into(),
            OpKind::Assert { .. } => "cf.assert".into(),
        }
    }

    /// Whether the op ends a block.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            OpKind::Return | OpKind::LinalgYield | OpKind::TensorYield
        )
    }
}

/// The ops each dialect supports, by name, for "unsupported op" errors.
pub fn supported_ops(dialect: &str) -> Vec<String> {
    let mut names: Vec<String> = match dialect {
        "func" => vec!["func.call".into(), "func.func".into(), "func.return".into()],
        "arith" => std::iter::once("arith.constant".to_string())
            .chain(ArithOp::ALL.iter().map(|o| o.name()))
            .collect(),
        "math" => MathOp::ALL.iter().map(|o| o.name()).collect(),
        "linalg" => {
            let mut v: Vec<String> = [
                "linalg.generic",
                "linalg.fill",
                "linalg.copy",
                "linalg.map",
                "linalg.reduce",
                "linalg.transpose",
                "linalg.broadcast",
                "linalg.softmax",
                "linalg.quantized_matmul",
                "linalg.quantized_batch_matmul",
                "linalg.conv_2d_ngchw_gfchw",
                "linalg.conv_2d_ngchw_fgchw",
                "linalg.yield",
                "linalg.index",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect();
            v.extend(ContractionKind::ALL.iter().map(|c| c.name().to_string()));
            v.extend(ConvKind::ALL.iter().map(|c| c.name().to_string()));
            v.extend(ElementwiseKind::ALL.iter().map(|c| c.name().to_string()));
            v
        }
        "tensor" => [
            "tensor.empty",
            "tensor.extract_slice",
            "tensor.insert_slice",
            "tensor.collapse_shape",
            "tensor.expand_shape",
            "tensor.pad",
            "tensor.cast",
            "tensor.dim",
            "tensor.extract",
            "tensor.insert",
            "tensor.concat",
            "tensor.splat",
            "tensor.from_elements",
            "tensor.yield",
            "tensor.reshape",
            "tensor.generate",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        "util" => vec![
            "util.assume.int".into(),
            "util.optimization_barrier".into(),
            "util.unfoldable_constant".into(),
        ],
        "flow" => vec!["flow.tensor.dynamic_constant".into()],
        "ml_program" => vec![
            "ml_program.global".into(),
            "ml_program.global_load".into(),
            "ml_program.global_load_const".into(),
        ],
        "affine" => vec![
            "affine.apply".into(),
            "affine.max".into(),
            "affine.min".into(),
        ],
        "check" => [
            "check.expect_almost_eq",
            "check.expect_almost_eq_const",
            "check.expect_eq",
            "check.expect_eq_const",
            "check.expect_false",
            "check.expect_true",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        _ => Vec::new(),
    };
    names.sort();
    names.dedup();
    names
}
