//! Host data crossing the Python boundary: element types by numpy's and
//! onnxruntime's names, and tensors as `(bytes, dtype, shape)`.
//!
//! numpy arrays arrive from the Python layer as a C-contiguous `uint8`
//! view of their memory (the Python layer copies a non-contiguous array
//! first), read through the buffer protocol (in the stable ABI since
//! CPython 3.11) without a copy, with numpy's dtype name and the shape;
//! results go back into a `bytearray` numpy wraps without another copy.

use kiln_core::tensor::ElemType;
use kiln_onnx::{DataType, HostTensor};
use kiln_runtime::{DType, Tensor};
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use crate::errors::{invalid, runtime_error};

/// numpy's name of `dtype` (`bfloat16` is ml_dtypes' name).
pub fn numpy_name(dtype: DataType) -> &'static str {
    use DataType::*;
    match dtype {
        Float => "float32",
        Double => "float64",
        Float16 => "float16",
        Bfloat16 => "bfloat16",
        Bool => "bool",
        Int8 => "int8",
        Uint8 => "uint8",
        Int16 => "int16",
        Uint16 => "uint16",
        Int32 => "int32",
        Uint32 => "uint32",
        Int64 => "int64",
        Uint64 => "uint64",
        Float8e4m3fn => "float8_e4m3fn",
        Float8e4m3fnuz => "float8_e4m3fnuz",
        Float8e5m2 => "float8_e5m2",
        Float8e5m2fnuz => "float8_e5m2fnuz",
        Uint4 => "uint4",
        Int4 => "int4",
        Float4e2m1 => "float4_e2m1fn",
        Float8e8m0 => "float8_e8m0fnu",
        Uint2 => "uint2",
        Int2 => "int2",
    }
}

/// The type numpy names `name`, or an `InvalidArgument` naming it.
pub fn from_numpy_name(name: &str, what: &str) -> PyResult<DataType> {
    use DataType::*;
    Ok(match name {
        "float32" => Float,
        "float64" => Double,
        "float16" => Float16,
        "bfloat16" => Bfloat16,
        "bool" => Bool,
        "int8" => Int8,
        "uint8" => Uint8,
        "int16" => Int16,
        "uint16" => Uint16,
        "int32" => Int32,
        "uint32" => Uint32,
        "int64" => Int64,
        "uint64" => Uint64,
        // ml_dtypes' (onnx's dependency) names of ONNX's small types.
        "float8_e4m3fn" => Float8e4m3fn,
        "float8_e4m3fnuz" => Float8e4m3fnuz,
        "float8_e5m2" => Float8e5m2,
        "float8_e5m2fnuz" => Float8e5m2fnuz,
        "float8_e8m0fnu" => Float8e8m0,
        "float4_e2m1fn" => Float4e2m1,
        "int4" => Int4,
        "uint4" => Uint4,
        "int2" => Int2,
        "uint2" => Uint2,
        other => {
            return Err(invalid(format!(
                "{what}: numpy dtype {other} is not supported (kiln has float16, bfloat16, \
                 float32, float64, bool, int8..int64, uint8..uint64, and ml_dtypes' float8, \
                 float4, int4, uint4, int2, uint2)"
            )))
        }
    })
}

/// onnxruntime's spelling of ONNX type code `code` (`tensor(float)`).
pub fn ort_type(code: i32) -> String {
    format!(
        "tensor({})",
        kiln_onnx::dtype::onnx_type_name(code).to_ascii_lowercase()
    )
}

/// The ONNX type of a tensor-IR element type (signless integers as
/// signed ones; `index` as int64).
pub fn data_type_of(elem: ElemType) -> Option<DataType> {
    use DataType::*;
    Some(match elem {
        ElemType::F32 => Float,
        ElemType::F64 => Double,
        ElemType::F16 => Float16,
        ElemType::BF16 => Bfloat16,
        ElemType::Int(1) => Bool,
        ElemType::Int(8) => Int8,
        ElemType::Int(16) => Int16,
        ElemType::Int(32) => Int32,
        ElemType::Int(64) | ElemType::Index => Int64,
        _ => return None,
    })
}

/// The device dtype holding `dtype` (unsigned types in the signed dtype of
/// their width, as kiln's tensor IR holds them; f64 has none).
pub fn device_dtype(dtype: DataType) -> Option<DType> {
    kiln_runtime::program::dtype_of(dtype.elem())
}

/// Host data given from Python: bytes, dtype and shape.
pub struct HostData {
    /// Its element type.
    pub dtype: DataType,
    /// Its shape.
    pub shape: Vec<usize>,
    /// Its bytes, row-major, little-endian.
    pub bytes: Vec<u8>,
}

impl HostData {
    /// Checks that the bytes fit the shape.
    pub fn new(dtype: DataType, shape: Vec<usize>, bytes: Vec<u8>, what: &str) -> PyResult<Self> {
        let n: usize = shape.iter().product();
        if bytes.len() != n * dtype.size() {
            return Err(invalid(format!(
                "{what}: {} bytes for shape {shape:?} of {} ({} needed)",
                bytes.len(),
                numpy_name(dtype),
                n * dtype.size()
            )));
        }
        Ok(Self {
            dtype,
            shape,
            bytes,
        })
    }

    /// Host data of `dtype` and `shape` holding the bytes of `obj` (see
    /// [`buffer`]), copied once.
    pub fn from_buffer(
        py: Python<'_>,
        obj: &Bound<'_, PyAny>,
        dtype: DataType,
        shape: Vec<usize>,
        what: &str,
    ) -> PyResult<Self> {
        let bytes = buffer(obj, what)?.to_vec(py)?;
        Self::new(dtype, shape, bytes, what)
    }

    /// As an ONNX host tensor (sub-byte types packed as ONNX packs them).
    pub fn to_host(&self, what: &str) -> PyResult<HostTensor> {
        self.host_tensor(what).map_err(|e| invalid(e.to_string()))
    }

    /// As an ONNX host tensor, with the importer's error.
    pub fn host_tensor(&self, what: &str) -> Result<HostTensor, kiln_onnx::OnnxError> {
        let bits = self.dtype.packed_bits();
        let packed;
        let bytes = if bits < 8 {
            packed = pack_bits(&self.bytes, bits);
            &packed
        } else {
            &self.bytes
        };
        HostTensor::from_bytes(self.dtype, &self.shape, bytes, what)
    }

    /// An ONNX host tensor's bytes as numpy holds them.
    pub fn from_host(h: &HostTensor) -> Self {
        let bits = h.dtype.packed_bits();
        let bytes = h.to_bytes();
        Self {
            dtype: h.dtype,
            shape: h.shape().to_vec(),
            bytes: if bits < 8 {
                unpack_bits(&bytes, h.len(), bits)
            } else {
                bytes
            },
        }
    }
}

/// One byte per element (ml_dtypes' layout of int4, uint4, int2, uint2
/// and float4_e2m1fn: the value in the low bits, the others ignored) to
/// ONNX's packing, `8 / bits` elements a byte, the first in the low bits.
pub fn pack_bits(bytes: &[u8], bits: u32) -> Vec<u8> {
    let per = (8 / bits) as usize;
    let mask = (1u8 << bits) - 1;
    let mut out = vec![0u8; bytes.len().div_ceil(per)];
    for (i, b) in bytes.iter().enumerate() {
        out[i / per] |= (b & mask) << ((i % per) as u32 * bits);
    }
    out
}

/// ONNX's packing of `n` elements of `bits` bits back to one byte each
/// (the value in the low bits, as ml_dtypes holds it).
pub fn unpack_bits(bytes: &[u8], n: usize, bits: u32) -> Vec<u8> {
    let per = (8 / bits) as usize;
    let mask = (1u8 << bits) - 1;
    (0..n)
        .map(|i| (bytes[i / per] >> ((i % per) as u32 * bits)) & mask)
        .collect()
}

/// The bytes of `obj` (a C-contiguous buffer of bytes: the Python layer
/// passes `array.reshape(-1).view(numpy.uint8)`), without a copy.
pub fn buffer(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<PyBuffer<u8>> {
    let buf = PyBuffer::<u8>::get(obj)
        .map_err(|e| invalid(format!("{what}: expected a numpy array's bytes ({e})")))?;
    if !buf.is_c_contiguous() {
        return Err(invalid(format!("{what}: the bytes are not contiguous")));
    }
    Ok(buf)
}

/// A device tensor of `dtype` (`device_dtype`) holding the bytes of
/// `buf`, copied once (straight into the tensor on unified memory).
pub fn upload_buffer(
    py: Python<'_>,
    device: &kiln_runtime::Device,
    dtype: DType,
    shape: &[usize],
    buf: &PyBuffer<u8>,
    what: &str,
) -> PyResult<Tensor> {
    let n: usize = shape.iter().product::<usize>() * dtype.size();
    if buf.len_bytes() != n {
        return Err(invalid(format!(
            "{what}: {} bytes for shape {shape:?} of {} ({n} needed)",
            buf.len_bytes(),
            dtype.name()
        )));
    }
    // One copy (a memcpy in CPython's PyBuffer_ToContiguous), straight
    // into the tensor's memory on unified memory.
    let mut copied = Ok(());
    let t = Tensor::from_fill(device, dtype, shape, |dst| {
        copied = buf.copy_to_slice(py, dst);
    })
    .map_err(|e| runtime_error(what, &e))?;
    copied?;
    Ok(t)
}

/// The smallest array `kiln.asarray` shares rather than copies when the
/// caller lets it choose (`copy=None`): below it a copy costs less than
/// an import (a buffer, an allocation and a bind per tensor, and one of
/// the device's `maxMemoryAllocationCount` allocations while it lives).
pub const SHARE_MIN_BYTES: usize = 1 << 16;

/// A Python buffer's memory lent to a tensor: a `memoryview` of the
/// object, made here and never handed out, holds the buffer export (the
/// exporter keeps the memory allocated until it is released, which only
/// the view's deallocation does: nobody else can call its `release()`).
/// Dropped where Python is not attached, the view's reference is given
/// back later by PyO3 (no wait for the interpreter, so a tensor dropped
/// by the runtime's own threads never blocks on it).
struct Lent {
    _view: Py<PyAny>,
    addr: usize,
    len: usize,
    writable: bool,
}

// SAFETY: `addr .. addr + len` is the C-contiguous buffer the memoryview
// `_view` exported (read once, in `lend`), which stays allocated, with
// the same address and length, while the view lives (the buffer
// protocol's contract), and the view lives as long as this value; it is
// written only if the export was writable. The address carries the
// exposed provenance of the exporter's pointer.
#[allow(unsafe_code)]
unsafe impl kiln_vulkan::HostMemory for Lent {
    fn host_ptr(&self) -> *mut u8 {
        std::ptr::with_exposed_provenance_mut(self.addr)
    }

    fn host_len(&self) -> usize {
        self.len
    }

    fn host_writable(&self) -> bool {
        self.writable
    }
}

/// Why `buf`'s bytes cannot be shared with `device` (`None`: they can).
pub fn why_not_shared(device: &kiln_runtime::Device, buf: &PyBuffer<u8>) -> Option<String> {
    let (addr, len) = (buf.buf_ptr() as usize, buf.len_bytes());
    if device.can_import_host(addr, len) {
        return None;
    }
    let align = device.context().slice_alignment();
    Some(match device.context().host_import_alignment() {
        None => format!(
            "{} cannot import host memory (no VK_EXT_external_memory_host on unified memory)",
            device.info().name
        ),
        Some(_) if len == 0 => "the array is empty".to_owned(),
        Some(_) => format!(
            "its address ({addr:#x}) and its size ({len} bytes) must be multiples of {align}"
        ),
    })
}

/// A device tensor of `dtype` and `shape` over the memory of `obj` (a
/// C-contiguous buffer of bytes), without a copy: the caller checked
/// [`why_not_shared`]. The memory is kept (through a memoryview of `obj`)
/// while the tensor lives.
pub fn share(
    py: Python<'_>,
    device: &kiln_runtime::Device,
    dtype: DType,
    shape: &[usize],
    obj: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<Tensor> {
    let view = pyo3::types::PyMemoryView::from(obj)?;
    let buf = buffer(view.as_any(), what)?;
    let lent = Lent {
        addr: buf.buf_ptr().cast::<u8>().expose_provenance(),
        len: buf.len_bytes(),
        writable: !buf.readonly(),
        _view: view.into_any().unbind(),
    };
    drop(buf);
    let t = py.detach(|| Tensor::from_host_memory(device, dtype, shape, Box::new(lent)));
    t.map_err(|e| runtime_error(what, &e))
}

/// A device tensor of `dtype` (`device_dtype`) holding `bytes`.
pub fn upload(
    device: &kiln_runtime::Device,
    dtype: DType,
    shape: &[usize],
    bytes: &[u8],
) -> kiln_runtime::Result<Tensor> {
    Tensor::from_fill(device, dtype, shape, |dst| dst.copy_from_slice(bytes))
}

/// The elements of device tensor `t` as bytes, row-major (waits for the
/// work that writes it).
pub fn download(t: &Tensor) -> kiln_runtime::Result<Vec<u8>> {
    let mut out = vec![0u8; t.numel() * t.dtype().size()];
    t.read_bytes_into(&mut out)?;
    Ok(out)
}

/// A result as the Python layer takes it: `(bytearray, dtype name, shape)`.
pub type PyHost<'py> = (Bound<'py, PyByteArray>, &'static str, Vec<usize>);

/// `data` handed to Python.
pub fn to_python<'py>(py: Python<'py>, data: &HostData) -> PyHost<'py> {
    (
        PyByteArray::new(py, &data.bytes),
        numpy_name(data.dtype),
        data.shape.clone(),
    )
}

/// A device tensor's bytes, as [`HostData`] of `dtype`.
pub fn read_device(t: &Tensor, dtype: DataType, what: &str) -> PyResult<HostData> {
    let bytes = download(t).map_err(|e| runtime_error(what, &e))?;
    Ok(HostData {
        dtype,
        shape: t.shape().to_vec(),
        bytes,
    })
}
