//! [`Value`]: what the importer knows of an ONNX value — its type and
//! shape, the SSA value holding it in the program being built, and, when
//! it is known at import time, its contents.

use std::rc::Rc;

use kiln_core::tensor::{Dim, TValue};

use crate::dtype::DataType;
use crate::tensor::HostTensor;

/// An ONNX value during import.
#[derive(Clone, Debug)]
pub struct Value {
    /// The element type.
    pub dtype: DataType,
    /// The shape (`Dynamic` for a symbolic dimension).
    pub shape: Vec<Dim>,
    /// The program value holding it (`None` until a constant is needed
    /// in the program).
    pub ssa: Option<TValue>,
    /// The contents, when known at import time (constants, initializers,
    /// folded shape computations, graph inputs given as static values).
    pub known: Option<Rc<HostTensor>>,
    /// Whether nodes computing from it may be folded at import time
    /// (constants and initializers; not graph inputs given as values).
    pub foldable: bool,
    /// When the value is a transpose: what it transposes, so that a
    /// transpose back, or an elementwise op on values transposed alike,
    /// reads the source (see [`Permuted`]).
    pub permuted: Option<Rc<Permuted>>,
}

/// A value that is `linalg.transpose(src, perm)` (its dim `k` is the
/// source's dim `perm[k]`). The importer keeps activations in the layout
/// kiln's kernels read best (NHWC for convolutions) and the ONNX value
/// (NCHW) as a transpose of it: a transpose back cancels, elementwise ops
/// run on the source, and the transpose itself is only computed where an
/// op reads the ONNX layout (an unread value is never computed).
#[derive(Clone, Debug)]
pub struct Permuted {
    /// The source (never itself permuted).
    pub src: Value,
    /// The permutation.
    pub perm: Vec<usize>,
}

impl Value {
    /// A value known at import time.
    pub fn constant(t: HostTensor) -> Value {
        Value {
            dtype: t.dtype,
            shape: t.shape().iter().map(|&d| Dim::Static(d as u64)).collect(),
            ssa: None,
            known: Some(Rc::new(t)),
            foldable: true,
            permuted: None,
        }
    }

    /// A value computed by the program.
    pub fn computed(v: TValue, dtype: DataType, shape: Vec<Dim>) -> Value {
        Value {
            dtype,
            shape,
            ssa: Some(v),
            known: None,
            foldable: false,
            permuted: None,
        }
    }

    /// The rank.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The source and permutation this value transposes, when it is a
    /// transpose whose record still matches it (an op that relabels a
    /// value's type or shape in place, as a same-width bitcast does, drops
    /// the match).
    pub fn permuted(&self) -> Option<(&Value, &[usize])> {
        let p = self.permuted.as_deref()?;
        let fits = p.src.dtype == self.dtype
            && p.perm.len() == self.rank()
            && p.src.rank() == self.rank()
            && p.perm
                .iter()
                .zip(&self.shape)
                .all(|(&j, &d)| p.src.shape.get(j) == Some(&d));
        fits.then_some((&p.src, p.perm.as_slice()))
    }

    /// The static shape, if every dimension is static.
    pub fn static_shape(&self) -> Option<Vec<u64>> {
        self.shape.iter().map(|d| d.fixed()).collect()
    }
}
