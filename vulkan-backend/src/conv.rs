//! Pure mappings between kiln's types and Vulkan's. No calls, no state.

use std::ffi::{c_char, CStr};

use ash::vk;
use kiln_abi::{DescriptorType, TexelFormat};

use crate::debug::MessageSeverity;
use crate::device::{ApiVersion, DeviceType};

/// The Vulkan descriptor type of a binding.
pub(crate) fn descriptor_type(ty: DescriptorType) -> vk::DescriptorType {
    match ty {
        DescriptorType::StorageBuffer => vk::DescriptorType::STORAGE_BUFFER,
        DescriptorType::UniformBuffer => vk::DescriptorType::UNIFORM_BUFFER,
        DescriptorType::StorageImage => vk::DescriptorType::STORAGE_IMAGE,
        DescriptorType::SampledImage => vk::DescriptorType::SAMPLED_IMAGE,
        DescriptorType::Sampler => vk::DescriptorType::SAMPLER,
        DescriptorType::CombinedImageSampler => vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
        DescriptorType::UniformTexelBuffer => vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
        DescriptorType::StorageTexelBuffer => vk::DescriptorType::STORAGE_TEXEL_BUFFER,
    }
}

/// The Vulkan format of a texel-buffer view, or `None` for
/// [`TexelFormat::Unknown`], which names no format.
pub(crate) fn texel_format(format: TexelFormat) -> Option<vk::Format> {
    Some(match format {
        TexelFormat::Rgba32f => vk::Format::R32G32B32A32_SFLOAT,
        TexelFormat::Rgba32i => vk::Format::R32G32B32A32_SINT,
        TexelFormat::Rgba32ui => vk::Format::R32G32B32A32_UINT,
        TexelFormat::Rgba16f => vk::Format::R16G16B16A16_SFLOAT,
        TexelFormat::R32f => vk::Format::R32_SFLOAT,
        TexelFormat::R32i => vk::Format::R32_SINT,
        TexelFormat::R32ui => vk::Format::R32_UINT,
        TexelFormat::Unknown => return None,
    })
}

/// The format feature a texel-buffer descriptor type needs of its view's
/// format (`UNIFORM_TEXEL_BUFFER` or `STORAGE_TEXEL_BUFFER` in
/// `bufferFeatures`).
pub(crate) fn texel_buffer_feature(ty: DescriptorType) -> vk::FormatFeatureFlags {
    if ty == DescriptorType::StorageTexelBuffer {
        vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER
    } else {
        vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER
    }
}

/// The create info of every kiln buffer: `size` bytes usable as storage
/// and uniform buffer, as uniform and storage texel buffer (views of it)
/// and as copy source and destination, one queue family.
pub(crate) fn buffer_info(size: u64) -> vk::BufferCreateInfo<'static> {
    vk::BufferCreateInfo::default()
        .size(size)
        .usage(
            vk::BufferUsageFlags::STORAGE_BUFFER
                | vk::BufferUsageFlags::UNIFORM_BUFFER
                | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
                | vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER
                | vk::BufferUsageFlags::TRANSFER_SRC
                | vk::BufferUsageFlags::TRANSFER_DST,
        )
        .sharing_mode(vk::SharingMode::EXCLUSIVE)
}

/// kiln's device type for a Vulkan physical-device type.
pub(crate) fn device_type(ty: vk::PhysicalDeviceType) -> DeviceType {
    match ty {
        vk::PhysicalDeviceType::DISCRETE_GPU => DeviceType::DiscreteGpu,
        vk::PhysicalDeviceType::INTEGRATED_GPU => DeviceType::IntegratedGpu,
        vk::PhysicalDeviceType::VIRTUAL_GPU => DeviceType::VirtualGpu,
        vk::PhysicalDeviceType::CPU => DeviceType::Cpu,
        _ => DeviceType::Other,
    }
}

/// A packed `VK_MAKE_API_VERSION` number, unpacked.
pub(crate) fn api_version(packed: u32) -> ApiVersion {
    ApiVersion {
        major: vk::api_version_major(packed),
        minor: vk::api_version_minor(packed),
        patch: vk::api_version_patch(packed),
    }
}

/// The severity kiln keeps for a debug-utils severity, or `None` for the
/// ones it ignores (verbose, info).
pub(crate) fn message_severity(
    sev: vk::DebugUtilsMessageSeverityFlagsEXT,
) -> Option<MessageSeverity> {
    if sev.contains(vk::DebugUtilsMessageSeverityFlagsEXT::ERROR) {
        Some(MessageSeverity::Error)
    } else if sev.contains(vk::DebugUtilsMessageSeverityFlagsEXT::WARNING) {
        Some(MessageSeverity::Warning)
    } else {
        None
    }
}

/// The text of a fixed-size, NUL-terminated `char` array from a Vulkan
/// struct (device names, layer names); lossy on invalid UTF-8, and the whole
/// array when no NUL is found.
pub(crate) fn fixed_cstr(chars: &[c_char]) -> String {
    // c_char is i8 or u8 depending on the target; reinterpret bytewise.
    let bytes: Vec<u8> = chars.iter().map(|&c| c as u8).collect();
    match CStr::from_bytes_until_nul(&bytes) {
        Ok(s) => s.to_string_lossy().into_owned(),
        Err(_) => String::from_utf8_lossy(&bytes).into_owned(),
    }
}

/// Whether the device's largest device-local heap has a memory type that
/// is also host-visible, host-coherent and host-cached (unified memory:
/// integrated GPUs, CPU implementations). A small host-visible window into
/// a larger device-local heap (a discrete GPU's BAR) does not count: its
/// heap is not the largest. Nor does a whole heap mapped through a
/// resizable BAR (an H200 maps all of its memory so): that memory is not
/// host-cached, and the host reads it across PCIe uncached — a 64 MiB
/// `to_vec` from it did not finish in a minute on an H200 — so tensors
/// there would make every readback crawl.
pub(crate) fn unified_memory(props: &vk::PhysicalDeviceMemoryProperties) -> bool {
    let heaps = &props.memory_heaps[..props.memory_heap_count as usize];
    let types = &props.memory_types[..props.memory_type_count as usize];
    let largest = heaps
        .iter()
        .filter(|h| h.flags.contains(vk::MemoryHeapFlags::DEVICE_LOCAL))
        .map(|h| h.size)
        .max()
        .unwrap_or(0);
    let wanted = vk::MemoryPropertyFlags::DEVICE_LOCAL
        | vk::MemoryPropertyFlags::HOST_VISIBLE
        | vk::MemoryPropertyFlags::HOST_COHERENT
        | vk::MemoryPropertyFlags::HOST_CACHED;
    types.iter().any(|t| {
        t.property_flags.contains(wanted)
            && heaps
                .get(t.heap_index as usize)
                .is_some_and(|h| h.size == largest && largest > 0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Memory properties with these heaps (sizes, device-local) and
    /// types (flags, heap).
    fn memory(
        heaps: &[(u64, bool)],
        types: &[(vk::MemoryPropertyFlags, u32)],
    ) -> vk::PhysicalDeviceMemoryProperties {
        let mut p = vk::PhysicalDeviceMemoryProperties {
            memory_heap_count: heaps.len() as u32,
            memory_type_count: types.len() as u32,
            ..Default::default()
        };
        for (k, &(size, local)) in heaps.iter().enumerate() {
            p.memory_heaps[k] = vk::MemoryHeap {
                size,
                flags: if local {
                    vk::MemoryHeapFlags::DEVICE_LOCAL
                } else {
                    vk::MemoryHeapFlags::empty()
                },
            };
        }
        for (k, &(flags, heap)) in types.iter().enumerate() {
            p.memory_types[k] = vk::MemoryType {
                property_flags: flags,
                heap_index: heap,
            };
        }
        p
    }

    #[test]
    fn unified_memory_needs_a_cached_type_on_the_largest_local_heap() {
        use vk::MemoryPropertyFlags as F;
        let (local, visible, coherent, cached) = (
            F::DEVICE_LOCAL,
            F::HOST_VISIBLE,
            F::HOST_COHERENT,
            F::HOST_CACHED,
        );
        // lavapipe / an integrated GPU: one heap, a cached host-visible type.
        let cpu = memory(
            &[(8 << 30, true)],
            &[(local | visible | coherent | cached, 0)],
        );
        assert!(unified_memory(&cpu));
        // A discrete GPU with a 256 MiB BAR window.
        let bar = memory(
            &[(80 << 30, true), (64 << 30, false), (256 << 20, true)],
            &[
                (local, 0),
                (visible | coherent | cached, 1),
                (local | visible | coherent, 2),
            ],
        );
        assert!(!unified_memory(&bar));
        // A resizable BAR: all of VRAM host-visible, but write-combined.
        let rebar = memory(
            &[(140 << 30, true), (64 << 30, false)],
            &[
                (local, 0),
                (visible | coherent | cached, 1),
                (local | visible | coherent, 0),
            ],
        );
        assert!(!unified_memory(&rebar));
    }

    #[test]
    fn mappings() {
        assert_eq!(
            descriptor_type(DescriptorType::StorageBuffer),
            vk::DescriptorType::STORAGE_BUFFER
        );
        assert_eq!(
            descriptor_type(DescriptorType::UniformTexelBuffer),
            vk::DescriptorType::UNIFORM_TEXEL_BUFFER
        );
        assert_eq!(
            texel_format(TexelFormat::Rgba32ui),
            Some(vk::Format::R32G32B32A32_UINT)
        );
        assert_eq!(texel_format(TexelFormat::Unknown), None);
        assert_eq!(device_type(vk::PhysicalDeviceType::CPU), DeviceType::Cpu);
        assert_eq!(
            api_version(vk::make_api_version(0, 1, 3, 230)).to_string(),
            "1.3.230"
        );
        assert_eq!(
            message_severity(vk::DebugUtilsMessageSeverityFlagsEXT::INFO),
            None
        );
        assert_eq!(
            message_severity(vk::DebugUtilsMessageSeverityFlagsEXT::ERROR),
            Some(MessageSeverity::Error)
        );
        let name: Vec<c_char> = b"llvmpipe\0junk".iter().map(|&b| b as c_char).collect();
        assert_eq!(fixed_cstr(&name), "llvmpipe");
    }
}
