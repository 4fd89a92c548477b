//! Element types and the host types that carry them.
//!
//! Tensors are tightly packed arrays of one [`DType`]; `bool` is one byte
//! (0 or 1), `f16` and `bf16` are [`half`]'s types. Host data moves as bytes
//! through [`Element`] (`bytemuck` for the plain-old-data types).

use std::fmt;

use half::{bf16, f16};

/// A tensor's element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// 32-bit float.
    F32,
    /// IEEE 754 half precision.
    F16,
    /// bfloat16.
    BF16,
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
    /// 32-bit unsigned integer.
    U32,
    /// Boolean, one byte (0 or 1).
    Bool,
}

impl DType {
    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            Self::I8 | Self::U8 | Self::Bool => 1,
            Self::F16 | Self::BF16 | Self::I16 => 2,
            Self::F32 | Self::I32 | Self::U32 => 4,
            Self::I64 => 8,
        }
    }

    /// The MLIR-style name (`f32`, `i8`, `ui32`, `i1` for bool).
    pub fn name(self) -> &'static str {
        match self {
            Self::F32 => "f32",
            Self::F16 => "f16",
            Self::BF16 => "bf16",
            Self::I8 => "i8",
            Self::I16 => "i16",
            Self::I32 => "i32",
            Self::I64 => "i64",
            Self::U8 => "ui8",
            Self::U32 => "ui32",
            Self::Bool => "i1",
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A host type holding one tensor element.
pub trait Element: Copy + Send + Sync + 'static {
    /// The tensor element type it carries.
    const DTYPE: DType;
    /// The bytes of `data`, as a tensor stores them.
    fn as_bytes(data: &[Self]) -> &[u8];
    /// Elements from bytes a tensor stored (`bytes.len()` a multiple of the
    /// element size).
    fn from_bytes(bytes: &[u8]) -> Vec<Self>;
    /// `n` elements whose stored bytes `fill` writes, without an extra copy
    /// where the host type is plain old data.
    fn read_with<E>(
        n: usize,
        fill: &mut dyn FnMut(&mut [u8]) -> Result<(), E>,
    ) -> Result<Vec<Self>, E>;
    /// Fills `out` with elements whose stored bytes `fill` writes, without
    /// an extra copy where the host type is plain old data.
    fn read_into<E>(
        out: &mut [Self],
        fill: &mut dyn FnMut(&mut [u8]) -> Result<(), E>,
    ) -> Result<(), E>;
}

macro_rules! pod_element {
    ($($t:ty => $d:ident),* $(,)?) => {$(
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            fn as_bytes(data: &[Self]) -> &[u8] {
                bytemuck::cast_slice(data)
            }
            fn from_bytes(bytes: &[u8]) -> Vec<Self> {
                // Copy first: `bytes` need not be aligned for `Self`.
                let n = bytes.len() / std::mem::size_of::<$t>();
                let mut out = vec![<$t as bytemuck::Zeroable>::zeroed(); n];
                bytemuck::cast_slice_mut::<$t, u8>(&mut out)
                    .copy_from_slice(&bytes[..n * std::mem::size_of::<$t>()]);
                out
            }
            fn read_with<E>(
                n: usize,
                fill: &mut dyn FnMut(&mut [u8]) -> Result<(), E>,
            ) -> Result<Vec<Self>, E> {
                let mut out = vec![<$t as bytemuck::Zeroable>::zeroed(); n];
                fill(bytemuck::cast_slice_mut(&mut out))?;
                Ok(out)
            }
            fn read_into<E>(
                out: &mut [Self],
                fill: &mut dyn FnMut(&mut [u8]) -> Result<(), E>,
            ) -> Result<(), E> {
                fill(bytemuck::cast_slice_mut(out))
            }
        }
    )*};
}

pod_element!(f32 => F32, f16 => F16, bf16 => BF16, i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u32 => U32);

impl Element for bool {
    const DTYPE: DType = DType::Bool;
    fn as_bytes(data: &[Self]) -> &[u8] {
        bytemuck::cast_slice(data)
    }
    fn from_bytes(bytes: &[u8]) -> Vec<Self> {
        bytes.iter().map(|&b| b != 0).collect()
    }
    fn read_with<E>(
        n: usize,
        fill: &mut dyn FnMut(&mut [u8]) -> Result<(), E>,
    ) -> Result<Vec<Self>, E> {
        let mut bytes = vec![0u8; n];
        fill(&mut bytes)?;
        Ok(Self::from_bytes(&bytes))
    }
    fn read_into<E>(
        out: &mut [Self],
        fill: &mut dyn FnMut(&mut [u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut bytes = vec![0u8; out.len()];
        fill(&mut bytes)?;
        for (o, b) in out.iter_mut().zip(bytes) {
            *o = b != 0;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip() {
        let x = [1.5f32, -2.0];
        assert_eq!(f32::from_bytes(f32::as_bytes(&x)), x);
        let h = [f16::from_f32(0.5), f16::from_f32(-3.0)];
        assert_eq!(f16::as_bytes(&h), &[0x00, 0x38, 0x00, 0xc2]);
        assert_eq!(bool::as_bytes(&[true, false]), &[1, 0]);
        assert_eq!(bool::from_bytes(&[0, 1, 7]), vec![false, true, true]);
        assert_eq!(i64::from_bytes(&[1, 0, 0, 0, 0, 0, 0, 0, 9]), vec![1]);
        assert_eq!(DType::BF16.size(), 2);
        assert_eq!(DType::I64.to_string(), "i64");
    }
}
