//! Timeline semaphores: the one counter that orders and tracks submissions.
//!
//! A [`Timeline`] wraps a `VK_SEMAPHORE_TYPE_TIMELINE` semaphore (Vulkan 1.2
//! core, or `VK_KHR_timeline_semaphore` on 1.1). Each
//! [`CommandBatch::submit`](crate::CommandBatch::submit) takes the next
//! value under the queue lock, waits on the previous value and signals its
//! own, so values complete in submission order and work of one submission
//! sees the memory writes of all earlier ones.
//!
//! Waits block in the driver (`vkWaitSemaphores`), never spin: on lavapipe
//! the shaders run on the host's cores. The completed value is cached, so
//! asking about work already known to be done makes no Vulkan call.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ash::vk;

use crate::context::{Context, DeviceShared, TimelineFns};
use crate::error::{Error, Result};
use crate::fault::CallFamily;

/// A timeline semaphore and the values submitted to and completed on it.
pub struct Timeline {
    pub(crate) device: Arc<DeviceShared>,
    pub(crate) raw: vk::Semaphore,
    /// The highest value a submission will signal; written under the queue
    /// lock (see [`CommandBatch::submit`](crate::CommandBatch::submit)).
    pub(crate) submitted: AtomicU64,
    /// The highest value known to have completed.
    completed: AtomicU64,
}

impl std::fmt::Debug for Timeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Timeline")
            .field("submitted", &self.submitted.load(Ordering::Relaxed))
            .field("completed", &self.completed.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl Timeline {
    /// A timeline at value 0 on `ctx`'s device. Fails with
    /// [`Error::Unsupported`] where the device has no timeline semaphores.
    pub fn new(ctx: &Context) -> Result<Arc<Self>> {
        let device = Arc::clone(&ctx.shared);
        if matches!(device.timeline, TimelineFns::Unsupported) {
            return Err(Error::Unsupported {
                what: "timeline semaphores (Vulkan 1.2 or VK_KHR_timeline_semaphore)",
            });
        }
        let mut type_info = vk::SemaphoreTypeCreateInfo::default()
            .semaphore_type(vk::SemaphoreType::TIMELINE)
            .initial_value(0);
        let info = vk::SemaphoreCreateInfo::default().push_next(&mut type_info);
        // SAFETY: valid create info for the live device, which enabled
        // timeline semaphores (checked above).
        let raw = device.call(CallFamily::Create, "vkCreateSemaphore", || unsafe {
            device.raw.create_semaphore(&info, None)
        })?;
        Ok(Arc::new(Self {
            device,
            raw,
            submitted: AtomicU64::new(0),
            completed: AtomicU64::new(0),
        }))
    }

    /// The highest value submitted so far (0: none).
    pub fn submitted(&self) -> u64 {
        self.submitted.load(Ordering::Acquire)
    }

    /// The highest value known to be complete, without asking the driver.
    pub fn known_completed(&self) -> u64 {
        self.completed.load(Ordering::Acquire)
    }

    /// Whether `value` is known to be complete, asking the driver only when
    /// the cached value is behind.
    pub fn is_complete(&self, value: u64) -> Result<bool> {
        if value <= self.known_completed() {
            return Ok(true);
        }
        Ok(self.completed()? >= value)
    }

    /// The semaphore's current value (`vkGetSemaphoreCounterValue`).
    pub fn completed(&self) -> Result<u64> {
        let d = &self.device;
        let value = d.call(CallFamily::Wait, "vkGetSemaphoreCounterValue", || {
            // SAFETY: the semaphore is a live timeline semaphore of `d`.
            unsafe {
                match &d.timeline {
                    TimelineFns::Core => d.raw.get_semaphore_counter_value(self.raw),
                    TimelineFns::Khr(k) => k.get_semaphore_counter_value(self.raw),
                    TimelineFns::Unsupported => Err(vk::Result::ERROR_FEATURE_NOT_PRESENT),
                }
            }
        })?;
        Ok(self.note_completed(value))
    }

    /// Blocks until the semaphore reaches `value` or `timeout` passes
    /// (`None`: no limit); `Ok(true)` when it was reached. A blocking wait
    /// in the driver, never a spin.
    pub fn wait(&self, value: u64, timeout: Option<Duration>) -> Result<bool> {
        if value <= self.known_completed() {
            return Ok(true);
        }
        let ns = timeout.map_or(u64::MAX, |t| {
            u64::try_from(t.as_nanos()).unwrap_or(u64::MAX)
        });
        let d = &self.device;
        let reached = d.call(CallFamily::Wait, "vkWaitSemaphores", || {
            match self.wait_raw(value, ns) {
                Ok(()) => Ok(true),
                Err(vk::Result::TIMEOUT) => Ok(false),
                Err(e) => Err(e),
            }
        })?;
        if reached {
            self.note_completed(value);
        }
        Ok(reached)
    }

    /// `vkWaitSemaphores` for `value`, without fault injection: what drop
    /// paths use before freeing what the GPU may still use.
    pub(crate) fn wait_raw(&self, value: u64, timeout_ns: u64) -> ash::prelude::VkResult<()> {
        let semaphores = [self.raw];
        let values = [value];
        let info = vk::SemaphoreWaitInfo::default()
            .semaphores(&semaphores)
            .values(&values);
        let d = &self.device;
        // SAFETY: the semaphore is a live timeline semaphore of `d`; the
        // value was (or will be) submitted, so the wait ends (or the device
        // is lost, which makes it return).
        unsafe {
            match &d.timeline {
                TimelineFns::Core => d.raw.wait_semaphores(&info, timeout_ns),
                TimelineFns::Khr(k) => k.wait_semaphores(&info, timeout_ns),
                TimelineFns::Unsupported => Err(vk::Result::ERROR_FEATURE_NOT_PRESENT),
            }
        }
    }

    /// Waits, without fault injection and ignoring errors, until `value`
    /// completed or the device is lost.
    pub(crate) fn wait_for_drop(&self, value: u64) {
        if value > self.known_completed() && self.wait_raw(value, u64::MAX).is_ok() {
            self.note_completed(value);
        }
    }

    fn note_completed(&self, value: u64) -> u64 {
        self.completed.fetch_max(value, Ordering::AcqRel).max(value)
    }
}

impl Drop for Timeline {
    fn drop(&mut self) {
        // Every submission holds an Arc of its timeline, so none is
        // pending here; waiting anyway costs nothing when all are done.
        self.wait_for_drop(self.submitted());
        // The value being reached is not enough on lavapipe (Mesa's
        // emulated timelines and threaded submit): its submit thread
        // releases a submission's timeline wait points after the
        // submission's own value became visible, so destroying the
        // semaphore right after a wait returned let that thread touch the
        // freed timeline (a SIGSEGV at device teardown with validation on).
        // `vkQueueWaitIdle` returns only after the thread finished every
        // earlier submission, clean-up included.
        self.device.wait_idle_for_drop();
        // SAFETY: no pending submission signals or waits on the semaphore,
        // and the queue is idle (the driver holds no reference to it).
        unsafe { self.device.raw.destroy_semaphore(self.raw, None) };
    }
}
