//! Buffer element types: AmberScript's `DATA_TYPE` names and image-format
//! names, and how their values are encoded.
//!
//! `DATA_TYPE` takes
//! - a scalar: `int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16
//!   float double`;
//! - a vector `vecN<scalar>` (N = 2, 3, 4) or a matrix `matCxR<scalar>`
//!   (C columns of R rows, column-major, C and R from 2 to 4);
//! - any of these followed by `[]`: a runtime array, which matters for the
//!   `STD140` layout (see [`crate::layout`]);
//! - an image-format name (`R32G32B32A32_SFLOAT`, `R8G8B8A8_UNORM`), as
//!   `FORMAT` takes too: components named in memory order, all of one bit
//!   width and one numeric mode. `UINT`, `UNORM`, `USCALED` and `SRGB`
//!   components are unsigned integers (values are the raw integers, as in
//!   Amber), `SINT`, `SNORM`, `SSCALED` signed integers, `SFLOAT` floats.
//!   Packed formats (`..._PACK32`), depth/stencil formats and formats
//!   mixing widths or modes have no compute meaning here and are reported
//!   as unsupported.
//!
//! Values are written little-endian. Integers wrap to their width (`-1` in
//! a `uint8` is 255, as in Amber); floats round to the nearest value of
//! their width (`float16` through IEEE binary16).

use std::fmt;

/// A scalar component type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// 8-bit signed integer.
    I8,
    /// 16-bit signed integer.
    I16,
    /// 32-bit signed integer.
    I32,
    /// 64-bit signed integer.
    I64,
    /// 8-bit unsigned integer.
    U8,
    /// 16-bit unsigned integer.
    U16,
    /// 32-bit unsigned integer.
    U32,
    /// 64-bit unsigned integer.
    U64,
    /// IEEE binary16.
    F16,
    /// IEEE binary32.
    F32,
    /// IEEE binary64.
    F64,
}

impl Scalar {
    /// Every scalar with its AmberScript name.
    const NAMES: [(&'static str, Scalar); 11] = [
        ("int8", Scalar::I8),
        ("int16", Scalar::I16),
        ("int32", Scalar::I32),
        ("int64", Scalar::I64),
        ("uint8", Scalar::U8),
        ("uint16", Scalar::U16),
        ("uint32", Scalar::U32),
        ("uint64", Scalar::U64),
        ("float16", Scalar::F16),
        ("float", Scalar::F32),
        ("double", Scalar::F64),
    ];

    /// The scalar AmberScript calls `name`.
    pub fn from_name(name: &str) -> Option<Scalar> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, s)| s)
    }

    /// Its AmberScript name.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("?", |&(n, _)| n)
    }

    /// Size in bytes.
    pub fn size(self) -> u64 {
        u64::from(self.bits() / 8)
    }

    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            Scalar::I8 | Scalar::U8 => 8,
            Scalar::I16 | Scalar::U16 | Scalar::F16 => 16,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 32,
            Scalar::I64 | Scalar::U64 | Scalar::F64 => 64,
        }
    }

    /// Whether it is a float type.
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F16 | Scalar::F32 | Scalar::F64)
    }

    /// Whether it is a signed integer type.
    pub fn is_signed_int(self) -> bool {
        matches!(self, Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64)
    }

    fn int(bits: u32, signed: bool) -> Option<Scalar> {
        Some(match (bits, signed) {
            (8, true) => Scalar::I8,
            (16, true) => Scalar::I16,
            (32, true) => Scalar::I32,
            (64, true) => Scalar::I64,
            (8, false) => Scalar::U8,
            (16, false) => Scalar::U16,
            (32, false) => Scalar::U32,
            (64, false) => Scalar::U64,
            _ => return None,
        })
    }

    fn float(bits: u32) -> Option<Scalar> {
        Some(match bits {
            16 => Scalar::F16,
            32 => Scalar::F32,
            64 => Scalar::F64,
            _ => return None,
        })
    }

    /// `value` written into `out` (exactly [`size`](Self::size) bytes):
    /// integers wrap, floats round.
    pub fn encode(self, value: Value, out: &mut [u8]) {
        let bytes: Vec<u8> = match self {
            Scalar::F16 => half::f16::from_f64(value.as_f64()).to_le_bytes().to_vec(),
            Scalar::F32 => (value.as_f64() as f32).to_le_bytes().to_vec(),
            Scalar::F64 => value.as_f64().to_le_bytes().to_vec(),
            _ => {
                let v = match value {
                    Value::Int(v) => v,
                    Value::Float(f) => f as i128,
                };
                v.to_le_bytes()[..self.size() as usize].to_vec()
            }
        };
        out.copy_from_slice(&bytes);
    }

    /// The value in `bytes` (exactly [`size`](Self::size) bytes): integers
    /// sign- or zero-extended, floats widened.
    pub fn decode(self, bytes: &[u8]) -> Value {
        let mut b = [0u8; 8];
        b[..bytes.len()].copy_from_slice(bytes);
        let raw = u64::from_le_bytes(b);
        match self {
            Scalar::F16 => Value::Float(half::f16::from_bits(raw as u16).to_f64()),
            Scalar::F32 => Value::Float(f64::from(f32::from_bits(raw as u32))),
            Scalar::F64 => Value::Float(f64::from_bits(raw)),
            _ => Value::Int(self.normalize(i128::from(raw))),
        }
    }

    /// `v` wrapped to the type's range (the value its bits hold): two's
    /// complement truncation, then sign extension for signed types.
    pub fn normalize(self, v: i128) -> i128 {
        let bits = self.bits();
        let mask = (1i128 << bits) - 1;
        let low = v & mask;
        if self.is_signed_int() && low >> (bits - 1) & 1 == 1 {
            low - (1i128 << bits)
        } else {
            low
        }
    }

    /// `v` rounded to the nearest value of a float type (`v` itself for
    /// `double`).
    pub fn round_float(self, v: f64) -> f64 {
        match self {
            Scalar::F16 => half::f16::from_f64(v).to_f64(),
            Scalar::F32 => f64::from(v as f32),
            _ => v,
        }
    }
}

/// One component's value: integers for integer components, floats for
/// float components.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// An integer (hex literals are their bits).
    Int(i128),
    /// A float.
    Float(f64),
}

impl Value {
    /// The value as a float.
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Int(v) => v as f64,
            Value::Float(v) => v,
        }
    }
}

impl fmt::Display for Value {
    /// Integers in decimal, floats in Rust's shortest round-trip form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Float(v) => write!(f, "{v}"),
        }
    }
}

/// The arrangement of components in an element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// One component.
    Scalar,
    /// A vector of `rows` components.
    Vector {
        /// The component count (2, 3 or 4).
        rows: u32,
    },
    /// A column-major matrix.
    Matrix {
        /// Number of columns.
        columns: u32,
        /// Components per column.
        rows: u32,
    },
    /// An image format's components, tightly packed, in memory order.
    Format {
        /// The component count (1 to 4).
        components: u32,
    },
}

/// A buffer's element type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DataType {
    /// The component type.
    pub scalar: Scalar,
    /// The arrangement of components.
    pub shape: Shape,
    /// Written with `[]`: an element of a runtime array (padded to 16 bytes
    /// under `STD140`).
    pub runtime_array: bool,
}

impl DataType {
    /// The number of components (values) in one element.
    pub fn components(&self) -> u32 {
        match self.shape {
            Shape::Scalar => 1,
            Shape::Vector { rows } => rows,
            Shape::Matrix { columns, rows } => columns * rows,
            Shape::Format { components } => components,
        }
    }
}

impl fmt::Display for DataType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.scalar.name();
        match self.shape {
            Shape::Scalar => write!(f, "{s}")?,
            Shape::Vector { rows } => write!(f, "vec{rows}<{s}>")?,
            Shape::Matrix { columns, rows } => write!(f, "mat{columns}x{rows}<{s}>")?,
            Shape::Format { components } => write!(f, "{components} x {s} (format)")?,
        }
        if self.runtime_array {
            f.write_str("[]")?;
        }
        Ok(())
    }
}

/// Why a type name was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeError {
    /// Not a type AmberScript knows.
    Unknown,
    /// A format AmberScript knows that kiln cannot lay out (the reason).
    Unsupported(String),
}

/// Parses a `DATA_TYPE` (or `FORMAT`) name.
pub fn parse_data_type(name: &str) -> Result<DataType, TypeError> {
    let (base, runtime_array) = match name.strip_suffix("[]") {
        Some(base) => (base, true),
        None => (name, false),
    };
    if let Some(scalar) = Scalar::from_name(base) {
        return Ok(DataType {
            scalar,
            shape: Shape::Scalar,
            runtime_array,
        });
    }
    let generic = |prefix: &str| -> Option<(&str, Scalar)> {
        let rest = base.strip_prefix(prefix)?;
        let open = rest.find('<')?;
        let inner = rest[open + 1..].strip_suffix('>')?;
        Some((&rest[..open], Scalar::from_name(inner)?))
    };
    if let Some((dims, scalar)) = generic("vec") {
        if let Ok(rows @ 2..=4) = dims.parse::<u32>() {
            return Ok(DataType {
                scalar,
                shape: Shape::Vector { rows },
                runtime_array,
            });
        }
        return Err(TypeError::Unknown);
    }
    if let Some((dims, scalar)) = generic("mat") {
        let parsed = dims
            .split_once('x')
            .and_then(|(c, r)| Some((c.parse::<u32>().ok()?, r.parse::<u32>().ok()?)));
        if let Some((columns @ 2..=4, rows @ 2..=4)) = parsed {
            return Ok(DataType {
                scalar,
                shape: Shape::Matrix { columns, rows },
                runtime_array,
            });
        }
        return Err(TypeError::Unknown);
    }
    let (scalar, components) = parse_format(base)?;
    Ok(DataType {
        scalar,
        shape: Shape::Format { components },
        runtime_array,
    })
}

/// Whether `part` is a run of format components (`R8G8B8A8`, `D24`).
fn is_component_run(part: &str) -> bool {
    let b = part.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b"RGBAXDS".contains(&b[i]) {
            return false;
        }
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    !b.is_empty()
}

const MODES: [&str; 9] = [
    "UINT", "UNORM", "USCALED", "SRGB", "SINT", "SNORM", "SSCALED", "SFLOAT", "UFLOAT",
];

/// Parses an image-format name into its component type and count.
fn parse_format(name: &str) -> Result<(Scalar, u32), TypeError> {
    let parts: Vec<&str> = name.split('_').collect();
    let is_format = parts.len() >= 2
        && parts.iter().all(|p| {
            MODES.contains(p)
                || is_component_run(p)
                || p.strip_prefix("PACK")
                    .is_some_and(|bits| matches!(bits, "8" | "16" | "32"))
        })
        && is_component_run(parts[0]);
    if !is_format {
        return Err(TypeError::Unknown);
    }
    let unsupported = |why: &str| Err(TypeError::Unsupported(format!("{why} format {name}")));
    if parts.last().is_some_and(|p| p.starts_with("PACK")) {
        return unsupported("packed");
    }
    let (comps, mode) = match parts.as_slice() {
        [comps, mode] if MODES.contains(mode) => (*comps, *mode),
        _ => return unsupported("mixed-component"),
    };
    if comps.contains(['D', 'S', 'X']) {
        return unsupported("depth/stencil");
    }
    let widths: Vec<u32> = comps
        .split(|c: char| c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap_or(0))
        .collect();
    if widths.len() > 4 {
        return Err(TypeError::Unknown);
    }
    let bits = widths[0];
    if widths.iter().any(|&w| w != bits) {
        return unsupported("mixed-width");
    }
    let scalar = match mode {
        "SFLOAT" => Scalar::float(bits),
        "UFLOAT" => None,
        "SINT" | "SNORM" | "SSCALED" => Scalar::int(bits, true),
        _ => Scalar::int(bits, false),
    };
    match scalar {
        Some(s) => Ok((s, widths.len() as u32)),
        None => unsupported(&format!("{bits}-bit {mode}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let t = |n: &str| parse_data_type(n).map(|t| t.to_string());
        assert_eq!(t("float").as_deref(), Ok("float"));
        assert_eq!(t("vec3<int32>").as_deref(), Ok("vec3<int32>"));
        assert_eq!(t("mat2x4<double>[]").as_deref(), Ok("mat2x4<double>[]"));
        assert_eq!(t("R8G8B8A8_UNORM").as_deref(), Ok("4 x uint8 (format)"));
        assert_eq!(t("R32_SFLOAT").as_deref(), Ok("1 x float (format)"));
        assert_eq!(t("B8G8R8A8_SNORM").as_deref(), Ok("4 x int8 (format)"));
        assert_eq!(t("vec5<float>"), Err(TypeError::Unknown));
        assert_eq!(t("mat1x2<float>"), Err(TypeError::Unknown));
        assert_eq!(t("my_struct"), Err(TypeError::Unknown));
        assert!(matches!(
            t("A2B10G10R10_UNORM_PACK32"),
            Err(TypeError::Unsupported(_))
        ));
        assert!(matches!(
            t("D24_UNORM_S8_UINT"),
            Err(TypeError::Unsupported(_))
        ));
        assert!(matches!(t("D32_SFLOAT"), Err(TypeError::Unsupported(_))));
        assert_eq!(
            t("X8_D24_UNORM_PACK32"),
            Err(TypeError::Unsupported(
                "packed format X8_D24_UNORM_PACK32".into()
            ))
        );
        assert_eq!(t("R8_FOO"), Err(TypeError::Unknown));
        assert_eq!(
            t("R12_UNORM"),
            Err(TypeError::Unsupported(
                "12-bit UNORM format R12_UNORM".into()
            ))
        );
    }

    #[test]
    fn encoding_wraps_and_rounds() {
        let enc = |s: Scalar, v: Value| {
            let mut out = vec![0; s.size() as usize];
            s.encode(v, &mut out);
            out
        };
        assert_eq!(enc(Scalar::U8, Value::Int(-1)), [255]);
        assert_eq!(enc(Scalar::I16, Value::Int(0x1_8000)), [0x00, 0x80]);
        assert_eq!(enc(Scalar::F16, Value::Float(1.0)), [0x00, 0x3c]);
        assert_eq!(enc(Scalar::F32, Value::Int(2)), 2.0f32.to_le_bytes());
        assert_eq!(Scalar::I16.decode(&[0x00, 0x80]), Value::Int(-32768));
        assert_eq!(
            Scalar::U64.decode(&[0xff; 8]),
            Value::Int(i128::from(u64::MAX))
        );
        assert_eq!(Scalar::I32.normalize(0xffff_ffff), -1);
        assert_eq!(Scalar::F16.round_float(0.1), 0.0999755859375);
    }
}
