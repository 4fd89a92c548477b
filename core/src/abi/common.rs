//! What both reflectors share, the one over the spv IR
//! ([`crate::abi::reflect`]) and the one over a binary
//! ([`crate::binary::reflect`]): the error type, choosing the entry point,
//! merging aliased bindings and reading access from decorations.

use kiln_abi::{Access, DescriptorType, PushConstantRange, ResourceBinding};

/// Why an entry point's interface could not be reflected, from the spv IR
/// ([`reflect_module`](crate::abi::reflect_module)) or from a binary
/// ([`reflect_binary`](crate::binary::reflect::reflect_binary)).
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

/// Picks the `GLCompute` entry point named `name` from `entries`
/// (`(name, execution model, what to return)`, in module order): the
/// first compute one with that name, else [`ReflectError::NotCompute`] when
/// only other models have it, else [`ReflectError::EntryPointNotFound`]
/// listing them all as `"name" (Model)`.
pub(crate) fn select_entry_point<T>(
    entries: impl IntoIterator<Item = (String, String, T)>,
    name: &str,
) -> Result<T, ReflectError> {
    let mut available = Vec::new();
    let mut other_model = None;
    for (ep_name, model, value) in entries {
        if ep_name == name {
            if model == "GLCompute" {
                return Ok(value);
            }
            other_model.get_or_insert_with(|| model.clone());
        }
        available.push(format!("\"{ep_name}\" ({model})"));
    }
    match other_model {
        Some(model) => Err(ReflectError::NotCompute {
            name: name.to_owned(),
            model,
        }),
        None => Err(ReflectError::EntryPointNotFound {
            name: name.to_owned(),
            available,
        }),
    }
}

/// Merges a second variable aliasing an already seen binding into it: the
/// descriptor types must agree; access widens to read-write when it differs.
pub(crate) fn merge_alias(
    prev: &mut ResourceBinding,
    prev_desc: &str,
    next: ResourceBinding,
    next_desc: String,
) -> Result<(), ReflectError> {
    if prev.descriptor_type != next.descriptor_type {
        return Err(ReflectError::ConflictingBinding {
            set: next.set,
            binding: next.binding,
            first: prev_desc.to_owned(),
            first_type: prev.descriptor_type,
            second: next_desc,
            second_type: next.descriptor_type,
        });
    }
    if prev.access != next.access {
        prev.access = Access::ReadWrite;
    }
    prev.min_size = prev.min_size.max(next.min_size);
    prev.element_stride = prev.element_stride.or(next.element_stride);
    Ok(())
}

/// The access of a resource from its `NonWritable` / `NonReadable` marks.
pub(crate) fn access_from(non_writable: bool, non_readable: bool) -> Access {
    match (non_writable, non_readable) {
        (true, _) => Access::ReadOnly,
        (false, true) => Access::WriteOnly,
        (false, false) => Access::ReadWrite,
    }
}

/// The push-constant range of a block `size` bytes long: offset 0, the size
/// rounded up to 4 bytes. A block ending in a runtime array, an empty one
/// and one beyond `u32` are errors about `resource`.
pub(crate) fn push_constant_range(
    resource: &dyn Fn() -> String,
    size: u64,
    runtime_array: bool,
) -> Result<PushConstantRange, ReflectError> {
    let malformed = |reason: String| ReflectError::Malformed {
        resource: resource(),
        reason,
    };
    if runtime_array {
        return Err(malformed(
            "a push-constant block cannot end in a runtime array".to_owned(),
        ));
    }
    let rounded = size
        .checked_next_multiple_of(4)
        .and_then(|r| u32::try_from(r).ok())
        .ok_or_else(|| {
            malformed(format!(
                "a push-constant block of {size} bytes is too large"
            ))
        })?;
    if rounded == 0 {
        return Err(malformed("the push-constant block is empty".to_owned()));
    }
    Ok(PushConstantRange {
        offset: 0,
        size: rounded,
    })
}
