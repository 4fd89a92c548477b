//! kiln's Python extension module `kiln._kiln` (PyO3, abi3 for CPython
//! 3.11+): the native half of the `kiln` package. The Python half
//! (`python/kiln/`) hands numpy arrays over as `(uint8 view, dtype, shape)`
//! and gives the onnxruntime-shaped API; everything that compiles or
//! touches the device is here, built on `kiln-runtime` and `kiln-onnx`.
//!
//! - [`device`]: `devices()`, `Device`.
//! - [`tensor`]: `Tensor` (device-resident) and its upload.
//! - [`session`]: `Session`, behind `kiln.InferenceSession`.
//! - [`program`]: `Program`, behind `kiln.compile`.
//! - [`errors`]: the exception hierarchy under `kiln.Error`.
//! - [`interrupt`]: compiles that Ctrl-C interrupts.
//!
//! One `unsafe` item here, no `unsafe` block: `host`'s implementation of
//! kiln-vulkan's `HostMemory` contract (that a Python buffer's memory
//! stays allocated while a memoryview of it lives), which only code that
//! knows Python can vouch for; the import itself, and every other
//! pointer use, is kiln-vulkan's. Otherwise numpy memory is read and
//! written through PyO3's buffer-protocol copies (into and out of a
//! tensor's memory in place, which kiln-runtime lends to a closure);
//! DLPack goes through numpy in the Python layer.
#![deny(unsafe_code)]
#![deny(missing_docs)]

pub mod device;
pub mod errors;
pub mod host;
pub mod interrupt;
pub mod program;
pub mod session;
pub mod tensor;

use pyo3::prelude::*;

/// The `kiln._kiln` module.
#[pymodule]
fn _kiln(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(device::devices, m)?)?;
    m.add_function(wrap_pyfunction!(tensor::_upload, m)?)?;
    m.add_function(wrap_pyfunction!(program::_compile, m)?)?;
    m.add_function(wrap_pyfunction!(check_model, m)?)?;
    m.add_function(wrap_pyfunction!(_dispatch_floor, m)?)?;
    m.add_function(wrap_pyfunction!(interrupt::_interruptible_sleep, m)?)?;
    m.add_class::<device::PyDevice>()?;
    m.add_class::<tensor::PyTensor>()?;
    m.add_class::<session::PySession>()?;
    m.add_class::<program::PyProgram>()?;
    m.add("Error", py.get_type::<errors::Error>())?;
    m.add("InvalidArgument", py.get_type::<errors::InvalidArgument>())?;
    m.add("InvalidGraph", py.get_type::<errors::InvalidGraph>())?;
    m.add("Unsupported", py.get_type::<errors::Unsupported>())?;
    m.add("DeviceError", py.get_type::<errors::DeviceError>())?;
    m.add("SessionClosed", py.get_type::<errors::SessionClosed>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

/// The device's floor under a call, for `python/bench/overhead.py`: the
/// medians, in seconds, of one tiny dispatch end to end (enqueue, submit,
/// wait) through the runtime's stream and through a plain record +
/// `vkQueueSubmit` + fence loop written against the driver (`kiln bench`'s
/// "dispatch overhead"), over `runs` runs each (and as many batches of
/// 100 dispatches, which that measure also times).
#[pyfunction]
#[pyo3(signature = (runs, device=None))]
fn _dispatch_floor(
    py: Python<'_>,
    runs: usize,
    device: Option<&Bound<'_, device::PyDevice>>,
) -> PyResult<(f64, f64)> {
    let device = device::resolve(py, device)?;
    let o = py
        .detach(|| kiln_runtime::bench::overhead::dispatch_overhead(&device, runs.max(1)))
        .map_err(|e| errors::Error::new_err(e.to_string()))?;
    Ok((
        o.runtime_one.median.as_secs_f64(),
        o.direct_one.median.as_secs_f64(),
    ))
}

/// Raises what kiln refuses in `model` (ONNX bytes) before importing it:
/// an opset too new, nodes without a row in the op table (all of them),
/// a signature of types kiln lacks. `kiln onnx-test` skips these models.
#[pyfunction]
fn check_model(model: &[u8]) -> PyResult<()> {
    let m = kiln_onnx::decode_model(model, "model").map_err(|e| errors::onnx_error(&e))?;
    kiln_onnx::import::model_opset(&m)
        .and_then(|_| kiln_onnx::import::check_supported(&m))
        .and_then(|_| kiln_onnx::import::check_signature(&m))
        .map(|_| ())
        .map_err(|e| errors::onnx_error(&e))
}
