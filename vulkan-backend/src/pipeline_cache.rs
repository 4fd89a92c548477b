//! `VkPipelineCache`: created from a blob, read back as one.
//!
//! The blob format is the driver's. Vulkan requires a driver to ignore
//! initial data whose header (vendor, device, `pipelineCacheUUID`) is not
//! its own, but a blob from another driver version or a corrupt one is
//! better never given to it: callers key what they store by
//! [`Context::pipeline_cache_identity`] and hand back only blobs made under
//! the same identity (kiln-runtime wraps the blob in a header of its own and
//! checks it, and a checksum, before it gets here).

use std::sync::Arc;

use ash::vk;

use crate::context::{Context, DeviceShared};
use crate::error::Result;
use crate::fault::CallFamily;

/// A pipeline cache of one device; pass it to
/// [`ComputePipeline::with_cache`](crate::ComputePipeline::with_cache).
///
/// Any number of threads may create pipelines with one cache at once: the
/// cache is made without `VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT`,
/// so its use in `vkCreateComputePipelines` is internally synchronized by the
/// driver (Vulkan spec, `vkCreatePipelineCache`: "the same pipeline cache
/// object can be used in multiple threads simultaneously"), and
/// `vkGetPipelineCacheData` does not modify it. Only `vkDestroyPipelineCache`
/// needs external synchronization: [`Drop`] has the cache to itself.
pub struct PipelineCache {
    pub(crate) device: Arc<DeviceShared>,
    pub(crate) raw: vk::PipelineCache,
}

impl std::fmt::Debug for PipelineCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PipelineCache").finish_non_exhaustive()
    }
}

impl PipelineCache {
    /// A cache holding `initial` (a blob from [`data`](Self::data) of a
    /// cache made under the same [`pipeline_cache_identity`]; empty for a
    /// fresh cache).
    ///
    /// [`pipeline_cache_identity`]: Context::pipeline_cache_identity
    pub fn new(ctx: &Context, initial: &[u8]) -> Result<Self> {
        let device = Arc::clone(&ctx.shared);
        let info = vk::PipelineCacheCreateInfo::default().initial_data(initial);
        // SAFETY: `initial` lives across the call; the driver validates the
        // blob's header and ignores data that is not its own.
        let raw = device.call(
            CallFamily::PipelineCache,
            "vkCreatePipelineCache",
            || unsafe { device.raw.create_pipeline_cache(&info, None) },
        )?;
        Ok(Self { device, raw })
    }

    /// The cache's contents, to store and give to [`new`](Self::new) later.
    pub fn data(&self) -> Result<Vec<u8>> {
        let d = &self.device;
        // SAFETY: the cache is live (destroyed only on drop); reading its
        // data needs no external synchronization, even while other threads
        // create pipelines with it.
        d.call(
            CallFamily::PipelineCache,
            "vkGetPipelineCacheData",
            || unsafe { d.raw.get_pipeline_cache_data(self.raw) },
        )
    }
}

impl Drop for PipelineCache {
    fn drop(&mut self) {
        // SAFETY: `&mut self`: no pipeline creation (which borrows the
        // cache for the call) or data read uses the cache any more.
        unsafe { self.device.raw.destroy_pipeline_cache(self.raw, None) };
    }
}
