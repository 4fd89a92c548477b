//! [`RecordedCall`]: one function of a program recorded once for fixed
//! argument shapes, its weights bound, and replayed for each call with
//! new inputs (the machinery of [`Graph::run`](crate::ops::Graph::run),
//! see `ops::replay`): a call records nothing, writes no descriptor set
//! and evaluates no host program; it enqueues one copy per input, the
//! recorded commands and one copy per result. What embedders that call
//! one model many times with the same shapes (an ONNX session) use.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use kiln_runtime::program::CallArg;
//! use kiln_runtime::{DType, Device, DeviceOptions, Program, Tensor};
//! let src = r#"
//! func.func @add(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
//!   %y = arith.addf %x, %w : tensor<4xf32>
//!   return %y : tensor<4xf32>
//! }"#;
//! let device = Device::new(&DeviceOptions::default())?;
//! let program = Program::compile(&device, &kiln_core::tensor::load(src)?)?;
//! let w = Tensor::from_slice(&device, &[10.0f32, 20.0, 30.0, 40.0], &[4])?;
//! let args = [CallArg::Input { dtype: DType::F32, shape: &[4] }, CallArg::Bound(&w)];
//! let call = program.record_call("add", &args, "example")?.expect("recordable");
//! let stream = device.stream();
//! for k in 0..3 {
//!     let x = Tensor::full(&device, k as f32, &[4])?;
//!     let y = call.enqueue(&stream, &[&x])?;
//!     assert_eq!(y[0].to_vec::<f32>()?, vec![10.0 + k as f32, 20.0 + k as f32, 30.0 + k as f32, 40.0 + k as f32]);
//! }
//! # Ok(())
//! # }
//! ```

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::ops::replay::{Bind, Replay};
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::Program;

/// An argument of [`Program::record_call`].
#[derive(Clone, Copy, Debug)]
pub enum CallArg<'a> {
    /// An input given to each [`RecordedCall::enqueue`], of this dtype and
    /// shape.
    Input {
        /// Its dtype.
        dtype: DType,
        /// Its shape.
        shape: &'a [usize],
    },
    /// A tensor bound by reference (a weight): each call reads its
    /// contents at the time.
    Bound(&'a Tensor),
}

/// A function recorded for fixed argument shapes (see the module docs).
pub struct RecordedCall {
    replay: Replay,
    dtypes: Vec<DType>,
}

impl std::fmt::Debug for RecordedCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordedCall")
            .field("inputs", &self.replay.shapes)
            .field("dispatches", &self.replay.dispatches())
            .finish_non_exhaustive()
    }
}

impl Program {
    /// Records function `name` with `args` (one per parameter, in order)
    /// for replays; `Ok(None)` for a function that reads device data on
    /// the host to size its work (a data-dependent size: a recording would
    /// hold the sizes of one run), which must be run anew each time
    /// ([`run_args`](Self::run_args)). `what` names the function in the
    /// error of an index a kernel finds out of range.
    pub fn record_call(
        &self,
        name: &str,
        args: &[CallArg<'_>],
        what: &'static str,
    ) -> Result<Option<RecordedCall>> {
        let binds: Vec<Bind<'_>> = args
            .iter()
            .map(|a| match *a {
                CallArg::Input { dtype, shape } => Bind::Input(dtype, shape),
                CallArg::Bound(t) => Bind::Constant(t),
            })
            .collect();
        let dtypes = args
            .iter()
            .filter_map(|a| match a {
                CallArg::Input { dtype, .. } => Some(*dtype),
                CallArg::Bound(_) => None,
            })
            .collect();
        match Replay::record_function(&self.device, self, name, &binds, what) {
            Ok(replay) => Ok(Some(RecordedCall { replay, dtypes })),
            Err(e) if super::record::is_refused_read(&e) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

impl RecordedCall {
    /// The shapes of the inputs each call takes, in order.
    pub fn input_shapes(&self) -> &[Vec<usize>] {
        &self.replay.shapes
    }

    /// The dtypes of the inputs each call takes, in order.
    pub fn input_dtypes(&self) -> impl Iterator<Item = DType> + '_ {
        self.dtypes.iter().copied()
    }

    /// The dtypes and shapes of the results each call returns, in order.
    pub fn outputs(&self) -> impl Iterator<Item = (DType, &[usize])> {
        self.replay.outputs()
    }

    /// Enqueues a call on `stream` with `inputs` (one per
    /// [`CallArg::Input`], in order, of its dtype and shape; any layout)
    /// and returns the results (fresh tensors), without waiting. An index
    /// out of range that a kernel found is reported by the next
    /// [`Stream::sync`] and by reads of the results.
    pub fn enqueue(&self, stream: &Stream, inputs: &[&Tensor]) -> Result<Vec<Tensor>> {
        let shapes = &self.replay.shapes;
        if inputs.len() != shapes.len() {
            return Err(Error::Shape {
                what: "RecordedCall::enqueue",
                reason: format!(
                    "{} inputs given, the call takes {}",
                    inputs.len(),
                    shapes.len()
                ),
            });
        }
        for (k, ((t, shape), dtype)) in inputs.iter().zip(shapes).zip(&self.dtypes).enumerate() {
            if t.dtype() != *dtype || t.shape() != shape.as_slice() {
                return Err(Error::Shape {
                    what: "RecordedCall::enqueue",
                    reason: format!(
                        "input {k} is {} {:?}; the call was recorded for {dtype} {shape:?}",
                        t.dtype(),
                        t.shape()
                    ),
                });
            }
        }
        self.replay.enqueue(stream, inputs)
    }
}
