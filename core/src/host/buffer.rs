//! Host allocations: what `memref.alloc` creates in host code.

use super::value::HostValue;
use crate::kernel::{FloatTy, KType};

/// The element type of a host buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    /// `i1`, stored as one byte (0 or 1), as MLIR's host code does.
    I1,
    /// `i8`.
    I8,
    /// `i16`.
    I16,
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// `index`, 64-bit on the host.
    Index,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
}

impl ElemType {
    /// The element type for a kernel scalar type, if the host supports it.
    pub fn from_ktype(ty: &KType) -> Option<ElemType> {
        Some(match ty {
            KType::Int(1) => ElemType::I1,
            KType::Int(8) => ElemType::I8,
            KType::Int(16) => ElemType::I16,
            KType::Int(32) => ElemType::I32,
            KType::Int(64) => ElemType::I64,
            KType::Index => ElemType::Index,
            KType::Float(FloatTy::F32) => ElemType::F32,
            KType::Float(FloatTy::F64) => ElemType::F64,
            _ => return None,
        })
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            ElemType::I1 | ElemType::I8 => 1,
            ElemType::I16 => 2,
            ElemType::I32 | ElemType::F32 => 4,
            ElemType::I64 | ElemType::Index | ElemType::F64 => 8,
        }
    }

    /// The integer width, for integer and index elements.
    pub fn int_bits(self) -> Option<u32> {
        match self {
            ElemType::I1 => Some(1),
            ElemType::I8 => Some(8),
            ElemType::I16 => Some(16),
            ElemType::I32 => Some(32),
            ElemType::I64 | ElemType::Index => Some(64),
            ElemType::F32 | ElemType::F64 => None,
        }
    }
}

/// One host allocation: a statically shaped, row-major, contiguous memref.
#[derive(Clone, Debug, PartialEq)]
pub struct HostBuffer {
    elem: ElemType,
    shape: Vec<u64>,
    data: Vec<u8>,
}

impl HostBuffer {
    /// A zero-filled buffer of `shape`; an error when its byte size
    /// overflows or the host cannot hold it (checked against the host's
    /// limit, then allocated fallibly: a 400 GB `memref.alloc` is an
    /// error, not an abort).
    pub fn zeroed(
        elem: ElemType,
        shape: &[u64],
    ) -> Result<HostBuffer, crate::host_memory::HostAllocError> {
        use crate::host_memory::{check, element_count, filled, HostAllocError};
        let count = element_count(shape.iter().copied()).ok_or(HostAllocError::Overflow)?;
        let bytes = check(count, elem.size() as u64)?;
        let bytes = usize::try_from(bytes).map_err(|_| HostAllocError::Overflow)?;
        Ok(HostBuffer {
            elem,
            shape: shape.to_vec(),
            data: filled(0, bytes)?,
        })
    }

    /// A buffer of no elements (`memref<0xi8>`).
    pub fn empty() -> HostBuffer {
        HostBuffer {
            elem: ElemType::I8,
            shape: vec![0],
            data: Vec::new(),
        }
    }

    /// The element type.
    pub fn elem(&self) -> ElemType {
        self.elem
    }

    /// The shape.
    pub fn shape(&self) -> &[u64] {
        &self.shape
    }

    /// Row-major strides, in elements.
    pub fn strides(&self) -> Vec<u64> {
        let mut strides = vec![1u64; self.shape.len()];
        for i in (0..self.shape.len().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * self.shape[i + 1];
        }
        strides
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.data.len() / self.elem.size()
    }

    /// Whether the buffer has no elements.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The bytes, row-major, little-endian elements.
    pub fn bytes(&self) -> &[u8] {
        &self.data
    }

    /// The bytes, mutably (a launcher copies results back through this).
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.data
    }

    /// The linear position of `index`, or None when out of bounds.
    pub fn linear(&self, index: &[i64]) -> Option<usize> {
        if index.len() != self.shape.len() {
            return None;
        }
        let mut at = 0u64;
        for (&i, &d) in index.iter().zip(&self.shape) {
            let i = u64::try_from(i).ok().filter(|&i| i < d)?;
            at = at * d + i;
        }
        usize::try_from(at).ok()
    }

    /// The element at linear position `at` (None when out of bounds).
    pub fn get(&self, at: usize) -> Option<HostValue> {
        let size = self.elem.size();
        let bytes = self.data.get(at * size..at * size + size)?;
        let mut raw = [0u8; 8];
        raw[..size].copy_from_slice(bytes);
        let raw = u64::from_le_bytes(raw);
        Some(match self.elem {
            ElemType::F32 => HostValue::Float {
                ty: FloatTy::F32,
                value: f64::from(f32::from_bits(raw as u32)),
            },
            ElemType::F64 => HostValue::Float {
                ty: FloatTy::F64,
                value: f64::from_bits(raw),
            },
            e => HostValue::int(e.int_bits().unwrap_or(64), raw),
        })
    }

    /// Stores `value` at linear position `at`; false when out of bounds or
    /// when the value does not fit the element type.
    pub fn set(&mut self, at: usize, value: &HostValue) -> bool {
        let size = self.elem.size();
        let raw = match (self.elem, value) {
            (ElemType::F32, HostValue::Float { value, .. }) => u64::from((*value as f32).to_bits()),
            (ElemType::F64, HostValue::Float { value, .. }) => value.to_bits(),
            (e, HostValue::Int { bits, raw }) if e.int_bits() == Some(*bits) => *raw,
            _ => return false,
        };
        match self.data.get_mut(at * size..at * size + size) {
            Some(slot) => {
                slot.copy_from_slice(&raw.to_le_bytes()[..size]);
                true
            }
            None => false,
        }
    }
}
