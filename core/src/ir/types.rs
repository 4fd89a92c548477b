//! Types of the spv IR.
//!
//! The dialect reuses MLIR's builtin scalar and vector types (`i1`, `i32`,
//! `si8`, `ui16`, `f16`, `bf16`, `f32`, `f64`, `vector<4xf32>`, `index`,
//! `none`, function types) and adds the SPIR-V specific ones (`!spv.array`,
//! `!spv.rtarray`, `!spv.ptr`, `!spv.struct`, `!spv.image`,
//! `!spv.sampled_image`, `!spv.matrix`, `!spv.coopmatrix`). Types are interned in a
//! [`TypeStore`]: two [`Type`] handles are equal exactly when the types are.
//!
//! Decorations that only matter for memory layout (`ArrayStride`, `Offset`,
//! member decorations) are part of the type, as in MLIR.

use std::collections::HashMap;

use super::entity::Type;
use crate::grammar::{Decoration, Dim, ImageFormat, Scope, StorageClass};

/// Signedness semantics of an integer type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signedness {
    /// `iN`: no signedness semantics (serialized as signedness 0).
    Signless,
    /// `siN` (serialized as signedness 1).
    Signed,
    /// `uiN` (serialized as signedness 0).
    Unsigned,
}

/// Floating-point formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    /// IEEE half precision.
    F16,
    /// bfloat16 (needs `SPV_KHR_bfloat16` to serialize).
    BF16,
    /// IEEE single precision.
    F32,
    /// IEEE double precision.
    F64,
}

impl FloatKind {
    /// Bit width of the format.
    pub fn width(self) -> u32 {
        match self {
            FloatKind::F16 | FloatKind::BF16 => 16,
            FloatKind::F32 => 32,
            FloatKind::F64 => 64,
        }
    }
}

/// `Depth` operand of an image type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageDepth {
    /// `NoDepth` (0).
    NoDepth,
    /// `IsDepth` (1).
    IsDepth,
    /// `DepthUnknown` (2).
    DepthUnknown,
}

/// `Arrayed` operand of an image type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageArrayed {
    /// `NonArrayed` (0).
    NonArrayed,
    /// `Arrayed` (1).
    Arrayed,
}

/// `MS` operand of an image type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageSampling {
    /// `SingleSampled` (0).
    SingleSampled,
    /// `MultiSampled` (1).
    MultiSampled,
}

/// `Sampled` operand of an image type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageSamplerUse {
    /// `SamplerUnknown` (0).
    SamplerUnknown,
    /// `NeedSampler` (1).
    NeedSampler,
    /// `NoSampler` (2).
    NoSampler,
}

/// `!spv.image<...>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageType {
    /// Sampled type (a scalar numeric type or `none`).
    pub element: Type,
    /// Dimensionality.
    pub dim: Dim,
    /// Depth information.
    pub depth: ImageDepth,
    /// Arrayed or not.
    pub arrayed: ImageArrayed,
    /// Multisampling.
    pub sampling: ImageSampling,
    /// Whether a sampler is needed.
    pub sampler_use: ImageSamplerUse,
    /// Image format.
    pub format: ImageFormat,
}

/// The `Use` operand of a cooperative matrix type
/// (`SPV_KHR_cooperative_matrix`): which operand of a multiply-add it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CoopMatrixUse {
    /// `MatrixA` (`MatrixAKHR` = 0): the left operand, M x K.
    MatrixA,
    /// `MatrixB` (`MatrixBKHR` = 1): the right operand, K x N.
    MatrixB,
    /// `MatrixAcc` (`MatrixAccumulatorKHR` = 2): the accumulator and result, M x N.
    MatrixAcc,
}

impl CoopMatrixUse {
    /// The binary value of the `Use` operand.
    pub fn to_u32(self) -> u32 {
        match self {
            CoopMatrixUse::MatrixA => 0,
            CoopMatrixUse::MatrixB => 1,
            CoopMatrixUse::MatrixAcc => 2,
        }
    }

    /// The use with binary value `v`.
    pub fn from_u32(v: u32) -> Option<Self> {
        match v {
            0 => Some(CoopMatrixUse::MatrixA),
            1 => Some(CoopMatrixUse::MatrixB),
            2 => Some(CoopMatrixUse::MatrixAcc),
            _ => None,
        }
    }

    /// MLIR's spelling (`MatrixA`, `MatrixB`, `MatrixAcc`).
    pub fn name(self) -> &'static str {
        match self {
            CoopMatrixUse::MatrixA => "MatrixA",
            CoopMatrixUse::MatrixB => "MatrixB",
            CoopMatrixUse::MatrixAcc => "MatrixAcc",
        }
    }

    /// The use spelled `name` (MLIR's names or the grammar's
    /// `MatrixAKHR` / `MatrixBKHR` / `MatrixAccumulatorKHR`).
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "MatrixA" | "MatrixAKHR" => Some(CoopMatrixUse::MatrixA),
            "MatrixB" | "MatrixBKHR" => Some(CoopMatrixUse::MatrixB),
            "MatrixAcc" | "MatrixAccumulatorKHR" => Some(CoopMatrixUse::MatrixAcc),
            _ => None,
        }
    }
}

/// `!spv.coopmatrix<RxCxT, Scope, Use>`: a cooperative matrix
/// (`OpTypeCooperativeMatrixKHR`), held jointly by the invocations of a
/// scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CoopMatrixType {
    /// Element type (a scalar integer or float).
    pub element: Type,
    /// Number of rows.
    pub rows: u32,
    /// Number of columns.
    pub columns: u32,
    /// The scope whose invocations share the matrix.
    pub scope: Scope,
    /// Which operand of a multiply-add it is.
    pub usage: CoopMatrixUse,
}

/// A decoration on a struct member, with its literal operand if any
/// (`MatrixStride=16`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemberDecoration {
    /// The decoration.
    pub decoration: Decoration,
    /// Its single literal operand, for decorations that take one.
    pub value: Option<u32>,
}

/// One member of a struct type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructMember {
    /// The member's type.
    pub ty: Type,
    /// Byte offset (`Offset` decoration), when laid out.
    pub offset: Option<u32>,
    /// Other member decorations, in source order.
    pub decorations: Vec<MemberDecoration>,
}

/// `!spv.struct<...>`: literal (`!spv.struct<(f32 [0])>`) or identified
/// (`!spv.struct<name, (...)>`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructType {
    /// The identifier of an identified struct.
    pub identifier: Option<String>,
    /// The members.
    pub members: Vec<StructMember>,
}

/// The structure of a type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    /// `none`: SPIR-V `OpTypeVoid`.
    None,
    /// `iN` / `siN` / `uiN`; `i1` is SPIR-V's bool.
    Int {
        /// Bit width.
        width: u32,
        /// Signedness semantics.
        signedness: Signedness,
    },
    /// `f16` / `bf16` / `f32` / `f64`.
    Float(FloatKind),
    /// `index`: only in kernel-level IR; has no SPIR-V encoding.
    Index,
    /// `vector<NxT>`.
    Vector {
        /// Number of elements.
        len: u32,
        /// Scalar element type.
        element: Type,
    },
    /// `!spv.array<N x T, stride=S>`.
    Array {
        /// Number of elements.
        len: u32,
        /// Element type.
        element: Type,
        /// `ArrayStride` decoration, in bytes.
        stride: Option<u32>,
    },
    /// `!spv.rtarray<T, stride=S>`.
    RuntimeArray {
        /// Element type.
        element: Type,
        /// `ArrayStride` decoration, in bytes.
        stride: Option<u32>,
    },
    /// `!spv.ptr<T, StorageClass>`.
    Pointer {
        /// Pointee type.
        pointee: Type,
        /// Storage class.
        storage_class: StorageClass,
    },
    /// `!spv.struct<...>`.
    Struct(StructType),
    /// `!spv.image<...>`.
    Image(ImageType),
    /// `!spv.sampled_image<!spv.image<...>>`.
    SampledImage(Type),
    /// `!spv.sampler`.
    Sampler,
    /// `!spv.matrix<N x vector<MxT>>`: N columns of the given column type.
    Matrix {
        /// Number of columns.
        columns: u32,
        /// Column (vector) type.
        column: Type,
    },
    /// `!spv.coopmatrix<RxCxT, Scope, Use>`.
    CoopMatrix(CoopMatrixType),
    /// `(T0, T1) -> (R)`.
    Function {
        /// Parameter types.
        inputs: Vec<Type>,
        /// Result types (at most one for SPIR-V functions).
        results: Vec<Type>,
    },
}

/// Interns types: every distinct [`TypeKind`] gets exactly one [`Type`].
#[derive(Clone, Debug, Default)]
pub struct TypeStore {
    kinds: Vec<TypeKind>,
    map: HashMap<TypeKind, Type>,
}

impl TypeStore {
    /// Returns the handle of `kind`, adding it if it is new.
    pub fn intern(&mut self, kind: TypeKind) -> Type {
        if let Some(&t) = self.map.get(&kind) {
            return t;
        }
        let t = Type::from_index(self.kinds.len());
        self.kinds.push(kind.clone());
        self.map.insert(kind, t);
        t
    }

    /// The structure of `ty`.
    #[inline]
    pub fn kind(&self, ty: Type) -> &TypeKind {
        &self.kinds[ty.index()]
    }

    /// The handle of `kind` if it has been interned.
    pub fn lookup(&self, kind: &TypeKind) -> Option<Type> {
        self.map.get(kind).copied()
    }

    /// Number of distinct types.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Whether no type has been interned.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    // ---- constructors -------------------------------------------------

    /// `none`.
    pub fn none(&mut self) -> Type {
        self.intern(TypeKind::None)
    }
    /// `i1`.
    pub fn bool(&mut self) -> Type {
        self.int(1)
    }
    /// Signless `iN`.
    pub fn int(&mut self, width: u32) -> Type {
        self.intern(TypeKind::Int {
            width,
            signedness: Signedness::Signless,
        })
    }
    /// Integer with explicit signedness.
    pub fn int_with(&mut self, width: u32, signedness: Signedness) -> Type {
        self.intern(TypeKind::Int { width, signedness })
    }
    /// `f16` / `bf16` / `f32` / `f64`.
    pub fn float(&mut self, kind: FloatKind) -> Type {
        self.intern(TypeKind::Float(kind))
    }
    /// `f32`.
    pub fn f32(&mut self) -> Type {
        self.float(FloatKind::F32)
    }
    /// `index`.
    pub fn index(&mut self) -> Type {
        self.intern(TypeKind::Index)
    }
    /// `vector<len x element>`.
    pub fn vector(&mut self, len: u32, element: Type) -> Type {
        self.intern(TypeKind::Vector { len, element })
    }
    /// `!spv.array<len x element, stride=...>`.
    pub fn array(&mut self, len: u32, element: Type, stride: Option<u32>) -> Type {
        self.intern(TypeKind::Array {
            len,
            element,
            stride,
        })
    }
    /// `!spv.rtarray<element, stride=...>`.
    pub fn runtime_array(&mut self, element: Type, stride: Option<u32>) -> Type {
        self.intern(TypeKind::RuntimeArray { element, stride })
    }
    /// `!spv.ptr<pointee, storage_class>`.
    pub fn pointer(&mut self, pointee: Type, storage_class: StorageClass) -> Type {
        self.intern(TypeKind::Pointer {
            pointee,
            storage_class,
        })
    }
    /// A function type.
    pub fn function(&mut self, inputs: Vec<Type>, results: Vec<Type>) -> Type {
        self.intern(TypeKind::Function { inputs, results })
    }
    /// A literal struct whose members have the given types and offsets.
    pub fn struct_of(&mut self, members: Vec<(Type, Option<u32>)>) -> Type {
        self.intern(TypeKind::Struct(StructType {
            identifier: None,
            members: members
                .into_iter()
                .map(|(ty, offset)| StructMember {
                    ty,
                    offset,
                    decorations: Vec::new(),
                })
                .collect(),
        }))
    }

    // ---- queries -------------------------------------------------------

    /// Whether `ty` is `i1`.
    pub fn is_bool(&self, ty: Type) -> bool {
        matches!(self.kind(ty), TypeKind::Int { width: 1, .. })
    }
    /// Whether `ty` is an integer type other than `i1`.
    pub fn is_integer(&self, ty: Type) -> bool {
        matches!(self.kind(ty), TypeKind::Int { width, .. } if *width != 1)
    }
    /// Whether `ty` is a float type.
    pub fn is_float(&self, ty: Type) -> bool {
        matches!(self.kind(ty), TypeKind::Float(_))
    }
    /// Whether `ty` is a scalar (bool, int or float).
    pub fn is_scalar(&self, ty: Type) -> bool {
        matches!(self.kind(ty), TypeKind::Int { .. } | TypeKind::Float(_))
    }
    /// The cooperative matrix type `ty` is, if it is one.
    pub fn coop_matrix(&self, ty: Type) -> Option<CoopMatrixType> {
        match self.kind(ty) {
            TypeKind::CoopMatrix(c) => Some(*c),
            _ => None,
        }
    }
    /// The element type of a vector or cooperative matrix, or `ty` itself
    /// for anything else.
    pub fn scalar_of(&self, ty: Type) -> Type {
        match self.kind(ty) {
            TypeKind::Vector { element, .. } => *element,
            TypeKind::CoopMatrix(c) => c.element,
            _ => ty,
        }
    }
    /// Number of components: the vector length, or 1 for scalars.
    pub fn component_count(&self, ty: Type) -> u32 {
        match self.kind(ty) {
            TypeKind::Vector { len, .. } => *len,
            _ => 1,
        }
    }
    /// Bit width of a scalar type or of a vector's element.
    pub fn bit_width(&self, ty: Type) -> Option<u32> {
        match self.kind(self.scalar_of(ty)) {
            TypeKind::Int { width, .. } => Some(*width),
            TypeKind::Float(f) => Some(f.width()),
            _ => None,
        }
    }
    /// The pointee and storage class of a pointer type.
    pub fn pointer_parts(&self, ty: Type) -> Option<(Type, StorageClass)> {
        match self.kind(ty) {
            TypeKind::Pointer {
                pointee,
                storage_class,
            } => Some((*pointee, *storage_class)),
            _ => None,
        }
    }
    /// Whether `ty` is a composite (vector, array, struct, matrix,
    /// cooperative matrix).
    pub fn is_composite(&self, ty: Type) -> bool {
        matches!(
            self.kind(ty),
            TypeKind::Vector { .. }
                | TypeKind::CoopMatrix(_)
                | TypeKind::Array { .. }
                | TypeKind::RuntimeArray { .. }
                | TypeKind::Struct(_)
                | TypeKind::Matrix { .. }
        )
    }
}
