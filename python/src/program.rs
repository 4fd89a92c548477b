//! `kiln.compile`: a tensor program (MLIR 19 text: `func.func` with
//! linalg/tensor/arith/math) compiled for a device, called with numpy
//! arrays or kiln tensors, returning numpy arrays.

use std::rc::Rc;
use std::sync::Mutex;

use kiln_core::tensor::eval::{Scalar, Value};
use kiln_onnx::HostTensor;
use kiln_runtime::Program;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::device::{resolve, PyDevice};
use crate::errors::{invalid, runtime_error, SessionClosed};
use crate::host::{self, HostData, PyHost};
use crate::tensor::PyTensor;

/// A compiled tensor program (`kiln.compile(text)`).
#[pyclass(name = "Program", module = "kiln._kiln", frozen)]
pub struct PyProgram {
    program: Mutex<Option<Program>>,
    functions: Vec<String>,
}

/// Parses, verifies and compiles `text` (MLIR 19 tensor-level syntax) for
/// `device`.
#[pyfunction]
#[pyo3(signature = (text, device=None))]
pub fn _compile(
    py: Python<'_>,
    text: &str,
    device: Option<&Bound<'_, PyDevice>>,
) -> PyResult<PyProgram> {
    let module = kiln_core::tensor::load(text).map_err(|e| invalid(e.to_string()))?;
    let device = resolve(py, device)?;
    let program = py
        .detach(|| Program::compile(&device, &module))
        .map_err(|e| runtime_error("compile", &e))?;
    let functions = program
        .compiled()
        .functions
        .iter()
        .map(|f| f.name.clone())
        .collect();
    Ok(PyProgram {
        program: Mutex::new(Some(program)),
        functions,
    })
}

/// An argument from Python: a tensor of host data or a kiln.Tensor, or a
/// Python scalar.
fn argument(i: usize, v: &Bound<'_, PyAny>) -> PyResult<Value> {
    let what = format!("argument {i}");
    if let Ok(t) = v.cast::<PyTensor>() {
        let t = t.get();
        let bytes = v
            .py()
            .detach(|| host::download(&t.tensor))
            .map_err(|e| runtime_error(&what, &e))?;
        let h = HostData::new(t.dtype, t.tensor.shape().to_vec(), bytes, &what)?.to_host(&what)?;
        return Ok(Value::Tensor(Rc::new(h.tensor)));
    }
    if let Ok((data, dtype, shape)) = v.extract::<(Bound<'_, PyAny>, String, Vec<usize>)>() {
        let dtype = host::from_numpy_name(&dtype, &what)?;
        let h: HostTensor =
            HostData::from_buffer(v.py(), &data, dtype, shape, &what)?.to_host(&what)?;
        return Ok(Value::Tensor(Rc::new(h.tensor)));
    }
    if let Ok(b) = v.extract::<bool>() {
        return Ok(Value::Scalar(Scalar::Int(-i64::from(b))));
    }
    if let Ok(n) = v.extract::<i64>() {
        return Ok(Value::Scalar(Scalar::Int(n)));
    }
    if let Ok(x) = v.extract::<f64>() {
        return Ok(Value::Scalar(Scalar::Float(x)));
    }
    Err(invalid(format!(
        "{what}: expected a numpy array, a kiln.Tensor or a number"
    )))
}

#[pymethods]
impl PyProgram {
    /// The program's functions, in order.
    #[getter]
    fn functions(&self) -> Vec<String> {
        self.functions.clone()
    }

    /// Runs `function` with `args` (`(bytes, dtype, shape)` tuples,
    /// kiln.Tensors or numbers); results as `(bytearray, dtype, shape)`.
    #[pyo3(signature = (function, args))]
    fn _run<'py>(
        &self,
        py: Python<'py>,
        function: &str,
        args: &Bound<'py, PyTuple>,
    ) -> PyResult<Vec<PyHost<'py>>> {
        let guard = self.program.lock().unwrap_or_else(|e| e.into_inner());
        let program = guard
            .as_ref()
            .ok_or_else(|| SessionClosed::new_err("the program is closed"))?;
        if !self.functions.iter().any(|f| f == function) {
            return Err(invalid(format!(
                "no function @{function} in the program (it has {})",
                self.functions.join(", ")
            )));
        }
        let values: Vec<Value> = args
            .iter()
            .enumerate()
            .map(|(i, a)| argument(i, &a))
            .collect::<PyResult<_>>()?;
        // `Value` holds `Rc`s: the run keeps the GIL. Results move out as
        // plain data.
        let out = program
            .run(function, &values)
            .map_err(|e| runtime_error(&format!("@{function}"), &e))?;
        out.into_iter()
            .enumerate()
            .map(|(i, v)| {
                let (elem, shape, data) = match &v {
                    Value::Tensor(t) => (t.elem, t.shape.clone(), t.data.clone()),
                    Value::Scalar(_) => {
                        let t = v
                            .tensor()
                            .map(|t| (**t).clone())
                            .ok_or_else(|| invalid(format!("result {i} is a scalar")))?;
                        (t.elem, t.shape, t.data)
                    }
                };
                let dtype = host::data_type_of(elem).ok_or_else(|| {
                    invalid(format!(
                        "result {i}: element type {elem} has no numpy dtype"
                    ))
                })?;
                let h = HostTensor {
                    dtype,
                    tensor: kiln_core::tensor::eval::Tensor { elem, shape, data },
                };
                let data = HostData::from_host(&h);
                Ok(host::to_python(py, &data))
            })
            .collect()
    }

    /// Each function's dispatches: iteration space, strategy and kernels
    /// (what `kiln compile --explain` prints).
    fn explain(&self) -> PyResult<String> {
        let guard = self.program.lock().unwrap_or_else(|e| e.into_inner());
        let program = guard
            .as_ref()
            .ok_or_else(|| SessionClosed::new_err("the program is closed"))?;
        Ok(program
            .compiled()
            .functions
            .iter()
            .map(kiln_core::codegen::explain)
            .collect::<Vec<_>>()
            .join("\n"))
    }

    /// Frees the program; later calls raise `kiln.SessionClosed`.
    fn close(&self) {
        *self.program.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}
