//! The debug-utils messenger: collecting validation-layer messages.
//!
//! With validation on, a `VkDebugUtilsMessengerEXT` is created for the
//! instance (and chained into `VkInstanceCreateInfo`, so messages from
//! instance creation and destruction are caught too). Its callback keeps
//! every WARNING and ERROR message, of any type, in a [`MessageSink`] shared
//! with the context; VERBOSE and INFO messages are dropped. The callback never
//! asks the layer to skip the call (it returns `VK_FALSE`).

use std::ffi::{c_void, CStr};
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use ash::vk;

use crate::conv;
use crate::error::{map_create, Result};

/// How serious a validation message is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MessageSeverity {
    /// A warning: likely a mistake or a performance problem.
    Warning,
    /// An error: a violation of a valid-usage rule.
    Error,
}

impl fmt::Display for MessageSeverity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Warning => "warning",
            Self::Error => "error",
        })
    }
}

/// One message reported by the validation layer (or the loader) through
/// `VK_EXT_debug_utils`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationMessage {
    /// How serious it is.
    pub severity: MessageSeverity,
    /// The message types, as Vulkan prints them (`GENERAL`, `VALIDATION`,
    /// `PERFORMANCE`, joined by `|`).
    pub kind: String,
    /// The message's id name, e.g. a VUID (empty when none was given).
    pub id_name: String,
    /// The message's id number.
    pub id_number: i32,
    /// The full text.
    pub message: String,
}

impl fmt::Display for ValidationMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{} {}]", self.severity, self.kind)?;
        if !self.id_name.is_empty() {
            write!(f, " {}", self.id_name)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Where the callback puts messages; shared by the instance and the context.
pub(crate) type MessageSink = Mutex<Vec<ValidationMessage>>;

/// Locks a sink, ignoring poisoning (a panic elsewhere must not hide messages).
pub(crate) fn lock(sink: &MessageSink) -> std::sync::MutexGuard<'_, Vec<ValidationMessage>> {
    sink.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The create info of kiln's messenger, with `sink` as user data. The
/// returned struct points into `sink`, which must outlive the messenger (and
/// the instance, when chained into `VkInstanceCreateInfo`).
pub(crate) fn messenger_create_info(
    sink: &Arc<MessageSink>,
) -> vk::DebugUtilsMessengerCreateInfoEXT<'static> {
    vk::DebugUtilsMessengerCreateInfoEXT::default()
        .message_severity(
            vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
        )
        .message_type(
            vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
        )
        .pfn_user_callback(Some(messenger_callback))
        .user_data(Arc::as_ptr(sink).cast_mut().cast())
}

/// A created messenger and the function table to destroy it.
pub(crate) struct DebugMessenger {
    loader: ash::ext::debug_utils::Instance,
    raw: vk::DebugUtilsMessengerEXT,
}

impl DebugMessenger {
    /// Creates the messenger for `instance`, delivering into `sink`.
    ///
    /// # Safety
    /// `instance` must have been created with `VK_EXT_debug_utils` enabled,
    /// `sink` must outlive the returned messenger, and the messenger must be
    /// destroyed (with [`DebugMessenger::destroy`]) before the instance.
    pub(crate) unsafe fn new(
        entry: &ash::Entry,
        instance: &ash::Instance,
        sink: &Arc<MessageSink>,
    ) -> Result<Self> {
        let loader = ash::ext::debug_utils::Instance::new(entry, instance);
        let info = messenger_create_info(sink);
        // SAFETY: the caller guarantees the extension is enabled and the sink
        // outlives the messenger; `info` is fully initialized.
        let raw = unsafe { loader.create_debug_utils_messenger(&info, None) }
            .map_err(|r| map_create("vkCreateDebugUtilsMessengerEXT", r))?;
        Ok(Self { loader, raw })
    }

    /// Destroys the messenger.
    ///
    /// # Safety
    /// Must be called once, before the instance is destroyed.
    pub(crate) unsafe fn destroy(&self) {
        // SAFETY: the caller guarantees this runs once, before the instance
        // is destroyed.
        unsafe { self.loader.destroy_debug_utils_messenger(self.raw, None) };
    }
}

/// The messenger callback: keeps WARNING and ERROR messages in the sink.
///
/// # Safety
/// Called by the Vulkan loader with valid callback data and the user-data
/// pointer set by [`messenger_create_info`] (a live `MessageSink`).
unsafe extern "system" fn messenger_callback(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user_data: *mut c_void,
) -> vk::Bool32 {
    let Some(severity) = conv::message_severity(severity) else {
        return vk::FALSE;
    };
    if data.is_null() || user_data.is_null() {
        return vk::FALSE;
    }
    // SAFETY: the loader passes a valid pointer to callback data for the
    // duration of the call.
    let data = unsafe { &*data };
    let text = |p: Option<&CStr>| {
        p.map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    // SAFETY: the pointers inside `data` are null or valid NUL-terminated
    // strings for the duration of the call.
    let (id_name, message) = unsafe {
        (
            text(data.message_id_name_as_c_str()),
            text(data.message_as_c_str()),
        )
    };
    let msg = ValidationMessage {
        severity,
        kind: format!("{types:?}"),
        id_name,
        id_number: data.message_id_number,
        message,
    };
    // SAFETY: user_data is `Arc::as_ptr` of the context's sink, kept alive
    // for as long as the messenger and the instance exist.
    let sink = unsafe { &*user_data.cast::<MessageSink>() };
    lock(sink).push(msg);
    vk::FALSE
}
