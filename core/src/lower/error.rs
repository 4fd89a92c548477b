//! Errors of the lowering: one enum for the whole stage, each variant naming
//! the kernel op (or `gpu.module`) it is about.
//!
//! A variant that wraps the error of a later stage (a pass, the serializer,
//! the validator) says which stage failed and leaves the cause to
//! [`std::error::Error::source`], so a caller walking the chain prints it
//! once (`kiln`'s CLI does: `gpu.module @m: spirv-val: <why>`).

use crate::availability::UnmetRequirement;
use crate::grammar::Capability;
use crate::ir::Location;

/// Why a kernel type has no spv representation in a target env.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TypeError {
    /// The type needs a capability the target env does not offer.
    #[error(
        "type {ty} needs capability {capability} ({what}), which the target env does not offer"
    )]
    MissingCapability {
        /// The kernel type, printed.
        ty: String,
        /// The capability it needs.
        capability: Capability,
        /// What about the type needs it (`64-bit integers`).
        what: &'static str,
    },
    /// The type cannot be represented at all.
    #[error("type {ty}: {reason}")]
    Unsupported {
        /// The kernel type, printed.
        ty: String,
        /// Why.
        reason: String,
    },
}

/// Why lowering a kernel failed.
#[derive(Debug, thiserror::Error)]
pub enum LowerError {
    /// The kernel module has no `gpu.module`.
    #[error("the kernel module has no gpu.module to lower")]
    NoGpuModule,
    /// The kernel module does not verify ([`crate::kernel::verify()`]).
    #[error(transparent)]
    Kernel {
        /// Every violation found.
        source: Box<crate::kernel::KernelVerifyErrors>,
    },
    /// A type of an op's operand or result cannot be converted. (Its
    /// message prints the type error too, unlike the other variants with a
    /// source: tests assert the whole message of this one.)
    #[error("{loc}: '{op}': {source}")]
    Type {
        /// The kernel op (`memref.load`).
        op: &'static str,
        /// Its location.
        loc: Location,
        /// Why.
        #[source]
        source: TypeError,
    },
    /// An op (or a form of it) the lowering does not handle.
    #[error("{loc}: '{op}': {message}")]
    Unsupported {
        /// The kernel op.
        op: &'static str,
        /// Its location.
        loc: Location,
        /// What is not supported.
        message: String,
    },
    /// The op is malformed (wrong operand count, missing attribute).
    #[error("{loc}: '{op}': malformed: {message}")]
    Malformed {
        /// The kernel op.
        op: &'static str,
        /// Its location.
        loc: Location,
        /// What is wrong.
        message: String,
    },
    /// No lowering of the op produces only ops the target env allows.
    #[error("{loc}: '{op}': no legal lowering: '{produced}' {requirement}; the target env offers {offered}")]
    Illegal {
        /// The kernel op.
        op: &'static str,
        /// Its location.
        loc: Location,
        /// The spv op whose requirement is not met (`spirv.GroupNonUniformFAdd`).
        produced: String,
        /// The unmet requirement.
        requirement: Box<UnmetRequirement>,
        /// What the target env offers.
        offered: String,
    },
    /// The kernel exceeds a limit of the target env (workgroup size,
    /// workgroup memory).
    #[error("{loc}: kernel @{kernel}: {message}")]
    Limit {
        /// The kernel.
        kernel: String,
        /// Its location.
        loc: Location,
        /// Which limit, the value and the maximum.
        message: String,
    },
    /// `lower-abi-attrs` failed on the lowered module.
    #[error("gpu.module @{module}: lower-abi-attrs")]
    Abi {
        /// The `gpu.module`.
        module: String,
        /// The pass's error.
        #[source]
        source: Box<crate::passes::lower_abi_attrs::LowerAbiError>,
    },
    /// `update-vce` failed on the lowered module.
    #[error("gpu.module @{module}: update-vce")]
    UpdateVce {
        /// The `gpu.module`.
        module: String,
        /// The pass's error.
        #[source]
        source: Box<crate::passes::UpdateVceError>,
    },
    /// The lowered module does not verify (a lowering bug).
    #[error("gpu.module @{module}: the lowered module does not verify")]
    Verify {
        /// The `gpu.module`.
        module: String,
        /// The verifier's errors.
        #[source]
        source: Box<crate::ir::verify::VerifyErrors>,
    },
    /// The lowered module does not serialize.
    #[error("gpu.module @{module}: serialize")]
    Serialize {
        /// The `gpu.module`.
        module: String,
        /// The serializer's error.
        #[source]
        source: Box<crate::binary::SerializeError>,
    },
    /// The binary fails validation.
    #[error("gpu.module @{module}: spirv-val")]
    Validate {
        /// The `gpu.module`.
        module: String,
        /// The validator's error.
        #[source]
        source: Box<crate::validate::ValidationError>,
    },
}
