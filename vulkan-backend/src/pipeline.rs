//! Compute pipelines built from a SPIR-V module and its interface.
//!
//! [`ComputePipeline::new`] (and [`ComputePipeline::with_specialization`],
//! which first applies specialization-constant values to the interface)
//! first checks the interface against itself and the device limits (set
//! count, per-stage descriptor counts, push-constant size, workgroup size
//! per dimension and in total, workgroup memory), the texel formats of its
//! texel-buffer bindings against the device's format support, and the
//! words for a SPIR-V header, before any Vulkan call, then creates: a
//! shader module (destroyed again once the pipeline exists), one
//! descriptor-set layout per set number from 0 to the highest used (set
//! numbers with no bindings get empty layouts, so sparse sets like {0, 2}
//! work), a pipeline layout with the push-constant range, and the pipeline.
//! Drop destroys pipeline, pipeline layout, then set layouts.

use std::ffi::CString;
use std::sync::Arc;

use ash::vk;
use kiln_abi::{PipelineInterface, SpecValue};

use crate::context::{Context, DeviceShared};
use crate::descriptors;
use crate::error::{map_create, Error, Result};
use crate::pipeline_cache::PipelineCache;
use kiln_abi::Limits;

/// The SPIR-V magic number, in the module's first word.
const SPIRV_MAGIC: u32 = 0x0723_0203;

/// A compute pipeline and the layouts it was created with.
pub struct ComputePipeline {
    pub(crate) device: Arc<DeviceShared>,
    pub(crate) interface: PipelineInterface,
    pub(crate) set_layouts: Vec<vk::DescriptorSetLayout>,
    pub(crate) layout: vk::PipelineLayout,
    pub(crate) raw: vk::Pipeline,
    /// Descriptor counts per type, for one dispatch's descriptor pool.
    pub(crate) pool_sizes: Vec<vk::DescriptorPoolSize>,
    /// The bindings made dynamic descriptors, sorted (see
    /// [`with_dynamic_bindings`](Self::with_dynamic_bindings)).
    pub(crate) dynamic: Vec<(u32, u32)>,
}

impl std::fmt::Debug for ComputePipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComputePipeline")
            .field("entry_point", &self.interface.entry_point)
            .field("raw", &self.raw)
            .finish_non_exhaustive()
    }
}

impl ComputePipeline {
    /// Creates a compute pipeline for the entry point `interface` describes
    /// in the module `spirv`. The interface is trusted to match the module
    /// (reflect it with `kiln_core::reflect::reflect_binary`); the
    /// validation layer reports a mismatch.
    pub fn new(ctx: &Context, spirv: &[u32], interface: &PipelineInterface) -> Result<Self> {
        Self::with_specialization(ctx, spirv, interface, &[])
    }

    /// Like [`new`](Self::new), with specialization constants: `spec`
    /// gives values by SpecId (each must be one of the interface's
    /// constants, once, with a value of its type's size). The interface is
    /// specialized first ([`PipelineInterface::specialize`]: a workgroup
    /// size set by a constant takes its value) and the specialized
    /// interface is what the limits are checked against and what
    /// [`interface`](Self::interface) returns.
    pub fn with_specialization(
        ctx: &Context,
        spirv: &[u32],
        interface: &PipelineInterface,
        spec: &[SpecValue],
    ) -> Result<Self> {
        Self::with_cache(ctx, spirv, interface, spec, None)
    }

    /// Like [`with_specialization`](Self::with_specialization), creating
    /// the pipeline through `cache` (the driver looks the compiled code up
    /// there and adds what it compiles) when one is given.
    pub fn with_cache(
        ctx: &Context,
        spirv: &[u32],
        interface: &PipelineInterface,
        spec: &[SpecValue],
        cache: Option<&PipelineCache>,
    ) -> Result<Self> {
        Self::build(ctx, spirv, interface, spec, cache, &[])
    }

    /// Like [`with_specialization`](Self::with_specialization), with the
    /// buffer bindings `dynamic` (`(set, binding)` pairs) made dynamic
    /// descriptors (`STORAGE_BUFFER_DYNAMIC` / `UNIFORM_BUFFER_DYNAMIC`),
    /// so each dispatch moves them by its
    /// [`BufferBinding::dynamic_offset`](crate::BufferBinding::dynamic_offset).
    /// Each must be a buffer binding of the interface, named once; the
    /// dynamic descriptors must fit the device's
    /// `maxDescriptorSet{Storage,Uniform}BuffersDynamic`. (Command batches
    /// do not take such pipelines.)
    pub fn with_dynamic_bindings(
        ctx: &Context,
        spirv: &[u32],
        interface: &PipelineInterface,
        spec: &[SpecValue],
        dynamic: &[(u32, u32)],
    ) -> Result<Self> {
        Self::build(ctx, spirv, interface, spec, None, dynamic)
    }

    fn build(
        ctx: &Context,
        spirv: &[u32],
        interface: &PipelineInterface,
        spec: &[SpecValue],
        cache: Option<&PipelineCache>,
        dynamic: &[(u32, u32)],
    ) -> Result<Self> {
        if let Some(cache) = cache {
            if !ctx.owns(&cache.device) {
                return Err(Error::ForeignObject {
                    what: "pipeline cache",
                });
            }
        }
        check_spirv(spirv)?;
        let specialized = interface.specialize(spec)?;
        let interface = &specialized;
        check_interface(interface, &ctx.shared.limits)?;
        ctx.shared.texel_support.check(interface)?;
        let dynamic = descriptors::check_dynamic(&ctx.shared, interface, dynamic)?;
        let mut spec_data: Vec<u8> = Vec::new();
        let spec_entries: Vec<vk::SpecializationMapEntry> = spec
            .iter()
            .map(|v| {
                let entry = vk::SpecializationMapEntry {
                    constant_id: v.id,
                    offset: spec_data.len() as u32,
                    size: v.bytes.len(),
                };
                spec_data.extend_from_slice(&v.bytes);
                entry
            })
            .collect();
        let spec_info = vk::SpecializationInfo::default()
            .map_entries(&spec_entries)
            .data(&spec_data);
        let entry =
            CString::new(interface.entry_point.as_str()).map_err(|_| Error::InvalidSpirv {
                reason: format!(
                    "entry point name {:?} contains a NUL character",
                    interface.entry_point
                ),
            })?;
        let device = Arc::clone(&ctx.shared);

        // From here on, dropping `pipeline` destroys whatever was created.
        let mut pipeline = Self {
            device,
            interface: interface.clone(),
            set_layouts: Vec::new(),
            layout: vk::PipelineLayout::null(),
            raw: vk::Pipeline::null(),
            pool_sizes: descriptors::pool_sizes(interface, &dynamic),
            dynamic,
        };
        let raw_device = &pipeline.device.raw;

        let set_count = interface.max_set().map_or(0, |s| s + 1);
        for set in 0..set_count {
            let bindings = descriptors::set_layout_bindings(interface, &pipeline.dynamic, set);
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
            pipeline.device.note_call();
            // SAFETY: valid create info (distinct binding numbers, checked
            // by `check_interface`) for the live device.
            let layout = unsafe { raw_device.create_descriptor_set_layout(&info, None) }
                .map_err(|r| map_create("vkCreateDescriptorSetLayout", r))?;
            pipeline.set_layouts.push(layout);
        }

        let push_ranges: Vec<vk::PushConstantRange> = interface
            .push_constants
            .iter()
            .map(|pc| vk::PushConstantRange {
                stage_flags: vk::ShaderStageFlags::COMPUTE,
                offset: pc.offset,
                size: pc.size,
            })
            .collect();
        let layout_info = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(&pipeline.set_layouts)
            .push_constant_ranges(&push_ranges);
        pipeline.device.note_call();
        // SAFETY: the set layouts are live; the push range was checked
        // against maxPushConstantsSize and for 4-byte alignment.
        pipeline.layout = unsafe { raw_device.create_pipeline_layout(&layout_info, None) }
            .map_err(|r| map_create("vkCreatePipelineLayout", r))?;

        let module_info = vk::ShaderModuleCreateInfo::default().code(spirv);
        pipeline.device.note_call();
        // SAFETY: `spirv` starts with a SPIR-V header (checked); the code
        // pointer and size describe `spirv`.
        let module = unsafe { raw_device.create_shader_module(&module_info, None) }
            .map_err(|r| map_create("vkCreateShaderModule", r))?;
        let mut stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(&entry);
        if !spec.is_empty() {
            stage = stage.specialization_info(&spec_info);
        }
        let info = [vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(pipeline.layout)];
        pipeline.device.note_call();
        let raw_cache = cache.map(|c| c.raw).unwrap_or_default();
        // SAFETY: the module and layout are live; `entry` is NUL-terminated;
        // the cache (null or of this device, checked) is borrowed for the
        // call, and its use here is internally synchronized (see
        // `PipelineCache`), so other threads may create pipelines with it at
        // the same time.
        let created = unsafe { raw_device.create_compute_pipelines(raw_cache, &info, None) };
        // SAFETY: the module is only needed during pipeline creation.
        unsafe { raw_device.destroy_shader_module(module, None) };
        let pipelines = created.map_err(|(_, r)| map_create("vkCreateComputePipelines", r))?;
        pipeline.raw = pipelines[0];
        Ok(pipeline)
    }

    /// The interface the pipeline was created with.
    pub fn interface(&self) -> &PipelineInterface {
        &self.interface
    }

    /// The raw pipeline.
    pub fn raw(&self) -> vk::Pipeline {
        self.raw
    }

    /// The raw pipeline layout.
    pub fn raw_layout(&self) -> vk::PipelineLayout {
        self.layout
    }
}

impl Drop for ComputePipeline {
    fn drop(&mut self) {
        let d = &self.device.raw;
        // SAFETY: dispatch waits for its work, so nothing uses these
        // objects; destroying null handles (partial construction) is a
        // no-op; pipeline before its layout before the set layouts.
        unsafe {
            d.destroy_pipeline(self.raw, None);
            d.destroy_pipeline_layout(self.layout, None);
            for &l in &self.set_layouts {
                d.destroy_descriptor_set_layout(l, None);
            }
        }
    }
}

/// Checks that `words` look like a SPIR-V module (header and magic).
fn check_spirv(words: &[u32]) -> Result<()> {
    if words.len() < 5 {
        return Err(Error::InvalidSpirv {
            reason: format!(
                "{} words is shorter than the 5-word SPIR-V header",
                words.len()
            ),
        });
    }
    if words[0] != SPIRV_MAGIC {
        return Err(Error::InvalidSpirv {
            reason: format!(
                "first word is {:#010x}, not the SPIR-V magic number {SPIRV_MAGIC:#010x}",
                words[0]
            ),
        });
    }
    Ok(())
}

/// Checks an interface against its invariants and the device limits
/// (bound sets, per-stage descriptor counts, push-constant size, workgroup
/// size per dimension and in total, workgroup memory: every check of
/// [`PipelineInterface::check_limits`]).
pub(crate) fn check_interface(i: &PipelineInterface, l: &Limits) -> Result<()> {
    i.check()?;
    i.check_limits(l)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_abi::{Access, DescriptorType, PushConstantRange, ResourceBinding};

    /// A desktop-like device: the Vulkan 1.0 minimums, raised where a test
    /// needs room, and only two storage buffers per stage.
    fn limits() -> Limits {
        Limits {
            max_compute_work_group_size: [1024, 1024, 64],
            max_compute_work_group_invocations: 1024,
            max_compute_shared_memory_size: 32768,
            max_bound_descriptor_sets: 8,
            max_per_stage_descriptor_storage_buffers: 2,
            max_per_stage_descriptor_storage_images: 8,
            max_uniform_buffer_range: 65536,
            min_storage_buffer_offset_alignment: 16,
            min_uniform_buffer_offset_alignment: 16,
            ..Limits::default()
        }
    }

    fn iface(sets_bindings: &[(u32, u32)]) -> PipelineInterface {
        PipelineInterface {
            entry_point: "main".into(),
            bindings: sets_bindings
                .iter()
                .map(|&(set, binding)| ResourceBinding {
                    set,
                    binding,
                    descriptor_type: DescriptorType::StorageBuffer,
                    access: Access::ReadWrite,
                    min_size: 0,
                    element_stride: Some(4),
                    count: 1,
                    texel_format: None,
                })
                .collect(),
            push_constants: None,
            workgroup_size: [64, 1, 1],
            ..PipelineInterface::default()
        }
    }

    #[test]
    fn limits_are_checked_before_vulkan() {
        assert!(check_interface(&iface(&[(0, 0), (2, 1)]), &limits()).is_ok());
        let err = check_interface(&iface(&[(0, 0), (0, 1), (0, 2)]), &limits()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the number of storage buffers used by entry point \"main\" is 3, \
             above the device limit maxPerStageDescriptorStorageBuffers = 2"
        );
        let err = check_interface(&iface(&[(8, 0)]), &limits()).unwrap_err();
        assert!(
            err.to_string().contains("maxBoundDescriptorSets = 8"),
            "{err}"
        );
        let mut i = iface(&[]);
        i.workgroup_size = [64, 64, 1];
        let err = check_interface(&i, &limits()).unwrap_err();
        assert!(
            err.to_string()
                .contains("maxComputeWorkGroupInvocations = 1024"),
            "{err}"
        );
        let mut i = iface(&[]);
        i.push_constants = Some(PushConstantRange {
            offset: 0,
            size: 256,
        });
        let err = check_interface(&i, &limits()).unwrap_err();
        assert!(
            err.to_string().contains("maxPushConstantsSize = 128"),
            "{err}"
        );
        let mut i = iface(&[]);
        i.workgroup_memory = 40000;
        let err = check_interface(&i, &limits()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the workgroup memory (bytes) of entry point \"main\" is 40000, above the device \
             limit maxComputeSharedMemorySize = 32768"
        );
    }

    #[test]
    fn spirv_header_is_checked() {
        assert!(check_spirv(&[]).is_err());
        let err = check_spirv(&[1, 2, 3, 4, 5]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid SPIR-V module: first word is 0x00000001, not the SPIR-V magic \
             number 0x07230203"
        );
        assert!(check_spirv(&[SPIRV_MAGIC, 0x10000, 0, 1, 0]).is_ok());
    }
}
