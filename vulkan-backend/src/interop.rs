//! Interop with other Vulkan users: the raw handles behind a context and a
//! slice, and a context over an application's own instance and device.
//!
//! - [`Context::raw_handles`] (`unsafe`): the instance, physical device,
//!   device, queue family, queue index and queue a context runs on.
//! - [`BufferRange::raw`] (`unsafe`): the `VkBuffer`, byte offset and size
//!   of a range of a [`Slice`] (what a tensor's bytes are).
//! - [`Context::from_external`] (`unsafe`): a context on an application's
//!   [`ExternalDevice`] (Kompute's `Manager(instance, physicalDevice,
//!   device)` does the same): kiln makes its own command pool, allocator,
//!   pools and pipelines there, and destroys only what it made. The target
//!   env is still queried from the physical device, limited to the
//!   features the application says it enabled.
//!
//! The handles are plain values: nothing stops their use after the context
//! or slice is gone, which is why the accessors are `unsafe` and say what
//! the caller must not do.

use std::sync::MutexGuard;

use ash::vk;

use crate::context::{Context, DeviceParts};
use crate::error::{Error, Result};
use crate::features::DeviceFeatures;
use crate::instance::InstanceShared;
use crate::pool::Slice;

/// The raw Vulkan handles a [`Context`] runs on ([`Context::raw_handles`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawHandles {
    /// The `VkInstance`.
    pub instance: vk::Instance,
    /// The `VkPhysicalDevice`.
    pub physical_device: vk::PhysicalDevice,
    /// The `VkDevice`.
    pub device: vk::Device,
    /// The queue family kiln submits to.
    pub queue_family_index: u32,
    /// The queue's index in its family.
    pub queue_index: u32,
    /// The `VkQueue` kiln submits to. Vulkan requires external
    /// synchronization of a queue: submit to it only while holding
    /// [`Context::lock_queue`].
    pub queue: vk::Queue,
    /// The Vulkan version kiln uses the device at (the lower of the
    /// instance's and the device's), packed.
    pub api_version: u32,
}

/// The raw `VkBuffer` range of a [`BufferRange`] ([`BufferRange::raw`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawBuffer {
    /// The `VkBuffer` (a pool block that other slices share, or memory of
    /// the slice's own).
    pub buffer: vk::Buffer,
    /// Where the range starts in `buffer`, in bytes.
    pub offset: u64,
    /// The range's length in bytes.
    pub size: u64,
}

/// A byte range of a [`Slice`] ([`Slice::range`]), whose raw buffer
/// handle [`raw`](Self::raw) gives out. It borrows the slice, so the
/// range stays allocated while it lives; the raw handle does not.
#[derive(Clone, Copy, Debug)]
pub struct BufferRange<'a> {
    slice: &'a Slice,
    offset: u64,
    size: u64,
}

impl Slice {
    /// The `size` bytes at byte `offset` of the slice, for
    /// [`BufferRange::raw`]; [`Error::OutOfRange`] past the slice's end.
    pub fn range(&self, offset: u64, size: u64) -> Result<BufferRange<'_>> {
        if offset.checked_add(size).is_none_or(|end| end > self.size()) {
            return Err(Error::OutOfRange {
                offset,
                len: size,
                size: self.size(),
            });
        }
        Ok(BufferRange {
            slice: self,
            offset,
            size,
        })
    }
}

impl BufferRange<'_> {
    /// The range's length in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The `VkBuffer` and the range's offset and size in it, for another
    /// Vulkan user's descriptors and commands on the same device.
    ///
    /// # Safety
    ///
    /// The caller must not:
    /// - use the handle after the slice (the tensor and every view of it)
    ///   is dropped, nor let its own work on it run past that point: the
    ///   range goes back to a pool and is handed out again;
    /// - touch bytes of `buffer` outside `offset .. offset + size` (other
    ///   slices live there), destroy the buffer, or bind or free its
    ///   memory;
    /// - access the range while kiln's work on it may run: wait for that
    ///   work first (a sync of the device or stream), and make its own
    ///   work on the range complete (its fence or semaphore waited on)
    ///   before enqueuing kiln work that uses the range — kiln does not
    ///   see other users' accesses;
    /// - use the handle on another `VkDevice` than the slice's context's.
    pub unsafe fn raw(&self) -> RawBuffer {
        RawBuffer {
            buffer: self.slice.raw_buffer(),
            offset: self.slice.offset() + self.offset,
            size: self.size,
        }
    }
}

impl Context {
    /// The raw handles the context runs on, for another Vulkan user of the
    /// same device (recording its own command buffers, importing kiln's
    /// buffers into its descriptors).
    ///
    /// # Safety
    ///
    /// The caller must not:
    /// - destroy any of the handles, or use them after the context's last
    ///   handle (and every object made from it) is dropped — unless it owns
    ///   them itself ([`Context::from_external`]);
    /// - submit to the queue, or wait for it idle, without holding
    ///   [`lock_queue`](Self::lock_queue) (Vulkan requires external
    ///   synchronization of a queue, and kiln submits from any thread);
    /// - call `vkDeviceWaitIdle` while kiln may submit (it also needs every
    ///   queue of the device), or `vkDestroyDevice` at all;
    /// - destroy, reset or free objects kiln made (its command pools,
    ///   buffers, memory, pipelines, semaphores).
    ///
    /// Objects the caller makes with the handles are its own to destroy,
    /// before the context goes if the context owns the device.
    pub unsafe fn raw_handles(&self) -> RawHandles {
        let s = &self.shared;
        RawHandles {
            instance: s.instance.raw.handle(),
            physical_device: s.physical,
            device: s.raw.handle(),
            queue_family_index: s.queue_family,
            queue_index: s.queue_index,
            queue: s.queue_handle,
            api_version: s.api_version,
        }
    }

    /// The context's queue, locked: while the guard lives kiln submits
    /// nothing, so the caller may submit to the queue (through the raw
    /// handles, [`raw_handles`](Self::raw_handles)).
    pub fn lock_queue(&self) -> MutexGuard<'_, vk::Queue> {
        self.shared.queue()
    }

    /// Whether kiln created the device (`false` for
    /// [`Context::from_external`]).
    pub fn owns_device(&self) -> bool {
        self.shared.owns_device()
    }

    /// A context on an application's instance and device (see the module
    /// docs). kiln makes a command pool, an allocator and its other
    /// objects on the device, submits to the given queue, and destroys only
    /// what it made, when the last handle on the context (and every
    /// object made from it) is dropped; then it calls
    /// [`ExternalDevice::on_release`]. The target env is queried from the
    /// physical device, with the features limited to
    /// [`ExternalDevice::enabled_features`].
    ///
    /// Errors ([`Error::ExternalDevice`]): the physical device is not one of
    /// the instance's, the queue family cannot compute, or has no queue
    /// `queue_index`.
    ///
    /// # Safety
    ///
    /// The caller guarantees that:
    /// - `instance` was created from `entry` with API version
    ///   `instance_api_version`, and `device` from `instance` and
    ///   `physical_device`, with a queue at `queue_index` of family
    ///   `queue_family_index`, the device extensions in
    ///   `enabled_extensions` and at least the features in
    ///   `enabled_features` enabled;
    /// - the device has timeline semaphores enabled: the
    ///   `timelineSemaphore` feature (Vulkan 1.2+), or
    ///   `VK_KHR_timeline_semaphore` with its feature (Vulkan 1.1);
    /// - the instance and device stay alive until `on_release` is called
    ///   (or, without it, until every kiln object on the context is
    ///   dropped), and nothing else destroys kiln's objects;
    /// - nothing else uses the queue while kiln may submit to it, except
    ///   under [`lock_queue`](Self::lock_queue), and nothing calls
    ///   `vkDeviceWaitIdle` meanwhile.
    pub unsafe fn from_external(external: ExternalDevice) -> Result<Self> {
        let ExternalDevice {
            entry,
            instance,
            instance_api_version,
            physical_device,
            device,
            queue_family_index,
            queue_index,
            enabled_extensions,
            enabled_features,
            on_release,
        } = external;
        let instance = InstanceShared::external(entry, instance, instance_api_version);
        let reason = |reason: String| Error::ExternalDevice { reason };
        // SAFETY: the instance is alive (the caller's contract).
        let devices = unsafe { instance.raw.enumerate_physical_devices() }
            .map_err(|r| crate::error::map_enumerate("vkEnumeratePhysicalDevices", r))?;
        let Some(index) = devices.iter().position(|&d| d == physical_device) else {
            return Err(reason(format!(
                "the physical device {physical_device:?} is not one of the instance's {} devices",
                devices.len()
            )));
        };
        let summary = crate::device::summarize(&instance, physical_device, index)?;
        // SAFETY: `physical_device` belongs to the live instance (checked).
        let families = unsafe {
            instance
                .raw
                .get_physical_device_queue_family_properties(physical_device)
        };
        let family = families.get(queue_family_index as usize);
        if !family.is_some_and(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE)) {
            return Err(reason(format!(
                "queue family {queue_family_index} of {} cannot run compute work",
                summary.name
            )));
        }
        if family.is_some_and(|f| queue_index >= f.queue_count) {
            return Err(reason(format!(
                "queue family {queue_family_index} of {} has no queue {queue_index}",
                summary.name
            )));
        }
        let mut query = crate::target_env::query(&instance, physical_device, summary.clone())?;
        // What the application enabled, of what kiln would have.
        let app = enabled_features.to_set();
        query.enabled_features.retain(|f| app.contains(f));
        let has = |name: &std::ffi::CStr| {
            enabled_extensions
                .iter()
                .any(|e| name.to_str().is_ok_and(|n| n == e))
        };
        // SAFETY: as above.
        let props = unsafe { instance.raw.get_physical_device_properties(physical_device) };
        let version = props.api_version.min(instance.api_version);
        let timeline_ext = version < vk::API_VERSION_1_2 && has(ash::khr::timeline_semaphore::NAME);
        // SAFETY: as above.
        let memory = unsafe {
            instance
                .raw
                .get_physical_device_memory_properties(physical_device)
        };
        let host_page = if has(ash::ext::external_memory_host::NAME) {
            crate::host_import::HostImport::query(
                &instance.raw,
                physical_device,
                true,
                version,
                crate::conv::unified_memory(&memory),
            )
        } else {
            None
        };
        let external_fd = version >= vk::API_VERSION_1_1 && has(ash::khr::external_memory_fd::NAME);
        Context::assemble(DeviceParts {
            instance,
            physical: physical_device,
            summary,
            query,
            raw: device,
            queue_family: queue_family_index,
            queue_index,
            timeline_ext,
            host_page,
            external_fd,
            owns_device: false,
            on_release,
        })
    }
}

/// An application's Vulkan objects for [`Context::from_external`].
pub struct ExternalDevice {
    /// The loader entry points the instance was created with.
    pub entry: ash::Entry,
    /// The application's instance.
    pub instance: ash::Instance,
    /// The `apiVersion` the instance was created with (packed).
    pub instance_api_version: u32,
    /// The physical device the device was created on.
    pub physical_device: vk::PhysicalDevice,
    /// The application's device.
    pub device: ash::Device,
    /// The queue family kiln submits to (it must support compute).
    pub queue_family_index: u32,
    /// The queue of that family kiln submits to.
    pub queue_index: u32,
    /// The device extensions the application enabled
    /// (`VK_KHR_external_memory_fd` lets kiln share memory as file
    /// descriptors, `VK_EXT_external_memory_host` import host memory).
    pub enabled_extensions: Vec<String>,
    /// The features the application enabled, of those kiln uses: kiln
    /// compiles only for these (the target env's capabilities).
    pub enabled_features: DeviceFeatures,
    /// Called once kiln destroyed everything it made on the device: from
    /// then on the application may destroy the device and the instance.
    pub on_release: Option<Box<dyn FnOnce() + Send + Sync>>,
}

impl std::fmt::Debug for ExternalDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExternalDevice")
            .field("instance", &self.instance.handle())
            .field("physical_device", &self.physical_device)
            .field("device", &self.device.handle())
            .field("queue_family_index", &self.queue_family_index)
            .field("queue_index", &self.queue_index)
            .field("enabled_extensions", &self.enabled_extensions)
            .finish_non_exhaustive()
    }
}
