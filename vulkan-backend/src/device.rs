//! Physical devices: listing them and choosing one.
//!
//! Devices are numbered in the order `vkEnumeratePhysicalDevices` returns
//! them. [`DeviceSelector::Default`] picks the first discrete GPU, else the
//! first integrated GPU, else virtual GPU, else CPU implementation (lavapipe,
//! SwiftShader), else anything. A selector that matches nothing is an error
//! listing every device, never a silent fallback.

use std::convert::Infallible;
use std::fmt;
use std::str::FromStr;

use ash::vk;

use crate::conv;
use crate::error::{map_enumerate, Error, Result};
use crate::instance::InstanceShared;

/// The kind of a physical device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeviceType {
    /// A discrete GPU.
    DiscreteGpu,
    /// A GPU integrated with the host CPU.
    IntegratedGpu,
    /// A GPU exposed by a virtualization layer.
    VirtualGpu,
    /// A CPU implementation (lavapipe, SwiftShader).
    Cpu,
    /// Anything else.
    Other,
}

impl DeviceType {
    /// The preference order of [`DeviceSelector::Default`] (lower first).
    fn default_rank(self) -> u8 {
        match self {
            Self::DiscreteGpu => 0,
            Self::IntegratedGpu => 1,
            Self::VirtualGpu => 2,
            Self::Cpu => 3,
            Self::Other => 4,
        }
    }
}

impl fmt::Display for DeviceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::DiscreteGpu => "discrete GPU",
            Self::IntegratedGpu => "integrated GPU",
            Self::VirtualGpu => "virtual GPU",
            Self::Cpu => "CPU",
            Self::Other => "other",
        })
    }
}

/// A Vulkan version, `major.minor.patch`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ApiVersion {
    /// Major version.
    pub major: u32,
    /// Minor version.
    pub minor: u32,
    /// Patch version.
    pub patch: u32,
}

impl fmt::Display for ApiVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// What identifies a physical device to a user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceSummary {
    /// The device's position in enumeration order (what
    /// [`DeviceSelector::Index`] refers to).
    pub index: usize,
    /// The device name, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
    pub name: String,
    /// The device type.
    pub device_type: DeviceType,
    /// The PCI vendor id (or Khronos vendor id).
    pub vendor_id: u32,
    /// The device id.
    pub device_id: u32,
    /// The Vulkan version the device supports.
    pub api_version: ApiVersion,
    /// The driver's name (`VkPhysicalDeviceDriverProperties`), when the
    /// device reports it (Vulkan 1.2 or `VK_KHR_driver_properties`).
    pub driver_name: Option<String>,
    /// The driver's version string, when reported.
    pub driver_info: Option<String>,
}

impl fmt::Display for DeviceSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} ({}, Vulkan {}",
            self.index, self.name, self.device_type, self.api_version
        )?;
        match (&self.driver_name, &self.driver_info) {
            (Some(n), Some(i)) if !i.is_empty() => write!(f, ", {n} {i}")?,
            (Some(n), _) => write!(f, ", {n}")?,
            _ => {}
        }
        f.write_str(")")
    }
}

/// Which physical device to use.
///
/// Its string form (from the command line or `KILN_DEVICE`): empty or
/// `default` → [`Default`](Self::Default); a decimal number →
/// [`Index`](Self::Index); anything else → [`NameContains`](Self::NameContains),
/// matched case-insensitively against the device name.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum DeviceSelector {
    /// The most capable kind present: discrete, integrated, virtual, CPU.
    #[default]
    Default,
    /// The device at this enumeration index.
    Index(usize),
    /// The first device whose name contains this text (case-insensitive).
    NameContains(String),
}

impl DeviceSelector {
    /// Parses the string form (never fails; see the type's documentation).
    pub fn parse(s: &str) -> Self {
        let s = s.trim();
        if s.is_empty() || s.eq_ignore_ascii_case("default") {
            Self::Default
        } else if s.bytes().all(|b| b.is_ascii_digit()) {
            match s.parse() {
                Ok(i) => Self::Index(i),
                Err(_) => Self::NameContains(s.to_owned()),
            }
        } else {
            Self::NameContains(s.to_owned())
        }
    }

    /// The selector in `KILN_DEVICE`, if that variable is set.
    pub fn from_env() -> Option<Self> {
        std::env::var(crate::ENV_DEVICE)
            .ok()
            .map(|s| Self::parse(&s))
    }

    /// The index in `devices` this selector picks.
    pub(crate) fn pick(&self, devices: &[DeviceSummary]) -> Result<usize> {
        let found = match self {
            Self::Default => devices
                .iter()
                .enumerate()
                .min_by_key(|(i, d)| (d.device_type.default_rank(), *i))
                .map(|(i, _)| i),
            Self::Index(n) => devices.iter().position(|d| d.index == *n),
            Self::NameContains(text) => {
                let text = text.to_lowercase();
                devices
                    .iter()
                    .position(|d| d.name.to_lowercase().contains(&text))
            }
        };
        match found {
            Some(i) => Ok(i),
            None if devices.is_empty() => Err(Error::NoDevice),
            None => Err(Error::DeviceNotFound {
                selector: self.to_string(),
                available: devices.iter().map(ToString::to_string).collect(),
            }),
        }
    }
}

impl FromStr for DeviceSelector {
    type Err = Infallible;

    fn from_str(s: &str) -> Result<Self, Infallible> {
        Ok(Self::parse(s))
    }
}

impl fmt::Display for DeviceSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Default => f.write_str("the default device"),
            Self::Index(i) => write!(f, "device index {i}"),
            Self::NameContains(s) => write!(f, "a device named like \"{s}\""),
        }
    }
}

/// Lists the Vulkan devices of this machine (without validation).
pub fn enumerate_devices() -> Result<Vec<DeviceSummary>> {
    let instance = InstanceShared::new(false)?;
    Ok(physical_devices(&instance)?
        .into_iter()
        .map(|(_, s)| s)
        .collect())
}

/// Every physical device of `instance` with its summary.
pub(crate) fn physical_devices(
    instance: &InstanceShared,
) -> Result<Vec<(vk::PhysicalDevice, DeviceSummary)>> {
    // SAFETY: the instance is alive for the call.
    let devices = unsafe { instance.raw.enumerate_physical_devices() }
        .map_err(|r| map_enumerate("vkEnumeratePhysicalDevices", r))?;
    devices
        .into_iter()
        .enumerate()
        .map(|(index, pd)| Ok((pd, summarize(instance, pd, index)?)))
        .collect()
}

/// Whether `pd` supports the device extension `name`.
pub(crate) fn supports_extension(
    instance: &InstanceShared,
    pd: vk::PhysicalDevice,
    name: &std::ffi::CStr,
) -> Result<bool> {
    // SAFETY: `pd` was enumerated from the live instance.
    let exts = unsafe { instance.raw.enumerate_device_extension_properties(pd) }
        .map_err(|r| map_enumerate("vkEnumerateDeviceExtensionProperties", r))?;
    Ok(exts.iter().any(|e| e.extension_name_as_c_str() == Ok(name)))
}

pub(crate) fn summarize(
    instance: &InstanceShared,
    pd: vk::PhysicalDevice,
    index: usize,
) -> Result<DeviceSummary> {
    // SAFETY: `pd` was enumerated from the live instance.
    let props = unsafe { instance.raw.get_physical_device_properties(pd) };
    // Driver properties: core in 1.2, else VK_KHR_driver_properties; the
    // query itself needs an instance of 1.1+.
    let has_driver_props = instance.api_version >= vk::API_VERSION_1_1
        && (props.api_version >= vk::API_VERSION_1_2
            || supports_extension(instance, pd, ash::khr::driver_properties::NAME)?);
    let (driver_name, driver_info) = if has_driver_props {
        let mut driver = vk::PhysicalDeviceDriverProperties::default();
        let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut driver);
        // SAFETY: the chained struct is supported (checked above) and both
        // structs live across the call.
        unsafe {
            instance
                .raw
                .get_physical_device_properties2(pd, &mut props2)
        };
        (
            Some(conv::fixed_cstr(&driver.driver_name)),
            Some(conv::fixed_cstr(&driver.driver_info)),
        )
    } else {
        (None, None)
    };
    Ok(DeviceSummary {
        index,
        name: conv::fixed_cstr(&props.device_name),
        device_type: conv::device_type(props.device_type),
        vendor_id: props.vendor_id,
        device_id: props.device_id,
        api_version: conv::api_version(props.api_version),
        driver_name,
        driver_info,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dev(index: usize, name: &str, device_type: DeviceType) -> DeviceSummary {
        DeviceSummary {
            index,
            name: name.to_owned(),
            device_type,
            vendor_id: 0,
            device_id: 0,
            api_version: ApiVersion {
                major: 1,
                minor: 3,
                patch: 0,
            },
            driver_name: None,
            driver_info: None,
        }
    }

    #[test]
    fn parse_selectors() {
        assert_eq!(DeviceSelector::parse(""), DeviceSelector::Default);
        assert_eq!(DeviceSelector::parse("Default"), DeviceSelector::Default);
        assert_eq!(DeviceSelector::parse("2"), DeviceSelector::Index(2));
        assert_eq!(
            DeviceSelector::parse("llvm"),
            DeviceSelector::NameContains("llvm".into())
        );
        assert_eq!(
            "99999999999999999999999".parse::<DeviceSelector>(),
            Ok(DeviceSelector::NameContains(
                "99999999999999999999999".into()
            ))
        );
    }

    #[test]
    fn default_prefers_gpus() {
        let devs = [
            dev(0, "llvmpipe", DeviceType::Cpu),
            dev(1, "Intel UHD", DeviceType::IntegratedGpu),
            dev(2, "NVIDIA", DeviceType::DiscreteGpu),
        ];
        assert_eq!(DeviceSelector::Default.pick(&devs).unwrap(), 2);
        assert_eq!(DeviceSelector::Default.pick(&devs[..2]).unwrap(), 1);
        assert_eq!(DeviceSelector::Default.pick(&devs[..1]).unwrap(), 0);
        assert_eq!(
            DeviceSelector::NameContains("LLVM".into())
                .pick(&devs)
                .unwrap(),
            0
        );
        assert_eq!(DeviceSelector::Index(1).pick(&devs).unwrap(), 1);
    }

    #[test]
    fn no_match_lists_devices() {
        let devs = [dev(0, "llvmpipe", DeviceType::Cpu)];
        let err = DeviceSelector::Index(3).pick(&devs).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no Vulkan device matches device index 3; available devices: \
             0: llvmpipe (CPU, Vulkan 1.3.0)"
        );
        assert!(matches!(
            DeviceSelector::Default.pick(&[]),
            Err(Error::NoDevice)
        ));
    }
}
