//! `_kiln.Session`: the Rust half of `kiln.InferenceSession`.
//!
//! A session decodes the model once and checks, before anything runs,
//! that kiln supports every node, the opset and the signature. Its inputs
//! and outputs are read from the graph (onnxruntime's view: initializers
//! are not inputs). The model is imported specialised to the feed's
//! shapes (ONNX's symbolic dims made static), compiled for the device and
//! its weights uploaded once per set of shapes: a model whose inputs are
//! all static compiles when the session is made, one with symbolic dims on
//! the first `run` of each new shape (up to [`MAX_PLANS`] kept). A model
//! whose nodes read an input's *values* at import (a `Reshape` whose shape
//! is a graph input) is specialised to those values too.
//!
//! Each plan is a [`kiln_onnx::Session`] (the one `kiln run` and `kiln
//! onnx-test` use): weights uploaded once, each run uploading only the
//! inputs (a `kiln.Tensor` input is used where it is) and reading the
//! outputs back. Host inputs go through `run_bytes`: from the second run
//! in a row of a plan, a replay of its recorded dispatches (no host
//! program, descriptor set or element conversion per call) where the
//! model's types allow it. The GIL is released while kiln imports, compiles and
//! waits on the device.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use kiln_onnx::proto::{tensor_shape_proto::dimension, type_proto, ModelProto, ValueInfoProto};
use kiln_onnx::{DataType, HostTensor, ImportOptions, OnnxError};
use kiln_runtime::{Device, Tensor};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::device::{resolve, PyDevice};
use crate::errors::{invalid, onnx_error, runtime_error, Error, SessionClosed};
use crate::host::{self, HostData, PyHost};
use crate::interrupt::interruptible;
use crate::tensor::PyTensor;

/// The most compiled shape specialisations a session keeps.
pub const MAX_PLANS: usize = 8;

/// A graph input or output as onnxruntime describes it.
#[derive(Clone, Debug)]
pub struct NodeArg {
    name: String,
    /// ONNX's element type code.
    code: i32,
    /// kiln's type (`None`: one kiln does not have).
    dtype: Option<DataType>,
    /// Each dim: a size, or a symbolic name (`None`: unnamed).
    dims: Vec<Result<i64, Option<String>>>,
    /// Whether the graph gives a shape at all.
    has_shape: bool,
}

impl NodeArg {
    fn from_proto(vi: &ValueInfoProto) -> NodeArg {
        let name = vi.name.clone().unwrap_or_default();
        let mut arg = NodeArg {
            name,
            code: 0,
            dtype: None,
            dims: Vec::new(),
            has_shape: false,
        };
        if let Some(type_proto::Value::TensorType(t)) =
            vi.r#type.as_ref().and_then(|t| t.value.as_ref())
        {
            arg.code = t.elem_type.unwrap_or(0);
            arg.dtype = DataType::from_code(arg.code, &arg.name).ok();
            if let Some(s) = &t.shape {
                arg.has_shape = true;
                arg.dims = s
                    .dim
                    .iter()
                    .map(|d| match &d.value {
                        Some(dimension::Value::DimValue(v)) if *v >= 0 => Ok(*v),
                        Some(dimension::Value::DimParam(p)) if !p.is_empty() => {
                            Err(Some(p.clone()))
                        }
                        _ => Err(None),
                    })
                    .collect();
            }
        }
        arg
    }

    fn is_static(&self) -> bool {
        self.has_shape && self.dims.iter().all(Result::is_ok)
    }

    fn shape_text(&self) -> String {
        let dims: Vec<String> = self
            .dims
            .iter()
            .map(|d| match d {
                Ok(n) => n.to_string(),
                Err(Some(p)) => p.clone(),
                Err(None) => "?".into(),
            })
            .collect();
        format!("[{}]", dims.join(", "))
    }

    /// `(name, shape, type)` with onnxruntime's spellings.
    fn describe<'py>(&self, py: Python<'py>) -> PyResult<(String, Bound<'py, PyAny>, String)> {
        let shape: Vec<Bound<'py, PyAny>> = self
            .dims
            .iter()
            .map(|d| -> PyResult<Bound<'py, PyAny>> {
                Ok(match d {
                    Ok(n) => n.into_pyobject(py)?.into_any(),
                    Err(Some(p)) => p.into_pyobject(py)?.into_any(),
                    Err(None) => py.None().into_bound(py),
                })
            })
            .collect::<PyResult<_>>()?;
        Ok((
            self.name.clone(),
            shape.into_pyobject(py)?.into_any(),
            host::ort_type(self.code),
        ))
    }
}

/// The model compiled for one set of input shapes (and values): a
/// `kiln_onnx::Session` (weights uploaded once).
type Plan = kiln_onnx::Session;

/// What a plan is specialised to: each input's shape, and (when the
/// import read them) its bytes.
type PlanKey = (Vec<Vec<usize>>, Option<Vec<Vec<u8>>>);

/// The compiled plans, oldest first (`None` once the session is closed).
type Plans = Option<Vec<(PlanKey, Arc<Plan>)>>;

/// An input of a run.
pub enum Feed {
    /// Host data.
    Host(HostData),
    /// A device tensor (kept on the device).
    Device(Tensor, DataType),
}

impl Feed {
    fn shape(&self) -> &[usize] {
        match self {
            Feed::Host(h) => &h.shape,
            Feed::Device(t, _) => t.shape(),
        }
    }
    fn dtype(&self) -> DataType {
        match self {
            Feed::Host(h) => h.dtype,
            Feed::Device(_, d) => *d,
        }
    }
}

/// The Rust half of `kiln.InferenceSession`.
#[pyclass(name = "Session", module = "kiln._kiln", frozen)]
pub struct PySession {
    model: Arc<ModelProto>,
    what: String,
    base_dir: Option<std::path::PathBuf>,
    device: Device,
    inputs: Vec<NodeArg>,
    outputs: Vec<NodeArg>,
    plans: Mutex<Plans>,
}

/// Whether an import error may go away with the inputs' values.
fn needs_values(e: &OnnxError) -> bool {
    matches!(e, OnnxError::Node { .. } | OnnxError::Input { .. })
}

impl PySession {
    fn check_open(&self) -> PyResult<()> {
        let plans = self.plans.lock().unwrap_or_else(|e| e.into_inner());
        if plans.is_none() {
            return Err(SessionClosed::new_err(format!(
                "{}: the session is closed",
                self.what
            )));
        }
        Ok(())
    }

    /// Imports and compiles the model for `shapes` (with `values`, if
    /// given), on a thread of its own without the GIL: Ctrl-C interrupts
    /// the wait (see [`interruptible`]).
    fn build(
        &self,
        py: Python<'_>,
        shapes: &[Vec<usize>],
        values: Option<Vec<HostTensor>>,
    ) -> PyResult<Result<Plan, PyErrText>> {
        let mut opts = ImportOptions {
            base_dir: self.base_dir.clone(),
            ..ImportOptions::default()
        };
        for (a, s) in self.inputs.iter().zip(shapes) {
            opts.input_shapes
                .insert(a.name.clone(), s.iter().map(|&d| d as u64).collect());
        }
        if let Some(vals) = values {
            for (a, v) in self.inputs.iter().zip(vals) {
                opts.input_values.insert(a.name.clone(), v);
            }
        }
        let model = Arc::clone(&self.model);
        let device = self.device.clone();
        interruptible(py, &self.what, move || {
            let imported = kiln_onnx::import(&model, &opts).map_err(PyErrText::Onnx)?;
            kiln_onnx::Session::new(&device, &imported).map_err(PyErrText::Onnx)
        })
    }

    /// The plan for `feeds` (built, without the GIL, when missing).
    fn plan(&self, py: Python<'_>, feeds: &[Feed]) -> PyResult<Arc<Plan>> {
        let shapes: Vec<Vec<usize>> = feeds.iter().map(|f| f.shape().to_vec()).collect();
        let host_bytes = || -> PyResult<Option<Vec<HostTensor>>> {
            feeds
                .iter()
                .zip(&self.inputs)
                .map(|(f, a)| match f {
                    Feed::Host(h) => h.to_host(&a.name).map(Some),
                    Feed::Device(t, d) => {
                        let h = host::read_device(t, *d, &a.name)?;
                        h.to_host(&a.name).map(Some)
                    }
                })
                .collect()
        };
        {
            let plans = self.plans.lock().unwrap_or_else(|e| e.into_inner());
            let plans = plans.as_ref().ok_or_else(|| {
                SessionClosed::new_err(format!("{}: the session is closed", self.what))
            })?;
            for ((s, vals), p) in plans.iter() {
                if *s != shapes {
                    continue;
                }
                match vals {
                    None => return Ok(Arc::clone(p)),
                    Some(v) => {
                        let mine = host_bytes()?.unwrap_or_default();
                        if mine.iter().map(HostTensor::to_bytes).eq(v.iter().cloned()) {
                            return Ok(Arc::clone(p));
                        }
                    }
                }
            }
        }
        let (plan, key) = match self.build(py, &shapes, None)? {
            Ok(p) => (p, (shapes.clone(), None)),
            Err(PyErrText::Onnx(e)) if needs_values(&e) && !feeds.is_empty() => {
                let vals = host_bytes()?.unwrap_or_default();
                let bytes: Vec<Vec<u8>> = vals.iter().map(HostTensor::to_bytes).collect();
                let p = self
                    .build(py, &shapes, Some(vals))?
                    .map_err(PyErrText::into_py)?;
                (p, (shapes.clone(), Some(bytes)))
            }
            Err(e) => return Err(e.into_py()),
        };
        let plan = Arc::new(plan);
        let mut plans = self.plans.lock().unwrap_or_else(|e| e.into_inner());
        let plans = plans.as_mut().ok_or_else(|| {
            SessionClosed::new_err(format!("{}: the session is closed", self.what))
        })?;
        if plans.len() >= MAX_PLANS {
            plans.remove(0);
        }
        plans.push((key, Arc::clone(&plan)));
        Ok(plan)
    }

    /// Checks the feed against the model and orders it as the inputs.
    fn order_feed(&self, mut feed: HashMap<String, Feed>) -> PyResult<Vec<Feed>> {
        if let Some(unknown) = feed
            .keys()
            .find(|n| !self.inputs.iter().any(|a| &a.name == *n))
        {
            return Err(invalid(format!(
                "{}: {unknown:?} is not an input of the model (its inputs: {})",
                self.what,
                self.input_names()
            )));
        }
        let missing: Vec<&str> = self
            .inputs
            .iter()
            .filter(|a| !feed.contains_key(&a.name))
            .map(|a| a.name.as_str())
            .collect();
        if !missing.is_empty() {
            return Err(invalid(format!(
                "{}: missing input(s): {}",
                self.what,
                missing.join(", ")
            )));
        }
        let mut out = Vec::with_capacity(self.inputs.len());
        for a in &self.inputs {
            let f = feed.remove(&a.name).expect("checked above");
            let want = a.dtype.ok_or_else(|| {
                crate::errors::Unsupported::new_err(format!(
                    "input {}: element type {} is not supported",
                    a.name,
                    host::ort_type(a.code)
                ))
            })?;
            if f.dtype() != want {
                return Err(invalid(format!(
                    "input {}: got {} ({}), the model takes {} ({})",
                    a.name,
                    host::numpy_name(f.dtype()),
                    host::ort_type(f.dtype().code()),
                    host::ort_type(a.code),
                    host::numpy_name(want)
                )));
            }
            let shape = f.shape();
            let fits = !a.has_shape
                || (shape.len() == a.dims.len()
                    && shape
                        .iter()
                        .zip(&a.dims)
                        .all(|(&g, d)| d.as_ref().map_or(true, |&m| m == g as i64)));
            if !fits {
                return Err(invalid(format!(
                    "input {}: got shape {:?}, the model takes {}",
                    a.name,
                    shape,
                    a.shape_text()
                )));
            }
            out.push(f);
        }
        Ok(out)
    }

    fn input_names(&self) -> String {
        self.inputs
            .iter()
            .map(|a| a.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Runs `plan` on `feeds` (without the GIL): every output, on the host.
    fn execute(&self, plan: &Plan, feeds: &[Feed]) -> Result<Vec<HostData>, PyErrText> {
        // The plan's inputs by name: an input the import folded (read for
        // its values) or left unused is not fed.
        let mut order = Vec::with_capacity(plan.inputs().len());
        for pi in plan.inputs() {
            let k = self
                .inputs
                .iter()
                .position(|a| a.name == pi.name)
                .ok_or_else(|| PyErrText::Other(format!("{} is not a graph input", pi.name)))?;
            order.push(k);
        }
        // Host inputs: the plan's recording, replayed (see
        // `kiln_onnx::Session::run_bytes`), where the model allows it.
        let raw: Option<Vec<(&[usize], &[u8])>> = order
            .iter()
            .map(|&k| match &feeds[k] {
                Feed::Host(h) => Some((h.shape.as_slice(), h.bytes.as_slice())),
                Feed::Device(..) => None,
            })
            .collect();
        if let Some(raw) = raw {
            if let Some(outs) = plan.run_bytes(&raw).map_err(PyErrText::Onnx)? {
                return Ok(outs
                    .into_iter()
                    .zip(plan.outputs())
                    .map(|(o, info)| HostData {
                        dtype: info.dtype,
                        shape: o.shape,
                        bytes: o.bytes,
                    })
                    .collect());
            }
        }
        let mut args = Vec::with_capacity(order.len());
        for k in order {
            let a = &self.inputs[k];
            args.push(match &feeds[k] {
                Feed::Host(h) => {
                    kiln_onnx::Feed::Host(h.host_tensor(&a.name).map_err(PyErrText::Onnx)?)
                }
                Feed::Device(t, _) => kiln_onnx::Feed::Device(t),
            });
        }
        // `run_bytes` was asked above: not again (see `run_feeds_anew`).
        let outs = plan.run_feeds_anew(args).map_err(PyErrText::Onnx)?;
        Ok(outs.into_iter().map(|h| HostData::from_host(&h)).collect())
    }
}

/// An error made without the GIL, turned into an exception after.
pub enum PyErrText {
    /// From the importer.
    Onnx(OnnxError),
    /// From the runtime, with what was being done.
    Runtime(&'static str, kiln_runtime::Error),
    /// Anything else.
    Other(String),
}

impl PyErrText {
    /// The exception.
    pub fn into_py(self) -> PyErr {
        match self {
            PyErrText::Onnx(e) => onnx_error(&e),
            PyErrText::Runtime(what, e) => runtime_error(what, &e),
            PyErrText::Other(m) => Error::new_err(m),
        }
    }
}

#[pymethods]
impl PySession {
    /// `Session(model_bytes, what, base_dir=None, device=None)`: `what`
    /// names the model in messages.
    #[new]
    #[pyo3(signature = (model, what, base_dir=None, device=None))]
    fn new(
        py: Python<'_>,
        model: &[u8],
        what: String,
        base_dir: Option<std::path::PathBuf>,
        device: Option<&Bound<'_, PyDevice>>,
    ) -> PyResult<Self> {
        let decoded = kiln_onnx::decode_model(model, &what).map_err(|e| onnx_error(&e))?;
        kiln_onnx::import::model_opset(&decoded)
            .and_then(|_| kiln_onnx::import::check_supported(&decoded))
            .and_then(|_| kiln_onnx::import::check_signature(&decoded))
            .map_err(|e| {
                let e = match e {
                    OnnxError::Unsupported(v) => OnnxError::Unsupported(
                        v.into_iter().map(|l| format!("{what}: {l}")).collect(),
                    ),
                    e => e,
                };
                onnx_error(&e)
            })?;
        let graph = decoded.graph.as_ref().expect("decode_model checks");
        let inits: Vec<&str> = graph
            .initializer
            .iter()
            .filter_map(|t| t.name.as_deref())
            .collect();
        let inputs: Vec<NodeArg> = graph
            .input
            .iter()
            .filter(|vi| !inits.contains(&vi.name.as_deref().unwrap_or("")))
            .map(NodeArg::from_proto)
            .collect();
        let outputs = graph.output.iter().map(NodeArg::from_proto).collect();
        let device = resolve(py, device)?;
        let session = PySession {
            model: Arc::new(decoded),
            what,
            base_dir,
            device,
            inputs,
            outputs,
            plans: Mutex::new(Some(Vec::new())),
        };
        // Static inputs: compile now (a model needing input values waits
        // for its first run).
        if session.inputs.iter().all(NodeArg::is_static) {
            let shapes: Vec<Vec<usize>> = session
                .inputs
                .iter()
                .map(|a| {
                    a.dims
                        .iter()
                        .map(|d| *d.as_ref().unwrap_or(&0) as usize)
                        .collect()
                })
                .collect();
            match session.build(py, &shapes, None)? {
                Ok(plan) => {
                    let mut plans = session.plans.lock().unwrap_or_else(|e| e.into_inner());
                    plans
                        .as_mut()
                        .expect("open")
                        .push(((shapes, None), Arc::new(plan)));
                }
                Err(PyErrText::Onnx(e)) if needs_values(&e) && !session.inputs.is_empty() => {}
                Err(e) => return Err(e.into_py()),
            }
        }
        Ok(session)
    }

    /// `[(name, shape, type)]` of the graph inputs (initializers excluded).
    fn inputs<'py>(&self, py: Python<'py>) -> PyResult<Vec<(String, Bound<'py, PyAny>, String)>> {
        self.inputs.iter().map(|a| a.describe(py)).collect()
    }

    /// `[(name, shape, type)]` of the graph outputs.
    fn outputs<'py>(&self, py: Python<'py>) -> PyResult<Vec<(String, Bound<'py, PyAny>, String)>> {
        self.outputs.iter().map(|a| a.describe(py)).collect()
    }

    /// The device the session runs on.
    fn device(&self) -> PyDevice {
        PyDevice {
            device: self.device.clone(),
        }
    }

    /// How many shape specialisations are compiled.
    fn compiled_count(&self) -> PyResult<usize> {
        self.check_open()?;
        let plans = self.plans.lock().unwrap_or_else(|e| e.into_inner());
        Ok(plans.as_ref().map_or(0, Vec::len))
    }

    /// Runs the model. `output_names`: names, or `None` for every output.
    /// `feed`: `{name: (bytearray|bytes, numpy dtype name, shape) |
    /// kiln.Tensor}`. Returns `[(bytearray, dtype name, shape)]`.
    #[pyo3(signature = (output_names, feed))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        output_names: Option<Vec<String>>,
        feed: &Bound<'py, PyDict>,
    ) -> PyResult<Vec<PyHost<'py>>> {
        self.check_open()?;
        let wanted: Vec<usize> = match output_names {
            None => (0..self.outputs.len()).collect(),
            Some(names) if names.is_empty() => (0..self.outputs.len()).collect(),
            Some(names) => names
                .iter()
                .map(|n| {
                    self.outputs
                        .iter()
                        .position(|o| &o.name == n)
                        .ok_or_else(|| {
                            invalid(format!(
                                "{}: {n:?} is not an output of the model (its outputs: {})",
                                self.what,
                                self.outputs
                                    .iter()
                                    .map(|o| o.name.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ))
                        })
                })
                .collect::<PyResult<_>>()?,
        };
        let mut map = HashMap::new();
        for (k, v) in feed.iter() {
            let name: String = k
                .extract()
                .map_err(|_| invalid("input names must be strings"))?;
            let f = if let Ok(t) = v.cast::<PyTensor>() {
                let t = t.get();
                Feed::Device(t.tensor.clone(), t.dtype)
            } else {
                let (data, dtype, shape): (Bound<'py, PyAny>, String, Vec<usize>) =
                    v.extract().map_err(|_| {
                        invalid(format!(
                            "input {name}: expected a numpy array or a kiln.Tensor"
                        ))
                    })?;
                let what = format!("input {name}");
                let dtype = host::from_numpy_name(&dtype, &what)?;
                Feed::Host(HostData::from_buffer(py, &data, dtype, shape, &what)?)
            };
            map.insert(name, f);
        }
        let feeds = self.order_feed(map)?;
        let plan = self.plan(py, &feeds)?;
        let outs = py
            .detach(|| self.execute(&plan, &feeds))
            .map_err(|e| match e {
                PyErrText::Runtime(w, e) => runtime_error(&format!("{}: {w}", self.what), &e),
                e => e.into_py(),
            })?;
        Ok(wanted
            .iter()
            .map(|&i| host::to_python(py, &outs[i]))
            .collect())
    }

    /// Frees the compiled programs and weights; later calls raise
    /// `kiln.SessionClosed`.
    fn close(&self) {
        let mut plans = self.plans.lock().unwrap_or_else(|e| e.into_inner());
        *plans = None;
    }

    /// Whether `close` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.plans
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_none()
    }
}
