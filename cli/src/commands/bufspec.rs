//! The little languages of `kiln run-spv`: buffer specs, binding references,
//! grids, and how buffer contents are printed.
//!
//! ```text
//! --buf   SET:BINDING=TYPE[N]=INIT     a buffer of N elements of TYPE
//! --push  TYPE[N]=INIT                 push-constant bytes, appended in order
//! --print SET:BINDING                  print a buffer after the dispatch
//! --grid  X[,Y[,Z]]                    workgroups per dimension (missing = 1)
//! ```
//!
//! TYPE is one of `f16 f32 f64 i8 i16 i32 i64 u8 u16 u32 u64`. INIT is
//! - a number: every element gets it (`0`, `-3`, `1.5`, `0x1f`, `inf`, `nan`);
//! - a list `[v0, v1, ...]`: exactly N values (a one-element list `[v]`
//!   fills, like a bare number);
//! - `iota`: 0, 1, 2, ... (an error if a value does not fit the type);
//! - `@path`: the raw little-endian bytes of a file, exactly N × size bytes.
//!
//! `[N]` may be left out when INIT says the length (a list, a file) or is a
//! single number (N = 1); `=INIT` may be left out to zero the buffer.
//! Integers must fit their type exactly (no wrapping); floats are rounded to
//! the nearest value of their type. Printed floats use Rust's shortest
//! round-trip `Display` (`1.5`, `2`, `NaN`, `inf`), integers print as
//! integers, so printed lists parse back as INIT lists.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use anyhow::{anyhow, bail, Context, Result};

/// An element type of a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElemType {
    /// IEEE binary16.
    F16,
    /// IEEE binary32.
    F32,
    /// IEEE binary64.
    F64,
    /// Signed 8-bit integer.
    I8,
    /// Signed 16-bit integer.
    I16,
    /// Signed 32-bit integer.
    I32,
    /// Signed 64-bit integer.
    I64,
    /// Unsigned 8-bit integer.
    U8,
    /// Unsigned 16-bit integer.
    U16,
    /// Unsigned 32-bit integer.
    U32,
    /// Unsigned 64-bit integer.
    U64,
}

impl ElemType {
    const ALL: [ElemType; 11] = [
        Self::F16,
        Self::F32,
        Self::F64,
        Self::I8,
        Self::I16,
        Self::I32,
        Self::I64,
        Self::U8,
        Self::U16,
        Self::U32,
        Self::U64,
    ];

    /// The type's name as written in specs.
    pub fn name(self) -> &'static str {
        match self {
            Self::F16 => "f16",
            Self::F32 => "f32",
            Self::F64 => "f64",
            Self::I8 => "i8",
            Self::I16 => "i16",
            Self::I32 => "i32",
            Self::I64 => "i64",
            Self::U8 => "u8",
            Self::U16 => "u16",
            Self::U32 => "u32",
            Self::U64 => "u64",
        }
    }

    /// The size of one element in bytes.
    pub fn size(self) -> usize {
        match self {
            Self::I8 | Self::U8 => 1,
            Self::F16 | Self::I16 | Self::U16 => 2,
            Self::F32 | Self::I32 | Self::U32 => 4,
            Self::F64 | Self::I64 | Self::U64 => 8,
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Self::F16 | Self::F32 | Self::F64)
    }

    /// The inclusive range of an integer type.
    fn int_range(self) -> (i128, i128) {
        match self {
            Self::I8 => (i8::MIN.into(), i8::MAX.into()),
            Self::I16 => (i16::MIN.into(), i16::MAX.into()),
            Self::I32 => (i32::MIN.into(), i32::MAX.into()),
            Self::I64 => (i64::MIN.into(), i64::MAX.into()),
            Self::U8 => (0, u8::MAX.into()),
            Self::U16 => (0, u16::MAX.into()),
            Self::U32 => (0, u32::MAX.into()),
            Self::U64 => (0, u64::MAX.into()),
            Self::F16 | Self::F32 | Self::F64 => (0, 0),
        }
    }

    /// Appends the little-endian encoding of the number `text` to `out`.
    fn encode(self, text: &str, out: &mut Vec<u8>) -> Result<()> {
        let text = text.trim();
        match self {
            Self::F16 => {
                let v = parse_float(text, self)?;
                out.extend_from_slice(&half::f16::from_f64(v).to_le_bytes());
            }
            Self::F32 => {
                // Parse as f32 directly: one rounding, not two.
                let v: f32 = text
                    .parse()
                    .map_err(|_| anyhow!("'{text}' is not a number of type f32"))?;
                out.extend_from_slice(&v.to_le_bytes());
            }
            Self::F64 => out.extend_from_slice(&parse_float(text, self)?.to_le_bytes()),
            _ => {
                let v = parse_int(text, self)?;
                self.encode_int(v, out);
            }
        }
        Ok(())
    }

    /// Appends an integer already known to fit.
    fn encode_int(self, v: i128, out: &mut Vec<u8>) {
        let bytes = v.to_le_bytes();
        out.extend_from_slice(&bytes[..self.size()]);
    }

    /// Appends element `i` of `iota`.
    fn encode_index(self, i: usize, out: &mut Vec<u8>) -> Result<()> {
        if self.is_float() {
            return self.encode(&i.to_string(), out);
        }
        let (_, max) = self.int_range();
        let v = i as i128;
        if v > max {
            bail!("iota value {i} does not fit in {} (max {max})", self.name());
        }
        self.encode_int(v, out);
        Ok(())
    }

    /// Formats one element from its little-endian bytes.
    fn format(self, b: &[u8]) -> String {
        macro_rules! le {
            ($t:ty) => {
                <$t>::from_le_bytes(b.try_into().expect("element-sized chunk")).to_string()
            };
        }
        match self {
            Self::F16 => half::f16::from_le_bytes([b[0], b[1]]).to_f32().to_string(),
            Self::F32 => le!(f32),
            Self::F64 => le!(f64),
            Self::I8 => le!(i8),
            Self::I16 => le!(i16),
            Self::I32 => le!(i32),
            Self::I64 => le!(i64),
            Self::U8 => le!(u8),
            Self::U16 => le!(u16),
            Self::U32 => le!(u32),
            Self::U64 => le!(u64),
        }
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ElemType {
    type Err = anyhow::Error;

    fn from_str(s: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|t| t.name()).collect();
                anyhow!("unknown type '{s}' (expected one of {})", names.join(", "))
            })
    }
}

fn parse_float(text: &str, ty: ElemType) -> Result<f64> {
    text.parse::<f64>()
        .map_err(|_| anyhow!("'{text}' is not a number of type {ty}"))
}

/// Parses a decimal, `0x` hex or `0b` binary integer (with optional sign)
/// and checks it fits `ty`.
fn parse_int(text: &str, ty: ElemType) -> Result<i128> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (radix, digits) = if let Some(h) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        (16, h)
    } else if let Some(b) = digits
        .strip_prefix("0b")
        .or_else(|| digits.strip_prefix("0B"))
    {
        (2, b)
    } else {
        (10, digits)
    };
    let not_int = || anyhow!("'{text}' is not an integer of type {ty}");
    if digits.is_empty() || digits.starts_with(['+', '-']) {
        return Err(not_int());
    }
    let magnitude = i128::from_str_radix(digits, radix).map_err(|_| not_int())?;
    let v = if neg { -magnitude } else { magnitude };
    let (min, max) = ty.int_range();
    if v < min || v > max {
        bail!("{text} does not fit in {ty} ({min}..={max})");
    }
    Ok(v)
}

/// How a buffer's elements are initialized.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Init {
    /// Every element is zero (no `=INIT`).
    Zero,
    /// Every element is this number.
    Fill(String),
    /// Exactly these values.
    List(Vec<String>),
    /// 0, 1, 2, ...
    Iota,
    /// The raw bytes of this file.
    File(PathBuf),
}

impl Init {
    fn parse(s: &str) -> Result<Self> {
        let s = s.trim();
        if let Some(inner) = s.strip_prefix('[') {
            let inner = inner
                .strip_suffix(']')
                .ok_or_else(|| anyhow!("list '{s}' has no closing ']'"))?;
            if inner.trim().is_empty() {
                return Ok(Self::List(Vec::new()));
            }
            let items: Vec<String> = inner.split(',').map(|v| v.trim().to_owned()).collect();
            if let Some(pos) = items.iter().position(String::is_empty) {
                bail!("list '{s}' has an empty value at position {pos}");
            }
            Ok(Self::List(items))
        } else if s == "iota" {
            Ok(Self::Iota)
        } else if let Some(path) = s.strip_prefix('@') {
            if path.is_empty() {
                bail!("'@' needs a file name");
            }
            Ok(Self::File(PathBuf::from(path)))
        } else if s.is_empty() {
            bail!("empty initializer (use a number, [v0, v1, ...], iota or @file)")
        } else {
            Ok(Self::Fill(s.to_owned()))
        }
    }
}

/// `TYPE[N]=INIT`: typed values, as for a buffer or push constants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueSpec {
    /// The element type.
    pub ty: ElemType,
    /// The element count, when written.
    pub len: Option<usize>,
    /// The initializer.
    pub init: Init,
}

impl FromStr for ValueSpec {
    type Err = anyhow::Error;

    fn from_str(s: &str) -> Result<Self> {
        let (ty_len, init) = match s.split_once('=') {
            Some((t, i)) => (t.trim(), Init::parse(i)?),
            None => (s.trim(), Init::Zero),
        };
        let (ty, len) = match ty_len.split_once('[') {
            Some((ty, rest)) => {
                let n = rest
                    .strip_suffix(']')
                    .ok_or_else(|| anyhow!("'{ty_len}': expected TYPE[N]"))?
                    .trim();
                let n: usize = n
                    .parse()
                    .map_err(|_| anyhow!("'{ty_len}': element count '{n}' is not a number"))?;
                (ty.trim(), Some(n))
            }
            None => (ty_len, None),
        };
        let ty: ElemType = ty.parse()?;
        if len == Some(0) {
            bail!("'{ty_len}': the element count must be at least 1");
        }
        if let Some(n) = len {
            if n.checked_mul(ty.size())
                .is_none_or(|b| b > isize::MAX as usize)
            {
                bail!("'{ty_len}': {n} elements do not fit in memory");
            }
        }
        if len.is_none() && matches!(init, Init::Zero | Init::Iota) {
            bail!("{ty} needs an element count, as in {ty}[N]");
        }
        if let (Some(n), Init::List(items)) = (len, &init) {
            // A one-element list fills, like a bare number.
            if items.len() != n && items.len() != 1 {
                bail!("{ty}[{n}] needs {n} values, the list has {}", items.len());
            }
        }
        if let (None, Init::List(items)) = (len, &init) {
            if items.is_empty() {
                bail!("the list is empty");
            }
        }
        Ok(Self { ty, len, init })
    }
}

impl ValueSpec {
    /// The element count: written, or implied by the initializer (a file's
    /// length is only known when it is read, so this is `None` then).
    pub fn known_len(&self) -> Option<usize> {
        match (&self.len, &self.init) {
            (Some(n), _) => Some(*n),
            (None, Init::List(items)) => Some(items.len()),
            (None, Init::Fill(_)) => Some(1),
            _ => None,
        }
    }

    /// The little-endian bytes the spec describes (reads `@file`s).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let size = self.ty.size();
        if let Init::File(path) = &self.init {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            match self.len {
                Some(n) if bytes.len() != n * size => bail!(
                    "{} has {} bytes, but {}[{n}] needs {}",
                    path.display(),
                    bytes.len(),
                    self.ty,
                    n * size
                ),
                None if bytes.is_empty() || bytes.len() % size != 0 => bail!(
                    "{} has {} bytes, which is not a positive multiple of {} ({} bytes)",
                    path.display(),
                    bytes.len(),
                    self.ty,
                    size
                ),
                _ => return Ok(bytes),
            }
        }
        let n = self
            .known_len()
            .expect("every initializer but @file knows its length after parsing");
        // The size was checked against isize::MAX when parsing; the memory
        // may still not be there, which is an error, not an abort.
        let mut out = Vec::new();
        out.try_reserve_exact(n * size).map_err(|_| {
            anyhow!(
                "cannot allocate {} bytes for {n} {} elements",
                n * size,
                self.ty
            )
        })?;
        match &self.init {
            Init::Zero => out.resize(n * size, 0),
            Init::Fill(v) => {
                let mut one = Vec::with_capacity(size);
                self.ty.encode(v, &mut one)?;
                for _ in 0..n {
                    out.extend_from_slice(&one);
                }
            }
            Init::List(items) if items.len() == 1 && n > 1 => {
                let mut one = Vec::with_capacity(size);
                self.ty.encode(&items[0], &mut one)?;
                for _ in 0..n {
                    out.extend_from_slice(&one);
                }
            }
            Init::List(items) => {
                for (i, v) in items.iter().enumerate() {
                    self.ty
                        .encode(v, &mut out)
                        .with_context(|| format!("value {i} of the list"))?;
                }
            }
            Init::Iota => {
                for i in 0..n {
                    self.ty.encode_index(i, &mut out)?;
                }
            }
            Init::File(_) => unreachable!("handled above"),
        }
        Ok(out)
    }
}

/// `SET:BINDING`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BindingRef {
    /// The descriptor set.
    pub set: u32,
    /// The binding within the set.
    pub binding: u32,
}

impl FromStr for BindingRef {
    type Err = anyhow::Error;

    fn from_str(s: &str) -> Result<Self> {
        let (set, binding) = s
            .split_once(':')
            .ok_or_else(|| anyhow!("'{s}' is not SET:BINDING"))?;
        let num = |t: &str, what: &str| {
            t.trim()
                .parse::<u32>()
                .map_err(|_| anyhow!("'{s}': {what} '{}' is not a number", t.trim()))
        };
        Ok(Self {
            set: num(set, "set")?,
            binding: num(binding, "binding")?,
        })
    }
}

impl fmt::Display for BindingRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.set, self.binding)
    }
}

/// `SET:BINDING=TYPE[N]=INIT`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufSpec {
    /// Where the buffer is bound.
    pub at: BindingRef,
    /// Its contents.
    pub values: ValueSpec,
}

impl FromStr for BufSpec {
    type Err = anyhow::Error;

    fn from_str(s: &str) -> Result<Self> {
        let (at, values) = s
            .split_once('=')
            .ok_or_else(|| anyhow!("'{s}' is not SET:BINDING=TYPE[N]=INIT"))?;
        Ok(Self {
            at: at.parse()?,
            values: values.parse()?,
        })
    }
}

/// `X[,Y[,Z]]`: workgroups per dimension; missing dimensions are 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid(pub [u32; 3]);

impl FromStr for Grid {
    type Err = anyhow::Error;

    fn from_str(s: &str) -> Result<Self> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        if parts.len() > 3 {
            bail!("grid '{s}' has more than 3 dimensions");
        }
        let mut grid = [1u32; 3];
        for (slot, p) in grid.iter_mut().zip(&parts) {
            *slot = p
                .parse()
                .map_err(|_| anyhow!("grid '{s}': '{p}' is not a workgroup count"))?;
        }
        Ok(Self(grid))
    }
}

/// `[v0, v1, ...]`: the elements of `bytes` as `ty` (a trailing partial
/// element is left out).
pub fn format_values(ty: ElemType, bytes: &[u8]) -> String {
    let items: Vec<String> = bytes
        .chunks_exact(ty.size())
        .map(|c| ty.format(c))
        .collect();
    format!("[{}]", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(spec: &str) -> Vec<u8> {
        spec.parse::<ValueSpec>().unwrap().to_bytes().unwrap()
    }

    #[test]
    fn huge_count_is_an_error() {
        assert_eq!(
            err("u64[2305843009213693952]"),
            "'u64[2305843009213693952]': 2305843009213693952 elements do not fit in memory"
        );
    }

    fn err(spec: &str) -> String {
        match spec.parse::<ValueSpec>().and_then(|v| v.to_bytes()) {
            Ok(b) => panic!("'{spec}' parsed to {b:?}"),
            Err(e) => format!("{e:#}"),
        }
    }

    #[test]
    fn buf_spec_parses() {
        let b: BufSpec = "0:2=f32[4]=[1, 2.5, -3, 4]".parse().unwrap();
        assert_eq!(b.at, BindingRef { set: 0, binding: 2 });
        assert_eq!(b.values.ty, ElemType::F32);
        assert_eq!(b.values.len, Some(4));
        assert_eq!(
            b.values.init,
            Init::List(vec!["1".into(), "2.5".into(), "-3".into(), "4".into()])
        );
        let b: BufSpec = " 1 : 7 =u8[3]".parse().unwrap();
        assert_eq!(b.at, BindingRef { set: 1, binding: 7 });
        assert_eq!(b.values.init, Init::Zero);
        let b: BufSpec = "0:0=i32[2]=@data.bin".parse().unwrap();
        assert_eq!(b.values.init, Init::File("data.bin".into()));
    }

    #[test]
    fn encodings() {
        assert_eq!(
            bytes("f32[2]=1.5"),
            [1.5f32.to_le_bytes(), 1.5f32.to_le_bytes()].concat()
        );
        assert_eq!(bytes("u8[4]=iota"), vec![0, 1, 2, 3]);
        assert_eq!(bytes("i16[2]=[-1, 0x7fff]"), vec![0xff, 0xff, 0xff, 0x7f]);
        assert_eq!(bytes("u32=7"), 7u32.to_le_bytes().to_vec());
        assert_eq!(bytes("u64[1]=18446744073709551615"), vec![0xff; 8]);
        assert_eq!(
            bytes("i64[1]=-9223372036854775808"),
            i64::MIN.to_le_bytes().to_vec()
        );
        assert_eq!(bytes("f16[2]=[1, -2]"), vec![0x00, 0x3c, 0x00, 0xc0]);
        assert_eq!(
            bytes("f64[2]=iota"),
            [0f64.to_le_bytes(), 1f64.to_le_bytes()].concat()
        );
        assert_eq!(bytes("u16[3]"), vec![0; 6]);
        assert_eq!(bytes("i8[1]=0b101"), vec![5]);
        assert_eq!(bytes("f32=[inf]"), f32::INFINITY.to_le_bytes().to_vec());
        assert_eq!(bytes("i8[3]=[-3]"), vec![0xfd; 3]);
    }

    #[test]
    fn bad_specs_are_errors() {
        assert_eq!(
            err("f33[4]=1"),
            "unknown type 'f33' (expected one of f16, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64)"
        );
        assert_eq!(
            err("f32[3]=[1, 2]"),
            "f32[3] needs 3 values, the list has 2"
        );
        assert_eq!(err("u8[1]=256"), "256 does not fit in u8 (0..=255)");
        assert_eq!(err("u32[1]=-1"), "-1 does not fit in u32 (0..=4294967295)");
        assert_eq!(
            err("i32[2]=[1, x]"),
            "value 1 of the list: 'x' is not an integer of type i32"
        );
        assert_eq!(err("i32[1]=1.5"), "'1.5' is not an integer of type i32");
        assert_eq!(err("f32[1]=abc"), "'abc' is not a number of type f32");
        assert_eq!(
            err("u8[300]=iota"),
            "iota value 256 does not fit in u8 (max 255)"
        );
        assert_eq!(
            err("f32[0]=1"),
            "'f32[0]': the element count must be at least 1"
        );
        assert_eq!(err("f32=iota"), "f32 needs an element count, as in f32[N]");
        assert_eq!(err("f32[2=1"), "'f32[2': expected TYPE[N]");
        assert_eq!(
            err("f32[two]=1"),
            "'f32[two]': element count 'two' is not a number"
        );
        assert_eq!(err("f32[2]=[1, 2"), "list '[1, 2' has no closing ']'");
        assert_eq!(
            err("f32[2]=[1,,2]"),
            "list '[1,,2]' has an empty value at position 1"
        );
        assert_eq!(
            err("f32[2]="),
            "empty initializer (use a number, [v0, v1, ...], iota or @file)"
        );
        assert_eq!(err("i8[1]=--1"), "'--1' is not an integer of type i8");
        assert!("0=f32[1]".parse::<BufSpec>().is_err());
        assert!("a:0=f32[1]".parse::<BufSpec>().is_err());
        assert!("0:0".parse::<BufSpec>().is_err());
    }

    #[test]
    fn file_initializers() {
        let dir = std::env::temp_dir().join(format!("kiln-bufspec-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("four.bin");
        std::fs::write(&path, [1u8, 0, 0, 0, 2, 0, 0, 0]).unwrap();
        let p = path.display();
        assert_eq!(bytes(&format!("u32[2]=@{p}")), vec![1, 0, 0, 0, 2, 0, 0, 0]);
        assert_eq!(bytes(&format!("u16=@{p}")).len(), 8);
        assert_eq!(
            err(&format!("u32[3]=@{p}")),
            format!("{p} has 8 bytes, but u32[3] needs 12")
        );
        let odd = dir.join("six.bin");
        std::fs::write(&odd, [0u8; 6]).unwrap();
        let o = odd.display();
        assert_eq!(
            err(&format!("u32=@{o}")),
            format!("{o} has 6 bytes, which is not a positive multiple of u32 (4 bytes)")
        );
        assert!(err(&format!("u32[2]=@{p}.missing")).starts_with("cannot read"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn binding_refs_and_grids() {
        assert_eq!(
            "2:3".parse::<BindingRef>().unwrap(),
            BindingRef { set: 2, binding: 3 }
        );
        assert_eq!(
            format!("{:#}", "2".parse::<BindingRef>().unwrap_err()),
            "'2' is not SET:BINDING"
        );
        assert_eq!("4".parse::<Grid>().unwrap(), Grid([4, 1, 1]));
        assert_eq!("4, 2".parse::<Grid>().unwrap(), Grid([4, 2, 1]));
        assert_eq!("4,2,3".parse::<Grid>().unwrap(), Grid([4, 2, 3]));
        assert!("1,2,3,4".parse::<Grid>().is_err());
        assert!("-1".parse::<Grid>().is_err());
        assert!("".parse::<Grid>().is_err());
    }

    #[test]
    fn formatting() {
        let f = [1.5f32, 2.0, -0.25]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect::<Vec<_>>();
        assert_eq!(format_values(ElemType::F32, &f), "[1.5, 2, -0.25]");
        let f = [0.1f64]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect::<Vec<_>>();
        assert_eq!(format_values(ElemType::F64, &f), "[0.1]");
        assert_eq!(format_values(ElemType::F16, &[0x00, 0x3e]), "[1.5]");
        assert_eq!(format_values(ElemType::I8, &[0xff, 0x7f]), "[-1, 127]");
        assert_eq!(format_values(ElemType::U16, &[0xff, 0xff]), "[65535]");
        assert_eq!(
            format_values(ElemType::F32, &f32::NAN.to_le_bytes()),
            "[NaN]"
        );
        // Printed lists parse back.
        let printed = format_values(ElemType::F32, &bytes("f32[3]=[0.1, -7, 1e-3]"));
        assert_eq!(
            bytes(&format!("f32[3]={printed}")),
            bytes("f32[3]=[0.1, -7, 1e-3]")
        );
    }
}
