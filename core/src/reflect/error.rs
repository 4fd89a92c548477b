//! The error every reflection returns, from the spv IR ([`super::ir`]) or
//! from a binary ([`super::binary`]).

use kiln_abi::{DescriptorType, TexelFormat};

/// Why an entry point's interface could not be reflected, from the spv IR
/// ([`reflect_module`](super::reflect_module)) or from a binary
/// ([`reflect_binary`](super::reflect_binary)).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReflectError {
    /// The words are not a parsable SPIR-V module (binaries only).
    #[error("cannot parse the SPIR-V binary: {reason}")]
    Parse {
        /// The parser's message.
        reason: String,
    },
    /// No `GLCompute` entry point has the requested name.
    #[error(
        "no GLCompute entry point named \"{name}\"; the module's entry points are: {}",
        list_or_none(available)
    )]
    EntryPointNotFound {
        /// The requested name.
        name: String,
        /// The module's entry points, as `name (ExecutionModel)`.
        available: Vec<String>,
    },
    /// The named entry point is not a compute shader.
    #[error("entry point \"{name}\" has execution model {model}, not GLCompute")]
    NotCompute {
        /// The entry point's name.
        name: String,
        /// Its execution model.
        model: String,
    },
    /// The module still carries ABI attributes that `lower-abi-attrs` turns
    /// into the entry point and its resources.
    #[error(
        "function @{function} still has {attr} attributes; run lower-abi-attrs \
         (`kiln opt --lower-abi-attrs`) before reflecting"
    )]
    Unlowered {
        /// The function.
        function: String,
        /// The attribute found (`spirv.entry_point_abi`, ...).
        attr: &'static str,
    },
    /// The entry point declares no workgroup size.
    #[error(
        "entry point \"{name}\" declares no workgroup size \
         (no LocalSize, LocalSizeId or WorkgroupSize built-in)"
    )]
    MissingWorkgroupSize {
        /// The entry point's name.
        name: String,
    },
    /// A resource lacks a decoration it must have.
    #[error("{resource}: missing {decoration} decoration")]
    MissingDecoration {
        /// The resource, e.g. `variable %12 "inputs"` or `global @buf`.
        resource: String,
        /// The decoration that is missing.
        decoration: &'static str,
    },
    /// A resource uses a feature reflection does not handle yet.
    #[error("{resource}: {what} is not supported")]
    Unsupported {
        /// The resource.
        resource: String,
        /// What is not supported.
        what: String,
    },
    /// The module is malformed around a resource.
    #[error("{resource}: {reason}")]
    Malformed {
        /// The resource, or the id, the problem is about.
        resource: String,
        /// What is wrong.
        reason: String,
    },
    /// Two variables with different descriptor types share a binding.
    #[error(
        "binding {set}:{binding} is declared as a {first_type} by {first} \
         and as a {second_type} by {second}"
    )]
    ConflictingBinding {
        /// The set number.
        set: u32,
        /// The binding number.
        binding: u32,
        /// The first variable.
        first: String,
        /// Its descriptor type.
        first_type: DescriptorType,
        /// The second variable.
        second: String,
        /// Its descriptor type.
        second_type: DescriptorType,
    },
    /// Two variables alias one texel-buffer binding with different formats.
    #[error(
        "binding {set}:{binding} is a texel buffer of format {first_format} for {first} \
         and of format {second_format} for {second}"
    )]
    ConflictingTexelFormat {
        /// The set number.
        set: u32,
        /// The binding number.
        binding: u32,
        /// The first variable.
        first: String,
        /// Its texel format.
        first_format: TexelFormat,
        /// The second variable.
        second: String,
        /// Its texel format.
        second_format: TexelFormat,
    },
    /// The entry point uses more than one push-constant variable.
    #[error("entry point \"{name}\" uses two push-constant blocks: {first} and {second}")]
    MultiplePushConstantBlocks {
        /// The entry point's name.
        name: String,
        /// The first variable.
        first: String,
        /// The second variable.
        second: String,
    },
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "(none)".to_owned()
    } else {
        items.join(", ")
    }
}
