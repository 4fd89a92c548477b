//! Run-time values of the reference evaluator: tensors (element type,
//! concrete shape, row-major elements) and scalars.

use std::rc::Rc;

use crate::tensor::attr::{DenseElements, Elements, ScalarBits};
use crate::tensor::module::TensorModule;
use crate::tensor::types::ElemType;

/// A tensor the evaluator cannot make.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TensorError {
    /// The element count overflows.
    #[error("a tensor of shape {shape:?} has more elements than 2^64")]
    TooManyElements {
        /// The shape.
        shape: Vec<usize>,
    },
    /// The host cannot allocate the elements.
    #[error("cannot hold a tensor<{}x{elem}>: {reason}", dims(.shape))]
    TooLarge {
        /// The element type.
        elem: ElemType,
        /// The shape.
        shape: Vec<usize>,
        /// Why the allocation failed.
        reason: crate::host_memory::HostAllocError,
    },
    /// An element type the evaluator holds no tensors of.
    #[error("unsupported element type")]
    UnsupportedElement(ElemType),
}

/// `2x3` for shape `[2, 3]`.
fn dims(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    dims.join("x")
}

/// A tensor with a concrete shape; elements in row-major order.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    /// The element type.
    pub elem: ElemType,
    /// The sizes, outermost first.
    pub shape: Vec<usize>,
    /// `shape.iter().product()` elements.
    pub data: Elements,
}

impl Tensor {
    /// A tensor of zeros; an error for unsupported element types and for
    /// shapes the host cannot hold (sizes checked without overflow, the
    /// memory allocated fallibly).
    pub fn zeros(elem: ElemType, shape: &[usize]) -> Result<Tensor, TensorError> {
        let n = element_count(shape)?;
        let data = Elements::try_zeros(elem, n)
            .map_err(|e| too_large(elem, shape, e))?
            .ok_or(TensorError::UnsupportedElement(elem))?;
        Ok(Tensor {
            elem,
            shape: shape.to_vec(),
            data,
        })
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether the tensor has no elements.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Row-major strides of the shape.
    pub fn strides(&self) -> Vec<usize> {
        strides(&self.shape)
    }

    /// Element `i` as a scalar of the element type.
    pub fn get(&self, i: usize) -> Scalar {
        Scalar::from_bits(self.data.get(i), self.elem)
    }

    /// Sets element `i` (the scalar is of the element type).
    pub fn set(&mut self, i: usize, v: Scalar) {
        self.data.set(i, v.bits());
    }

    /// The tensor a dense attribute holds, with `shape` (a splat is
    /// repeated).
    pub fn from_dense(
        m: &TensorModule,
        d: &DenseElements,
        shape: &[usize],
    ) -> Result<Tensor, TensorError> {
        let elem = m.ty(d.ty).elem();
        let n = element_count(shape)?;
        let data = if d.splat && n != d.data.len() {
            d.data
                .try_repeat(0, n)
                .map_err(|e| too_large(elem, shape, e))?
        } else {
            d.data.clone()
        };
        Ok(Tensor {
            elem,
            shape: shape.to_vec(),
            data,
        })
    }
}

/// The element count of `shape`, an error when it overflows.
fn element_count(shape: &[usize]) -> Result<usize, TensorError> {
    crate::host_memory::element_count(shape.iter().map(|&d| d as u64))
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| TensorError::TooManyElements {
            shape: shape.to_vec(),
        })
}

/// The error for a tensor the host cannot hold.
fn too_large(
    elem: ElemType,
    shape: &[usize],
    reason: crate::host_memory::HostAllocError,
) -> TensorError {
    TensorError::TooLarge {
        elem,
        shape: shape.to_vec(),
        reason,
    }
}

/// Row-major strides of `shape`.
pub fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1];
    }
    s
}

/// A scalar: integers (and `index`, and `i1`) sign-extended from their
/// width, floats as the `f64` holding their exact value (an `f32`, `f16`
/// or `bf16` value for those types).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Scalar {
    /// An integer, sign-extended from its width (`i1` true is -1).
    Int(i64),
    /// A float.
    Float(f64),
}

impl Scalar {
    /// From stored bits (`i1` 0/1 becomes 0/-1).
    pub fn from_bits(b: ScalarBits, elem: ElemType) -> Scalar {
        match b {
            ScalarBits::Int(v) => Scalar::Int(wrap(elem, v)),
            ScalarBits::Float(v) => Scalar::Float(v),
        }
    }

    /// To stored bits.
    pub fn bits(self) -> ScalarBits {
        match self {
            Scalar::Int(v) => ScalarBits::Int(v),
            Scalar::Float(v) => ScalarBits::Float(v),
        }
    }

    /// The integer (0 for floats).
    pub fn int(self) -> i64 {
        match self {
            Scalar::Int(v) => v,
            Scalar::Float(f) => f as i64,
        }
    }

    /// The float (the integer converted for integers).
    pub fn float(self) -> f64 {
        match self {
            Scalar::Int(v) => v as f64,
            Scalar::Float(f) => f,
        }
    }
}

/// `v` truncated to the width of `elem` and sign-extended.
pub fn wrap(elem: ElemType, v: i64) -> i64 {
    let w = elem.bits();
    if w >= 64 {
        return v;
    }
    let shift = 64 - w;
    (v << shift) >> shift
}

/// `v`'s low bits as an unsigned number of the width of `elem`.
pub fn unsigned(elem: ElemType, v: i64) -> u64 {
    let w = elem.bits();
    if w >= 64 {
        v as u64
    } else {
        (v as u64) & ((1u64 << w) - 1)
    }
}

/// A value of the evaluator.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A tensor (shared: SSA values are immutable).
    Tensor(Rc<Tensor>),
    /// A scalar.
    Scalar(Scalar),
}

impl Value {
    /// The tensor, if this is one.
    pub fn tensor(&self) -> Option<&Rc<Tensor>> {
        match self {
            Value::Tensor(t) => Some(t),
            Value::Scalar(_) => None,
        }
    }

    /// The scalar, if this is one.
    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            Value::Scalar(s) => Some(*s),
            Value::Tensor(_) => None,
        }
    }
}
