//! [`Limits`]: the device limits a [`PipelineInterface`](crate::PipelineInterface)
//! and a dispatch are checked against.
//!
//! Plain numbers, named as Vulkan names them (`maxComputeWorkGroupCount` is
//! `max_compute_work_group_count`). The compiler fills them from its target
//! environment, the runtime from `VkPhysicalDeviceLimits`; the checks are
//! the same on both sides. [`Limits::default`] holds the values the Vulkan
//! 1.0 specification requires of every implementation (the largest allowed
//! value for alignments), so the defaults describe any conforming device.

use std::fmt;

/// The limits compute dispatch depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    /// `maxComputeWorkGroupCount`: workgroups per dispatch, per dimension.
    pub max_compute_work_group_count: [u32; 3],
    /// `maxComputeWorkGroupSize`: invocations per workgroup, per dimension.
    pub max_compute_work_group_size: [u32; 3],
    /// `maxComputeWorkGroupInvocations`: invocations per workgroup.
    pub max_compute_work_group_invocations: u32,
    /// `maxComputeSharedMemorySize`: bytes of `Workgroup` storage.
    pub max_compute_shared_memory_size: u32,
    /// `maxPushConstantsSize`: bytes of push constants.
    pub max_push_constants_size: u32,
    /// `maxBoundDescriptorSets`: descriptor sets in one pipeline layout.
    pub max_bound_descriptor_sets: u32,
    /// `maxPerStageDescriptorStorageBuffers`.
    pub max_per_stage_descriptor_storage_buffers: u32,
    /// `maxPerStageDescriptorUniformBuffers`.
    pub max_per_stage_descriptor_uniform_buffers: u32,
    /// `maxPerStageDescriptorStorageImages`.
    pub max_per_stage_descriptor_storage_images: u32,
    /// `maxPerStageDescriptorSampledImages` (sampled and combined).
    pub max_per_stage_descriptor_sampled_images: u32,
    /// `maxPerStageDescriptorSamplers` (samplers and combined).
    pub max_per_stage_descriptor_samplers: u32,
    /// `maxPerStageResources`.
    pub max_per_stage_resources: u32,
    /// `maxStorageBufferRange`: bytes one storage-buffer descriptor spans.
    pub max_storage_buffer_range: u32,
    /// `maxUniformBufferRange`: bytes one uniform-buffer descriptor spans.
    pub max_uniform_buffer_range: u32,
    /// `minStorageBufferOffsetAlignment`: storage-buffer descriptor offsets
    /// are multiples of it.
    pub min_storage_buffer_offset_alignment: u64,
    /// `minUniformBufferOffsetAlignment`: uniform-buffer descriptor offsets
    /// are multiples of it.
    pub min_uniform_buffer_offset_alignment: u64,
    /// `minTexelBufferOffsetAlignment`: the offsets of texel-buffer views
    /// (uniform and storage texel buffers) are multiples of it.
    pub min_texel_buffer_offset_alignment: u64,
    /// `maxTexelBufferElements`: texels one texel-buffer view spans.
    pub max_texel_buffer_elements: u32,
}

impl Default for Limits {
    /// The Vulkan 1.0 required limits (`Table 53. Required Limits`).
    fn default() -> Self {
        Self {
            max_compute_work_group_count: [65535; 3],
            max_compute_work_group_size: [128, 128, 64],
            max_compute_work_group_invocations: 128,
            max_compute_shared_memory_size: 16384,
            max_push_constants_size: 128,
            max_bound_descriptor_sets: 4,
            max_per_stage_descriptor_storage_buffers: 4,
            max_per_stage_descriptor_uniform_buffers: 12,
            max_per_stage_descriptor_storage_images: 4,
            max_per_stage_descriptor_sampled_images: 16,
            max_per_stage_descriptor_samplers: 16,
            max_per_stage_resources: 128,
            max_storage_buffer_range: 1 << 27,
            max_uniform_buffer_range: 16384,
            min_storage_buffer_offset_alignment: 256,
            min_uniform_buffer_offset_alignment: 256,
            min_texel_buffer_offset_alignment: 256,
            max_texel_buffer_elements: 65536,
        }
    }
}

/// A request above a limit: what, how much, and which limit.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{what} is {value}, above the device limit {limit_name} = {limit}")]
pub struct LimitError {
    /// What exceeded the limit ("the workgroup size in x").
    pub what: String,
    /// The offending value.
    pub value: u64,
    /// The limit's Vulkan name (`maxComputeWorkGroupInvocations`).
    pub limit_name: &'static str,
    /// The limit's value.
    pub limit: u64,
}

impl LimitError {
    /// A violation of `limit_name = limit` by `value`.
    pub fn new(
        what: impl Into<String>,
        value: u64,
        limit_name: &'static str,
        limit: impl Into<u64>,
    ) -> Self {
        Self {
            what: what.into(),
            value,
            limit_name,
            limit: limit.into(),
        }
    }
}

impl Limits {
    /// Checks that `groups` workgroups fit `maxComputeWorkGroupCount`.
    pub fn check_group_count(&self, groups: [u32; 3]) -> Result<(), LimitError> {
        for ((axis, &n), &max) in AXES
            .iter()
            .zip(&groups)
            .zip(&self.max_compute_work_group_count)
        {
            if n > max {
                return Err(LimitError::new(
                    format!("the number of workgroups in {axis}"),
                    n.into(),
                    "maxComputeWorkGroupCount",
                    max,
                ));
            }
        }
        Ok(())
    }
}

/// The names of the three dimensions.
pub(crate) const AXES: [&str; 3] = ["x", "y", "z"];

impl fmt::Display for Limits {
    /// One `name = value` per line, Vulkan names.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [cx, cy, cz] = self.max_compute_work_group_count;
        let [sx, sy, sz] = self.max_compute_work_group_size;
        writeln!(f, "maxComputeWorkGroupCount = [{cx}, {cy}, {cz}]")?;
        writeln!(f, "maxComputeWorkGroupSize = [{sx}, {sy}, {sz}]")?;
        let rows: [(&str, u64); 16] = [
            (
                "maxComputeWorkGroupInvocations",
                self.max_compute_work_group_invocations.into(),
            ),
            (
                "maxComputeSharedMemorySize",
                self.max_compute_shared_memory_size.into(),
            ),
            ("maxPushConstantsSize", self.max_push_constants_size.into()),
            (
                "maxBoundDescriptorSets",
                self.max_bound_descriptor_sets.into(),
            ),
            (
                "maxPerStageDescriptorStorageBuffers",
                self.max_per_stage_descriptor_storage_buffers.into(),
            ),
            (
                "maxPerStageDescriptorUniformBuffers",
                self.max_per_stage_descriptor_uniform_buffers.into(),
            ),
            (
                "maxPerStageDescriptorStorageImages",
                self.max_per_stage_descriptor_storage_images.into(),
            ),
            (
                "maxPerStageDescriptorSampledImages",
                self.max_per_stage_descriptor_sampled_images.into(),
            ),
            (
                "maxPerStageDescriptorSamplers",
                self.max_per_stage_descriptor_samplers.into(),
            ),
            ("maxPerStageResources", self.max_per_stage_resources.into()),
            (
                "maxStorageBufferRange",
                self.max_storage_buffer_range.into(),
            ),
            (
                "maxUniformBufferRange",
                self.max_uniform_buffer_range.into(),
            ),
            (
                "minStorageBufferOffsetAlignment",
                self.min_storage_buffer_offset_alignment,
            ),
            (
                "minUniformBufferOffsetAlignment",
                self.min_uniform_buffer_offset_alignment,
            ),
            (
                "minTexelBufferOffsetAlignment",
                self.min_texel_buffer_offset_alignment,
            ),
            (
                "maxTexelBufferElements",
                self.max_texel_buffer_elements.into(),
            ),
        ];
        for (name, value) in rows {
            writeln!(f, "{name} = {value}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_count() {
        let l = Limits::default();
        assert_eq!(l.check_group_count([65535, 1, 1]), Ok(()));
        assert_eq!(
            l.check_group_count([1, 70000, 1]).unwrap_err().to_string(),
            "the number of workgroups in y is 70000, above the device limit \
             maxComputeWorkGroupCount = 65535"
        );
        assert!(l.to_string().contains("maxPushConstantsSize = 128\n"));
    }
}
