//! The serde forms of the program's fields that are not stored field by
//! field: a target env and a tuning as their lossless text, a host
//! computation's op as one of the three kinds a host slot holds. Named by
//! `#[serde(with = ...)]` on those fields.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::codec::{refuse, refuse_to_store};

/// A [`TargetEnv`](crate::target::TargetEnv) as its text
/// ([`TargetEnv::print`](crate::target::TargetEnv::print) with
/// [`Prefix::Spv`](crate::text::Prefix::Spv)).
pub(crate) mod target_env {
    use super::*;
    use crate::target::{TargetEnv, TargetEnvError};
    use crate::text::Prefix;

    pub(crate) fn serialize<S: Serializer>(env: &TargetEnv, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&env.print(Prefix::Spv))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<TargetEnv, D::Error> {
        let text = String::deserialize(d)?;
        text.parse()
            .map_err(|e: TargetEnvError| refuse("target env", e))
    }
}

/// A tuning as its text ([`Tuning::to_text`](crate::codegen::strategy::Tuning::to_text)).
pub(crate) mod tuning {
    use std::sync::Arc;

    use super::*;
    use crate::codegen::strategy::Tuning;

    pub(crate) fn serialize<S: Serializer>(
        t: &Option<Arc<Tuning>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        t.as_ref().map(|t| t.to_text()).serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Arc<Tuning>>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|text| {
                Tuning::parse(&text)
                    .map(Arc::new)
                    .map_err(|e| refuse("tuning", e))
            })
            .transpose()
    }
}

/// A host computation's op: `arith` and `math` (and the barrier, which
/// passes its operand through); nothing else reaches a host slot.
pub(crate) mod host_op {
    use super::*;
    use crate::tensor::attr::{FastMath, Overflow};
    use crate::tensor::ops::{ArithOp, MathOp, OpKind};

    /// The [`OpKind`]s a host slot holds.
    #[derive(Serialize, Deserialize)]
    enum HostOp {
        Arith {
            op: ArithOp,
            fastmath: FastMath,
            overflow: Overflow,
        },
        Math {
            op: MathOp,
            fastmath: FastMath,
        },
        OptimizationBarrier,
    }

    pub(crate) fn serialize<S: Serializer>(kind: &OpKind, s: S) -> Result<S::Ok, S::Error> {
        match *kind {
            OpKind::Arith {
                op,
                fastmath,
                overflow,
            } => HostOp::Arith {
                op,
                fastmath,
                overflow,
            },
            OpKind::Math { op, fastmath } => HostOp::Math { op, fastmath },
            OpKind::OptimizationBarrier => HostOp::OptimizationBarrier,
            ref other => {
                return Err(refuse_to_store(
                    "a host computation",
                    format!("'{}' is not an arith or math op", other.name()),
                ))
            }
        }
        .serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<OpKind, D::Error> {
        Ok(match HostOp::deserialize(d)? {
            HostOp::Arith {
                op,
                fastmath,
                overflow,
            } => OpKind::Arith {
                op,
                fastmath,
                overflow,
            },
            HostOp::Math { op, fastmath } => OpKind::Math { op, fastmath },
            HostOp::OptimizationBarrier => OpKind::OptimizationBarrier,
        })
    }
}
