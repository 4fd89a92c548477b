//! Host arrays: the inputs of `kiln bench` and the outputs it checks.
//!
//! Inputs are written as `iree-benchmark-module --input` takes them, so the
//! same flags bench a file in both tools:
//! - `SHAPExTYPE=V`: every element `V` (`1024x1024xf32=1`; a 0-d tensor is
//!   `f32=1`);
//! - `SHAPExTYPE=V0 V1 ...` (or comma-separated, in optional brackets):
//!   every element, row-major;
//! - `SHAPExTYPE=@FILE`: raw little-endian elements from FILE;
//! - `@FILE.npy`: a NumPy array file (version 1–3, little-endian, C order).
//!
//! TYPE is one of f32, f16, bf16, i8, i16, i32, i64, ui8 (or u8), ui32 (or
//! u32), i1 (bool). [`write_npy`] writes the `.npy` files handed to IREE.

use anyhow::{anyhow, bail, Context, Result};
use kiln_runtime::half::{bf16, f16};
use kiln_runtime::{DType, Device, Element, Tensor};

/// A row-major array on the host.
#[derive(Clone, Debug, PartialEq)]
pub struct HostArray {
    /// Element type.
    pub dtype: DType,
    /// Shape (empty for a 0-d array).
    pub shape: Vec<usize>,
    /// `numel * dtype.size()` little-endian bytes.
    pub bytes: Vec<u8>,
}

impl HostArray {
    /// An f32 array.
    pub fn f32(shape: &[usize], data: &[f32]) -> Self {
        debug_assert_eq!(shape.iter().product::<usize>(), data.len());
        Self {
            dtype: DType::F32,
            shape: shape.to_vec(),
            bytes: data.iter().flat_map(|x| x.to_le_bytes()).collect(),
        }
    }

    /// An f16 array of `data` rounded to nearest even.
    pub fn f16(shape: &[usize], data: &[f32]) -> Self {
        debug_assert_eq!(shape.iter().product::<usize>(), data.len());
        Self {
            dtype: DType::F16,
            shape: shape.to_vec(),
            bytes: data
                .iter()
                .flat_map(|&x| kiln_runtime::half::f16::from_f32(x).to_le_bytes())
                .collect(),
        }
    }

    /// The elements as f64 (integers and bools by value).
    pub fn to_f64(&self) -> Vec<f64> {
        let size = self.dtype.size();
        self.bytes
            .chunks_exact(size)
            .map(|c| match self.dtype {
                DType::F32 => f64::from(f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                DType::F16 => f16::from_le_bytes([c[0], c[1]]).to_f64(),
                DType::BF16 => bf16::from_le_bytes([c[0], c[1]]).to_f64(),
                DType::I8 => f64::from(c[0] as i8),
                DType::I16 => f64::from(i16::from_le_bytes([c[0], c[1]])),
                DType::I32 => f64::from(i32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                DType::I64 => {
                    i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]) as f64
                }
                DType::U8 | DType::Bool => f64::from(c[0]),
                DType::U32 => f64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            })
            .collect()
    }
}

/// Runs `$body` with `$T` the host type of `$dtype`.
macro_rules! with_host_type {
    ($dtype:expr, $T:ident => $body:expr) => {
        match $dtype {
            DType::F32 => {
                type $T = f32;
                $body
            }
            DType::F16 => {
                type $T = f16;
                $body
            }
            DType::BF16 => {
                type $T = bf16;
                $body
            }
            DType::I8 => {
                type $T = i8;
                $body
            }
            DType::I16 => {
                type $T = i16;
                $body
            }
            DType::I32 => {
                type $T = i32;
                $body
            }
            DType::I64 => {
                type $T = i64;
                $body
            }
            DType::U8 => {
                type $T = u8;
                $body
            }
            DType::U32 => {
                type $T = u32;
                $body
            }
            DType::Bool => {
                type $T = bool;
                $body
            }
        }
    };
}

impl HostArray {
    /// A device tensor holding this array.
    pub fn to_tensor(&self, device: &Device) -> kiln_runtime::Result<Tensor> {
        with_host_type!(self.dtype, T => Tensor::from_slice(device, &T::from_bytes(&self.bytes), &self.shape))
    }

    /// The contents of a device tensor (blocking read).
    pub fn from_tensor(t: &Tensor) -> kiln_runtime::Result<Self> {
        let bytes = with_host_type!(t.dtype(), T => T::as_bytes(&t.to_vec::<T>()?).to_vec());
        Ok(Self {
            dtype: t.dtype(),
            shape: t.shape().to_vec(),
            bytes,
        })
    }
}

/// An element type by its MLIR/IREE name.
pub fn dtype_named(name: &str) -> Option<DType> {
    Some(match name {
        "f32" => DType::F32,
        "f16" => DType::F16,
        "bf16" => DType::BF16,
        "i8" | "si8" => DType::I8,
        "i16" | "si16" => DType::I16,
        "i32" | "si32" => DType::I32,
        "i64" | "si64" => DType::I64,
        "ui8" | "u8" => DType::U8,
        "ui32" | "u32" => DType::U32,
        "i1" | "bool" => DType::Bool,
        _ => return None,
    })
}

/// One value of `dtype` from text, as little-endian bytes.
fn encode(dtype: DType, text: &str) -> Result<Vec<u8>> {
    let bad = || anyhow!("{text:?} is not a {} value", dtype.name());
    let float = || text.parse::<f64>().map_err(|_| bad());
    let int = || -> Result<i128> {
        match text.parse::<i128>() {
            Ok(v) => Ok(v),
            // `1.0` for an integer type: a whole number is accepted.
            Err(_) => {
                let f = float()?;
                if f.fract() == 0.0 && f.abs() < 1e30 {
                    Ok(f as i128)
                } else {
                    Err(bad())
                }
            }
        }
    };
    let ranged = |lo: i128, hi: i128| -> Result<i128> {
        let v = int()?;
        if (lo..=hi).contains(&v) {
            Ok(v)
        } else {
            Err(anyhow!("{text} is out of range for {}", dtype.name()))
        }
    };
    Ok(match dtype {
        DType::F32 => (float()? as f32).to_le_bytes().to_vec(),
        DType::F16 => f16::from_f64(float()?).to_le_bytes().to_vec(),
        DType::BF16 => bf16::from_f64(float()?).to_le_bytes().to_vec(),
        DType::I8 => (ranged(i8::MIN.into(), i8::MAX.into())? as i8)
            .to_le_bytes()
            .to_vec(),
        DType::I16 => (ranged(i16::MIN.into(), i16::MAX.into())? as i16)
            .to_le_bytes()
            .to_vec(),
        DType::I32 => (ranged(i32::MIN.into(), i32::MAX.into())? as i32)
            .to_le_bytes()
            .to_vec(),
        DType::I64 => (ranged(i64::MIN.into(), i64::MAX.into())? as i64)
            .to_le_bytes()
            .to_vec(),
        DType::U8 => vec![ranged(0, u8::MAX.into())? as u8],
        DType::U32 => (ranged(0, u32::MAX.into())? as u32).to_le_bytes().to_vec(),
        DType::Bool => match text {
            "true" | "1" => vec![1],
            "false" | "0" => vec![0],
            _ => return Err(bad()),
        },
    })
}

/// Parses one `--input` (module docs); `@FILE` paths are read from disk.
pub fn parse_input(spec: &str) -> Result<HostArray> {
    let err = |m: String| anyhow!("--input {spec}: {m}");
    if let Some(path) = spec.strip_prefix('@') {
        let bytes = std::fs::read(path).map_err(|e| err(format!("cannot read {path}: {e}")))?;
        return read_npy(&bytes).map_err(|e| err(format!("{path}: {e}")));
    }
    let (ty, values) = spec
        .split_once('=')
        .ok_or_else(|| err("expected SHAPExTYPE=VALUE or @FILE.npy".to_owned()))?;
    let mut parts: Vec<&str> = ty.split('x').collect();
    let elem = parts.pop().unwrap_or_default();
    let dtype = dtype_named(elem).ok_or_else(|| err(format!("unknown element type {elem:?}")))?;
    let shape = parts
        .iter()
        .map(|d| d.parse::<usize>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| err(format!("bad shape {:?}", parts.join("x"))))?;
    // Sizes come from the user: counted without overflow and checked
    // against the host's memory before anything is allocated.
    let numel = kiln_core::host_memory::element_count(shape.iter().map(|&d| d as u64))
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| err(format!("{} has more elements than 2^64", parts.join("x"))))?;
    let size = kiln_core::host_memory::check(numel as u64, dtype.size() as u64)
        .map_err(|e| err(format!("cannot hold {numel} x {}: {e}", dtype.name())))?
        as usize;
    let bytes = match values.trim().strip_prefix('@') {
        Some(path) => {
            let raw = std::fs::read(path).map_err(|e| err(format!("cannot read {path}: {e}")))?;
            if raw.len() != size {
                return Err(err(format!(
                    "{path} has {} bytes, {numel} x {} needs {size}",
                    raw.len(),
                    dtype.name(),
                )));
            }
            raw
        }
        None => {
            let inner = values.trim().trim_start_matches('[').trim_end_matches(']');
            let items: Vec<&str> = inner
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|s| !s.is_empty())
                .collect();
            let encoded = items
                .iter()
                .map(|v| encode(dtype, v))
                .collect::<Result<Vec<_>>>()
                .map_err(|e| err(e.to_string()))?;
            match encoded.len() {
                1 => {
                    let mut out = kiln_core::host_memory::with_capacity(size)
                        .map_err(|e| err(format!("cannot hold {numel} x {}: {e}", dtype.name())))?;
                    for _ in 0..numel {
                        out.extend_from_slice(&encoded[0]);
                    }
                    out
                }
                n if n == numel => encoded.concat(),
                n => {
                    return Err(err(format!(
                        "{n} values for {numel} elements (give 1 to fill, or all)"
                    )))
                }
            }
        }
    };
    Ok(HostArray {
        dtype,
        shape,
        bytes,
    })
}

const NPY_MAGIC: &[u8] = b"\x93NUMPY";

/// The NumPy `descr` of a dtype.
fn npy_descr(dtype: DType) -> &'static str {
    match dtype {
        DType::F32 => "<f4",
        DType::F16 => "<f2",
        DType::I8 => "|i1",
        DType::I16 => "<i2",
        DType::I32 => "<i4",
        DType::I64 => "<i8",
        DType::U8 => "|u1",
        DType::U32 => "<u4",
        DType::Bool => "|b1",
        // NumPy has no bfloat16; stored as its raw 16 bits.
        DType::BF16 => "<u2",
    }
}

fn dtype_of_descr(descr: &str) -> Option<DType> {
    Some(match descr {
        "<f4" => DType::F32,
        "<f2" => DType::F16,
        "|i1" | "<i1" => DType::I8,
        "<i2" => DType::I16,
        "<i4" => DType::I32,
        "<i8" => DType::I64,
        "|u1" | "<u1" => DType::U8,
        "<u4" => DType::U32,
        "|b1" => DType::Bool,
        _ => return None,
    })
}

/// The value of `'key': VALUE` in a `.npy` header dictionary.
fn header_field<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let at = header.find(&format!("'{key}'"))? + key.len() + 2;
    let rest = header[at..].trim_start().strip_prefix(':')?.trim_start();
    let end = if rest.starts_with('(') {
        rest.find(')')? + 1
    } else {
        rest.find([',', '}']).unwrap_or(rest.len())
    };
    Some(rest[..end].trim())
}

/// Reads a `.npy` file (module docs).
pub fn read_npy(bytes: &[u8]) -> Result<HostArray> {
    if bytes.len() < 10 || &bytes[..6] != NPY_MAGIC {
        bail!("not a .npy file (no \\x93NUMPY magic)");
    }
    let (header_len, start) = match bytes[6] {
        1 => (usize::from(u16::from_le_bytes([bytes[8], bytes[9]])), 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        v => bail!(".npy version {v} is not supported"),
    };
    let header = bytes
        .get(start..start + header_len)
        .context("the .npy header is cut short")?;
    let header = std::str::from_utf8(header).context("the .npy header is not text")?;
    let descr = header_field(header, "descr")
        .context("the .npy header has no descr")?
        .trim_matches(|c| c == '\'' || c == '"');
    let dtype = dtype_of_descr(descr).ok_or_else(|| anyhow!("dtype {descr:?} is not supported"))?;
    if header_field(header, "fortran_order") != Some("False") {
        bail!("only C-order (fortran_order: False) arrays are supported");
    }
    let shape_text = header_field(header, "shape").context("the .npy header has no shape")?;
    let shape = shape_text
        .trim_matches(|c| c == '(' || c == ')')
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|d| d.parse::<usize>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| anyhow!("bad shape {shape_text}"))?;
    let data = &bytes[start + header_len..];
    let want = kiln_core::host_memory::element_count(shape.iter().map(|&d| d as u64))
        .and_then(|n| n.checked_mul(dtype.size() as u64))
        .ok_or_else(|| anyhow!("shape {shape:?} has more bytes than 2^64"))?;
    if data.len() as u64 != want {
        bail!(
            "{} data bytes, shape {shape:?} of {} needs {want}",
            data.len(),
            dtype.name()
        );
    }
    Ok(HostArray {
        dtype,
        shape,
        bytes: data.to_vec(),
    })
}

/// A `.npy` file (version 1.0) holding `a`.
pub fn write_npy(a: &HostArray) -> Vec<u8> {
    let shape = match a.shape.len() {
        1 => format!("({},)", a.shape[0]),
        _ => format!(
            "({})",
            a.shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}",
        npy_descr(a.dtype)
    );
    // Magic (6) + version (2) + length (2) + header + '\n', padded to 64.
    let total = (10 + header.len() + 1).next_multiple_of(64);
    header.push_str(&" ".repeat(total - 10 - header.len() - 1));
    header.push('\n');
    let mut out = Vec::with_capacity(total + a.bytes.len());
    out.extend_from_slice(NPY_MAGIC);
    out.extend_from_slice(&[1, 0]);
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&a.bytes);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splat_list_and_scalar_inputs() {
        let a = parse_input("2x3xf32=1.5").unwrap();
        assert_eq!(a.shape, vec![2, 3]);
        assert_eq!(a.to_f64(), vec![1.5; 6]);
        let b = parse_input("4xi32=1 2 3 4").unwrap();
        assert_eq!(b.to_f64(), vec![1.0, 2.0, 3.0, 4.0]);
        let c = parse_input("2xi8=[-1, 127]").unwrap();
        assert_eq!(c.to_f64(), vec![-1.0, 127.0]);
        let s = parse_input("f32=7").unwrap();
        assert_eq!((s.shape.len(), s.to_f64()), (0, vec![7.0]));
        assert!(parse_input("4xf32=1 2").is_err());
        assert!(parse_input("4xq7=1").is_err());
        assert!(parse_input("2xi8=300").is_err());
        assert!(parse_input("4xf32").is_err());
    }

    #[test]
    fn npy_round_trip() {
        for a in [
            HostArray::f32(&[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.5]),
            HostArray::f32(&[5], &[0.0, -1.0, 2.0, 3.0, 4.0]),
            HostArray::f32(&[], &[9.0]),
            parse_input("3xi64=-5").unwrap(),
        ] {
            let file = write_npy(&a);
            assert_eq!(file.len() % 64, a.bytes.len() % 64);
            assert_eq!(read_npy(&file).unwrap(), a);
        }
    }

    #[test]
    fn npy_header_as_numpy_writes_it() {
        // The exact header numpy 2.x writes for np.save(f, np.arange(3, dtype=np.int32)).
        let mut file = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
        let mut header = "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }".to_owned();
        header.push_str(&" ".repeat(118 - header.len() - 1));
        header.push('\n');
        file.extend_from_slice(header.as_bytes());
        for v in [0i32, 1, 2] {
            file.extend_from_slice(&v.to_le_bytes());
        }
        let a = read_npy(&file).unwrap();
        assert_eq!((a.dtype, a.shape.clone()), (DType::I32, vec![3]));
        assert_eq!(a.to_f64(), vec![0.0, 1.0, 2.0]);
        assert!(read_npy(b"\x93NUMPY\x01\x00").is_err());
        assert!(read_npy(b"not numpy at all").is_err());
    }
}
