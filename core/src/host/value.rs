//! SSA values of host code.

use crate::kernel::{FloatTy, KType};

/// A host value.
#[derive(Clone, Debug, PartialEq)]
pub enum HostValue {
    /// An integer (`iN`, or `index` as 64 bits): the low `bits` bits of
    /// `raw`, the rest zero.
    Int {
        /// Width in bits (1..=64).
        bits: u32,
        /// The bits.
        raw: u64,
    },
    /// A float; an `f32` holds exactly an `f32` value.
    Float {
        /// The format.
        ty: FloatTy,
        /// The value.
        value: f64,
    },
    /// A vector of scalars.
    Vector(Vec<HostValue>),
    /// A memref: which host buffer it views.
    MemRef(usize),
}

/// The mask of the low `bits` bits.
pub(crate) fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

impl HostValue {
    /// An integer of `bits` bits from (truncated) `raw`.
    pub fn int(bits: u32, raw: u64) -> HostValue {
        HostValue::Int {
            bits,
            raw: raw & mask(bits),
        }
    }

    /// An `index` value.
    pub fn index(v: i64) -> HostValue {
        HostValue::int(64, v as u64)
    }

    /// A float of type `ty`, rounded to it.
    pub fn float(ty: FloatTy, value: f64) -> HostValue {
        let value = match ty {
            FloatTy::F32 | FloatTy::F16 | FloatTy::BF16 => f64::from(value as f32),
            FloatTy::F64 => value,
        };
        HostValue::Float { ty, value }
    }

    /// The integer sign-extended from its width.
    pub fn as_signed(&self) -> Option<i64> {
        match *self {
            HostValue::Int { bits, raw } => {
                let shift = 64 - bits.min(64);
                Some(((raw << shift) as i64) >> shift)
            }
            _ => None,
        }
    }

    /// The integer zero-extended.
    pub fn as_unsigned(&self) -> Option<u64> {
        match *self {
            HostValue::Int { raw, .. } => Some(raw),
            _ => None,
        }
    }

    /// The float value.
    pub fn as_float(&self) -> Option<f64> {
        match *self {
            HostValue::Float { value, .. } => Some(value),
            _ => None,
        }
    }

    /// The memref's buffer.
    pub fn as_memref(&self) -> Option<usize> {
        match *self {
            HostValue::MemRef(b) => Some(b),
            _ => None,
        }
    }

    /// A zero of scalar type `ty` (None for non-scalars).
    pub fn zero_of(ty: &KType) -> Option<HostValue> {
        match ty {
            KType::Int(bits) if (1..=64).contains(bits) => Some(HostValue::int(*bits, 0)),
            KType::Index => Some(HostValue::index(0)),
            KType::Float(f) => Some(HostValue::float(*f, 0.0)),
            _ => None,
        }
    }
}
