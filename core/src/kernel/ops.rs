//! The ops of the memref-level kernel IR, one variant per MLIR op name.
//!
//! The table is the single list of what the kernel parser accepts and what
//! lowering must handle; [`KOpKind::from_name`] and [`KOpKind::name`] map
//! between the enum and MLIR's spelling. (The op *handle* is
//! [`KOp`](super::KOp); this is its kind, as [`OpKind`](crate::ir::OpKind)
//! is for the spv IR.)

macro_rules! kernel_ops {
    ($($(#[$doc:meta])* $variant:ident => $name:literal,)*) => {
        /// The kind of a kernel op, by its MLIR name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum KOpKind {
            $($(#[$doc])* #[doc = concat!("`", $name, "`")] $variant,)*
        }

        impl KOpKind {
            /// Every kernel op, in table order.
            pub const ALL: &'static [KOpKind] = &[$(KOpKind::$variant,)*];

            /// The MLIR name (`arith.addi`).
            pub fn name(self) -> &'static str {
                match self {
                    $(KOpKind::$variant => $name,)*
                }
            }

            /// The op with MLIR name `name`.
            pub fn from_name(name: &str) -> Option<KOpKind> {
                match name {
                    $($name => Some(KOpKind::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

kernel_ops! {
    // ---- structure --------------------------------------------------
    BuiltinModule => "builtin.module",
    GpuModule => "gpu.module",
    GpuFunc => "gpu.func",
    GpuReturn => "gpu.return",
    FuncFunc => "func.func",
    FuncReturn => "func.return",
    FuncCall => "func.call",
    GpuLaunchFunc => "gpu.launch_func",

    // ---- arith --------------------------------------------------------
    ArithConstant => "arith.constant",
    ArithAddI => "arith.addi",
    ArithSubI => "arith.subi",
    ArithMulI => "arith.muli",
    ArithDivSI => "arith.divsi",
    ArithDivUI => "arith.divui",
    ArithCeilDivSI => "arith.ceildivsi",
    ArithCeilDivUI => "arith.ceildivui",
    ArithFloorDivSI => "arith.floordivsi",
    ArithRemSI => "arith.remsi",
    ArithRemUI => "arith.remui",
    ArithAndI => "arith.andi",
    ArithOrI => "arith.ori",
    ArithXOrI => "arith.xori",
    ArithShLI => "arith.shli",
    ArithShRSI => "arith.shrsi",
    ArithShRUI => "arith.shrui",
    ArithMaxSI => "arith.maxsi",
    ArithMaxUI => "arith.maxui",
    ArithMinSI => "arith.minsi",
    ArithMinUI => "arith.minui",
    ArithAddUIExtended => "arith.addui_extended",
    ArithMulUIExtended => "arith.mului_extended",
    ArithMulSIExtended => "arith.mulsi_extended",
    ArithAddF => "arith.addf",
    ArithSubF => "arith.subf",
    ArithMulF => "arith.mulf",
    ArithDivF => "arith.divf",
    ArithRemF => "arith.remf",
    ArithNegF => "arith.negf",
    ArithMaximumF => "arith.maximumf",
    ArithMinimumF => "arith.minimumf",
    ArithMaxNumF => "arith.maxnumf",
    ArithMinNumF => "arith.minnumf",
    ArithCmpI => "arith.cmpi",
    ArithCmpF => "arith.cmpf",
    ArithSelect => "arith.select",
    ArithExtSI => "arith.extsi",
    ArithExtUI => "arith.extui",
    ArithTruncI => "arith.trunci",
    ArithExtF => "arith.extf",
    ArithTruncF => "arith.truncf",
    ArithSIToFP => "arith.sitofp",
    ArithUIToFP => "arith.uitofp",
    ArithFPToSI => "arith.fptosi",
    ArithFPToUI => "arith.fptoui",
    ArithIndexCast => "arith.index_cast",
    ArithIndexCastUI => "arith.index_castui",
    ArithBitcast => "arith.bitcast",

    // ---- math ---------------------------------------------------------
    MathExp => "math.exp",
    MathExp2 => "math.exp2",
    MathExpM1 => "math.expm1",
    MathLog => "math.log",
    MathLog2 => "math.log2",
    MathLog10 => "math.log10",
    MathLog1p => "math.log1p",
    MathSqrt => "math.sqrt",
    MathRsqrt => "math.rsqrt",
    MathTanh => "math.tanh",
    MathSin => "math.sin",
    MathCos => "math.cos",
    MathTan => "math.tan",
    MathAsin => "math.asin",
    MathAcos => "math.acos",
    MathAtan => "math.atan",
    MathAtan2 => "math.atan2",
    MathSinh => "math.sinh",
    MathCosh => "math.cosh",
    MathAsinh => "math.asinh",
    MathAcosh => "math.acosh",
    MathAtanh => "math.atanh",
    MathPowF => "math.powf",
    MathFma => "math.fma",
    MathAbsF => "math.absf",
    MathAbsI => "math.absi",
    MathFloor => "math.floor",
    MathCeil => "math.ceil",
    MathRound => "math.round",
    MathRoundEven => "math.roundeven",
    MathTrunc => "math.trunc",
    MathCopySign => "math.copysign",
    MathCtlz => "math.ctlz",
    MathCttz => "math.cttz",
    MathCtpop => "math.ctpop",
    MathErf => "math.erf",

    // ---- memref -------------------------------------------------------
    MemRefLoad => "memref.load",
    MemRefStore => "memref.store",
    MemRefAlloc => "memref.alloc",
    MemRefAlloca => "memref.alloca",
    MemRefDealloc => "memref.dealloc",
    MemRefCast => "memref.cast",
    MemRefSubView => "memref.subview",
    MemRefDim => "memref.dim",

    // ---- scf ----------------------------------------------------------
    ScfFor => "scf.for",
    ScfIf => "scf.if",
    ScfWhile => "scf.while",
    ScfYield => "scf.yield",
    ScfCondition => "scf.condition",

    // ---- gpu ----------------------------------------------------------
    GpuThreadId => "gpu.thread_id",
    GpuBlockId => "gpu.block_id",
    GpuBlockDim => "gpu.block_dim",
    GpuGridDim => "gpu.grid_dim",
    GpuGlobalId => "gpu.global_id",
    GpuLaneId => "gpu.lane_id",
    GpuSubgroupId => "gpu.subgroup_id",
    GpuSubgroupSize => "gpu.subgroup_size",
    GpuNumSubgroups => "gpu.num_subgroups",
    GpuBarrier => "gpu.barrier",
    GpuShuffle => "gpu.shuffle",
    GpuSubgroupReduce => "gpu.subgroup_reduce",
    GpuSubgroupMmaLoadMatrix => "gpu.subgroup_mma_load_matrix",
    GpuSubgroupMmaStoreMatrix => "gpu.subgroup_mma_store_matrix",
    GpuSubgroupMmaCompute => "gpu.subgroup_mma_compute",
    GpuSubgroupMmaConstantMatrix => "gpu.subgroup_mma_constant_matrix",

    // ---- vector -------------------------------------------------------
    VectorLoad => "vector.load",
    VectorStore => "vector.store",
    VectorExtract => "vector.extract",
    VectorInsert => "vector.insert",
    VectorExtractElement => "vector.extractelement",
    VectorInsertElement => "vector.insertelement",
    VectorSplat => "vector.splat",
    VectorBroadcast => "vector.broadcast",
    VectorShuffle => "vector.shuffle",
    VectorInterleave => "vector.interleave",
    VectorDeinterleave => "vector.deinterleave",
    VectorReduction => "vector.reduction",
    VectorBitcast => "vector.bitcast",
    VectorFma => "vector.fma",

    // ---- index --------------------------------------------------------
    IndexConstant => "index.constant",
    IndexAdd => "index.add",
    IndexSub => "index.sub",
    IndexMul => "index.mul",
    IndexDivS => "index.divs",
    IndexDivU => "index.divu",
    IndexCeilDivS => "index.ceildivs",
    IndexCeilDivU => "index.ceildivu",
    IndexFloorDivS => "index.floordivs",
    IndexRemS => "index.rems",
    IndexRemU => "index.remu",
    IndexMaxS => "index.maxs",
    IndexMaxU => "index.maxu",
    IndexMinS => "index.mins",
    IndexMinU => "index.minu",
    IndexShl => "index.shl",
    IndexShrS => "index.shrs",
    IndexShrU => "index.shru",
    IndexAnd => "index.and",
    IndexOr => "index.or",
    IndexXor => "index.xor",
    IndexCmp => "index.cmp",
    IndexCastS => "index.casts",
    IndexCastU => "index.castu",

    // ---- spirv --------------------------------------------------------
    /// Any SPIR-V dialect op written inside a `gpu.func` (as MLIR allows
    /// next to the ops being converted): its text is kept in the `op`
    /// attribute with operand `k` spelled `%_k`, and lowering parses it
    /// into the spv module with the operands' lowered values.
    SpirvOp => "spirv.*",
}

impl KOpKind {
    /// The dialect prefix (`arith` for `arith.addi`).
    pub fn dialect(self) -> &'static str {
        let name = self.name();
        &name[..name.find('.').unwrap_or(name.len())]
    }

    /// Whether the op ends a block (`scf.yield`, `gpu.return`, ...).
    pub fn is_terminator(self) -> bool {
        matches!(
            self,
            KOpKind::GpuReturn | KOpKind::FuncReturn | KOpKind::ScfYield | KOpKind::ScfCondition
        )
    }
}

/// The unit attribute of an f32 `math.fma` / `vector.fma` whose operands
/// are values of a format of at most 12 significant bits (f16, bf16,
/// computed in f32) and whose result is rounded to such a format next: it
/// asks for the exact `a * b + c` rounded to odd at f32's precision, which
/// that second rounding turns into the exact sum rounded once (an f32 sum
/// rounded to nearest would be rounded twice). The tensor compiler sets it
/// on f16/bf16 `math.fma`; `lower/libm/fma.rs` reads it.
pub const ROUND_TO_ODD_ATTR: &str = "kiln.round_to_odd";
