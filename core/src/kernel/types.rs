//! Types of the memref-level kernel IR: the subset of MLIR's builtin types
//! that `arith`, `math`, `memref`, `scf`, `gpu`, `vector` and `index` ops use.
//!
//! Kernel types are small trees compared structurally (`Eq` + `Hash`); a
//! kernel has few distinct types, so they are not interned.

use crate::grammar::StorageClass;

/// A float format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatTy {
    /// `f16`.
    F16,
    /// `bf16`.
    BF16,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
}

impl FloatTy {
    /// The width in bits.
    pub fn bits(self) -> u32 {
        match self {
            FloatTy::F16 | FloatTy::BF16 => 16,
            FloatTy::F32 => 32,
            FloatTy::F64 => 64,
        }
    }

    /// The spv IR's name for the same format.
    pub fn kind(self) -> crate::ir::FloatKind {
        match self {
            FloatTy::F16 => crate::ir::FloatKind::F16,
            FloatTy::BF16 => crate::ir::FloatKind::BF16,
            FloatTy::F32 => crate::ir::FloatKind::F32,
            FloatTy::F64 => crate::ir::FloatKind::F64,
        }
    }

    /// The format of the spv IR's float `kind` (the inverse of
    /// [`FloatTy::kind`]).
    pub fn from_kind(kind: crate::ir::FloatKind) -> FloatTy {
        match kind {
            crate::ir::FloatKind::F16 => FloatTy::F16,
            crate::ir::FloatKind::BF16 => FloatTy::BF16,
            crate::ir::FloatKind::F32 => FloatTy::F32,
            crate::ir::FloatKind::F64 => FloatTy::F64,
        }
    }
}

/// A `#gpu.address_space<...>` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GpuAddressSpace {
    /// `#gpu.address_space<global>`.
    Global,
    /// `#gpu.address_space<workgroup>`.
    Workgroup,
    /// `#gpu.address_space<private>`.
    Private,
}

/// The memory space of a memref, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MemorySpace {
    /// No memory space (the default, 0).
    #[default]
    Default,
    /// An integer memory space (`memref<4xf32, 3>`), interpreted as MLIR's
    /// `map-memref-spirv-storage-class` Vulkan mapping does.
    Int(u64),
    /// A `#gpu.address_space<...>`.
    Gpu(GpuAddressSpace),
    /// A `#spirv.storage_class<...>` (already mapped).
    StorageClass(StorageClass),
}

/// A memref layout.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum MemRefLayout {
    /// The identity (row-major, contiguous) layout.
    #[default]
    Identity,
    /// `strided<[s0, s1, ...], offset: o>`; `None` is a dynamic (`?`) entry.
    Strided {
        /// Element offset of the first element.
        offset: Option<i64>,
        /// Per-dimension strides in elements.
        strides: Vec<Option<i64>>,
    },
}

/// Which operand of `gpu.subgroup_mma_compute` an MMA matrix is (the
/// string of `!gpu.mma_matrix<..., "AOp">`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MmaOperand {
    /// `"AOp"`: the left operand (M x K).
    A,
    /// `"BOp"`: the right operand (K x N).
    B,
    /// `"COp"`: the accumulator and result (M x N).
    C,
}

impl MmaOperand {
    /// The text form (`AOp`, `BOp`, `COp`).
    pub fn name(self) -> &'static str {
        match self {
            MmaOperand::A => "AOp",
            MmaOperand::B => "BOp",
            MmaOperand::C => "COp",
        }
    }

    /// The operand spelled `name`.
    pub fn from_name(name: &str) -> Option<MmaOperand> {
        match name {
            "AOp" => Some(MmaOperand::A),
            "BOp" => Some(MmaOperand::B),
            "COp" => Some(MmaOperand::C),
            _ => None,
        }
    }
}

/// A kernel type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KType {
    /// A signless integer `iN` (`i1` is the boolean).
    Int(u32),
    /// A float.
    Float(FloatTy),
    /// `index`.
    Index,
    /// `vector<NxT>` (1-D; the shape is kept for multi-dimensional text).
    Vector {
        /// Dimensions.
        shape: Vec<u64>,
        /// Element type (a scalar).
        elem: Box<KType>,
    },
    /// `memref<...>`; `None` dimensions are dynamic (`?`).
    MemRef {
        /// Dimensions.
        shape: Vec<Option<u64>>,
        /// Element type.
        elem: Box<KType>,
        /// Layout.
        layout: MemRefLayout,
        /// Memory space.
        space: MemorySpace,
    },
    /// `memref<*xT>`.
    UnrankedMemRef {
        /// Element type.
        elem: Box<KType>,
        /// Memory space.
        space: MemorySpace,
    },
    /// `!gpu.mma_matrix<RxCxT, "AOp">`: a matrix held jointly by a
    /// subgroup (lowered to a `Subgroup` cooperative matrix).
    MmaMatrix {
        /// Rows.
        rows: u32,
        /// Columns.
        cols: u32,
        /// Element type (an integer or float scalar).
        elem: Box<KType>,
        /// Which operand of a multiply-add it is.
        operand: MmaOperand,
    },
    /// `(inputs) -> results`.
    Function {
        /// Argument types.
        inputs: Vec<KType>,
        /// Result types.
        results: Vec<KType>,
    },
}

impl KType {
    /// `i1`.
    pub fn bool() -> KType {
        KType::Int(1)
    }
    /// `i32`.
    pub fn i32() -> KType {
        KType::Int(32)
    }
    /// `f32`.
    pub fn f32() -> KType {
        KType::Float(FloatTy::F32)
    }
    /// A vector of `len` elements.
    pub fn vector(len: u64, elem: KType) -> KType {
        KType::Vector {
            shape: vec![len],
            elem: Box::new(elem),
        }
    }
    /// A statically shaped memref with the identity layout.
    pub fn memref(shape: &[u64], elem: KType, space: MemorySpace) -> KType {
        KType::MemRef {
            shape: shape.iter().map(|&d| Some(d)).collect(),
            elem: Box::new(elem),
            layout: MemRefLayout::Identity,
            space,
        }
    }

    /// Whether this is an integer, float or index type.
    pub fn is_scalar(&self) -> bool {
        matches!(self, KType::Int(_) | KType::Float(_) | KType::Index)
    }

    /// The scalar element type of a vector, or the type itself for a scalar.
    pub fn scalar(&self) -> &KType {
        match self {
            KType::Vector { elem, .. } => elem,
            other => other,
        }
    }

    /// The element type of a memref (ranked or not).
    pub fn memref_elem(&self) -> Option<&KType> {
        match self {
            KType::MemRef { elem, .. } | KType::UnrankedMemRef { elem, .. } => Some(elem),
            _ => None,
        }
    }
}
