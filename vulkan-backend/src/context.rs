//! The context: one logical device with a compute queue, a command pool and
//! a memory allocator.
//!
//! [`Context`] is a cheap handle on a shared [`DeviceShared`]; buffers and
//! pipelines hold the same `Arc`, so the device outlives every object made
//! on it whatever order they are dropped in. The device-level objects are
//! destroyed in reverse order of creation: command pool, allocator memory,
//! device; then the instance (its own `Arc`) with its messenger.

use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use ash::vk;
use gpu_allocator::vulkan::{Allocator, AllocatorCreateDesc};
use gpu_allocator::{AllocationSizes, AllocatorDebugSettings};

use crate::debug::{self, ValidationMessage};
use crate::device::{self, DeviceSelector, DeviceSummary};
use crate::error::{map_create, map_create_device, map_family, map_queue, Error, Result};
use crate::fault::{CallFamily, FaultInjector, FaultTimes, InjectedFault};
use crate::features::{DeviceFeatures, FeatureChain};
use crate::instance::InstanceShared;
use crate::target_env;
use kiln_abi::Limits;

/// How to create a [`Context`].
///
/// The environment adds to it: `KILN_VALIDATION=1` (or `true`/`yes`/`on`)
/// turns validation on even when `validation` is false, and `KILN_DEVICE`
/// selects the device when `device` is [`DeviceSelector::Default`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContextOptions {
    /// Enable `VK_LAYER_KHRONOS_validation` and collect its messages. Fails
    /// with [`Error::LayerNotPresent`] when the layer is not installed.
    pub validation: bool,
    /// Which physical device to use.
    pub device: DeviceSelector,
}

impl ContextOptions {
    /// These options with the environment's additions applied (see the
    /// type's documentation).
    pub fn with_env(&self) -> Self {
        let validation = self.validation
            || std::env::var(crate::ENV_VALIDATION).is_ok_and(|v| {
                matches!(
                    v.trim().to_ascii_lowercase().as_str(),
                    "1" | "true" | "yes" | "on"
                )
            });
        let device = match &self.device {
            DeviceSelector::Default => DeviceSelector::from_env().unwrap_or_default(),
            other => other.clone(),
        };
        Self { validation, device }
    }
}

/// What a context shares with its buffers and pipelines.
pub(crate) struct DeviceShared {
    pub(crate) raw: ash::Device,
    pub(crate) physical: vk::PhysicalDevice,
    pub(crate) queue_family: u32,
    /// The queue's index in its family.
    pub(crate) queue_index: u32,
    /// The effective Vulkan version (the lower of instance and device).
    pub(crate) api_version: u32,
    /// The queue's handle, for [`Context::raw_handles`] (use it only
    /// under `queue`'s lock).
    pub(crate) queue_handle: vk::Queue,
    queue: Mutex<vk::Queue>,
    command_pool: Mutex<vk::CommandPool>,
    allocator: ManuallyDrop<Mutex<Allocator>>,
    pub(crate) summary: DeviceSummary,
    pub(crate) features: DeviceFeatures,
    pub(crate) limits: Limits,
    /// Timestamps on the compute queue: nanoseconds per tick and the mask
    /// of valid bits; `None` when the queue family writes no timestamps.
    pub(crate) timestamps: Option<TimestampClock>,
    /// The device's target env, derived once at creation.
    pub(crate) target_env: kiln_core::target::TargetEnv,
    /// The one device query the context was made from.
    pub(crate) query: target_env::DeviceQuery,
    /// Object-creating and command-recording calls made since creation
    /// (see [`Context::vulkan_call_count`]).
    calls: AtomicU64,
    /// Faults armed by tests ([`Context::inject_fault`]).
    pub(crate) faults: FaultInjector,
    /// Set once any call reported `VK_ERROR_DEVICE_LOST` (real or injected).
    lost: AtomicBool,
    /// How timeline semaphores are reached, if at all.
    pub(crate) timeline: TimelineFns,
    /// What a pipeline cache made on this device is keyed by.
    pub(crate) cache_identity: PipelineCacheIdentity,
    /// Whether device-local memory is also host-visible and coherent
    /// (integrated GPUs, CPU implementations such as lavapipe).
    pub(crate) unified_memory: bool,
    /// The most bytes one memory allocation (hence one pool block) may
    /// have: `maxMemoryAllocationSize` and, where the device reports it,
    /// `maxBufferSize` (a block is one buffer), or a lower limit a test
    /// forced ([`Context::with_max_allocation_size`]).
    pub(crate) max_allocation_size: u64,
    /// Which texel formats buffers can be viewed as, read once.
    pub(crate) texel_support: crate::texel::TexelSupport,
    /// Importing host memory (`VK_EXT_external_memory_host`), where the
    /// device offers it (see [`Context::import_host`]).
    pub(crate) host_import: Option<crate::host_import::HostImport>,
    /// Exporting and importing memory as file descriptors
    /// (`VK_KHR_external_memory_fd`), where the device has it enabled (see
    /// `external_fd`).
    pub(crate) external_fd: Option<crate::external_fd::ExternalFd>,
    /// Whether kiln created the device (and destroys it); `false` for an
    /// application's device ([`Context::from_external`]).
    owns_device: bool,
    /// Called once kiln destroyed everything it made on an application's
    /// device ([`crate::ExternalDevice::on_release`]).
    on_release: Option<Box<dyn FnOnce() + Send + Sync>>,
    /// Dropped after the device (fields drop after `Drop::drop`).
    pub(crate) instance: Arc<InstanceShared>,
}

/// How to read the compute queue's timestamps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TimestampClock {
    /// `timestampPeriod`: nanoseconds per tick.
    pub(crate) period_ns: f64,
    /// The bits of a timestamp that count (`timestampValidBits`).
    pub(crate) mask: u64,
}

/// How the device's timeline-semaphore entry points are reached.
pub(crate) enum TimelineFns {
    /// Vulkan 1.2 core (the `timelineSemaphore` feature is enabled).
    Core,
    /// `VK_KHR_timeline_semaphore` on a Vulkan 1.1 device.
    Khr(ash::khr::timeline_semaphore::Device),
    /// Neither.
    Unsupported,
}

/// What identifies the driver a `VkPipelineCache` blob was made by: the
/// device's `pipelineCacheUUID`, vendor and device ids and driver version.
/// A blob made under another identity must not be given to the driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipelineCacheIdentity {
    /// `VkPhysicalDeviceProperties::vendorID`.
    pub vendor_id: u32,
    /// `VkPhysicalDeviceProperties::deviceID`.
    pub device_id: u32,
    /// `VkPhysicalDeviceProperties::driverVersion`.
    pub driver_version: u32,
    /// `VkPhysicalDeviceProperties::pipelineCacheUUID`.
    pub uuid: [u8; 16],
}

impl TimestampClock {
    /// The clock of queue family `family` of a device whose
    /// `timestampPeriod` is `period_ns`.
    fn of(family: &vk::QueueFamilyProperties, period_ns: f32) -> Option<Self> {
        let bits = family.timestamp_valid_bits;
        if bits == 0 || period_ns <= 0.0 {
            return None;
        }
        let mask = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        Some(Self {
            period_ns: f64::from(period_ns),
            mask,
        })
    }
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl DeviceShared {
    /// The queue, locked (queue submission must be externally synchronized).
    pub(crate) fn queue(&self) -> MutexGuard<'_, vk::Queue> {
        lock(&self.queue)
    }

    /// The command pool, locked (allocation, recording and freeing of its
    /// command buffers must be externally synchronized).
    pub(crate) fn command_pool(&self) -> MutexGuard<'_, vk::CommandPool> {
        lock(&self.command_pool)
    }

    /// The memory allocator, locked.
    pub(crate) fn allocator(&self) -> MutexGuard<'_, Allocator> {
        lock(&self.allocator)
    }

    /// Counts one `vkCreate*` / `vkAllocate*` / `vkBind*Memory` /
    /// `vkUpdateDescriptorSets` / `vkBeginCommandBuffer` / `vkCmd*` /
    /// `vkQueueSubmit` call, made right after this.
    pub(crate) fn note_call(&self) {
        self.calls.fetch_add(1, Ordering::Relaxed);
    }

    /// Makes one call of `family`: counts it, lets an armed fault replace
    /// it ([`crate::fault`]), and maps a failure with the family's mapper
    /// ([`map_family`]), remembering a device loss.
    pub(crate) fn call<T>(
        &self,
        family: CallFamily,
        call: &'static str,
        f: impl FnOnce() -> ash::prelude::VkResult<T>,
    ) -> Result<T> {
        self.note_call();
        let result = match self.faults.take(family) {
            Some(code) => Err(code),
            None => f(),
        };
        result.map_err(|code| self.failed(family, call, code))
    }

    /// The typed error of `call` (of `family`) failing with `code`;
    /// remembers a device loss.
    pub(crate) fn failed(&self, family: CallFamily, call: &'static str, code: vk::Result) -> Error {
        if code == vk::Result::ERROR_DEVICE_LOST {
            self.lost.store(true, Ordering::Release);
        }
        map_family(family, call, code)
    }

    /// Blocks until the queue is idle, ignoring errors (a lost device has
    /// nothing left to wait for): what drop paths call before destroying an
    /// object queued work may still touch. `vkQueueWaitIdle` also drains a
    /// driver's submit thread (Mesa's threaded submit, used by lavapipe),
    /// which can still be finishing a submission, and touching its
    /// semaphores, after the submission's timeline value is visible.
    pub(crate) fn wait_idle_for_drop(&self) {
        let queue = self.queue();
        // SAFETY: the queue belongs to the live device; holding its lock
        // synchronizes queue access as Vulkan requires.
        let _ = unsafe { self.raw.queue_wait_idle(*queue) };
    }

    /// Whether kiln created the device.
    pub(crate) fn owns_device(&self) -> bool {
        self.owns_device
    }

    /// Whether a call reported the device lost.
    pub(crate) fn is_lost(&self) -> bool {
        self.lost.load(Ordering::Acquire)
    }
}

impl Drop for DeviceShared {
    fn drop(&mut self) {
        // SAFETY: no other reference to the device exists (this is the last
        // Arc); waiting makes sure no work is pending before destruction. A
        // failure (device lost) leaves nothing to wait for.
        let _ = unsafe { self.raw.device_wait_idle() };
        // SAFETY: every command buffer of the pool was freed by its dispatch.
        unsafe {
            self.raw.destroy_command_pool(
                *self
                    .command_pool
                    .get_mut()
                    .unwrap_or_else(PoisonError::into_inner),
                None,
            )
        };
        // SAFETY: the allocator is dropped exactly once, here, before the
        // device its memory belongs to; every allocation was freed by its
        // buffer (buffers hold an Arc to this struct).
        unsafe { ManuallyDrop::drop(&mut self.allocator) };
        if self.owns_device {
            // SAFETY: every object created from the device is gone.
            unsafe { self.raw.destroy_device(None) };
        }
        if let Some(release) = self.on_release.take() {
            release();
        }
    }
}

/// A Vulkan device ready for compute: the entry point of the runtime.
///
/// `Context` is `Send + Sync`; dispatches from several threads are
/// serialized on the queue.
#[derive(Clone)]
pub struct Context {
    pub(crate) shared: Arc<DeviceShared>,
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("device", &self.shared.summary)
            .field("validation", &self.shared.instance.validation)
            .finish_non_exhaustive()
    }
}

impl Context {
    /// Creates a context: loads Vulkan, creates the instance (with
    /// validation if asked), selects the device, creates the logical device,
    /// the compute queue, the command pool and the allocator. The
    /// environment may add to `options` (see [`ContextOptions`]).
    pub fn new(options: &ContextOptions) -> Result<Self> {
        let options = options.with_env();
        let instance = InstanceShared::new(options.validation)?;
        let devices = device::physical_devices(&instance)?;
        let summaries: Vec<DeviceSummary> = devices.iter().map(|(_, s)| s.clone()).collect();
        let chosen = options.device.pick(&summaries)?;
        let (physical, summary) = devices[chosen].clone();
        // SAFETY: `physical` was enumerated from the live instance.
        let props = unsafe { instance.raw.get_physical_device_properties(physical) };
        // SAFETY: `physical` was enumerated from the live instance.
        let families = unsafe {
            instance
                .raw
                .get_physical_device_queue_family_properties(physical)
        };
        let queue_family =
            compute_queue_family(&families).ok_or_else(|| Error::NoComputeQueue {
                device: summary.name.clone(),
            })?;

        // One query feeds the features to enable, the limits, the
        // extension list and the target env.
        let query = target_env::query(&instance, physical, summary.clone())?;
        let features = DeviceFeatures::from_set(&query.enabled_features);
        let version = props.api_version.min(instance.api_version);
        let mut enable = FeatureChain::enabling(&features, version);

        let mut extensions = Vec::new();
        if query.has_extension("VK_KHR_portability_subset") {
            extensions.push(ash::khr::portability_subset::NAME.as_ptr());
        }
        // Timeline semaphores: core (and required) from Vulkan 1.2; the
        // extension's feature is required wherever the extension is.
        let timeline_ext = (vk::API_VERSION_1_1..vk::API_VERSION_1_2).contains(&version)
            && query.has_extension("VK_KHR_timeline_semaphore");
        if timeline_ext {
            extensions.push(ash::khr::timeline_semaphore::NAME.as_ptr());
        }
        // `cooperativeMatrix` is enabled only where the device reports it,
        // which it does only with the extension.
        if enable.enables_cooperative_matrix() {
            extensions.push(ash::khr::cooperative_matrix::NAME.as_ptr());
        }
        // Host memory import: where the device offers it on unified memory
        // (its dependency, VK_KHR_external_memory, is core from 1.1).
        // SAFETY: `physical` was enumerated from the live instance.
        let memory = unsafe { instance.raw.get_physical_device_memory_properties(physical) };
        let unified_memory = crate::conv::unified_memory(&memory);
        let host_page = crate::host_import::HostImport::query(
            &instance.raw,
            physical,
            query.has_extension("VK_EXT_external_memory_host"),
            version,
            unified_memory,
        );
        if host_page.is_some() {
            extensions.push(ash::ext::external_memory_host::NAME.as_ptr());
        }
        // Memory shared as file descriptors (1.1+, where its dependency
        // VK_KHR_external_memory is core).
        let external_fd =
            version >= vk::API_VERSION_1_1 && query.has_extension("VK_KHR_external_memory_fd");
        if external_fd {
            extensions.push(ash::khr::external_memory_fd::NAME.as_ptr());
        }
        enable.enable_timeline_semaphore();
        // SAFETY: `physical` was enumerated from the live instance.
        let core_features = unsafe { instance.raw.get_physical_device_features(physical) };
        if core_features.robust_buffer_access == vk::TRUE {
            enable.enable_robust_buffer_access();
        }
        let mut timeline_features =
            vk::PhysicalDeviceTimelineSemaphoreFeatures::default().timeline_semaphore(true);
        let priorities = [1.0f32];
        let queue_info = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(queue_family)
            .queue_priorities(&priorities)];
        let raw = enable.with_create_chain(|features2, core| {
            let mut info = vk::DeviceCreateInfo::default()
                .queue_create_infos(&queue_info)
                .enabled_extension_names(&extensions);
            info = match features2 {
                Some(f2) => info.push_next(f2),
                None => info.enabled_features(core),
            };
            if timeline_ext {
                info = info.push_next(&mut timeline_features);
            }
            // SAFETY: `info` and the structs it points to live across the
            // call; the features enabled are a subset of those the device
            // reported; the queue family exists.
            unsafe { instance.raw.create_device(physical, &info, None) }
        });
        let raw = raw.map_err(map_create_device)?;
        Self::assemble(DeviceParts {
            instance,
            physical,
            summary,
            query,
            raw,
            queue_family,
            queue_index: 0,
            timeline_ext,
            host_page,
            external_fd,
            owns_device: true,
            on_release: None,
        })
    }

    /// The context over a logical device made by [`Context::new`] or
    /// given by an application ([`Context::from_external`]): its queue, a
    /// command pool, an allocator and the entry points of the enabled
    /// extensions. On failure the device is destroyed if kiln owns it.
    pub(crate) fn assemble(parts: DeviceParts) -> Result<Self> {
        let DeviceParts {
            instance,
            physical,
            summary,
            query,
            raw,
            queue_family,
            queue_index,
            timeline_ext,
            host_page,
            external_fd,
            owns_device,
            on_release,
        } = parts;
        // SAFETY: `physical` belongs to the live instance.
        let props = unsafe { instance.raw.get_physical_device_properties(physical) };
        // SAFETY: as above.
        let families = unsafe {
            instance
                .raw
                .get_physical_device_queue_family_properties(physical)
        };
        let timestamps = families
            .get(queue_family as usize)
            .and_then(|f| TimestampClock::of(f, query.timestamp_period));
        let limits = query.limits;
        let features = DeviceFeatures::from_set(&query.enabled_features);
        let target_env = query.target_env();
        let version = props.api_version.min(instance.api_version);
        // SAFETY: as above.
        let memory = unsafe { instance.raw.get_physical_device_memory_properties(physical) };
        let unified_memory = crate::conv::unified_memory(&memory);
        let max_allocation_size =
            crate::pool::max_allocation_size(&instance.raw, physical, version, &memory);

        // From here on, `partial` destroys what exists if a step fails.
        let mut partial = PartialDevice {
            raw: &raw,
            pool: vk::CommandPool::null(),
            owns_device,
        };
        // SAFETY: the queue family was created with a queue at `queue_index`
        // (kiln's own device: one queue; an application's: its contract).
        let queue = unsafe { raw.get_device_queue(queue_family, queue_index) };
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(queue_family)
            .flags(vk::CommandPoolCreateFlags::TRANSIENT);
        // SAFETY: valid create info for the live device.
        let pool = unsafe { raw.create_command_pool(&pool_info, None) }
            .map_err(|r| map_create("vkCreateCommandPool", r))?;
        partial.pool = pool;
        let allocator = Allocator::new(&AllocatorCreateDesc {
            instance: instance.raw.clone(),
            device: raw.clone(),
            physical_device: physical,
            debug_settings: AllocatorDebugSettings::default(),
            buffer_device_address: false,
            allocation_sizes: AllocationSizes::default(),
        })
        .map_err(|source| Error::Allocation {
            what: "the allocator".to_owned(),
            source,
        })?;
        std::mem::forget(partial);
        let timeline = if version >= vk::API_VERSION_1_2 {
            TimelineFns::Core
        } else if timeline_ext {
            TimelineFns::Khr(ash::khr::timeline_semaphore::Device::new(
                &instance.raw,
                &raw,
            ))
        } else {
            TimelineFns::Unsupported
        };
        let cache_identity = PipelineCacheIdentity {
            vendor_id: props.vendor_id,
            device_id: props.device_id,
            driver_version: props.driver_version,
            uuid: props.pipeline_cache_uuid,
        };
        let host_import =
            host_page.map(|page| crate::host_import::HostImport::new(&instance.raw, &raw, page));
        let external_fd = external_fd
            .then(|| crate::external_fd::ExternalFd::new(&instance.raw, physical, &raw))
            .flatten();
        let texel_support = crate::texel::TexelSupport::query(&instance.raw, physical);

        Ok(Self {
            shared: Arc::new(DeviceShared {
                raw,
                physical,
                queue_family,
                queue_index,
                api_version: version,
                queue_handle: queue,
                queue: Mutex::new(queue),
                command_pool: Mutex::new(pool),
                allocator: ManuallyDrop::new(Mutex::new(allocator)),
                summary,
                features,
                limits,
                timestamps,
                target_env,
                query,
                calls: AtomicU64::new(0),
                faults: FaultInjector::default(),
                lost: AtomicBool::new(false),
                timeline,
                cache_identity,
                unified_memory,
                max_allocation_size,
                texel_support,
                host_import,
                external_fd,
                owns_device,
                on_release,
                instance,
            }),
        })
    }

    /// The selected device.
    pub fn device_summary(&self) -> &DeviceSummary {
        &self.shared.summary
    }

    /// The optional features enabled on the device (all the supported ones).
    pub fn features(&self) -> &DeviceFeatures {
        &self.shared.features
    }

    /// Checks a SPIR-V binary kiln did not produce itself (a user's file,
    /// a test's shader) with spirv-val for this device: the Vulkan
    /// environment of the device's SPIR-V version, with the block layouts
    /// its enabled features allow. Drivers are not required to survive
    /// invalid modules (lavapipe crashes on some), so such a binary must
    /// pass this before any `vkCreate*` call takes it.
    pub fn validate_binary(
        &self,
        words: &[u32],
    ) -> Result<(), kiln_core::validate::ValidationError> {
        let (env, rules) = self.validation_rules();
        kiln_core::validate::validate_with(words, env, rules)
    }

    /// The spirv-val environment and layout rules of this device (see
    /// [`validate_binary`](Self::validate_binary)).
    pub fn validation_rules(
        &self,
    ) -> (
        kiln_core::validate::ValidationEnv,
        kiln_core::validate::LayoutRules,
    ) {
        let env = kiln_core::validate::ValidationEnv::for_vulkan_module(
            self.shared.target_env.vce.version,
        );
        let rules = kiln_core::validate::LayoutRules {
            scalar_block_layout: self.shared.features.scalar_block_layout,
            uniform_buffer_standard_layout: false,
        };
        (env, rules)
    }

    /// This context with its `maxStorageBufferRange` lowered to `bytes` (in
    /// its limits and its target env; never raised): kernels compiled for
    /// it split larger buffers across descriptors, and dispatches are
    /// checked against the lower range. For tests of that path on a device
    /// whose own range is large. An error once the context is shared (a
    /// buffer, pipeline or clone of it exists).
    pub fn with_storage_buffer_range(mut self, bytes: u32) -> Result<Self> {
        let shared = Arc::get_mut(&mut self.shared).ok_or(Error::Unsupported {
            what: "lowering maxStorageBufferRange of a context already shared",
        })?;
        let bytes = bytes.min(shared.limits.max_storage_buffer_range);
        shared.limits.max_storage_buffer_range = bytes;
        shared.target_env.limits.max_storage_buffer_range = bytes;
        Ok(self)
    }

    /// This context with the size of its largest memory allocation
    /// lowered to `bytes` (never raised; at least 4 KiB): every pool
    /// block is at most that large, and a slice larger than it is refused
    /// ([`Error::AllocationTooLarge`]), so kiln-runtime makes a larger
    /// tensor of several allocations. For tests of that path on a device
    /// whose own limit (`maxMemoryAllocationSize`, gigabytes) is past
    /// what a test can allocate. An error once the context is shared.
    pub fn with_max_allocation_size(mut self, bytes: u64) -> Result<Self> {
        let shared = Arc::get_mut(&mut self.shared).ok_or(Error::Unsupported {
            what: "lowering maxMemoryAllocationSize of a context already shared",
        })?;
        shared.max_allocation_size = bytes.max(1 << 12).min(shared.max_allocation_size);
        Ok(self)
    }

    /// The most bytes one memory allocation may have: the device's
    /// `maxMemoryAllocationSize` (and `maxBufferSize` where reported), or
    /// the lower limit of [`with_max_allocation_size`](Self::with_max_allocation_size).
    pub fn max_allocation_size(&self) -> u64 {
        self.shared.max_allocation_size
    }

    /// The device limits dispatch checks against.
    pub fn limits(&self) -> &Limits {
        &self.shared.limits
    }

    /// How many Vulkan calls that create or allocate an object
    /// (`vkCreate*`, `vkAllocate*`, `vkBindBufferMemory`), write descriptors
    /// (`vkUpdateDescriptorSets`), record commands (`vkBeginCommandBuffer`,
    /// `vkCmd*`) or submit work (`vkQueueSubmit`) buffers, pipelines and
    /// dispatches of this context have made since it was created (the
    /// context's own set-up is not counted). Tests compare it before and
    /// after a call that must fail its checks before touching Vulkan.
    pub fn vulkan_call_count(&self) -> u64 {
        self.shared.calls.load(Ordering::Relaxed)
    }

    /// The device's target env: what modules compiled for this context may
    /// use (the SPIR-V version, capabilities and extensions of the features
    /// it enabled, and the device's limits). Derived once at creation; the
    /// same as [`query_target_env`](crate::query_target_env) gives for the
    /// device without a context.
    pub fn target_env(&self) -> &kiln_core::target::TargetEnv {
        &self.shared.target_env
    }

    /// What the device reported when the context was made (extensions,
    /// supported and enabled features, subgroup and float-controls
    /// properties, limits): the query behind [`features`](Self::features),
    /// [`limits`](Self::limits) and [`target_env`](Self::target_env).
    pub fn device_query(&self) -> &target_env::DeviceQuery {
        &self.shared.query
    }

    /// Arms a fault: the next call(s) of `family` made by this context's
    /// stream building blocks ([`BlockPool`](crate::BlockPool),
    /// [`CommandBatch`](crate::CommandBatch), [`Timeline`](crate::Timeline),
    /// [`PipelineCache`](crate::PipelineCache)) are not made and fail with
    /// `fault` instead, through the family's own error mapper. A test hook
    /// (see the [`fault`](crate::fault) module); a device loss injected this
    /// way is remembered as a real one is ([`is_lost`](Self::is_lost)).
    pub fn inject_fault(&self, family: CallFamily, fault: InjectedFault, times: FaultTimes) {
        self.shared.faults.arm(family, fault, times);
    }

    /// Disarms every fault armed with [`inject_fault`](Self::inject_fault).
    pub fn clear_faults(&self) {
        self.shared.faults.clear();
    }

    /// Whether a call of this context reported `VK_ERROR_DEVICE_LOST`
    /// (real or injected). A lost device stays lost.
    pub fn is_lost(&self) -> bool {
        self.shared.is_lost()
    }

    /// What a pipeline-cache blob of this device is keyed by.
    pub fn pipeline_cache_identity(&self) -> PipelineCacheIdentity {
        self.shared.cache_identity
    }

    /// Whether the device's main device-local memory is also host-visible
    /// and coherent (integrated GPUs, lavapipe): buffers there can be
    /// written and read by the host directly, without staging copies.
    pub fn has_unified_memory(&self) -> bool {
        self.shared.unified_memory
    }

    /// Whether timeline semaphores are available (Vulkan 1.2, or
    /// `VK_KHR_timeline_semaphore` on 1.1): what [`Timeline`](crate::Timeline)
    /// needs.
    pub fn has_timeline_semaphores(&self) -> bool {
        !matches!(self.shared.timeline, TimelineFns::Unsupported)
    }

    /// Whether the validation layer is on.
    pub fn validation_enabled(&self) -> bool {
        self.shared.instance.validation
    }

    /// The validation messages reported so far and not yet taken.
    pub fn validation_messages(&self) -> Vec<ValidationMessage> {
        debug::lock(&self.shared.instance.messages).clone()
    }

    /// Takes (and clears) the validation messages reported so far.
    pub fn take_validation_messages(&self) -> Vec<ValidationMessage> {
        std::mem::take(&mut *debug::lock(&self.shared.instance.messages))
    }

    /// Blocks until the device is idle.
    pub fn wait_idle(&self) -> Result<()> {
        let _queue = self.shared.queue();
        // SAFETY: the device is alive; queue access is synchronized by
        // holding the queue lock.
        unsafe { self.shared.raw.device_wait_idle() }.map_err(|r| map_queue("vkDeviceWaitIdle", r))
    }

    /// The raw instance, for calls kiln does not wrap. Everything done
    /// through it is unchecked; objects made with it must be destroyed
    /// before the context's last handle is dropped.
    pub fn raw_instance(&self) -> &ash::Instance {
        &self.shared.instance.raw
    }

    /// The loaded Vulkan entry points (for instance-level calls kiln does
    /// not wrap).
    pub fn raw_entry(&self) -> &ash::Entry {
        &self.shared.instance.entry
    }

    /// The raw physical device.
    pub fn raw_physical_device(&self) -> vk::PhysicalDevice {
        self.shared.physical
    }

    /// The raw logical device, for calls kiln does not wrap (see
    /// [`raw_instance`](Self::raw_instance)).
    pub fn raw_device(&self) -> &ash::Device {
        &self.shared.raw
    }

    /// The index of the compute queue family in use.
    pub fn queue_family_index(&self) -> u32 {
        self.shared.queue_family
    }

    /// Whether `other` is a handle on the same device as `self`.
    pub(crate) fn owns(&self, device: &Arc<DeviceShared>) -> bool {
        Arc::ptr_eq(&self.shared, device)
    }
}

/// What [`Context::assemble`] builds a context from.
pub(crate) struct DeviceParts {
    pub(crate) instance: Arc<InstanceShared>,
    pub(crate) physical: vk::PhysicalDevice,
    pub(crate) summary: DeviceSummary,
    /// The device's query, its `enabled_features` those enabled on `raw`.
    pub(crate) query: target_env::DeviceQuery,
    pub(crate) raw: ash::Device,
    pub(crate) queue_family: u32,
    pub(crate) queue_index: u32,
    /// `VK_KHR_timeline_semaphore` is enabled (a Vulkan 1.1 device).
    pub(crate) timeline_ext: bool,
    /// `VK_EXT_external_memory_host` is enabled, with this alignment.
    pub(crate) host_page: Option<u64>,
    /// `VK_KHR_external_memory_fd` is enabled.
    pub(crate) external_fd: bool,
    pub(crate) owns_device: bool,
    pub(crate) on_release: Option<Box<dyn FnOnce() + Send + Sync>>,
}

/// Destroys a half-built context on early return from
/// [`Context::assemble`] (the device too when kiln owns it).
struct PartialDevice<'a> {
    raw: &'a ash::Device,
    pool: vk::CommandPool,
    owns_device: bool,
}

impl Drop for PartialDevice<'_> {
    fn drop(&mut self) {
        // SAFETY: nothing else uses the device yet; the pool is null or
        // created from it (destroying a null handle is a no-op); an
        // application's device is left alone.
        unsafe {
            self.raw.destroy_command_pool(self.pool, None);
            if self.owns_device {
                self.raw.destroy_device(None);
            }
        }
    }
}

/// A queue family with compute support, preferring one without graphics
/// (a dedicated compute family).
fn compute_queue_family(families: &[vk::QueueFamilyProperties]) -> Option<u32> {
    let compute = |f: &vk::QueueFamilyProperties| {
        f.queue_count > 0 && f.queue_flags.contains(vk::QueueFlags::COMPUTE)
    };
    let dedicated = families
        .iter()
        .position(|f| compute(f) && !f.queue_flags.contains(vk::QueueFlags::GRAPHICS));
    dedicated
        .or_else(|| families.iter().position(compute))
        .and_then(|i| u32::try_from(i).ok())
}
