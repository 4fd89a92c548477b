//! What both reflectors share, the one over the spv IR ([`super::ir`]) and
//! the one over a binary ([`super::binary`]): choosing the entry point,
//! merging aliased bindings, reading access from decorations and the
//! push-constant range of a block.

use kiln_abi::{Access, DescriptorType, PushConstantRange, ResourceBinding, TexelFormat};

use super::ReflectError;

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
/// descriptor types (and texel formats) must agree; access widens to
/// read-write when it differs.
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
    if let (Some(first_format), Some(second_format)) = (prev.texel_format, next.texel_format) {
        if first_format != second_format {
            return Err(ReflectError::ConflictingTexelFormat {
                set: next.set,
                binding: next.binding,
                first: prev_desc.to_owned(),
                first_format,
                second: next_desc,
                second_format,
            });
        }
    }
    if prev.access != next.access {
        prev.access = Access::ReadWrite;
    }
    prev.min_size = prev.min_size.max(next.min_size);
    prev.element_stride = prev.element_stride.or(next.element_stride);
    Ok(())
}

/// A texel buffer kiln cannot bind.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum TexelBufferError {
    /// `Sampled = 0`.
    #[error("a texel buffer with Sampled = 0 (unknown use)")]
    UnknownUse,
    /// An image format kiln does not bind (its SPIR-V value).
    #[error(
        "a texel buffer of image format {0} (kiln binds Rgba32f, Rgba32i, Rgba32ui, Rgba16f, R32f, \
         R32i, R32ui)"
    )]
    Format(u32),
}

/// The descriptor type and texel format of an `OpTypeImage` with
/// `Dim = Buffer`: `Sampled = 1` is a uniform texel buffer, `2` a storage
/// texel buffer. `format` is the SPIR-V value of its `Image Format` operand.
/// The error names what is unsupported: `Sampled = 0`, or a format kiln
/// cannot bind (any but `Unknown`, `Rgba32f/i/ui`, `Rgba16f` and `R32f/i/ui`).
pub(crate) fn texel_buffer(
    sampled: u32,
    format: u32,
) -> Result<(DescriptorType, TexelFormat), TexelBufferError> {
    let descriptor_type = match sampled {
        1 => DescriptorType::UniformTexelBuffer,
        2 => DescriptorType::StorageTexelBuffer,
        _ => return Err(TexelBufferError::UnknownUse),
    };
    // The values of SPIR-V's `ImageFormat` enumerants.
    let format = match format {
        0 => TexelFormat::Unknown,
        1 => TexelFormat::Rgba32f,
        2 => TexelFormat::Rgba16f,
        3 => TexelFormat::R32f,
        21 => TexelFormat::Rgba32i,
        24 => TexelFormat::R32i,
        30 => TexelFormat::Rgba32ui,
        33 => TexelFormat::R32ui,
        other => return Err(TexelBufferError::Format(other)),
    };
    Ok((descriptor_type, format))
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
