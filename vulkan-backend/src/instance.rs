//! Loading Vulkan and creating the instance.
//!
//! The instance asks for the loader's API version capped at 1.3 (so Vulkan
//! 1.1–1.3 device functionality is usable where the device has it). With
//! validation on it enables `VK_LAYER_KHRONOS_validation` and
//! `VK_EXT_debug_utils`, both checked for before `vkCreateInstance` so a
//! missing layer is a clear [`Error::LayerNotPresent`]. Where the loader
//! offers `VK_KHR_portability_enumeration` it is enabled so portability
//! implementations (MoltenVK) are listed too.

use std::ffi::{c_char, CStr};
use std::sync::{Arc, Mutex, PoisonError};

use ash::vk;

use crate::conv;
use crate::debug::{self, DebugMessenger, MessageSink};
use crate::error::{map_create_instance, map_enumerate, Error, Result};

/// The Khronos validation layer.
pub(crate) const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";

/// The highest Vulkan version kiln asks for.
const MAX_API_VERSION: u32 = vk::API_VERSION_1_3;

/// A loaded Vulkan instance and what must be destroyed with it.
pub(crate) struct InstanceShared {
    /// The loader's entry points. Kept alive for the instance's lifetime.
    pub(crate) entry: ash::Entry,
    /// The instance.
    pub(crate) raw: ash::Instance,
    /// The API version the instance was created with.
    pub(crate) api_version: u32,
    /// Whether the validation layer is on.
    pub(crate) validation: bool,
    /// The validation layer's `specVersion` (the Vulkan header it was
    /// built from), with validation on.
    pub(crate) validation_layer_version: Option<u32>,
    /// The messenger, with validation on.
    messenger: Option<DebugMessenger>,
    /// Where the messenger delivers. Must outlive `messenger` and `raw`.
    pub(crate) messages: Arc<MessageSink>,
    /// Whether kiln created the instance (and destroys it); `false` for an
    /// application's ([`Context::from_external`](crate::Context::from_external)).
    owned: bool,
}

impl InstanceShared {
    /// Loads Vulkan and creates an instance.
    pub(crate) fn new(validation: bool) -> Result<Arc<Self>> {
        let entry = loader()?;
        // SAFETY: `entry` is a loaded Vulkan loader.
        let loader_version = unsafe { entry.try_enumerate_instance_version() }
            .map_err(|r| map_enumerate("vkEnumerateInstanceVersion", r))?
            .unwrap_or(vk::API_VERSION_1_0);
        let api_version = loader_version.min(MAX_API_VERSION);

        // SAFETY: `entry` is a loaded Vulkan loader.
        let extensions = unsafe { entry.enumerate_instance_extension_properties(None) }
            .map_err(|r| map_enumerate("vkEnumerateInstanceExtensionProperties", r))?;
        let has_extension = |name: &CStr| {
            extensions
                .iter()
                .any(|e| e.extension_name_as_c_str() == Ok(name))
        };

        let mut layers = Vec::new();
        let mut validation_layer_version = None;
        let mut enabled_extensions = Vec::new();
        let mut flags = vk::InstanceCreateFlags::empty();
        if has_extension(ash::khr::portability_enumeration::NAME) {
            enabled_extensions.push(ash::khr::portability_enumeration::NAME.as_ptr());
            flags |= vk::InstanceCreateFlags::ENUMERATE_PORTABILITY_KHR;
        }
        if validation {
            // SAFETY: `entry` is a loaded Vulkan loader.
            let available = unsafe { entry.enumerate_instance_layer_properties() }
                .map_err(|r| map_enumerate("vkEnumerateInstanceLayerProperties", r))?;
            let layer = available
                .iter()
                .find(|l| l.layer_name_as_c_str() == Ok(VALIDATION_LAYER));
            validation_layer_version = layer.map(|l| l.spec_version);
            if layer.is_none() {
                return Err(Error::LayerNotPresent {
                    name: VALIDATION_LAYER.to_string_lossy().into_owned(),
                    available: available
                        .iter()
                        .map(|l| conv::fixed_cstr(&l.layer_name))
                        .collect(),
                });
            }
            // debug_utils comes from the loader or from the layer itself.
            // SAFETY: `entry` is loaded and the layer name is NUL-terminated.
            let from_layer =
                unsafe { entry.enumerate_instance_extension_properties(Some(VALIDATION_LAYER)) }
                    .map_err(|r| map_enumerate("vkEnumerateInstanceExtensionProperties", r))?;
            let debug_utils = ash::ext::debug_utils::NAME;
            if !has_extension(debug_utils)
                && !from_layer
                    .iter()
                    .any(|e| e.extension_name_as_c_str() == Ok(debug_utils))
            {
                return Err(Error::ExtensionNotPresent {
                    call: "vkCreateInstance",
                    name: debug_utils.to_string_lossy().into_owned(),
                });
            }
            layers.push(VALIDATION_LAYER.as_ptr());
            enabled_extensions.push(debug_utils.as_ptr());
        }

        let messages: Arc<MessageSink> = Arc::new(Mutex::new(Vec::new()));
        let app = vk::ApplicationInfo::default()
            .application_name(c"kiln")
            .engine_name(c"kiln")
            .engine_version(vk::make_api_version(0, 0, 1, 0))
            .api_version(api_version);
        let mut messenger_info = debug::messenger_create_info(&messages);
        let mut info = vk::InstanceCreateInfo::default()
            .flags(flags)
            .application_info(&app)
            .enabled_layer_names(&layers)
            .enabled_extension_names(&enabled_extensions);
        if validation {
            info = info.push_next(&mut messenger_info);
        }
        // SAFETY: `info` and everything it points to (names, app info, the
        // chained messenger info whose user data `messages` is kept alive
        // by the returned struct) are valid for the call.
        let raw = unsafe { entry.create_instance(&info, None) }.map_err(map_create_instance)?;
        keep_drivers_loaded(&entry, flags, &layers, &enabled_extensions);

        let messenger = if validation {
            // SAFETY: debug_utils is enabled on `raw`; `messages` is stored
            // next to the messenger and dropped after it; Drop destroys the
            // messenger before the instance.
            match unsafe { DebugMessenger::new(&entry, &raw, &messages) } {
                Ok(m) => Some(m),
                Err(e) => {
                    // SAFETY: nothing was created from `raw` yet.
                    unsafe { raw.destroy_instance(None) };
                    return Err(e);
                }
            }
        } else {
            None
        };
        Ok(Arc::new(Self {
            entry,
            raw,
            api_version,
            validation,
            validation_layer_version,
            messenger,
            messages,
            owned: true,
        }))
    }

    /// An application's instance, created with `api_version`: kiln
    /// neither adds a messenger to it nor destroys it.
    pub(crate) fn external(entry: ash::Entry, raw: ash::Instance, api_version: u32) -> Arc<Self> {
        Arc::new(Self {
            entry,
            raw,
            api_version: api_version.min(MAX_API_VERSION),
            validation: false,
            validation_layer_version: None,
            messenger: None,
            messages: Arc::new(Mutex::new(Vec::new())),
            owned: false,
        })
    }
}

/// The Vulkan loader, opened once per process and never closed: every
/// instance shares it.
fn loader() -> Result<ash::Entry> {
    static LOADER: Mutex<Option<ash::Entry>> = Mutex::new(None);
    let mut slot = LOADER.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(entry) = slot.as_ref() {
        return Ok(entry.clone());
    }
    // SAFETY: loading the system's Vulkan loader runs its initialization
    // code; that is the documented way to use Vulkan and has no other
    // preconditions.
    let entry = unsafe { ash::Entry::load() }.map_err(|e| Error::LoaderMissing {
        reason: e.to_string(),
    })?;
    *slot = Some(entry.clone());
    Ok(entry)
}

/// Keeps the drivers (and layers) the loader opened loaded for the rest of
/// the process: after the first instance is created, one more instance
/// with the same layers and no messenger is created and never destroyed. The loader opens each driver library
/// when an instance is created and closes it when the instance is
/// destroyed; on an NVIDIA H200 (driver 580) a GPU test process that
/// created and destroyed about 30 instances saw every later
/// `vkCreateInstance` fail with `VK_ERROR_INCOMPATIBLE_DRIVER` (no driver
/// could be loaded), while processes that create a few never did. A
/// library still referenced is not reloaded, so the count no longer
/// matters. Best effort: a failure here is ignored (the instance the
/// caller asked for exists).
fn keep_drivers_loaded(
    entry: &ash::Entry,
    flags: vk::InstanceCreateFlags,
    layers: &[*const c_char],
    extensions: &[*const c_char],
) {
    static KEPT: Mutex<bool> = Mutex::new(false);
    let mut kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
    if *kept {
        return;
    }
    let portability = ash::khr::portability_enumeration::NAME.as_ptr();
    let ext: Vec<*const c_char> = extensions
        .iter()
        .copied()
        .filter(|&e| e == portability)
        .collect();
    let app = vk::ApplicationInfo::default()
        .application_name(c"kiln (drivers kept loaded)")
        .api_version(vk::API_VERSION_1_0);
    let info = vk::InstanceCreateInfo::default()
        .flags(flags)
        .application_info(&app)
        .enabled_layer_names(layers)
        .enabled_extension_names(&ext);
    // SAFETY: `info` and the names it points to are valid for the call; the
    // instance is deliberately never destroyed (nothing is created from
    // it, so it holds no other objects).
    if unsafe { entry.create_instance(&info, None) }.is_ok() {
        *kept = true;
    }
}

impl InstanceShared {
    /// Whether the validation layer is on and was built from a Vulkan
    /// header older than `header` (packed): it reports the structs of
    /// newer extensions in a `pNext` chain as unknown, so their features
    /// are not enabled under it.
    pub(crate) fn validation_predates(&self, header: u32) -> bool {
        self.validation_layer_version.is_some_and(|v| v < header)
    }
}

impl Drop for InstanceShared {
    fn drop(&mut self) {
        if let Some(m) = &self.messenger {
            // SAFETY: destroyed once, before the instance.
            unsafe { m.destroy() };
        }
        if self.owned {
            // SAFETY: every object created from the instance (devices, the
            // messenger) was destroyed first: devices hold an Arc to this
            // struct.
            unsafe { self.raw.destroy_instance(None) };
        }
        let left = std::mem::take(&mut *debug::lock(&self.messages));
        if !left.is_empty() {
            // Nobody collected these (e.g. messages from device or instance
            // destruction); say so rather than lose them.
            eprintln!(
                "kiln: {} validation message(s) were reported after the last collection:",
                left.len()
            );
            for m in left {
                eprintln!("  {m}");
            }
        }
    }
}
