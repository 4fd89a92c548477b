//! Types of the tensor IR: scalars, ranked tensors (static and dynamic
//! dimensions) and the vectors some attributes are typed with.
//!
//! Types are interned in a [`TypeStore`]: building the same type twice gives
//! the same [`TType`], so type equality is handle equality.

use std::collections::HashMap;

use super::entity::TType;
use crate::ir::entity::Arena;
use crate::ir::FloatKind;

/// A scalar (element) type.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum ElemType {
    /// IEEE binary16 (storage; computed in f32 and rounded after each op).
    F16,
    /// bfloat16 (storage; computed in f32 and rounded after each op).
    BF16,
    /// IEEE binary32.
    F32,
    /// IEEE binary64.
    F64,
    /// A signless integer `iN`; `i1` is the boolean. The IR accepts the
    /// widths 1, 8, 16, 32 and 64 (the verifier rejects others).
    Int(u32),
    /// `index`: a 64-bit signless integer on the host.
    Index,
}

impl ElemType {
    /// `i1`.
    pub const I1: ElemType = ElemType::Int(1);
    /// `i8`.
    pub const I8: ElemType = ElemType::Int(8);
    /// `i16`.
    pub const I16: ElemType = ElemType::Int(16);
    /// `i32`.
    pub const I32: ElemType = ElemType::Int(32);
    /// `i64`.
    pub const I64: ElemType = ElemType::Int(64);

    /// The type's name in MLIR's syntax (`f32`, `i8`, `index`).
    pub fn name(self) -> String {
        match self {
            ElemType::F16 => "f16".into(),
            ElemType::BF16 => "bf16".into(),
            ElemType::F32 => "f32".into(),
            ElemType::F64 => "f64".into(),
            ElemType::Int(w) => format!("i{w}"),
            ElemType::Index => "index".into(),
        }
    }

    /// The scalar type called `name` (`f32`, `i8`, `index`; any `iN` with
    /// 1 <= N <= 64).
    pub fn from_name(name: &str) -> Option<ElemType> {
        Some(match name {
            "f16" => ElemType::F16,
            "bf16" => ElemType::BF16,
            "f32" => ElemType::F32,
            "f64" => ElemType::F64,
            "index" => ElemType::Index,
            _ => {
                let digits = name.strip_prefix('i')?;
                if digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                let w: u32 = digits.parse().ok()?;
                if !(1..=64).contains(&w) {
                    return None;
                }
                ElemType::Int(w)
            }
        })
    }

    /// Whether this is a float type.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            ElemType::F16 | ElemType::BF16 | ElemType::F32 | ElemType::F64
        )
    }

    /// Whether this is an integer type (`iN` or `index`).
    pub fn is_int_or_index(self) -> bool {
        matches!(self, ElemType::Int(_) | ElemType::Index)
    }

    /// The width in bits (`index` is 64).
    pub fn bits(self) -> u32 {
        match self {
            ElemType::F16 | ElemType::BF16 => 16,
            ElemType::F32 => 32,
            ElemType::F64 => 64,
            ElemType::Int(w) => w,
            ElemType::Index => 64,
        }
    }

    /// The float format, for float types.
    pub fn float_kind(self) -> Option<FloatKind> {
        Some(match self {
            ElemType::F16 => FloatKind::F16,
            ElemType::BF16 => FloatKind::BF16,
            ElemType::F32 => FloatKind::F32,
            ElemType::F64 => FloatKind::F64,
            _ => return None,
        })
    }

    /// Whether the IR supports tensors of this element type (f16, bf16,
    /// f32, f64, i1, i8, i16, i32, i64, index).
    pub fn is_supported(self) -> bool {
        match self {
            ElemType::Int(w) => matches!(w, 1 | 8 | 16 | 32 | 64),
            _ => true,
        }
    }
}

impl std::fmt::Display for ElemType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// One dimension of a tensor type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// A size known at compile time.
    Static(u64),
    /// `?`: known only at run time (`tensor.dim` reads it).
    Dynamic,
}

impl Dim {
    /// The static size, if any.
    pub fn fixed(self) -> Option<u64> {
        match self {
            Dim::Static(n) => Some(n),
            Dim::Dynamic => None,
        }
    }
}

/// What a type is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    /// A scalar: `f32`, `i1`, `index`, ...
    Scalar(ElemType),
    /// A ranked tensor `tensor<4x?xf32>` (rank 0: `tensor<f32>`).
    Tensor {
        /// The dimensions, outermost first.
        shape: Vec<Dim>,
        /// The element type.
        elem: ElemType,
    },
    /// `vector<2xi64>`: only as the type of dense attributes (a
    /// convolution's `strides = dense<1> : vector<2xi64>`).
    Vector {
        /// The dimensions.
        shape: Vec<u64>,
        /// The element type.
        elem: ElemType,
    },
}

impl TypeKind {
    /// The element type of a tensor or vector, or the scalar itself.
    pub fn elem(&self) -> ElemType {
        match self {
            TypeKind::Scalar(e) => *e,
            TypeKind::Tensor { elem, .. } | TypeKind::Vector { elem, .. } => *elem,
        }
    }

    /// The shape of a tensor (`None` for scalars and vectors).
    pub fn tensor_shape(&self) -> Option<&[Dim]> {
        match self {
            TypeKind::Tensor { shape, .. } => Some(shape),
            _ => None,
        }
    }

    /// Whether this is a tensor type.
    pub fn is_tensor(&self) -> bool {
        matches!(self, TypeKind::Tensor { .. })
    }

    /// The scalar type, for scalars.
    pub fn scalar(&self) -> Option<ElemType> {
        match self {
            TypeKind::Scalar(e) => Some(*e),
            _ => None,
        }
    }

    /// The static number of elements of a tensor or vector whose
    /// dimensions are all static.
    pub fn static_num_elements(&self) -> Option<u64> {
        match self {
            TypeKind::Tensor { shape, .. } => shape
                .iter()
                .try_fold(1u64, |acc, d| acc.checked_mul(d.fixed()?)),
            TypeKind::Vector { shape, .. } => {
                shape.iter().try_fold(1u64, |acc, &d| acc.checked_mul(d))
            }
            TypeKind::Scalar(_) => Some(1),
        }
    }

    /// The type in MLIR's syntax.
    pub fn to_text(&self) -> String {
        fn dims(shape: impl Iterator<Item = String>) -> String {
            shape.map(|d| format!("{d}x")).collect()
        }
        match self {
            TypeKind::Scalar(e) => e.name(),
            TypeKind::Tensor { shape, elem } => format!(
                "tensor<{}{elem}>",
                dims(shape.iter().map(|d| match d {
                    Dim::Static(n) => n.to_string(),
                    Dim::Dynamic => "?".to_string(),
                }))
            ),
            TypeKind::Vector { shape, elem } => {
                format!("vector<{}{elem}>", dims(shape.iter().map(u64::to_string)))
            }
        }
    }
}

/// The interned types of a module.
#[derive(Clone, Debug, Default)]
pub struct TypeStore {
    arena: Arena<TType, TypeKind>,
    index: HashMap<TypeKind, TType>,
}

impl TypeStore {
    /// The handle of `kind`, interning it on first use.
    pub fn intern(&mut self, kind: TypeKind) -> TType {
        if let Some(&t) = self.index.get(&kind) {
            return t;
        }
        let t = self.arena.push(kind.clone());
        self.index.insert(kind, t);
        t
    }

    /// The type behind a handle.
    pub fn get(&self, t: TType) -> &TypeKind {
        &self.arena[t]
    }

    /// A scalar type.
    pub fn scalar(&mut self, e: ElemType) -> TType {
        self.intern(TypeKind::Scalar(e))
    }

    /// A ranked tensor type.
    pub fn tensor(&mut self, shape: &[Dim], elem: ElemType) -> TType {
        self.intern(TypeKind::Tensor {
            shape: shape.to_vec(),
            elem,
        })
    }

    /// A statically shaped tensor type.
    pub fn static_tensor(&mut self, shape: &[u64], elem: ElemType) -> TType {
        let shape: Vec<Dim> = shape.iter().map(|&n| Dim::Static(n)).collect();
        self.tensor(&shape, elem)
    }

    /// The type in MLIR's syntax.
    pub fn text(&self, t: TType) -> String {
        self.get(t).to_text()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_and_text() {
        let mut ts = TypeStore::default();
        let a = ts.tensor(&[Dim::Static(4), Dim::Dynamic], ElemType::F32);
        let b = ts.tensor(&[Dim::Static(4), Dim::Dynamic], ElemType::F32);
        assert_eq!(a, b);
        assert_eq!(ts.text(a), "tensor<4x?xf32>");
        let s = ts.static_tensor(&[], ElemType::I1);
        assert_eq!(ts.text(s), "tensor<i1>");
        assert_eq!(ElemType::from_name("i8"), Some(ElemType::I8));
        assert_eq!(ElemType::from_name("i08"), None);
        assert_eq!(ElemType::from_name("i65"), None);
    }
}
