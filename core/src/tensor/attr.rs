//! Attribute values of tensor ops: constants (scalar and dense elements),
//! iterator types, comparison predicates, fast-math and overflow flags, and
//! the static/dynamic entries of offset and size lists.

use super::entity::TType;
use super::types::ElemType;

/// Element storage, one variant per supported element type. Constants
/// (`dense<...>`) and the reference evaluator's tensors use it, so a
/// constant becomes a tensor without conversion. f16/bf16 are kept as
/// their bits; `index` as `i64`; `i1` as `bool`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Elements {
    /// `i1`.
    I1(Vec<bool>),
    /// `i8`.
    I8(Vec<i8>),
    /// `i16`.
    I16(Vec<i16>),
    /// `i32`.
    I32(Vec<i32>),
    /// `i64` and `index`.
    I64(Vec<i64>),
    /// `f16` bits.
    F16(Vec<u16>),
    /// `bf16` bits.
    BF16(Vec<u16>),
    /// `f32`.
    F32(Vec<f32>),
    /// `f64`.
    F64(Vec<f64>),
}

/// One element as a number: integers sign-extended to `i64` (`i1` reads
/// as 0 or 1), floats as the `f64` holding their exact value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScalarBits {
    /// An integer or boolean (0/1 for `i1`), sign-extended.
    Int(i64),
    /// A float's exact value.
    Float(f64),
}

impl Elements {
    /// `n` zeros of `elem` (`None` for unsupported element types).
    pub fn zeros(elem: ElemType, n: usize) -> Option<Elements> {
        Some(match elem {
            ElemType::Int(1) => Elements::I1(vec![false; n]),
            ElemType::Int(8) => Elements::I8(vec![0; n]),
            ElemType::Int(16) => Elements::I16(vec![0; n]),
            ElemType::Int(32) => Elements::I32(vec![0; n]),
            ElemType::Int(64) | ElemType::Index => Elements::I64(vec![0; n]),
            ElemType::F16 => Elements::F16(vec![0; n]),
            ElemType::BF16 => Elements::BF16(vec![0; n]),
            ElemType::F32 => Elements::F32(vec![0.0; n]),
            ElemType::F64 => Elements::F64(vec![0.0; n]),
            ElemType::Int(_) => return None,
        })
    }

    /// `n` zeros of `elem`, allocated fallibly (`Ok(None)` for unsupported
    /// element types; an error when the host cannot hold them).
    pub fn try_zeros(
        elem: ElemType,
        n: usize,
    ) -> Result<Option<Elements>, crate::host_memory::HostAllocError> {
        use crate::host_memory::filled;
        Ok(Some(match elem {
            ElemType::Int(1) => Elements::I1(filled(false, n)?),
            ElemType::Int(8) => Elements::I8(filled(0, n)?),
            ElemType::Int(16) => Elements::I16(filled(0, n)?),
            ElemType::Int(32) => Elements::I32(filled(0, n)?),
            ElemType::Int(64) | ElemType::Index => Elements::I64(filled(0, n)?),
            ElemType::F16 => Elements::F16(filled(0, n)?),
            ElemType::BF16 => Elements::BF16(filled(0, n)?),
            ElemType::F32 => Elements::F32(filled(0.0, n)?),
            ElemType::F64 => Elements::F64(filled(0.0, n)?),
            ElemType::Int(_) => return Ok(None),
        }))
    }

    /// `n` copies of element `i`, allocated fallibly.
    pub fn try_repeat(
        &self,
        i: usize,
        n: usize,
    ) -> Result<Elements, crate::host_memory::HostAllocError> {
        use crate::host_memory::filled;
        Ok(match self {
            Elements::I1(v) => Elements::I1(filled(v[i], n)?),
            Elements::I8(v) => Elements::I8(filled(v[i], n)?),
            Elements::I16(v) => Elements::I16(filled(v[i], n)?),
            Elements::I32(v) => Elements::I32(filled(v[i], n)?),
            Elements::I64(v) => Elements::I64(filled(v[i], n)?),
            Elements::F16(v) => Elements::F16(filled(v[i], n)?),
            Elements::BF16(v) => Elements::BF16(filled(v[i], n)?),
            Elements::F32(v) => Elements::F32(filled(v[i], n)?),
            Elements::F64(v) => Elements::F64(filled(v[i], n)?),
        })
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        match self {
            Elements::I1(v) => v.len(),
            Elements::I8(v) => v.len(),
            Elements::I16(v) => v.len(),
            Elements::I32(v) => v.len(),
            Elements::I64(v) => v.len(),
            Elements::F16(v) | Elements::BF16(v) => v.len(),
            Elements::F32(v) => v.len(),
            Elements::F64(v) => v.len(),
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i` (integers sign-extended, floats exactly).
    pub fn get(&self, i: usize) -> ScalarBits {
        use crate::ir::FloatKind;
        use crate::text::float::to_f64_bits;
        match self {
            Elements::I1(v) => ScalarBits::Int(i64::from(v[i])),
            Elements::I8(v) => ScalarBits::Int(i64::from(v[i])),
            Elements::I16(v) => ScalarBits::Int(i64::from(v[i])),
            Elements::I32(v) => ScalarBits::Int(i64::from(v[i])),
            Elements::I64(v) => ScalarBits::Int(v[i]),
            Elements::F16(v) => {
                ScalarBits::Float(f64::from_bits(to_f64_bits(FloatKind::F16, u64::from(v[i]))))
            }
            Elements::BF16(v) => ScalarBits::Float(f64::from_bits(to_f64_bits(
                FloatKind::BF16,
                u64::from(v[i]),
            ))),
            Elements::F32(v) => ScalarBits::Float(f64::from(v[i])),
            Elements::F64(v) => ScalarBits::Float(v[i]),
        }
    }

    /// Sets element `i`: integers are truncated to the element width,
    /// floats rounded to nearest-even in the element format.
    pub fn set(&mut self, i: usize, value: ScalarBits) {
        use crate::ir::FloatKind;
        use crate::text::float::from_f64_bits;
        let as_int = |v: ScalarBits| match v {
            ScalarBits::Int(x) => x,
            ScalarBits::Float(f) => f as i64,
        };
        let as_float = |v: ScalarBits| match v {
            ScalarBits::Int(x) => x as f64,
            ScalarBits::Float(f) => f,
        };
        match self {
            Elements::I1(v) => v[i] = as_int(value) & 1 != 0,
            Elements::I8(v) => v[i] = as_int(value) as i8,
            Elements::I16(v) => v[i] = as_int(value) as i16,
            Elements::I32(v) => v[i] = as_int(value) as i32,
            Elements::I64(v) => v[i] = as_int(value),
            Elements::F16(v) => {
                v[i] = from_f64_bits(FloatKind::F16, as_float(value).to_bits()) as u16
            }
            Elements::BF16(v) => {
                v[i] = from_f64_bits(FloatKind::BF16, as_float(value).to_bits()) as u16
            }
            Elements::F32(v) => {
                v[i] =
                    f32::from_bits(from_f64_bits(FloatKind::F32, as_float(value).to_bits()) as u32)
            }
            Elements::F64(v) => v[i] = as_float(value),
        }
    }

    /// `n` copies of element `i`.
    pub fn repeat(&self, i: usize, n: usize) -> Elements {
        match self {
            Elements::I1(v) => Elements::I1(vec![v[i]; n]),
            Elements::I8(v) => Elements::I8(vec![v[i]; n]),
            Elements::I16(v) => Elements::I16(vec![v[i]; n]),
            Elements::I32(v) => Elements::I32(vec![v[i]; n]),
            Elements::I64(v) => Elements::I64(vec![v[i]; n]),
            Elements::F16(v) => Elements::F16(vec![v[i]; n]),
            Elements::BF16(v) => Elements::BF16(vec![v[i]; n]),
            Elements::F32(v) => Elements::F32(vec![v[i]; n]),
            Elements::F64(v) => Elements::F64(vec![v[i]; n]),
        }
    }

    /// The elements at `indices`, in order.
    pub fn gather(&self, indices: &[usize]) -> Elements {
        fn g<T: Copy>(v: &[T], idx: &[usize]) -> Vec<T> {
            idx.iter().map(|&i| v[i]).collect()
        }
        match self {
            Elements::I1(v) => Elements::I1(g(v, indices)),
            Elements::I8(v) => Elements::I8(g(v, indices)),
            Elements::I16(v) => Elements::I16(g(v, indices)),
            Elements::I32(v) => Elements::I32(g(v, indices)),
            Elements::I64(v) => Elements::I64(g(v, indices)),
            Elements::F16(v) => Elements::F16(g(v, indices)),
            Elements::BF16(v) => Elements::BF16(g(v, indices)),
            Elements::F32(v) => Elements::F32(g(v, indices)),
            Elements::F64(v) => Elements::F64(g(v, indices)),
        }
    }

    /// Copies element `src` of `from` (same variant) into element `dst`.
    /// Returns `false` when the variants differ.
    pub fn copy_from(&mut self, dst: usize, from: &Elements, src: usize) -> bool {
        match (self, from) {
            (Elements::I1(a), Elements::I1(b)) => a[dst] = b[src],
            (Elements::I8(a), Elements::I8(b)) => a[dst] = b[src],
            (Elements::I16(a), Elements::I16(b)) => a[dst] = b[src],
            (Elements::I32(a), Elements::I32(b)) => a[dst] = b[src],
            (Elements::I64(a), Elements::I64(b)) => a[dst] = b[src],
            (Elements::F16(a), Elements::F16(b)) | (Elements::BF16(a), Elements::BF16(b)) => {
                a[dst] = b[src]
            }
            (Elements::F32(a), Elements::F32(b)) => a[dst] = b[src],
            (Elements::F64(a), Elements::F64(b)) => a[dst] = b[src],
            _ => return false,
        }
        true
    }

    /// Whether element `i` and `j` have the same bits.
    pub fn same_bits(&self, i: usize, j: usize) -> bool {
        match self {
            Elements::I1(v) => v[i] == v[j],
            Elements::I8(v) => v[i] == v[j],
            Elements::I16(v) => v[i] == v[j],
            Elements::I32(v) => v[i] == v[j],
            Elements::I64(v) => v[i] == v[j],
            Elements::F16(v) | Elements::BF16(v) => v[i] == v[j],
            Elements::F32(v) => v[i].to_bits() == v[j].to_bits(),
            Elements::F64(v) => v[i].to_bits() == v[j].to_bits(),
        }
    }

    /// The raw little-endian bytes of element `i` (`i1` as one byte).
    pub fn element_bytes(&self, i: usize) -> Vec<u8> {
        match self {
            Elements::I1(v) => vec![u8::from(v[i])],
            Elements::I8(v) => v[i].to_le_bytes().to_vec(),
            Elements::I16(v) => v[i].to_le_bytes().to_vec(),
            Elements::I32(v) => v[i].to_le_bytes().to_vec(),
            Elements::I64(v) => v[i].to_le_bytes().to_vec(),
            Elements::F16(v) | Elements::BF16(v) => v[i].to_le_bytes().to_vec(),
            Elements::F32(v) => v[i].to_le_bytes().to_vec(),
            Elements::F64(v) => v[i].to_le_bytes().to_vec(),
        }
    }
}

/// A `dense<...>` elements attribute: a tensor (or vector) type and its
/// values in row-major order. A splat (all elements equal, as MLIR detects
/// on construction) stores one element.
#[derive(Clone, Debug, PartialEq)]
pub struct DenseElements {
    /// The tensor or vector type (static shape).
    pub ty: TType,
    /// The values: one for a splat, else one per element.
    pub data: Elements,
    /// Whether all elements are equal (`data` holds one).
    pub splat: bool,
}

/// A constant: `arith.constant`'s and `util.unfoldable_constant`'s value.
#[derive(Clone, Debug, PartialEq)]
pub enum ConstAttr {
    /// An integer, index or boolean scalar (`42 : i32`, `true`), sign-extended.
    Int {
        /// The value.
        value: i64,
        /// Its scalar type.
        ty: TType,
    },
    /// A float scalar (`1.5 : f32`), the `f64` holding its exact value.
    Float {
        /// The value.
        value: f64,
        /// Its scalar type.
        ty: TType,
    },
    /// A dense elements attribute.
    Dense(DenseElements),
}

impl ConstAttr {
    /// The type of the constant.
    pub fn ty(&self) -> TType {
        match self {
            ConstAttr::Int { ty, .. } | ConstAttr::Float { ty, .. } => *ty,
            ConstAttr::Dense(d) => d.ty,
        }
    }
}

/// The iterator type of one loop of a structured op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IteratorType {
    /// Iterations are independent.
    Parallel,
    /// Iterations accumulate into the same output elements.
    Reduction,
}

impl IteratorType {
    /// `"parallel"` / `"reduction"`.
    pub fn name(self) -> &'static str {
        match self {
            IteratorType::Parallel => "parallel",
            IteratorType::Reduction => "reduction",
        }
    }
}

/// `arith.cmpi` predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum CmpIPred {
    /// `eq`.
    Eq,
    /// `ne`.
    Ne,
    /// `slt`.
    Slt,
    /// `sle`.
    Sle,
    /// `sgt`.
    Sgt,
    /// `sge`.
    Sge,
    /// `ult`.
    Ult,
    /// `ule`.
    Ule,
    /// `ugt`.
    Ugt,
    /// `uge`.
    Uge,
}

/// `arith.cmpf` predicates (`o*`: false if either is NaN; `u*`: true if
/// either is NaN).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum CmpFPred {
    /// `false`.
    False,
    /// `oeq`.
    Oeq,
    /// `ogt`.
    Ogt,
    /// `oge`.
    Oge,
    /// `olt`.
    Olt,
    /// `ole`.
    Ole,
    /// `one`.
    One,
    /// `ord`.
    Ord,
    /// `ueq`.
    Ueq,
    /// `ugt`.
    Ugt,
    /// `uge`.
    Uge,
    /// `ult`.
    Ult,
    /// `ule`.
    Ule,
    /// `une`.
    Une,
    /// `uno`.
    Uno,
    /// `true`.
    True,
}

macro_rules! keywords {
    ($ty:ident { $($v:ident => $s:literal),* $(,)? }) => {
        impl $ty {
            /// Every value, in MLIR's enum order.
            pub const ALL: &'static [$ty] = &[$($ty::$v),*];
            /// The keyword MLIR prints.
            pub fn name(self) -> &'static str {
                match self { $($ty::$v => $s),* }
            }
            /// The value of a keyword.
            pub fn from_name(s: &str) -> Option<$ty> {
                match s { $($s => Some($ty::$v),)* _ => None }
            }
        }
    };
}

keywords!(CmpIPred {
    Eq => "eq", Ne => "ne", Slt => "slt", Sle => "sle", Sgt => "sgt", Sge => "sge",
    Ult => "ult", Ule => "ule", Ugt => "ugt", Uge => "uge",
});
keywords!(CmpFPred {
    False => "false", Oeq => "oeq", Ogt => "ogt", Oge => "oge", Olt => "olt", Ole => "ole",
    One => "one", Ord => "ord", Ueq => "ueq", Ugt => "ugt", Uge => "uge", Ult => "ult",
    Ule => "ule", Une => "une", Uno => "uno", True => "true",
});

/// `fastmath<...>` flags of float ops (kept for printing; the evaluator
/// computes IEEE results regardless).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct FastMath(pub u8);

impl FastMath {
    /// The flag names in MLIR's bit order.
    pub const NAMES: [&'static str; 7] =
        ["reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"];

    /// No flags.
    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The text inside `fastmath<...>`: `fast` for all flags, else the
    /// names joined by `,`.
    pub fn text(self) -> String {
        if self.0 == 0x7f {
            return "fast".into();
        }
        Self::NAMES
            .iter()
            .enumerate()
            .filter(|(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, n)| *n)
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Parses one flag name (`fast`, `none`, `nnan`, ...).
    pub fn flag(name: &str) -> Option<FastMath> {
        match name {
            "fast" => Some(FastMath(0x7f)),
            "none" => Some(FastMath(0)),
            _ => Self::NAMES
                .iter()
                .position(|n| *n == name)
                .map(|i| FastMath(1 << i)),
        }
    }
}

/// `overflow<...>` flags of integer ops (`nsw`, `nuw`); kept for printing.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Overflow {
    /// No signed wrap.
    pub nsw: bool,
    /// No unsigned wrap.
    pub nuw: bool,
}

impl Overflow {
    /// No flags.
    pub fn is_none(self) -> bool {
        !self.nsw && !self.nuw
    }

    /// The text inside `overflow<...>`.
    pub fn text(self) -> String {
        match (self.nsw, self.nuw) {
            (true, true) => "nsw, nuw".into(),
            (true, false) => "nsw".into(),
            (false, true) => "nuw".into(),
            (false, false) => "none".into(),
        }
    }
}

/// One entry of a mixed static/dynamic list (offsets, sizes, strides,
/// padding amounts, output shapes), as MLIR's `OpFoldResult`: a constant
/// written in the op, or a dynamic value taken from the op's operands in
/// order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mixed {
    /// A constant entry.
    Static(i64),
    /// An `index` operand (the next dynamic operand of this list).
    Dynamic,
}

impl Mixed {
    /// The number of dynamic entries of a list.
    pub fn count_dynamic(list: &[Mixed]) -> usize {
        list.iter().filter(|m| **m == Mixed::Dynamic).count()
    }
}
