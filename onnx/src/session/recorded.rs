//! [`Session::run_bytes`]: a session's run from a recording of its
//! dispatches (kiln-runtime's [`RecordedCall`]), made by the second run
//! in a row with one set of input shapes and replayed by every later run
//! with those shapes (the first runs as [`Session::run_feeds`] does: a
//! recording keeps every buffer of a run while the session lives, which
//! shapes run once, as `kiln run` runs a model, are not worth).
//!
//! A run through [`Session::run_feeds`] converts each input to the IR's
//! elements and back to bytes, evaluates the function's host program,
//! allocates its buffers, writes a descriptor set per dispatch and records
//! every dispatch; then reads the results back as elements. A replay does
//! none of that: each input's bytes are copied once into a fresh device
//! tensor, one enqueue runs the recorded commands (copying the input in
//! and the results out), and each result's bytes are copied once out of
//! its tensor. Only models whose inputs and outputs hold the same bytes on
//! the host and on the device take this path (see `raw`).
//!
//! A replay that fails (an index out of range a kernel found, whose fault
//! word the recording would keep) drops the recording and returns
//! `Ok(None)`: the caller runs [`Session::run_feeds`], which reports the
//! error as a run always did (or gives the result, the run being
//! repeated).

use std::sync::Arc;

use kiln_runtime::program::{dtype_of, CallArg, RecordedCall};
use kiln_runtime::{Device, Tensor};

use super::{check_input, Feed, Session, Slot};
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::tensor::HostTensor;

/// A tensor's raw host bytes: its shape and its elements, row-major,
/// little-endian, [`DataType::size`] bytes each (as numpy holds them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostBytes {
    /// Its shape.
    pub shape: Vec<usize>,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// What a session knows of one set of input shapes.
pub(super) struct Recorded {
    shapes: Vec<Vec<usize>>,
    /// `None`: seen once, not recorded yet. `Some(None)`: the program cannot be
    /// recorded (it sizes its work from device data, a result is not a
    /// device buffer of its type, or a result is empty).
    call: Option<Option<Arc<RecordedCall>>>,
}

/// Whether `dtype`'s elements are the same bytes on the host and on the
/// device (bool, f64 and the packed or narrow types are converted).
pub(super) fn raw(dtype: DataType) -> bool {
    use DataType::*;
    matches!(
        dtype,
        Float
            | Float16
            | Bfloat16
            | Int8
            | Uint8
            | Int16
            | Uint16
            | Int32
            | Uint32
            | Int64
            | Uint64
    ) && dtype_of(dtype.elem()).is_some_and(|d| d.size() == dtype.size())
}

fn run_error(e: kiln_runtime::Error) -> OnnxError {
    OnnxError::Run {
        what: "device run",
        message: e.to_string(),
    }
}

impl Session {
    /// Runs the model on `inputs` given as raw bytes (one `(shape, bytes)`
    /// per [`inputs`](Self::inputs) entry, in order, each checked against
    /// the model's shape) through a recording of its dispatches, made by
    /// the second run in a row with these shapes (see the module docs); the
    /// graph outputs in order, as raw bytes of their
    /// [`outputs`](Self::outputs) types. `Ok(None)` where this path does
    /// not apply and the caller runs [`run_feeds`](Self::run_feeds): an
    /// input or output type whose device bytes differ from the host's, a
    /// parameter passed from the host, a program that sizes its work from
    /// device data, an empty result, or a replay that failed.
    pub fn run_bytes(
        &self,
        inputs: &[(&[usize], &[u8])],
    ) -> Result<Option<Vec<HostBytes>>, OnnxError> {
        if !self.replayable {
            return Ok(None);
        }
        if inputs.len() != self.inputs.len() {
            return Err(OnnxError::Input {
                name: "(all)".into(),
                message: format!(
                    "{} inputs given, the model takes {}",
                    inputs.len(),
                    self.inputs.len()
                ),
            });
        }
        for (a, (shape, bytes)) in self.inputs.iter().zip(inputs) {
            check_input(a, a.dtype, shape)?;
            let want = shape.iter().product::<usize>() * a.dtype.size();
            if bytes.len() != want {
                return Err(OnnxError::Input {
                    name: a.name.clone(),
                    message: format!(
                        "{} bytes given for shape {shape:?}, {want} needed",
                        bytes.len()
                    ),
                });
            }
        }
        if inputs.iter().any(|(shape, _)| shape.contains(&0)) {
            return Ok(None);
        }
        let Some(call) = self.recorded_call(inputs)? else {
            return Ok(None);
        };
        match replay(&self.device, &call, inputs) {
            Ok(out) => Ok(Some(out)),
            Err(e) if e.is_device_lost() => Err(run_error(e)),
            Err(_) => {
                // The recording may hold a fault word set by this replay:
                // drop it; the caller's run reports the error.
                let mut rec = self.recorded.lock().unwrap_or_else(|e| e.into_inner());
                let ours = rec
                    .as_ref()
                    .and_then(|r| r.call.as_ref())
                    .and_then(Option::as_ref)
                    .is_some_and(|c| Arc::ptr_eq(c, &call));
                if ours {
                    *rec = None;
                }
                Ok(None)
            }
        }
    }

    /// [`run_bytes`](Self::run_bytes) for `feeds` when every one is host
    /// data (already checked against the model's inputs): the outputs as
    /// host tensors, or `None` where the caller runs the model anew (a
    /// device feed, or where `run_bytes` gives `None`). [`Session::run`]
    /// and [`Session::run_feeds`] take this path, so that a model run again
    /// and again with host inputs (`kiln bench`, an embedder's loop)
    /// replays its recording instead of evaluating its host program,
    /// writing its descriptor sets and converting its elements per call.
    pub(super) fn replay_host(
        &self,
        feeds: &[Feed<'_>],
    ) -> Result<Option<Vec<HostTensor>>, OnnxError> {
        if !self.replayable {
            return Ok(None);
        }
        let mut hosts = Vec::with_capacity(feeds.len());
        for f in feeds {
            match f {
                Feed::Host(t) => hosts.push(t),
                Feed::Device(_) => return Ok(None),
            }
        }
        let bytes: Vec<Vec<u8>> = hosts.iter().map(|t| t.to_bytes()).collect();
        let raw: Vec<(&[usize], &[u8])> = hosts
            .iter()
            .zip(&bytes)
            .map(|(t, b)| (t.shape(), b.as_slice()))
            .collect();
        let Some(outs) = self.run_bytes(&raw)? else {
            return Ok(None);
        };
        outs.iter()
            .zip(&self.outputs)
            .map(|(o, info)| HostTensor::from_bytes(info.dtype, &o.shape, &o.bytes, &info.name))
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// The recording for the shapes of `inputs`, made now if the run
    /// before had these shapes too (`None`: not recorded, or these shapes
    /// cannot be).
    fn recorded_call(
        &self,
        inputs: &[(&[usize], &[u8])],
    ) -> Result<Option<Arc<RecordedCall>>, OnnxError> {
        let mut rec = self.recorded.lock().unwrap_or_else(|e| e.into_inner());
        let same = rec.as_ref().is_some_and(|r| {
            r.shapes
                .iter()
                .map(Vec::as_slice)
                .eq(inputs.iter().map(|i| i.0))
        });
        if !same {
            *rec = Some(Recorded {
                shapes: inputs.iter().map(|i| i.0.to_vec()).collect(),
                call: None,
            });
            return Ok(None);
        }
        let r = rec.as_mut().expect("checked above");
        if let Some(call) = &r.call {
            return Ok(call.clone());
        }
        let shapes = &r.shapes;
        let mut args = Vec::with_capacity(self.slots.len());
        for s in &self.slots {
            args.push(match s {
                Slot::Input(k) => CallArg::Input {
                    dtype: dtype_of(self.inputs[*k].dtype.elem()).expect("raw types have one"),
                    shape: &shapes[*k],
                },
                Slot::Device(t) => CallArg::Bound(t),
                Slot::Host(_) => return Ok(None),
            });
        }
        // A program whose results are not all device buffers of their
        // types (a result computed at import, a constant) cannot be
        // returned from a recording: its error means "not recordable".
        let call = match self
            .program
            .record_call(&self.func, &args, "the ONNX model")
        {
            Ok(c) => c,
            Err(e) if e.is_device_lost() => return Err(run_error(e)),
            Err(_) => None,
        };
        let call = call.filter(|c| {
            let outs: Vec<_> = c.outputs().collect();
            outs.len() == self.outputs.len()
                && outs.iter().zip(&self.outputs).all(|((d, shape), o)| {
                    dtype_of(o.dtype.elem()) == Some(*d) && shape.iter().product::<usize>() > 0
                })
        });
        let call = call.map(Arc::new);
        r.call = Some(call.clone());
        Ok(call)
    }
}

/// One replay of `call` with `inputs`: the results' bytes.
fn replay(
    device: &Device,
    call: &RecordedCall,
    inputs: &[(&[usize], &[u8])],
) -> kiln_runtime::Result<Vec<HostBytes>> {
    let stream = device.stream();
    let mut tensors = Vec::with_capacity(inputs.len());
    for ((shape, bytes), dtype) in inputs.iter().zip(call.input_dtypes()) {
        tensors.push(Tensor::from_fill(device, dtype, shape, |dst| {
            dst.copy_from_slice(bytes)
        })?);
    }
    let refs: Vec<&Tensor> = tensors.iter().collect();
    let outs = call.enqueue(&stream, &refs)?;
    stream.sync()?;
    outs.iter()
        .map(|t| {
            Ok(HostBytes {
                shape: t.shape().to_vec(),
                bytes: t.read_bytes_with(<[u8]>::to_vec)?,
            })
        })
        .collect()
}
