//! How each element type is held in memory and in registers for a target
//! env: natively, or emulated where the env lacks a capability (as the
//! memref-level lowering emulates 8- and 16-bit integers in 32-bit words),
//! or an error naming the type and the missing capability.

use crate::grammar::Capability;
use crate::ir::Location;
use crate::tensor::types::ElemType;

use super::super::error::CodegenError;
use super::super::target::CodegenTarget;

/// How an element type is held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum TypeRepr {
    /// As itself.
    Native,
    /// An 8/16-bit integer without the matching `Int8`/`Int16` (or 8/16-bit
    /// storage) capability: computed in 32 bits and packed into 32-bit
    /// words in memory by the lowering.
    Emulated32,
    /// `f16` stored natively (`Float16`, 16-bit storage), computed in f32
    /// and rounded to f16 after every op.
    F16Storage,
    /// `f16` without `Float16`: its bits stored as `i16`, converted to and
    /// from f32 with integer operations, rounded to nearest even after
    /// every op.
    F16Bits,
    /// `bf16`: its bits stored as `i16`, computed in f32 and rounded to
    /// nearest even after every op.
    BF16Bits,
    /// `i1` stored one byte per element.
    BoolBytes,
    /// `i64` without `Int64`: two 32-bit words (low, high), computed with
    /// 32-bit operations (carries, cross products, long division).
    I64Pair,
}

impl TypeRepr {
    /// A short description for `--explain`.
    pub fn describe(self) -> &'static str {
        match self {
            TypeRepr::Native => "native",
            TypeRepr::Emulated32 => "emulated in 32-bit words",
            TypeRepr::F16Storage => "f16 storage (Float16), computed in f32",
            TypeRepr::F16Bits => "emulated: i16 bits, computed in f32 (no Float16)",
            TypeRepr::BF16Bits => "i16 bits, computed in f32",
            TypeRepr::BoolBytes => "one byte per element",
            TypeRepr::I64Pair => "emulated: two i32 words (no Int64)",
        }
    }
}

/// How each of `elems` is held on `target`; an error names a type the
/// target cannot handle and what it lacks.
pub fn type_reprs(
    target: &CodegenTarget,
    elems: &[ElemType],
    loc: Location,
) -> Result<Vec<(ElemType, TypeRepr)>, CodegenError> {
    let mut out = Vec::new();
    for &e in elems {
        if out.iter().any(|(x, _)| *x == e) {
            continue;
        }
        let missing = |cap: Capability, what: &str| CodegenError::MissingCapability {
            loc,
            ty: e.name(),
            capability: cap,
            what: what.to_string(),
        };
        let repr = match e {
            ElemType::F32 | ElemType::Int(32) => TypeRepr::Native,
            ElemType::F16 => {
                if f16_stored_natively(target) {
                    TypeRepr::F16Storage
                } else {
                    TypeRepr::F16Bits
                }
            }
            ElemType::BF16 => TypeRepr::BF16Bits,
            ElemType::F64 => {
                if !target.has(Capability::Float64) {
                    return Err(missing(
                        Capability::Float64,
                        "f64 arithmetic; kiln does not emulate it",
                    ));
                }
                TypeRepr::Native
            }
            ElemType::Int(64) => {
                if target.has(Capability::Int64) {
                    TypeRepr::Native
                } else {
                    TypeRepr::I64Pair
                }
            }
            ElemType::Int(8) => {
                if target.has(Capability::Int8) && target.has(Capability::StorageBuffer8BitAccess) {
                    TypeRepr::Native
                } else {
                    TypeRepr::Emulated32
                }
            }
            ElemType::Int(16) => {
                if target.has(Capability::Int16) && target.has(Capability::StorageBuffer16BitAccess)
                {
                    TypeRepr::Native
                } else {
                    TypeRepr::Emulated32
                }
            }
            ElemType::Int(1) => TypeRepr::BoolBytes,
            ElemType::Index => {
                return Err(CodegenError::Unsupported {
                    loc,
                    op: "tensor".into(),
                    message: "tensors of index are not supported on the GPU (use i32 or i64)"
                        .into(),
                })
            }
            ElemType::Int(w) => {
                return Err(CodegenError::Unsupported {
                    loc,
                    op: "tensor".into(),
                    message: format!("element type i{w} is not supported"),
                })
            }
        };
        out.push((e, repr));
    }
    Ok(out)
}

/// Whether `target` stores f16 natively ([`TypeRepr::F16Storage`]:
/// `Float16` and 16-bit storage-buffer access).
pub fn f16_stored_natively(target: &CodegenTarget) -> bool {
    target.has(Capability::Float16) && target.has(Capability::StorageBuffer16BitAccess)
}

/// Whether `target` stores 16-bit integers natively (`Int16` and 16-bit
/// storage), so bf16 bits (and f16 bits) load and store as `i16`.
pub fn i16_stored_natively(target: &CodegenTarget) -> bool {
    target.has(Capability::Int16) && target.has(Capability::StorageBuffer16BitAccess)
}
