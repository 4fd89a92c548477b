//! Test support (hidden from the docs; not an API): an "application"
//! that creates its own Vulkan instance and device with ash, as an
//! embedder of kiln would, so that tests outside this crate (which may
//! not use `unsafe`) can run kiln on it through [`Context::from_external`],
//! and another Vulkan user writing a buffer through kiln's raw handles.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use ash::vk;

use crate::debug::{self, DebugMessenger, MessageSink, ValidationMessage};
use crate::error::{map_create_device, map_create_instance, Error, Result};
use crate::features::{DeviceFeatures, FeatureChain};
use crate::interop::{BufferRange, ExternalDevice};
use crate::{Context, DeviceSelector};

/// What the application enables.
#[derive(Clone, Debug, Default)]
pub struct AppOptions {
    /// The Khronos validation layer, its messages collected by the
    /// application ([`AppVulkan::take_validation_messages`]).
    pub validation: bool,
    /// The features it enables (each only where the device supports it);
    /// timeline semaphores are always enabled.
    pub features: DeviceFeatures,
    /// Enable `VK_KHR_external_memory_fd` where the device offers it.
    pub external_memory_fd: bool,
}

/// An application's instance and device (Vulkan 1.2+, one compute queue),
/// destroyed by its drop — unless a kiln context made on it
/// ([`kiln_context`](Self::kiln_context)) has not released it yet, in
/// which case they are leaked rather than destroyed under kiln.
pub struct AppVulkan {
    entry: ash::Entry,
    instance: ash::Instance,
    api_version: u32,
    messenger: Option<DebugMessenger>,
    messages: Arc<MessageSink>,
    physical: vk::PhysicalDevice,
    device: ash::Device,
    queue_family: u32,
    extensions: Vec<String>,
    features: DeviceFeatures,
    lent: AtomicBool,
    released: Arc<AtomicBool>,
}

impl std::fmt::Debug for AppVulkan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppVulkan")
            .field("device", &self.device.handle())
            .field("extensions", &self.extensions)
            .finish_non_exhaustive()
    }
}

impl AppVulkan {
    /// Creates the instance (Vulkan 1.2) and a device on the physical
    /// device `KILN_DEVICE` selects (else the default one).
    pub fn new(options: &AppOptions) -> Result<Self> {
        // SAFETY: loading the system's Vulkan loader, as kiln does.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| Error::LoaderMissing {
            reason: e.to_string(),
        })?;
        let api_version = vk::API_VERSION_1_2;
        let app = vk::ApplicationInfo::default()
            .application_name(c"kiln test application")
            .api_version(api_version);
        let layers = [crate::instance::VALIDATION_LAYER.as_ptr()];
        let exts = [ash::ext::debug_utils::NAME.as_ptr()];
        let mut info = vk::InstanceCreateInfo::default().application_info(&app);
        if options.validation {
            info = info
                .enabled_layer_names(&layers)
                .enabled_extension_names(&exts);
        }
        // SAFETY: `info` and what it points to live across the call.
        let instance =
            unsafe { entry.create_instance(&info, None) }.map_err(map_create_instance)?;
        let messages: Arc<MessageSink> = Arc::new(Mutex::new(Vec::new()));
        let messenger = if options.validation {
            // SAFETY: debug_utils is enabled on the instance; `messages`
            // is kept with the messenger, destroyed (in drop) before both.
            match unsafe { DebugMessenger::new(&entry, &instance, &messages) } {
                Ok(m) => Some(m),
                Err(e) => {
                    // SAFETY: nothing was created from the instance.
                    unsafe { instance.destroy_instance(None) };
                    return Err(e);
                }
            }
        } else {
            None
        };
        // From here on, `partial` destroys what exists if a step fails.
        let partial = PartialApp {
            instance: &instance,
            messenger: messenger.as_ref(),
        };
        let shared =
            crate::instance::InstanceShared::external(entry.clone(), instance.clone(), api_version);
        let devices = crate::device::physical_devices(&shared)?;
        let summaries: Vec<_> = devices.iter().map(|(_, s)| s.clone()).collect();
        let chosen = DeviceSelector::from_env()
            .unwrap_or_default()
            .pick(&summaries)?;
        let physical = devices[chosen].0;
        // SAFETY: `physical` was enumerated from the live instance.
        let props = unsafe { instance.get_physical_device_properties(physical) };
        if props.api_version < vk::API_VERSION_1_2 {
            return Err(Error::Unsupported {
                what: "Vulkan 1.2 (the test application's device)",
            });
        }
        // SAFETY: as above.
        let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
        let queue_family = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
            .ok_or_else(|| Error::NoComputeQueue {
                device: summaries[chosen].name.clone(),
            })? as u32;
        let query = crate::target_env::query(&shared, physical, summaries[chosen].clone())?;
        let wanted = options.features.to_set();
        let features = DeviceFeatures::from_set(
            &query
                .enabled_features
                .iter()
                .copied()
                .filter(|f| wanted.contains(f))
                .collect(),
        );
        let mut extensions = Vec::new();
        let mut names = Vec::new();
        if options.external_memory_fd && query.has_extension("VK_KHR_external_memory_fd") {
            extensions.push("VK_KHR_external_memory_fd".to_owned());
            names.push(ash::khr::external_memory_fd::NAME.as_ptr());
        }
        let mut chain = FeatureChain::enabling(&features, api_version);
        chain.enable_timeline_semaphore();
        let priorities = [1.0f32];
        let queue_info = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(queue_family)
            .queue_priorities(&priorities)];
        let device = chain.with_create_chain(|features2, core| {
            let mut info = vk::DeviceCreateInfo::default()
                .queue_create_infos(&queue_info)
                .enabled_extension_names(&names);
            info = match features2 {
                Some(f2) => info.push_next(f2),
                None => info.enabled_features(core),
            };
            // SAFETY: `info` and what it points to live across the call;
            // the features are a subset of the supported ones.
            unsafe { instance.create_device(physical, &info, None) }
        });
        let device = device.map_err(map_create_device)?;
        std::mem::forget(partial);
        Ok(Self {
            entry,
            instance,
            api_version,
            messenger,
            messages,
            physical,
            device,
            queue_family,
            extensions,
            features,
            lent: AtomicBool::new(false),
            released: Arc::new(AtomicBool::new(false)),
        })
    }

    /// A kiln context on this application's device and its first queue
    /// of the compute family. Keep `self` until [`kiln_released`](Self::kiln_released).
    pub fn kiln_context(&self) -> Result<Context> {
        let released = Arc::clone(&self.released);
        released.store(false, Ordering::SeqCst);
        self.lent.store(true, Ordering::SeqCst);
        let external = ExternalDevice {
            entry: self.entry.clone(),
            instance: self.instance.clone(),
            instance_api_version: self.api_version,
            physical_device: self.physical,
            device: self.device.clone(),
            queue_family_index: self.queue_family,
            queue_index: 0,
            enabled_extensions: self.extensions.clone(),
            enabled_features: self.features,
            on_release: Some(Box::new(move || released.store(true, Ordering::SeqCst))),
        };
        // SAFETY: the objects were made as `external` says (Vulkan 1.2
        // with `timelineSemaphore`); `self` destroys them only after kiln
        // released them (see `Drop`) and uses the device only then
        // (`use_device`).
        let ctx = unsafe { Context::from_external(external) };
        if ctx.is_err() {
            self.released.store(true, Ordering::SeqCst);
        }
        ctx
    }

    /// Whether the kiln context made on the device destroyed everything it
    /// made there (its last handle is gone).
    pub fn kiln_released(&self) -> bool {
        self.released.load(Ordering::SeqCst)
    }

    /// The features the application enabled.
    pub fn features(&self) -> DeviceFeatures {
        self.features
    }

    /// Uses the device as the application would after kiln is gone: makes
    /// and destroys a buffer, submits nothing, waits for it idle.
    /// [`Error::ExternalDevice`] while a kiln context still holds it.
    pub fn use_device(&self) -> Result<()> {
        if self.lent.load(Ordering::SeqCst) && !self.kiln_released() {
            return Err(Error::ExternalDevice {
                reason: "kiln still holds the device".to_owned(),
            });
        }
        let info = crate::conv::buffer_info(256);
        // SAFETY: valid create info for the live device.
        let buffer = unsafe { self.device.create_buffer(&info, None) }
            .map_err(|r| crate::error::map_create("vkCreateBuffer", r))?;
        // SAFETY: the buffer is unused; nothing else uses the device now.
        unsafe {
            self.device.destroy_buffer(buffer, None);
            self.device.device_wait_idle()
        }
        .map_err(|r| crate::error::map_queue("vkDeviceWaitIdle", r))
    }

    /// Takes the validation messages the application's messenger collected.
    pub fn take_validation_messages(&self) -> Vec<ValidationMessage> {
        std::mem::take(&mut *debug::lock(&self.messages))
    }
}

impl Drop for AppVulkan {
    fn drop(&mut self) {
        if self.lent.load(Ordering::SeqCst) && !self.kiln_released() {
            eprintln!("kiln test application: kiln still holds the device; leaking it");
            return;
        }
        // SAFETY: kiln released the device (or never had it); nothing
        // else uses it; children before parents.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_device(None);
            if let Some(m) = &self.messenger {
                m.destroy();
            }
            self.instance.destroy_instance(None);
        }
    }
}

/// Destroys a half-built application on early return from
/// [`AppVulkan::new`].
struct PartialApp<'a> {
    instance: &'a ash::Instance,
    messenger: Option<&'a DebugMessenger>,
}

impl Drop for PartialApp<'_> {
    fn drop(&mut self) {
        // SAFETY: nothing else was created from the instance.
        unsafe {
            if let Some(m) = self.messenger {
                m.destroy();
            }
            self.instance.destroy_instance(None);
        }
    }
}

/// Another Vulkan user of `ctx`'s device writing `word` into every 32-bit
/// word of `range`, through the raw handles alone
/// ([`Context::raw_handles`], [`BufferRange::raw`]): a device function
/// table loaded for the raw `VkDevice`, a command pool of its own on the
/// raw queue family, `vkCmdFillBuffer` on the raw buffer range, a
/// submission to the raw queue under [`Context::lock_queue`], a fence
/// wait. The caller makes kiln's work on the range complete first.
pub fn fill_with_raw_handles(ctx: &Context, range: &BufferRange<'_>, word: u32) -> Result<()> {
    // SAFETY: the handles are used as their contract allows: on this
    // device only, the range alone, the queue under kiln's lock, and every
    // object made here destroyed before returning (after its work
    // completed); the caller ordered kiln's work on the range before.
    let (h, raw) = unsafe { (ctx.raw_handles(), range.raw()) };
    // SAFETY: `h.device` is the live device of `ctx`'s instance.
    let device = unsafe { ash::Device::load(ctx.raw_instance().fp_v1_0(), h.device) };
    let pool_info = vk::CommandPoolCreateInfo::default().queue_family_index(h.queue_family_index);
    // SAFETY: valid create info for the live device.
    let pool = unsafe { device.create_command_pool(&pool_info, None) }
        .map_err(|r| crate::error::map_create("vkCreateCommandPool", r))?;
    let result = (|| {
        let alloc = vk::CommandBufferAllocateInfo::default()
            .command_pool(pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: the pool is ours.
        let cb = unsafe { device.allocate_command_buffers(&alloc) }
            .map_err(|r| crate::error::map_create("vkAllocateCommandBuffers", r))?[0];
        let barrier = vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ | vk::AccessFlags::SHADER_READ);
        // SAFETY: recording a fresh command buffer of our pool; the fill's
        // range lies in the buffer (the range's contract), offset and size
        // are multiples of 4 (the caller's).
        unsafe {
            device
                .begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default())
                .map_err(|r| crate::error::map_create("vkBeginCommandBuffer", r))?;
            device.cmd_fill_buffer(cb, raw.buffer, raw.offset, raw.size, word);
            device.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::HOST | vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::DependencyFlags::empty(),
                &[barrier],
                &[],
                &[],
            );
            device
                .end_command_buffer(cb)
                .map_err(|r| crate::error::map_create("vkEndCommandBuffer", r))?;
        }
        // SAFETY: valid create info.
        let fence = unsafe { device.create_fence(&vk::FenceCreateInfo::default(), None) }
            .map_err(|r| crate::error::map_create("vkCreateFence", r))?;
        let cbs = [cb];
        let submit = vk::SubmitInfo::default().command_buffers(&cbs);
        let submitted = {
            let queue = ctx.lock_queue();
            assert_eq!(*queue, h.queue, "the raw queue is the one kiln locks");
            // SAFETY: the queue is externally synchronized by kiln's lock;
            // the command buffer is recorded; the fence is unsignalled.
            unsafe { device.queue_submit(h.queue, &[submit], fence) }
        };
        // SAFETY: the fence is ours; waiting then destroying it.
        let waited =
            submitted.and_then(|()| unsafe { device.wait_for_fences(&[fence], true, u64::MAX) });
        // SAFETY: the work completed (or never started).
        unsafe { device.destroy_fence(fence, None) };
        waited.map_err(|r| crate::error::map_queue("vkQueueSubmit", r))
    })();
    // SAFETY: no work of the pool is pending (waited above); destroying
    // the pool frees its command buffer.
    unsafe { device.destroy_command_pool(pool, None) };
    result
}
