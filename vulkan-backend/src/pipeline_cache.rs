//! `VkPipelineCache`: created from a blob, read back as one.
//!
//! The blob format is the driver's. Vulkan requires a driver to ignore
//! initial data whose header (vendor, device, `pipelineCacheUUID`) is not
//! its own, but a blob from another driver version or a corrupt one is
//! better never given to it: callers key what they store by
//! [`Context::pipeline_cache_identity`] and hand back only blobs made under
//! the same identity (kiln-runtime wraps the blob in a header of its own and
//! checks it, and a checksum, before it gets here).

use std::sync::{Arc, Mutex};

use ash::vk;

use crate::context::{lock, Context, DeviceShared};
use crate::error::Result;
use crate::fault::CallFamily;

/// A pipeline cache of one device; pass it to
/// [`ComputePipeline::with_cache`](crate::ComputePipeline::with_cache).
pub struct PipelineCache {
    pub(crate) device: Arc<DeviceShared>,
    /// Locked for every use, so the cache needs no external synchronization
    /// from callers.
    pub(crate) raw: Mutex<vk::PipelineCache>,
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
        Ok(Self {
            device,
            raw: Mutex::new(raw),
        })
    }

    /// The cache's contents, to store and give to [`new`](Self::new) later.
    pub fn data(&self) -> Result<Vec<u8>> {
        let raw = lock(&self.raw);
        let d = &self.device;
        // SAFETY: the cache is live and locked.
        d.call(
            CallFamily::PipelineCache,
            "vkGetPipelineCacheData",
            || unsafe { d.raw.get_pipeline_cache_data(*raw) },
        )
    }
}

impl Drop for PipelineCache {
    fn drop(&mut self) {
        let raw = *self
            .raw
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // SAFETY: pipeline creation holds the lock (and a borrow of the
        // cache) while it uses the cache; nothing else does.
        unsafe { self.device.raw.destroy_pipeline_cache(raw, None) };
    }
}
