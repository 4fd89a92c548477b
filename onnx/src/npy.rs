//! `.npy` files (version 1–3, little-endian, C order) of [`HostTensor`]s.
//! The CLI's bench has a reader for its own dtypes; ONNX needs f64, u16
//! and u64 too, so this one is keyed by [`DataType`].

use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::tensor::HostTensor;

fn bad(what: &str, message: impl Into<String>) -> OnnxError {
    OnnxError::BadTensor {
        name: what.to_owned(),
        message: message.into(),
    }
}

/// The value of `'key': VALUE` in a header dictionary.
fn field<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let at = header.find(&format!("'{key}'"))?;
    let rest = header[at + key.len() + 2..]
        .trim_start()
        .strip_prefix(':')?
        .trim_start();
    if let Some(r) = rest.strip_prefix('(') {
        return r.find(')').map(|e| &r[..e]);
    }
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    Some(rest[..end].trim().trim_matches('\''))
}

/// Reads a `.npy` file (`what` names it in errors).
pub fn read_npy(bytes: &[u8], what: &str) -> Result<HostTensor, OnnxError> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err(bad(what, "not a .npy file (no \\x93NUMPY magic)"));
    }
    let (len, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        v => return Err(bad(what, format!(".npy version {v} is not supported"))),
    };
    let header = bytes
        .get(start..start + len)
        .ok_or_else(|| bad(what, "the .npy header is cut short"))?;
    let header =
        std::str::from_utf8(header).map_err(|_| bad(what, "the .npy header is not text"))?;
    let descr = field(header, "descr").ok_or_else(|| bad(what, "no descr"))?;
    let dtype = DataType::from_npy_descr(descr)
        .filter(|_| !descr.starts_with('>'))
        .ok_or_else(|| bad(what, format!("numpy type {descr} is not supported")))?;
    if field(header, "fortran_order") == Some("True") {
        return Err(bad(what, "Fortran-order arrays are not supported"));
    }
    let shape_text = field(header, "shape").ok_or_else(|| bad(what, "no shape"))?;
    let shape = shape_text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<usize>()
                .map_err(|_| bad(what, format!("bad shape ({shape_text})")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    HostTensor::from_bytes(dtype, &shape, &bytes[start + len..], what)
}

/// A `.npy` file (version 1.0) holding `t` (bf16 as numpy's 2-byte void).
pub fn write_npy(t: &HostTensor) -> Vec<u8> {
    let shape = match t.shape() {
        [] => String::new(),
        [d] => format!("{d},"),
        s => s
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", "),
    };
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': ({shape}), }}",
        t.dtype.npy_descr()
    );
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(t.to_bytes());
    out
}
