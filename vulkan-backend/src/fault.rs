//! Fault injection: a per-context test hook at the level of call families.
//!
//! Device loss and out-of-memory cannot be provoked on demand on a real
//! driver (lavapipe never loses its device), yet the code that recovers
//! from them must be tested. Every call of the stream building blocks
//! (memory allocation, object creation, descriptor allocation, queue
//! submission, waits, pipeline-cache calls) goes through
//! `DeviceShared::call`, which first
//! asks the context's `FaultInjector` whether a fault is armed for the
//! call's [`CallFamily`]; if one is, the real call is **not made** and the
//! family's `VkResult` mapper gets the injected code instead, so the caller
//! sees exactly the typed error a real failure would give (and the context
//! records a device loss as it would a real one).
//!
//! The hook is compiled in always rather than behind a cargo feature: when
//! nothing is armed it costs one relaxed atomic load per wrapped call (a few
//! nanoseconds beside calls that take microseconds), the tests exercise the
//! very code users run, a framework can test its own recovery paths with
//! it, and there is no feature unification to reason about (a workspace
//! build that enabled a test feature for one crate would enable it for all).
//!
//! Invariants: an injected fault replaces a call, never follows one (a
//! "failed" submission was not submitted, so nothing is left running that
//! the caller believes failed); the waits and destructions of drop paths are
//! never injected (they must really wait before freeing what the GPU may
//! use).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use ash::vk;

/// A family of Vulkan calls sharing one `VkResult` mapper (see
/// [`Error`](crate::Error)): the unit fault injection works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallFamily {
    /// Device-memory allocation (`vkAllocateMemory` through gpu-allocator)
    /// for pooled blocks.
    Memory,
    /// Object creation and command recording (`vkCreate*`,
    /// `vkAllocateCommandBuffers`, `vkBegin/EndCommandBuffer`,
    /// `vkResetCommandPool`).
    Create,
    /// `vkAllocateDescriptorSets`.
    DescriptorSets,
    /// Queue submission (`vkQueueSubmit`).
    Submit,
    /// Host waits and status queries (`vkWaitSemaphores`,
    /// `vkGetSemaphoreCounterValue`, `vkGetQueryPoolResults`, and the
    /// `vkWaitForFences` of a blocking [`Context::dispatch`](crate::Context::dispatch)).
    Wait,
    /// Pipeline caches (`vkCreatePipelineCache`, `vkGetPipelineCacheData`).
    PipelineCache,
}

/// The failure an armed fault reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InjectedFault {
    /// `VK_ERROR_DEVICE_LOST`.
    DeviceLost,
    /// `VK_ERROR_OUT_OF_DEVICE_MEMORY`.
    OutOfDeviceMemory,
}

impl InjectedFault {
    pub(crate) fn code(self) -> vk::Result {
        match self {
            Self::DeviceLost => vk::Result::ERROR_DEVICE_LOST,
            Self::OutOfDeviceMemory => vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
        }
    }
}

/// How many calls of the family an armed fault replaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultTimes {
    /// The next call only.
    Once,
    /// The next `n` calls.
    Times(u32),
    /// Every call until [`Context::clear_faults`](crate::Context::clear_faults).
    Always,
}

#[derive(Clone, Copy, Debug)]
struct Armed {
    family: CallFamily,
    fault: InjectedFault,
    /// Calls still to replace; `None`: every call.
    left: Option<u32>,
}

/// The armed faults of one context.
#[derive(Debug, Default)]
pub(crate) struct FaultInjector {
    /// Whether anything is armed: the fast path's one load.
    any: AtomicBool,
    armed: Mutex<Vec<Armed>>,
}

impl FaultInjector {
    pub(crate) fn arm(&self, family: CallFamily, fault: InjectedFault, times: FaultTimes) {
        let left = match times {
            FaultTimes::Once => Some(1),
            FaultTimes::Times(0) => return,
            FaultTimes::Times(n) => Some(n),
            FaultTimes::Always => None,
        };
        let mut armed = crate::context::lock(&self.armed);
        armed.push(Armed {
            family,
            fault,
            left,
        });
        self.any.store(true, Ordering::Release);
    }

    pub(crate) fn clear(&self) {
        crate::context::lock(&self.armed).clear();
        self.any.store(false, Ordering::Release);
    }

    /// The code to report instead of making a call of `family`, consuming
    /// one use of the first fault armed for it.
    pub(crate) fn take(&self, family: CallFamily) -> Option<vk::Result> {
        if !self.any.load(Ordering::Relaxed) {
            return None;
        }
        let mut armed = crate::context::lock(&self.armed);
        let i = armed.iter().position(|a| a.family == family)?;
        let code = armed[i].fault.code();
        if let Some(left) = &mut armed[i].left {
            *left -= 1;
            if *left == 0 {
                armed.remove(i);
            }
        }
        if armed.is_empty() {
            self.any.store(false, Ordering::Release);
        }
        Some(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_are_consumed_per_family() {
        let f = FaultInjector::default();
        assert_eq!(f.take(CallFamily::Submit), None);
        f.arm(
            CallFamily::Submit,
            InjectedFault::DeviceLost,
            FaultTimes::Times(2),
        );
        f.arm(
            CallFamily::Memory,
            InjectedFault::OutOfDeviceMemory,
            FaultTimes::Once,
        );
        assert_eq!(f.take(CallFamily::Wait), None);
        assert_eq!(
            f.take(CallFamily::Memory),
            Some(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY)
        );
        assert_eq!(f.take(CallFamily::Memory), None);
        assert_eq!(
            f.take(CallFamily::Submit),
            Some(vk::Result::ERROR_DEVICE_LOST)
        );
        assert_eq!(
            f.take(CallFamily::Submit),
            Some(vk::Result::ERROR_DEVICE_LOST)
        );
        assert_eq!(f.take(CallFamily::Submit), None);
        f.arm(
            CallFamily::Create,
            InjectedFault::DeviceLost,
            FaultTimes::Always,
        );
        for _ in 0..5 {
            assert!(f.take(CallFamily::Create).is_some());
        }
        f.clear();
        assert_eq!(f.take(CallFamily::Create), None);
    }
}
