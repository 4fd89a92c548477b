//! [`HostTensor`]: an ONNX tensor on the host — its [`DataType`] and the
//! reference evaluator's [`Tensor`] holding it — decoded from a
//! `TensorProto` (typed fields, `raw_data`, or external data relative to
//! the model's folder) and encoded back.

use std::path::Path;

use kiln_core::tensor::attr::{Elements, ScalarBits};
use kiln_core::tensor::eval::Tensor;

use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::proto::TensorProto;

/// A tensor with its ONNX element type (kiln holds unsigned integers as
/// signless ones; the type says how to read them).
#[derive(Clone, Debug, PartialEq)]
pub struct HostTensor {
    /// ONNX's element type.
    pub dtype: DataType,
    /// The values.
    pub tensor: Tensor,
}

/// An error unless `bytes` holds the `need` bytes of a `shape` tensor of
/// `dtype`.
fn byte_count(
    name: &str,
    bytes: &[u8],
    shape: &[usize],
    dtype: DataType,
    need: usize,
) -> Result<(), OnnxError> {
    if bytes.len() == need {
        return Ok(());
    }
    Err(OnnxError::BadTensor {
        name: name.to_owned(),
        message: format!(
            "{} bytes of data, shape {:?} of {} needs {need}",
            bytes.len(),
            shape,
            dtype.name(),
        ),
    })
}

impl HostTensor {
    /// The shape.
    pub fn shape(&self) -> &[usize] {
        &self.tensor.shape
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.tensor.data.len()
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i` as i64 (unsigned types zero-extended; floats truncated).
    pub fn int(&self, i: usize) -> i64 {
        match self.tensor.data.get(i) {
            ScalarBits::Int(v) if self.dtype.is_unsigned() => {
                let bits = self.dtype.elem().bits();
                if bits >= 64 {
                    v
                } else {
                    v & ((1i64 << bits) - 1)
                }
            }
            ScalarBits::Int(v) => v,
            ScalarBits::Float(f) => f as i64,
        }
    }

    /// Every element as i64 (see [`Self::int`]).
    pub fn ints(&self) -> Vec<i64> {
        (0..self.len()).map(|i| self.int(i)).collect()
    }

    /// Element `i` as f64 (unsigned integers by value, narrow floats
    /// decoded).
    pub fn float(&self, i: usize) -> f64 {
        if self.dtype.is_narrow_float() {
            return crate::narrow::decode(self.dtype, self.int(i) as u8);
        }
        match self.tensor.data.get(i) {
            ScalarBits::Float(f) => f,
            ScalarBits::Int(_) if self.dtype == DataType::Uint64 => self.int(i) as u64 as f64,
            ScalarBits::Int(_) => self.int(i) as f64,
        }
    }

    /// A tensor of `dtype` and `shape` holding `data`.
    fn with_data(dtype: DataType, shape: &[usize], data: Elements) -> HostTensor {
        HostTensor {
            dtype,
            tensor: Tensor {
                elem: dtype.elem(),
                shape: shape.to_vec(),
                data,
            },
        }
    }

    /// A tensor of `dtype` and `shape` from i64 values (truncated to the width).
    pub fn from_ints(dtype: DataType, shape: &[usize], values: &[i64]) -> HostTensor {
        let mut data = Elements::zeros(dtype.elem(), values.len()).expect("supported type");
        for (i, &v) in values.iter().enumerate() {
            data.set(i, ScalarBits::Int(v));
        }
        HostTensor::with_data(dtype, shape, data)
    }

    /// A tensor of `dtype` and `shape` from f64 values (rounded to the type).
    pub fn from_floats(dtype: DataType, shape: &[usize], values: &[f64]) -> HostTensor {
        let mut data = Elements::zeros(dtype.elem(), values.len()).expect("supported type");
        for (i, &v) in values.iter().enumerate() {
            if dtype.is_float() {
                data.set(i, ScalarBits::Float(v));
            } else {
                data.set(i, ScalarBits::Int(v as i64));
            }
        }
        HostTensor::with_data(dtype, shape, data)
    }

    /// The elements as little-endian bytes (bool: one byte each; 4- and
    /// 2-bit types packed, the first element in the low bits).
    pub fn to_bytes(&self) -> Vec<u8> {
        let bits = self.dtype.packed_bits();
        if bits < 8 {
            let per = (8 / bits) as usize;
            let mask = (1u8 << bits) - 1;
            let mut out = vec![0u8; self.len().div_ceil(per)];
            for i in 0..self.len() {
                let v = (self.int(i) as u8) & mask;
                out[i / per] |= v << ((i % per) as u32 * bits);
            }
            return out;
        }
        match &self.tensor.data {
            Elements::I1(v) => v.iter().map(|&b| u8::from(b)).collect(),
            Elements::I8(v) => v.iter().map(|&x| x as u8).collect(),
            Elements::I16(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Elements::I32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Elements::I64(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Elements::F16(v) | Elements::BF16(v) => {
                v.iter().flat_map(|x| x.to_le_bytes()).collect()
            }
            Elements::F32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Elements::F64(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        }
    }

    /// A tensor of `dtype` and `shape` from little-endian bytes.
    pub fn from_bytes(
        dtype: DataType,
        shape: &[usize],
        bytes: &[u8],
        name: &str,
    ) -> Result<HostTensor, OnnxError> {
        let too_large = || OnnxError::BadTensor {
            name: name.to_owned(),
            message: format!("shape {shape:?} of {} is too large", dtype.name()),
        };
        let n = shape
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
            .ok_or_else(too_large)?;
        let bits = dtype.packed_bits();
        if bits < 8 {
            let per = (8 / bits) as usize;
            byte_count(name, bytes, shape, dtype, n.div_ceil(per))?;
            let mask = (1u8 << bits) - 1;
            let signed = matches!(dtype, DataType::Int4 | DataType::Int2);
            let values: Vec<i64> = (0..n)
                .map(|i| {
                    let v = (bytes[i / per] >> ((i % per) as u32 * bits)) & mask;
                    if signed && v >> (bits - 1) != 0 {
                        i64::from(v) - (1i64 << bits)
                    } else {
                        i64::from(v)
                    }
                })
                .collect();
            return Ok(HostTensor::from_ints(dtype, shape, &values));
        }
        let need = n.checked_mul(dtype.size()).ok_or_else(too_large)?;
        byte_count(name, bytes, shape, dtype, need)?;
        fn le<const N: usize, T>(b: &[u8], f: fn([u8; N]) -> T) -> Vec<T> {
            b.chunks_exact(N)
                .map(|c| f(c.try_into().expect("chunk of N")))
                .collect()
        }
        let data = match dtype.elem() {
            kiln_core::tensor::ElemType::Int(1) => {
                Elements::I1(bytes.iter().map(|&b| b != 0).collect())
            }
            kiln_core::tensor::ElemType::Int(8) => {
                Elements::I8(bytes.iter().map(|&b| b as i8).collect())
            }
            kiln_core::tensor::ElemType::Int(16) => Elements::I16(le(bytes, i16::from_le_bytes)),
            kiln_core::tensor::ElemType::Int(32) => Elements::I32(le(bytes, i32::from_le_bytes)),
            kiln_core::tensor::ElemType::Int(64) => Elements::I64(le(bytes, i64::from_le_bytes)),
            kiln_core::tensor::ElemType::F16 => Elements::F16(le(bytes, u16::from_le_bytes)),
            kiln_core::tensor::ElemType::BF16 => Elements::BF16(le(bytes, u16::from_le_bytes)),
            kiln_core::tensor::ElemType::F32 => Elements::F32(le(bytes, f32::from_le_bytes)),
            kiln_core::tensor::ElemType::F64 => Elements::F64(le(bytes, f64::from_le_bytes)),
            other => unreachable!("DataType::elem gives no {other}"),
        };
        Ok(HostTensor {
            dtype,
            tensor: Tensor {
                elem: dtype.elem(),
                shape: shape.to_vec(),
                data,
            },
        })
    }

    /// Decodes `t`; external data is read relative to `base_dir`.
    pub fn from_proto(t: &TensorProto, base_dir: Option<&Path>) -> Result<HostTensor, OnnxError> {
        let name = t.name.clone().unwrap_or_default();
        let bad = |message: String| OnnxError::BadTensor {
            name: name.clone(),
            message,
        };
        let dtype = DataType::from_code(t.data_type.unwrap_or(0), &format!("tensor {name}"))?;
        let mut shape = Vec::with_capacity(t.dims.len());
        for &d in &t.dims {
            shape.push(usize::try_from(d).map_err(|_| bad(format!("negative dimension {d}")))?);
        }
        let n = shape
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
            .ok_or_else(|| bad("too many elements".into()))?;
        if t.data_location == Some(1) {
            let bytes = read_external(t, base_dir, &name)?;
            return HostTensor::from_bytes(dtype, &shape, &bytes, &name);
        }
        if let Some(raw) = &t.raw_data {
            return HostTensor::from_bytes(dtype, &shape, raw, &name);
        }
        let count = |len: usize, field: &str| {
            if len == n {
                Ok(())
            } else {
                Err(bad(format!(
                    "{len} values in {field}, shape {shape:?} has {n}"
                )))
            }
        };
        use DataType::*;
        let out = match dtype {
            Float => {
                count(t.float_data.len(), "float_data")?;
                let v: Vec<f64> = t.float_data.iter().map(|&x| f64::from(x)).collect();
                HostTensor::from_floats(dtype, &shape, &v)
            }
            Double => {
                count(t.double_data.len(), "double_data")?;
                HostTensor::from_floats(dtype, &shape, &t.double_data)
            }
            Int64 => {
                count(t.int64_data.len(), "int64_data")?;
                HostTensor::from_ints(dtype, &shape, &t.int64_data)
            }
            Uint32 | Uint64 => {
                count(t.uint64_data.len(), "uint64_data")?;
                let v: Vec<i64> = t.uint64_data.iter().map(|&x| x as i64).collect();
                HostTensor::from_ints(dtype, &shape, &v)
            }
            Float16 | Bfloat16 => {
                count(t.int32_data.len(), "int32_data")?;
                let bytes: Vec<u8> = t
                    .int32_data
                    .iter()
                    .flat_map(|&x| (x as u16).to_le_bytes())
                    .collect();
                HostTensor::from_bytes(dtype, &shape, &bytes, &name)?
            }
            Uint4 | Int4 | Float4e2m1 | Uint2 | Int2 => {
                // Packed: each int32 holds one byte of the packed data.
                let bytes: Vec<u8> = t.int32_data.iter().map(|&x| x as u8).collect();
                HostTensor::from_bytes(dtype, &shape, &bytes, &name)?
            }
            Float8e4m3fn | Float8e4m3fnuz | Float8e5m2 | Float8e5m2fnuz | Float8e8m0 => {
                count(t.int32_data.len(), "int32_data")?;
                let bytes: Vec<u8> = t.int32_data.iter().map(|&x| x as u8).collect();
                HostTensor::from_bytes(dtype, &shape, &bytes, &name)?
            }
            Int32 | Int16 | Int8 | Uint16 | Uint8 | Bool => {
                count(t.int32_data.len(), "int32_data")?;
                let v: Vec<i64> = t.int32_data.iter().map(|&x| i64::from(x)).collect();
                HostTensor::from_ints(dtype, &shape, &v)
            }
        };
        Ok(out)
    }

    /// Encodes the tensor as a `TensorProto` with `raw_data`.
    pub fn to_proto(&self, name: &str) -> TensorProto {
        TensorProto {
            dims: self.shape().iter().map(|&d| d as i64).collect(),
            data_type: Some(self.dtype.code()),
            name: Some(name.to_owned()),
            raw_data: Some(self.to_bytes()),
            ..Default::default()
        }
    }
}

/// The bytes of an external-data tensor (`location`, `offset`, `length`).
fn read_external(
    t: &TensorProto,
    base_dir: Option<&Path>,
    name: &str,
) -> Result<Vec<u8>, OnnxError> {
    let bad = |message: String| OnnxError::BadTensor {
        name: name.to_owned(),
        message,
    };
    let mut location = None;
    let mut offset = 0u64;
    let mut length = None;
    for e in &t.external_data {
        let v = e.value.clone().unwrap_or_default();
        match e.key.as_deref() {
            Some("location") => location = Some(v),
            Some("offset") => offset = v.parse().map_err(|_| bad(format!("bad offset {v:?}")))?,
            Some("length") => {
                length = Some(
                    v.parse::<u64>()
                        .map_err(|_| bad(format!("bad length {v:?}")))?,
                )
            }
            _ => {}
        }
    }
    let location = location.ok_or_else(|| bad("external data without a location".into()))?;
    let rel = Path::new(&location);
    if rel.is_absolute()
        || rel
            .components()
            .any(|c| matches!(c, std::path::Component::ParentDir))
    {
        return Err(bad(format!(
            "external data location {location:?} leaves the model's folder"
        )));
    }
    let path = base_dir.unwrap_or(Path::new(".")).join(rel);
    let all = std::fs::read(&path).map_err(|source| OnnxError::Io {
        path: format!("{} (external data of tensor {name})", path.display()),
        source,
    })?;
    let start = usize::try_from(offset).map_err(|_| bad("offset too large".into()))?;
    let end = match length {
        Some(l) => start.checked_add(l as usize),
        None => Some(all.len()),
    };
    match end {
        Some(end) if start <= end && end <= all.len() => Ok(all[start..end].to_vec()),
        _ => Err(bad(format!(
            "external data {} has {} bytes, the tensor asks for offset {offset} length {length:?}",
            path.display(),
            all.len()
        ))),
    }
}
