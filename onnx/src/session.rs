//! [`Session`]: an imported model compiled once for a device, its weights
//! (the initializers that are program parameters) uploaded once and kept
//! there; each [`Session::run`] uploads only the graph inputs.
//!
//! A session is `Send + Sync` (it keeps no `Rc`): embedders that share it
//! between threads (the Python package releases the GIL while it runs)
//! hold it in an `Arc`. [`Session::run_feeds`] takes the inputs in order,
//! each host data or a tensor already on the device. From the second run in
//! a row with the same input shapes, all of them host data, a run replays a
//! recording of the model's dispatches (see [`Session::run_bytes`]).
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::collections::HashMap;
//! let device = kiln_runtime::Device::new(&Default::default())?;
//! let model = kiln_onnx::load_model(std::path::Path::new("model.onnx"))?;
//! let imported = kiln_onnx::import(&model, &Default::default())?;
//! let session = kiln_onnx::Session::new(&device, &imported)?;
//! let inputs: HashMap<String, kiln_onnx::HostTensor> = HashMap::new();
//! let outputs = session.run(&inputs)?; // again with new inputs: no weight upload
//! # let _ = outputs; Ok(()) }
//! ```

mod recorded;

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Mutex;

use kiln_core::tensor::eval::Value;
use kiln_core::tensor::Dim;
use kiln_runtime::{Device, Program, RunArg, Tensor};

use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::import::{ArgSource, Imported, Output};
use crate::tensor::HostTensor;

pub use recorded::HostBytes;

/// A graph input of a session: its name, element type and shape.
#[derive(Clone, Debug)]
pub struct Input {
    /// The ONNX name.
    pub name: String,
    /// Its element type.
    pub dtype: DataType,
    /// Its shape (a symbolic dim as `Dim` without a fixed size).
    pub shape: Vec<Dim>,
}

/// One argument of the compiled function as the session keeps it.
enum Slot {
    /// Graph input number `k` (of [`Session::inputs`]).
    Input(usize),
    /// A parameter uploaded once.
    Device(Tensor),
    /// A parameter passed from the host each run (element types whose
    /// device bytes differ from the host's).
    Host(HostTensor),
}

/// An input of [`Session::run_feeds`].
#[derive(Debug)]
pub enum Feed<'a> {
    /// Host data (moved into the run: no copy on the host).
    Host(HostTensor),
    /// A tensor already on the session's device, of the input's element
    /// type (unsigned types in the signed device type of their width).
    Device(&'a Tensor),
}

/// A model ready to run on one device.
pub struct Session {
    device: Device,
    program: Program,
    func: String,
    inputs: Vec<Input>,
    slots: Vec<Slot>,
    outputs: Vec<Output>,
    /// Whether [`run_bytes`](Self::run_bytes) may replay a recording:
    /// every input and output has the same bytes on the host and the
    /// device, and no parameter is passed from the host.
    replayable: bool,
    /// The recording for the last input shapes `run_bytes` saw.
    recorded: Mutex<Option<recorded::Recorded>>,
}

fn shape_text(shape: &[Dim]) -> String {
    shape
        .iter()
        .map(|d| d.fixed().map_or("?".into(), |n| n.to_string()))
        .collect::<Vec<_>>()
        .join("x")
}

impl Session {
    /// Compiles `imported` for `device` and uploads its parameters.
    pub fn new(device: &Device, imported: &Imported) -> Result<Session, OnnxError> {
        let program = Program::compile(device, &imported.module).map_err(|e| OnnxError::Run {
            what: "compile",
            message: e.to_string(),
        })?;
        let mut inputs = Vec::new();
        let mut slots = Vec::with_capacity(imported.args.len());
        for a in &imported.args {
            slots.push(match &a.source {
                ArgSource::Input => {
                    inputs.push(Input {
                        name: a.name.clone(),
                        dtype: a.dtype,
                        shape: a.shape.clone(),
                    });
                    Slot::Input(inputs.len() - 1)
                }
                ArgSource::Param(t) => {
                    let v = Value::Tensor(Rc::new(t.tensor.clone()));
                    let up = program.upload_value(&v).map_err(|e| OnnxError::Run {
                        what: "upload",
                        message: format!("parameter {}: {e}", a.name),
                    })?;
                    match up {
                        Some(t) => Slot::Device(t),
                        None => Slot::Host((**t).clone()),
                    }
                }
            });
        }
        let replayable = inputs.iter().all(|a| recorded::raw(a.dtype))
            && imported.outputs.iter().all(|o| recorded::raw(o.dtype))
            && !slots.iter().any(|s| matches!(s, Slot::Host(_)));
        Ok(Session {
            device: device.clone(),
            program,
            func: imported.func.clone(),
            inputs,
            slots,
            outputs: imported.outputs.clone(),
            replayable,
            recorded: Mutex::new(None),
        })
    }

    /// The graph inputs [`run`](Self::run) takes, in the order
    /// [`run_feeds`](Self::run_feeds) takes them.
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    /// The graph outputs [`run`](Self::run) returns, in order.
    pub fn outputs(&self) -> &[Output] {
        &self.outputs
    }

    /// Runs the model on `inputs` (by graph input name; each checked
    /// against the model's type and shape); the graph outputs in order.
    pub fn run(&self, inputs: &HashMap<String, HostTensor>) -> Result<Vec<HostTensor>, OnnxError> {
        let mut feeds = Vec::with_capacity(self.inputs.len());
        let mut missing = Vec::new();
        for a in &self.inputs {
            match inputs.get(&a.name) {
                Some(t) => feeds.push(Feed::Host(t.clone())),
                None => missing.push(format!(
                    "{} ({}x{})",
                    a.name,
                    shape_text(&a.shape),
                    a.dtype.name()
                )),
            }
        }
        if !missing.is_empty() {
            return Err(OnnxError::Input {
                name: missing.join(", "),
                message: "missing".into(),
            });
        }
        self.run_feeds(feeds)
    }

    /// Runs the model on `feeds`, one per [`inputs`](Self::inputs) entry
    /// in that order (each checked against the model's type and shape);
    /// the graph outputs in order, on the host. Host feeds of the shapes
    /// of the run before replay its recording (see the module docs).
    pub fn run_feeds(&self, feeds: Vec<Feed<'_>>) -> Result<Vec<HostTensor>, OnnxError> {
        self.run_feeds_with(feeds, true)
    }

    /// [`run_feeds`](Self::run_feeds) without the recording: for a caller
    /// that tried [`run_bytes`](Self::run_bytes) first and got `None`
    /// (asking the recording twice per run would record shapes on their
    /// first run).
    pub fn run_feeds_anew(&self, feeds: Vec<Feed<'_>>) -> Result<Vec<HostTensor>, OnnxError> {
        self.run_feeds_with(feeds, false)
    }

    fn run_feeds_with(
        &self,
        feeds: Vec<Feed<'_>>,
        replay: bool,
    ) -> Result<Vec<HostTensor>, OnnxError> {
        if feeds.len() != self.inputs.len() {
            return Err(OnnxError::Input {
                name: "(all)".into(),
                message: format!(
                    "{} inputs given, the model takes {}",
                    feeds.len(),
                    self.inputs.len()
                ),
            });
        }
        let mut host: Vec<Option<Value>> = Vec::with_capacity(feeds.len());
        for (a, f) in self.inputs.iter().zip(&feeds) {
            match f {
                Feed::Host(t) => check_input(a, t.dtype, t.shape())?,
                Feed::Device(t) => check_device_input(a, t)?,
            }
        }
        if replay {
            if let Some(out) = self.replay_host(&feeds)? {
                return Ok(out);
            }
        }
        let mut devs: Vec<Option<&Tensor>> = Vec::with_capacity(feeds.len());
        for f in feeds {
            match f {
                Feed::Host(t) => {
                    host.push(Some(Value::Tensor(Rc::new(t.tensor))));
                    devs.push(None);
                }
                Feed::Device(t) => {
                    host.push(None);
                    devs.push(Some(t));
                }
            }
        }
        let params: Vec<Option<Value>> = self
            .slots
            .iter()
            .map(|s| match s {
                Slot::Host(t) => Some(Value::Tensor(Rc::new(t.tensor.clone()))),
                _ => None,
            })
            .collect();
        let run_args: Vec<RunArg<'_>> = self
            .slots
            .iter()
            .zip(&params)
            .map(|(s, p)| match (s, p) {
                (Slot::Input(k), _) => match (&host[*k], devs[*k]) {
                    (_, Some(t)) => RunArg::Device(t),
                    (Some(v), None) => RunArg::Host(v),
                    (None, None) => unreachable!("each input is host or device"),
                },
                (Slot::Device(t), _) => RunArg::Device(t),
                (Slot::Host(_), Some(v)) => RunArg::Host(v),
                (Slot::Host(_), None) => unreachable!("made above"),
            })
            .collect();
        let values = self
            .program
            .run_args(&self.func, &run_args)
            .map_err(|e| OnnxError::Run {
                what: "device run",
                message: e.to_string(),
            })?;
        let mut out = Vec::with_capacity(values.len());
        for (v, o) in values.into_iter().zip(&self.outputs) {
            let Value::Tensor(t) = v else {
                return Err(OnnxError::Run {
                    what: "device run",
                    message: format!("output {} came back as a scalar", o.name),
                });
            };
            out.push(HostTensor {
                dtype: o.dtype,
                tensor: Rc::try_unwrap(t).unwrap_or_else(|t| (*t).clone()),
            });
        }
        Ok(out)
    }
}

/// Checks a given input (its element type and shape) against the model's.
pub fn check_input(a: &Input, dtype: DataType, shape: &[usize]) -> Result<(), OnnxError> {
    if dtype != a.dtype {
        return Err(OnnxError::Input {
            name: a.name.clone(),
            message: format!("{} given, the model takes {}", dtype.name(), a.dtype.name()),
        });
    }
    let fits = shape.len() == a.shape.len()
        && shape
            .iter()
            .zip(&a.shape)
            .all(|(&g, d)| d.fixed().is_none_or(|m| m == g as u64));
    if !fits {
        return Err(OnnxError::Input {
            name: a.name.clone(),
            message: format!(
                "shape {shape:?} given, the model takes {}",
                shape_text(&a.shape)
            ),
        });
    }
    Ok(())
}

/// Checks a device tensor given for input `a`: the device type that holds
/// `a`'s element type, and its shape.
fn check_device_input(a: &Input, t: &Tensor) -> Result<(), OnnxError> {
    let want = kiln_runtime::program::dtype_of(a.dtype.elem());
    if want != Some(t.dtype()) {
        return Err(OnnxError::Input {
            name: a.name.clone(),
            message: format!(
                "a device tensor of {} given, the model takes {}",
                t.dtype().name(),
                a.dtype.name()
            ),
        });
    }
    check_input(a, a.dtype, t.shape())
}

/// Sessions are shared between threads (behind an `Arc`).
const _: fn() = || {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Session>();
};
