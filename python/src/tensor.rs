//! `kiln.Tensor`: a tensor in device memory (pooled by the runtime) with
//! its element type, made from host data and read back to numpy.

use kiln_onnx::DataType;
use kiln_runtime::Tensor;
use pyo3::prelude::*;

use crate::device::{resolve, PyDevice};
use crate::errors::{invalid, runtime_error};
use crate::host;

/// A tensor on a kiln device. Made by `kiln.asarray`; read back by
/// `numpy.asarray(t)` (or `t.numpy()`).
#[pyclass(name = "Tensor", module = "kiln", frozen)]
pub struct PyTensor {
    pub(crate) tensor: Tensor,
    /// The element type (the device holds unsigned types in the signed
    /// dtype of their width).
    pub(crate) dtype: DataType,
    /// The object whose memory the tensor shares (made without a copy),
    /// re-exported by `__dlpack__` and `__array__`.
    pub(crate) source: Option<Py<PyAny>>,
}

/// A tensor of `(data, dtype, shape)` on `device` (the default one if
/// `None`): `data` a C-contiguous byte view of the array (`a.reshape(-1)
/// .view(numpy.uint8)`). `copy=None`: the tensor shares `data`'s memory
/// where the device can import it and the array is at least
/// [`host::SHARE_MIN_BYTES`], else holds a copy (made once, straight into
/// the tensor on unified memory); `copy=True`: always a copy;
/// `copy=False`: shares or raises `InvalidArgument` saying why it cannot.
/// `source` (the array `data` views, or its DLPack producer) is kept with
/// a tensor that shares its memory.
#[pyfunction]
#[pyo3(signature = (data, dtype, shape, device=None, copy=None, source=None))]
pub fn _upload(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    dtype: &str,
    shape: Vec<usize>,
    device: Option<&Bound<'_, PyDevice>>,
    copy: Option<bool>,
    source: Option<Py<PyAny>>,
) -> PyResult<PyTensor> {
    let dtype = host::from_numpy_name(dtype, "asarray")?;
    let dt = host::device_dtype(dtype).ok_or_else(|| {
        invalid(format!(
            "asarray: kiln's device tensors have no {} (they hold float16, bfloat16, float32, \
             bool, int8..int64, uint8..uint64)",
            host::numpy_name(dtype)
        ))
    })?;
    let buf = host::buffer(data, "asarray")?;
    let device = resolve(py, device)?;
    if copy != Some(true) {
        let why = host::why_not_shared(&device, &buf);
        let big = buf.len_bytes() >= host::SHARE_MIN_BYTES;
        match why {
            None if copy == Some(false) || big => {
                match host::share(py, &device, dt, &shape, data, "asarray") {
                    Ok(tensor) => {
                        return Ok(PyTensor {
                            tensor,
                            dtype,
                            source,
                        })
                    }
                    // The driver refused the pointer: copy, unless told not to.
                    Err(e) if copy == Some(false) => return Err(e),
                    Err(_) => {}
                }
            }
            Some(why) if copy == Some(false) => {
                return Err(invalid(format!(
                    "asarray(copy=False): the array's memory cannot be shared with the \
                     device: {why}"
                )))
            }
            _ => {}
        }
    }
    let tensor = host::upload_buffer(py, &device, dt, &shape, &buf, "asarray")?;
    Ok(PyTensor {
        tensor,
        dtype,
        source: None,
    })
}

#[pymethods]
impl PyTensor {
    /// The shape.
    #[getter]
    fn shape(&self) -> Vec<usize> {
        self.tensor.shape().to_vec()
    }

    /// numpy's name of the element type (`float32`).
    #[getter]
    fn dtype(&self) -> &'static str {
        host::numpy_name(self.dtype)
    }

    /// Strides in elements (numpy's are in bytes: multiply by `itemsize`).
    #[getter]
    fn strides(&self) -> Vec<usize> {
        self.tensor.strides().to_vec()
    }

    /// Bytes per element.
    #[getter]
    fn itemsize(&self) -> usize {
        self.dtype.size()
    }

    /// The number of elements.
    #[getter]
    fn size(&self) -> usize {
        self.tensor.numel()
    }

    /// The number of dimensions.
    #[getter]
    fn ndim(&self) -> usize {
        self.tensor.shape().len()
    }

    /// The address of the host memory the tensor shares (made by
    /// `kiln.asarray` or `kiln.from_dlpack` without a copy): the array's
    /// data pointer. `None` when the tensor has memory of its own.
    #[getter]
    fn host_pointer(&self) -> Option<usize> {
        self.tensor.host_address()
    }

    /// The object whose memory the tensor shares (`None`: its own).
    #[getter]
    fn _source(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.source.as_ref().map(|s| s.clone_ref(py))
    }

    /// The device it lives on.
    #[getter]
    fn device(&self) -> PyDevice {
        PyDevice {
            device: self.tensor.device(),
        }
    }

    /// Copies the elements (row-major) into `out`, a writable C-contiguous
    /// byte view of a host array of the tensor's size (`numpy.empty(...)
    /// .reshape(-1).view(numpy.uint8)`): one copy, straight out of the
    /// tensor's memory on unified memory. Waits, without the GIL, for the
    /// work that writes the tensor.
    fn _read_into(&self, py: Python<'_>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        let what = "reading a kiln.Tensor";
        let buf = host::buffer(out, what)?;
        let n = self.tensor.numel() * self.dtype.size();
        if buf.len_bytes() != n || buf.readonly() {
            return Err(invalid(format!(
                "{what}: the output must be {n} writable bytes (got {}{})",
                buf.len_bytes(),
                if buf.readonly() { ", read-only" } else { "" }
            )));
        }
        let t = &self.tensor;
        // Wait for the writes first without the GIL; then the copy finds
        // them done.
        py.detach(|| t.read_bytes_with(|_| ()))
            .map_err(|e| runtime_error(what, &e))?;
        t.read_bytes_with(|src| buf.copy_from_slice(py, src))
            .map_err(|e| runtime_error(what, &e))?
    }

    fn __len__(&self) -> PyResult<usize> {
        self.tensor
            .shape()
            .first()
            .copied()
            .ok_or_else(|| pyo3::exceptions::PyTypeError::new_err("len() of a 0-d tensor"))
    }

    fn __repr__(&self) -> String {
        format!(
            "kiln.Tensor(shape={:?}, dtype={})",
            self.tensor.shape(),
            host::numpy_name(self.dtype)
        )
    }
}
