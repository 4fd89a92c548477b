//! Descriptor arrays and dynamic buffer descriptors.
//!
//! A pipeline's descriptor-set layouts come from its interface: one
//! layout binding per [`ResourceBinding`](kiln_abi::ResourceBinding), with
//! `descriptorCount` = the binding's `count` (a descriptor array, GLSL's
//! `buffer B { ... } b[2];`, has `count > 1`). A pipeline made with
//! [`ComputePipeline::with_dynamic_bindings`] also turns chosen buffer
//! bindings into *dynamic* descriptors (`STORAGE_BUFFER_DYNAMIC`,
//! `UNIFORM_BUFFER_DYNAMIC`): the shader is the same, but each dispatch
//! adds a dynamic offset to the descriptor's offset
//! ([`BufferBinding::dynamic_offset`](crate::BufferBinding::dynamic_offset)).
//!
//! What dispatch checks for them, before any Vulkan call
//! ([`check_array_elements`], also for command batches, and
//! [`check_dynamic_offsets`]):
//! - every element `0..count` of every array binding gets exactly one
//!   buffer range ([`BufferBinding::element`](crate::BufferBinding::element)),
//!   and no element at or past `count` is given;
//! - a non-zero dynamic offset is only given to a dynamic binding; it is a
//!   multiple of `minStorageBufferOffsetAlignment`
//!   (`minUniformBufferOffsetAlignment`), and the bound range moved by it
//!   still lies inside its buffer.
//!
//! When recording, the dynamic offsets are passed in the order Vulkan
//! consumes them: by set, then binding number, then array element
//! ([`dynamic_offsets`]).
//!
//! Command batches ([`CommandBatch`](crate::CommandBatch)) bind one range
//! per binding and no dynamic offsets: the shared checks reject an array
//! binding with elements missing, and a batch refuses a pipeline with
//! dynamic bindings.
//!
//! Pipeline creation checks the dynamic bindings: each names a buffer
//! binding of the interface, once, and the number of dynamic storage
//! (uniform) descriptors in the pipeline layout is within
//! `maxDescriptorSetStorageBuffersDynamic`
//! (`maxDescriptorSetUniformBuffersDynamic`).

use ash::vk;
use kiln_abi::{DescriptorType, Limits, PipelineInterface, ResourceBinding};

use crate::context::DeviceShared;
use crate::conv;
use crate::dispatch::{BindingView, BufferBinding};
use crate::error::{Error, Result};
use crate::pipeline::ComputePipeline;

/// The `(set, binding)` pairs of `dynamic`, checked against `interface`
/// and the device's dynamic-descriptor limits, sorted.
pub(crate) fn check_dynamic(
    device: &DeviceShared,
    interface: &PipelineInterface,
    dynamic: &[(u32, u32)],
) -> Result<Vec<(u32, u32)>> {
    let mut sorted = dynamic.to_vec();
    sorted.sort_unstable();
    for pair in sorted.windows(2) {
        if pair[0] == pair[1] {
            return Err(dynamic_error(pair[0], "named twice as a dynamic binding"));
        }
    }
    let (mut storage, mut uniform) = (0u64, 0u64);
    for &key in &sorted {
        let Some(decl) = interface.binding(key.0, key.1) else {
            return Err(dynamic_error(
                key,
                &format!(
                    "made dynamic, but entry point \"{}\" does not use it",
                    interface.entry_point
                ),
            ));
        };
        match decl.descriptor_type {
            DescriptorType::StorageBuffer => storage += u64::from(decl.count),
            DescriptorType::UniformBuffer => uniform += u64::from(decl.count),
            other => {
                return Err(dynamic_error(
                    key,
                    &format!("a {other} cannot be a dynamic descriptor"),
                ))
            }
        }
    }
    if !sorted.is_empty() {
        // SAFETY: the physical device was enumerated from the live instance
        // the device holds.
        let props = unsafe {
            device
                .instance
                .raw
                .get_physical_device_properties(device.physical)
        };
        let l = props.limits;
        for (n, name, limit) in [
            (
                storage,
                "maxDescriptorSetStorageBuffersDynamic",
                l.max_descriptor_set_storage_buffers_dynamic,
            ),
            (
                uniform,
                "maxDescriptorSetUniformBuffersDynamic",
                l.max_descriptor_set_uniform_buffers_dynamic,
            ),
        ] {
            if n > u64::from(limit) {
                return Err(Error::LimitExceeded {
                    what: format!(
                        "the number of dynamic descriptors of entry point \"{}\"",
                        interface.entry_point
                    ),
                    requested: n,
                    limit_name: name,
                    limit: limit.into(),
                });
            }
        }
    }
    Ok(sorted)
}

fn dynamic_error((set, binding): (u32, u32), reason: &str) -> Error {
    Error::DynamicDescriptor {
        set,
        binding,
        reason: reason.to_owned(),
    }
}

/// The Vulkan descriptor type of `decl` in a pipeline whose dynamic
/// bindings are `dynamic` (sorted).
pub(crate) fn vk_type(decl: &ResourceBinding, dynamic: &[(u32, u32)]) -> vk::DescriptorType {
    let is_dynamic = dynamic.binary_search(&decl.key()).is_ok();
    match (decl.descriptor_type, is_dynamic) {
        (DescriptorType::StorageBuffer, true) => vk::DescriptorType::STORAGE_BUFFER_DYNAMIC,
        (DescriptorType::UniformBuffer, true) => vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
        (other, _) => conv::descriptor_type(other),
    }
}

/// The layout bindings of descriptor set `set`.
pub(crate) fn set_layout_bindings(
    interface: &PipelineInterface,
    dynamic: &[(u32, u32)],
    set: u32,
) -> Vec<vk::DescriptorSetLayoutBinding<'static>> {
    interface
        .bindings_in_set(set)
        .map(|b| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(b.binding)
                .descriptor_type(vk_type(b, dynamic))
                .descriptor_count(b.count)
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
        })
        .collect()
}

/// Descriptor counts per type, for one dispatch's descriptor pool.
pub(crate) fn pool_sizes(
    interface: &PipelineInterface,
    dynamic: &[(u32, u32)],
) -> Vec<vk::DescriptorPoolSize> {
    let mut sizes: Vec<vk::DescriptorPoolSize> = Vec::new();
    for b in &interface.bindings {
        let ty = vk_type(b, dynamic);
        match sizes.iter_mut().find(|s| s.ty == ty) {
            Some(s) => s.descriptor_count += b.count,
            None => sizes.push(vk::DescriptorPoolSize {
                ty,
                descriptor_count: b.count,
            }),
        }
    }
    sizes
}

/// The array-element checks of the module docs: every element `0..count`
/// of each array binding is given, and none at or past `count` (bindings
/// already passed the per-binding checks of dispatch).
pub(crate) fn check_array_elements(
    iface: &PipelineInterface,
    bindings: &[BindingView],
) -> Result<()> {
    for b in bindings {
        let Some(decl) = iface.binding(b.set, b.binding) else {
            continue;
        };
        if b.element >= decl.count {
            return Err(Error::ArrayElement {
                set: b.set,
                binding: b.binding,
                element: b.element,
                count: decl.count,
            });
        }
    }
    for decl in iface.bindings.iter().filter(|d| d.count > 1) {
        for element in 0..decl.count {
            if !bindings
                .iter()
                .any(|b| (b.set, b.binding, b.element) == (decl.set, decl.binding, element))
            {
                return Err(Error::MissingArrayElement {
                    set: decl.set,
                    binding: decl.binding,
                    element,
                    count: decl.count,
                    entry_point: iface.entry_point.clone(),
                });
            }
        }
    }
    Ok(())
}

/// The dynamic-offset checks of the module docs, for bindings that passed
/// the other dispatch checks.
pub(crate) fn check_dynamic_offsets(
    pipeline: &ComputePipeline,
    limits: &Limits,
    bindings: &[BufferBinding<'_>],
) -> Result<()> {
    let iface = &pipeline.interface;
    for b in bindings.iter().filter(|b| b.dynamic_offset != 0) {
        let Some(decl) = iface.binding(b.set, b.binding) else {
            continue;
        };
        let offset_error = |reason: String| Error::DynamicOffset {
            set: b.set,
            binding: b.binding,
            element: b.element,
            offset: b.dynamic_offset,
            reason,
        };
        if pipeline.dynamic.binary_search(&decl.key()).is_err() {
            return Err(offset_error(
                "the pipeline does not make the binding dynamic".to_owned(),
            ));
        }
        let (alignment, name) = match decl.descriptor_type {
            DescriptorType::UniformBuffer => (
                limits.min_uniform_buffer_offset_alignment,
                "minUniformBufferOffsetAlignment",
            ),
            _ => (
                limits.min_storage_buffer_offset_alignment,
                "minStorageBufferOffsetAlignment",
            ),
        };
        if alignment > 0 && u64::from(b.dynamic_offset) % alignment != 0 {
            return Err(offset_error(format!(
                "not a multiple of the device limit {name} = {alignment}"
            )));
        }
        let end = b
            .offset
            .checked_add(u64::from(b.dynamic_offset))
            .and_then(|start| start.checked_add(b.bound_size()));
        if end.is_none_or(|end| end > b.buffer.size()) {
            return Err(offset_error(format!(
                "the {} bytes bound at offset {} end past the {}-byte buffer when moved by it",
                b.bound_size(),
                b.offset,
                b.buffer.size()
            )));
        }
    }
    Ok(())
}

/// The dynamic offsets of `bindings` in the order `vkCmdBindDescriptorSets`
/// consumes them: set, binding, array element.
pub(crate) fn dynamic_offsets(
    pipeline: &ComputePipeline,
    bindings: &[BufferBinding<'_>],
) -> Vec<u32> {
    let mut dynamic: Vec<(u32, u32, u32, u32)> = bindings
        .iter()
        .filter(|b| pipeline.dynamic.binary_search(&(b.set, b.binding)).is_ok())
        .map(|b| (b.set, b.binding, b.element, b.dynamic_offset))
        .collect();
    dynamic.sort_unstable();
    dynamic.into_iter().map(|(.., offset)| offset).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_abi::Access;

    fn iface() -> PipelineInterface {
        let buf = |binding, descriptor_type, count| ResourceBinding {
            set: 0,
            binding,
            descriptor_type,
            access: Access::ReadWrite,
            min_size: 16,
            element_stride: None,
            count,
            texel_format: None,
        };
        PipelineInterface {
            entry_point: "main".into(),
            bindings: vec![
                buf(0, DescriptorType::StorageBuffer, 2),
                buf(1, DescriptorType::UniformBuffer, 1),
                buf(2, DescriptorType::StorageBuffer, 1),
            ],
            ..PipelineInterface::default()
        }
    }

    #[test]
    fn dynamic_bindings_change_types_and_pool_sizes() {
        let i = iface();
        let dynamic = [(0, 0), (0, 1)];
        let layout = set_layout_bindings(&i, &dynamic, 0);
        let types: Vec<_> = layout
            .iter()
            .map(|b| (b.binding, b.descriptor_type, b.descriptor_count))
            .collect();
        assert_eq!(
            types,
            [
                (0, vk::DescriptorType::STORAGE_BUFFER_DYNAMIC, 2),
                (1, vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC, 1),
                (2, vk::DescriptorType::STORAGE_BUFFER, 1),
            ]
        );
        let sizes: Vec<_> = pool_sizes(&i, &dynamic)
            .iter()
            .map(|s| (s.ty, s.descriptor_count))
            .collect();
        assert_eq!(
            sizes,
            [
                (vk::DescriptorType::STORAGE_BUFFER_DYNAMIC, 2),
                (vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC, 1),
                (vk::DescriptorType::STORAGE_BUFFER, 1),
            ]
        );
        let plain: Vec<_> = pool_sizes(&i, &[])
            .iter()
            .map(|s| (s.ty, s.descriptor_count))
            .collect();
        assert_eq!(
            plain,
            [
                (vk::DescriptorType::STORAGE_BUFFER, 3),
                (vk::DescriptorType::UNIFORM_BUFFER, 1),
            ]
        );
    }
}
