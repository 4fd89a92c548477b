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
        }
    }

    /// The rank.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The static shape, if every dimension is static.
    pub fn static_shape(&self) -> Option<Vec<u64>> {
        self.shape.iter().map(|d| d.fixed()).collect()
    }
}
