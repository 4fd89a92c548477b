//! `kiln.devices()`, `kiln.Device`: Vulkan devices opened through the
//! runtime with `KILN_DEVICE`'s selection rules, and the process-wide
//! default device sessions and tensors use when none is given.

use std::sync::Mutex;

use kiln_runtime::{CacheLocation, DeviceOptions, DeviceSelector};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{runtime_error, DeviceError};

/// The default device, opened on first use.
static DEFAULT: Mutex<Option<kiln_runtime::Device>> = Mutex::new(None);

/// A Vulkan device (`kiln.Device(selector=None, validation=False)`):
/// `selector` is an index, a part of the device's name, or `None` for the
/// default (`KILN_DEVICE`, else discrete GPU, then integrated, then CPU).
#[pyclass(name = "Device", module = "kiln", frozen)]
pub struct PyDevice {
    pub(crate) device: kiln_runtime::Device,
}

/// Opens the device `selector` chooses (the default one is shared).
pub fn open(
    py: Python<'_>,
    selector: Option<&str>,
    validation: bool,
) -> PyResult<kiln_runtime::Device> {
    let shared = selector.is_none() && !validation;
    if shared {
        let guard = DEFAULT.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(d) = guard.as_ref() {
            return Ok(d.clone());
        }
    }
    let options = DeviceOptions {
        device: selector.map_or(DeviceSelector::Default, DeviceSelector::parse),
        validation,
        cache: CacheLocation::Default,
        ..DeviceOptions::default()
    };
    let device = py
        .detach(|| kiln_runtime::Device::new(&options))
        .map_err(|e| runtime_error("cannot open the Vulkan device", &e))?;
    if shared {
        let mut guard = DEFAULT.lock().unwrap_or_else(|e| e.into_inner());
        return Ok(guard.get_or_insert(device).clone());
    }
    Ok(device)
}

/// The device `device` names (a `kiln.Device`), or the default one.
pub fn resolve(
    py: Python<'_>,
    device: Option<&Bound<'_, PyDevice>>,
) -> PyResult<kiln_runtime::Device> {
    match device {
        Some(d) => Ok(d.get().device.clone()),
        None => open(py, None, false),
    }
}

#[pymethods]
impl PyDevice {
    #[new]
    #[pyo3(signature = (selector=None, validation=false))]
    fn new(
        py: Python<'_>,
        selector: Option<&Bound<'_, PyAny>>,
        validation: bool,
    ) -> PyResult<Self> {
        let sel = match selector {
            None => None,
            Some(s) => Some(s.str()?.to_string()),
        };
        Ok(Self {
            device: open(py, sel.as_deref(), validation)?,
        })
    }

    /// The device's name (`llvmpipe (LLVM 15.0.6, 256 bits)` for lavapipe).
    #[getter]
    fn name(&self) -> String {
        self.device.info().name
    }

    /// `cpu`, `discrete-gpu`, `integrated-gpu`, `virtual-gpu` or `other`.
    #[getter]
    fn device_type(&self) -> String {
        self.device.info().device_type.to_string()
    }

    /// The target env kiln compiles for on it, in kiln's lossless text.
    #[getter]
    fn target_env(&self) -> String {
        self.device.target_env().to_string()
    }

    /// Name, type, Vulkan version, driver, unified memory, timestamps.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let i = self.device.info();
        let d = PyDict::new(py);
        d.set_item("name", &i.name)?;
        d.set_item("device_type", i.device_type.to_string())?;
        d.set_item("api_version", i.api_version.to_string())?;
        d.set_item("driver_name", &i.driver_name)?;
        d.set_item("unified_memory", i.unified_memory)?;
        d.set_item("timestamps", i.timestamps)?;
        Ok(d)
    }

    /// Device memory by pool: `{"in_use": bytes, "reserved": bytes,
    /// "peak": bytes, "pools": {name: {"in_use", "reserved", "peak"}}}`.
    fn memory_report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let r = self.device.memory_report();
        let d = PyDict::new(py);
        d.set_item("in_use", r.in_use())?;
        d.set_item("reserved", r.reserved())?;
        d.set_item("peak", r.peak())?;
        let pools = PyDict::new(py);
        for p in &r.pools {
            let e = PyDict::new(py);
            e.set_item("in_use", p.in_use)?;
            e.set_item("reserved", p.reserved)?;
            e.set_item("peak", p.peak)?;
            pools.set_item(p.name, e)?;
        }
        d.set_item("pools", pools)?;
        Ok(d)
    }

    /// The validation layer's messages so far (a device opened with
    /// `validation=True`), taken: a list of strings.
    fn _validation_messages(&self) -> Vec<String> {
        self.device
            .context()
            .take_validation_messages()
            .iter()
            .map(|m| format!("{m:?}"))
            .collect()
    }

    /// Waits for every submitted work; raises the first failure.
    fn sync(&self, py: Python<'_>) -> PyResult<()> {
        let d = &self.device;
        py.detach(|| d.sync())
            .map_err(|e| runtime_error("sync", &e))
    }

    /// Returns free pooled memory to the driver; the bytes released.
    fn trim(&self, py: Python<'_>) -> PyResult<u64> {
        let d = &self.device;
        py.detach(|| d.trim())
            .map_err(|e| runtime_error("trim", &e))
    }

    fn __repr__(&self) -> String {
        let i = self.device.info();
        format!("kiln.Device({:?}, {})", i.name, i.device_type)
    }
}

/// Every Vulkan device of this machine: a list of dicts (`index`, `name`,
/// `device_type`, `api_version`, `driver_name`, `driver_info`).
#[pyfunction]
pub fn devices(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    let list = py
        .detach(kiln_vulkan::enumerate_devices)
        .map_err(|e| DeviceError::new_err(format!("cannot list the Vulkan devices: {e}")))?;
    list.iter()
        .map(|s| {
            let d = PyDict::new(py);
            d.set_item("index", s.index)?;
            d.set_item("name", &s.name)?;
            d.set_item("device_type", s.device_type.to_string())?;
            d.set_item("api_version", s.api_version.to_string())?;
            d.set_item("driver_name", &s.driver_name)?;
            d.set_item("driver_info", &s.driver_info)?;
            Ok(d)
        })
        .collect()
}
