//! Texel buffers: typed views (`VkBufferView`) of buffer ranges, bound as
//! uniform texel buffers (`OpImageFetch` of `Dim = Buffer` images: on
//! lavapipe a branch-free SIMD gather of 128-bit texels, where a storage
//! buffer load is a per-lane loop) or storage texel buffers.
//!
//! - **Format support** is read once per context
//!   (`vkGetPhysicalDeviceFormatProperties` of every [`TexelFormat`] kiln
//!   binds, [`TexelSupport::query`]); a pipeline whose interface has a texel
//!   binding of a format the device cannot view for that descriptor type
//!   is refused at creation ([`TexelSupport::check`]), before any Vulkan
//!   call. (The RGBA32 and R32 formats are mandatory for uniform texel
//!   buffers in Vulkan; kiln still asks.)
//! - **Bindings** are checked with the other dispatch checks
//!   (`dispatch::check_bindings`): a known format, the view's offset a
//!   multiple of `minTexelBufferOffsetAlignment`, at least one texel, at
//!   most `maxTexelBufferElements` texels.
//! - **Views** ([`create_view`]) span the bound range rounded down to whole
//!   texels ([`view_range`]). A one-shot dispatch creates its own; a command
//!   batch creates one per (buffer, offset, bound size, format) and reuses
//!   it in its later dispatches. They are destroyed with the other
//!   transient objects once the work using them has completed (a one-shot
//!   dispatch after its fence, a command batch when it is reset or dropped
//!   after its submission), never while in use.

use ash::vk;
use kiln_abi::{DescriptorType, PipelineInterface, TexelFormat};

use crate::context::DeviceShared;
use crate::conv;
use crate::error::{Error, Result};
use crate::fault::CallFamily;

/// The texel formats kiln creates views of (every [`TexelFormat`] but
/// `Unknown`).
const FORMATS: [TexelFormat; 7] = [
    TexelFormat::Rgba32f,
    TexelFormat::Rgba32i,
    TexelFormat::Rgba32ui,
    TexelFormat::Rgba16f,
    TexelFormat::R32f,
    TexelFormat::R32i,
    TexelFormat::R32ui,
];

/// The `bufferFeatures` of each format kiln binds, on one device.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TexelSupport {
    features: [vk::FormatFeatureFlags; FORMATS.len()],
}

impl TexelSupport {
    /// Reads the format properties of every format of [`FORMATS`].
    pub(crate) fn query(instance: &ash::Instance, physical: vk::PhysicalDevice) -> Self {
        let mut support = Self::default();
        for (slot, format) in support.features.iter_mut().zip(FORMATS) {
            let Some(vk_format) = conv::texel_format(format) else {
                continue;
            };
            // SAFETY: `physical` was enumerated from the live `instance`;
            // the format is a core Vulkan 1.0 format.
            let props =
                unsafe { instance.get_physical_device_format_properties(physical, vk_format) };
            *slot = props.buffer_features;
        }
        support
    }

    /// Whether buffers can be viewed as `format` for descriptors of `ty`.
    pub(crate) fn supports(&self, format: TexelFormat, ty: DescriptorType) -> bool {
        FORMATS
            .iter()
            .position(|&f| f == format)
            .is_some_and(|i| self.features[i].contains(conv::texel_buffer_feature(ty)))
    }

    /// Checks every texel binding of `iface` whose format is known
    /// against the device's support ([`Error::UnsupportedTexelFormat`]).
    /// `Unknown` formats pass here and are refused when bound.
    pub(crate) fn check(&self, iface: &PipelineInterface) -> Result<()> {
        for b in &iface.bindings {
            let Some(format) = b.texel_format else {
                continue;
            };
            if format == TexelFormat::Unknown || self.supports(format, b.descriptor_type) {
                continue;
            }
            return Err(Error::UnsupportedTexelFormat {
                set: b.set,
                binding: b.binding,
                descriptor_type: b.descriptor_type,
                format,
                feature: if b.descriptor_type == DescriptorType::StorageTexelBuffer {
                    "STORAGE_TEXEL_BUFFER"
                } else {
                    "UNIFORM_TEXEL_BUFFER"
                },
            });
        }
        Ok(())
    }
}

/// The range of the view of `size` bound bytes: rounded down to whole
/// texels of `format` (a view's range is a multiple of its texel size,
/// VUID-VkBufferViewCreateInfo-range-00929). `None` for
/// [`TexelFormat::Unknown`].
pub(crate) fn view_range(format: TexelFormat, size: u64) -> Option<u64> {
    let texel = u64::from(format.texel_size()?);
    Some(size - size % texel)
}

/// Creates the view of `size` bytes at `offset` of `buffer` as `format`
/// (a binding that passed the dispatch checks: known format, aligned
/// offset, at least one texel, within `maxTexelBufferElements`). The
/// caller destroys it once the work using it has completed.
pub(crate) fn create_view(
    device: &DeviceShared,
    buffer: vk::Buffer,
    format: TexelFormat,
    offset: u64,
    size: u64,
) -> Result<vk::BufferView> {
    let (Some(vk_format), Some(range)) = (conv::texel_format(format), view_range(format, size))
    else {
        return Err(Error::Unsupported {
            what: "a buffer view of texel format Unknown",
        });
    };
    let info = vk::BufferViewCreateInfo::default()
        .buffer(buffer)
        .format(vk_format)
        .offset(offset)
        .range(range);
    // SAFETY: `buffer` is live and was created with both texel-buffer
    // usages (`conv::buffer_info`); the offset is a multiple of
    // minTexelBufferOffsetAlignment, the range a non-zero multiple of the
    // texel size inside the buffer and within maxTexelBufferElements texels
    // (checked by the dispatch checks); the format supports the view's use
    // (checked at pipeline creation).
    device.call(CallFamily::Create, "vkCreateBufferView", || unsafe {
        device.raw.create_buffer_view(&info, None)
    })
}

/// Destroys `views`, whose work has completed, and empties the list.
pub(crate) fn destroy_views(device: &DeviceShared, views: &mut Vec<vk::BufferView>) {
    for view in views.drain(..) {
        // SAFETY: the view belongs to the device and no pending work uses
        // it (callers destroy only after the work completed or the device
        // was lost).
        unsafe { device.raw.destroy_buffer_view(view, None) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn view_ranges_are_whole_texels() {
        assert_eq!(view_range(TexelFormat::Rgba32f, 100), Some(96));
        assert_eq!(view_range(TexelFormat::Rgba32ui, 16), Some(16));
        assert_eq!(view_range(TexelFormat::R32i, 7), Some(4));
        assert_eq!(view_range(TexelFormat::Unknown, 64), None);
    }

    #[test]
    fn support_follows_buffer_features() {
        let mut s = TexelSupport::default();
        s.features[0] = vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER;
        assert!(s.supports(TexelFormat::Rgba32f, DescriptorType::UniformTexelBuffer));
        assert!(!s.supports(TexelFormat::Rgba32f, DescriptorType::StorageTexelBuffer));
        assert!(!s.supports(TexelFormat::Rgba32i, DescriptorType::UniformTexelBuffer));
        assert!(!s.supports(TexelFormat::Unknown, DescriptorType::UniformTexelBuffer));
    }
}
