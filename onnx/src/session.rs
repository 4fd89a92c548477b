//! [`Session`]: an imported model compiled once for a device, its weights
//! (the initializers that are program parameters) uploaded once and kept
//! there; each [`Session::run`] uploads only the graph inputs.
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

use std::collections::HashMap;
use std::rc::Rc;

use kiln_core::tensor::eval::Value;
use kiln_core::tensor::Dim;
use kiln_runtime::{Device, Program, RunArg, Tensor};

use crate::error::OnnxError;
use crate::import::{Arg, ArgSource, Imported, Output};
use crate::tensor::HostTensor;

/// A parameter as the session keeps it.
enum Param {
    /// Uploaded once.
    Device(Tensor),
    /// Passed from the host each run (element types whose device bytes
    /// differ from the host's).
    Host(Value),
}

/// A model ready to run on one device.
pub struct Session {
    program: Program,
    func: String,
    args: Vec<Arg>,
    params: Vec<Option<Param>>,
    outputs: Vec<Output>,
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
        let mut params = Vec::with_capacity(imported.args.len());
        for a in &imported.args {
            params.push(match &a.source {
                ArgSource::Input => None,
                ArgSource::Param(t) => {
                    let v = Value::Tensor(Rc::new(t.tensor.clone()));
                    let up = program.upload_value(&v).map_err(|e| OnnxError::Run {
                        what: "upload",
                        message: format!("parameter {}: {e}", a.name),
                    })?;
                    Some(match up {
                        Some(t) => Param::Device(t),
                        None => Param::Host(v),
                    })
                }
            });
        }
        Ok(Session {
            program,
            func: imported.func.clone(),
            args: imported.args.clone(),
            params,
            outputs: imported.outputs.clone(),
        })
    }

    /// The graph inputs [`run`](Self::run) takes, in order.
    pub fn inputs(&self) -> impl Iterator<Item = &Arg> {
        self.args
            .iter()
            .filter(|a| matches!(a.source, ArgSource::Input))
    }

    /// The graph outputs [`run`](Self::run) returns, in order.
    pub fn outputs(&self) -> &[Output] {
        &self.outputs
    }

    /// Runs the model on `inputs` (by graph input name; each checked
    /// against the model's type and shape); the graph outputs in order.
    pub fn run(&self, inputs: &HashMap<String, HostTensor>) -> Result<Vec<HostTensor>, OnnxError> {
        let mut host: Vec<Value> = Vec::new();
        let mut missing = Vec::new();
        for (a, p) in self.args.iter().zip(&self.params) {
            if p.is_some() {
                continue;
            }
            let Some(t) = inputs.get(&a.name) else {
                missing.push(format!(
                    "{} ({}x{})",
                    a.name,
                    shape_text(&a.shape),
                    a.dtype.name()
                ));
                continue;
            };
            check_input(a, t)?;
            host.push(Value::Tensor(Rc::new(t.tensor.clone())));
        }
        if !missing.is_empty() {
            return Err(OnnxError::Input {
                name: missing.join(", "),
                message: "missing".into(),
            });
        }
        let mut it = host.iter();
        let run_args: Vec<RunArg<'_>> = self
            .params
            .iter()
            .map(|p| match p {
                Some(Param::Device(t)) => RunArg::Device(t),
                Some(Param::Host(v)) => RunArg::Host(v),
                None => RunArg::Host(it.next().expect("one host value per input")),
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
        for (v, o) in values.iter().zip(&self.outputs) {
            let Value::Tensor(t) = v else {
                return Err(OnnxError::Run {
                    what: "device run",
                    message: format!("output {} came back as a scalar", o.name),
                });
            };
            out.push(HostTensor {
                dtype: o.dtype,
                tensor: (**t).clone(),
            });
        }
        Ok(out)
    }
}

/// Checks a given input against the model's argument.
pub fn check_input(a: &Arg, t: &HostTensor) -> Result<(), OnnxError> {
    if t.dtype != a.dtype {
        return Err(OnnxError::Input {
            name: a.name.clone(),
            message: format!(
                "{} given, the model takes {}",
                t.dtype.name(),
                a.dtype.name()
            ),
        });
    }
    let fits = t.shape().len() == a.shape.len()
        && t.shape()
            .iter()
            .zip(&a.shape)
            .all(|(&g, d)| d.fixed().is_none_or(|m| m == g as u64));
    if !fits {
        return Err(OnnxError::Input {
            name: a.name.clone(),
            message: format!(
                "shape {:?} given, the model takes {}",
                t.shape(),
                shape_text(&a.shape)
            ),
        });
    }
    Ok(())
}
