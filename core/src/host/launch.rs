//! The boundary between host code and the device: [`Launcher`].

use super::HostBuffer;

/// What a launcher reports when a launch fails (compilation, device, ...).
pub type LauncherError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// One `gpu.launch_func`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchRequest<'a> {
    /// The `gpu.module`'s symbol name.
    pub module: &'a str,
    /// The `gpu.func`'s symbol name.
    pub kernel: &'a str,
    /// `blocks in (x, y, z)`: the number of workgroups.
    pub grid: [u32; 3],
    /// `threads in (x, y, z)`: the workgroup size.
    pub block: [u32; 3],
}

/// What a launch measured, printed after it as mlir-vulkan-runner prints
/// it (see [`LaunchTiming::runner_text`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaunchTiming {
    /// GPU time of the kernel, when the device can time it.
    pub device: Option<std::time::Duration>,
    /// Host time spent submitting the work.
    pub submit: std::time::Duration,
    /// Host time spent waiting for the work to finish.
    pub wait: std::time::Duration,
}

impl LaunchTiming {
    /// The lines mlir-vulkan-runner prints after each launch: `Compute
    /// shader execution time: 12.3us` (three significant digits, as C++'s
    /// `std::setprecision(3)` prints a float; only when the device timed
    /// the kernel), `Command buffer submit time: 45us` and `Wait idle time:
    /// 678us` (whole microseconds).
    pub fn runner_text(&self) -> String {
        let mut text = String::new();
        if let Some(device) = self.device {
            let us = device.as_secs_f64() * 1e6;
            text.push_str(&format!(
                "Compute shader execution time: {}us\n",
                super::print::format_general(us, 3)
            ));
        }
        text.push_str(&format!(
            "Command buffer submit time: {}us\nWait idle time: {}us\n",
            self.submit.as_micros(),
            self.wait.as_micros()
        ));
        text
    }
}

/// Runs kernels for the host interpreter.
///
/// `args` are the launch's memref arguments in argument order (a buffer
/// passed twice is refused before the launcher is called); the launcher
/// reads them before and writes them back after the kernel runs, as
/// mlir-vulkan-runner copies its host buffers in and out.
pub trait Launcher {
    /// Runs one launch to completion; returns what it measured when the
    /// launcher times launches (the interpreter prints it after the launch).
    fn launch(
        &mut self,
        request: &LaunchRequest<'_>,
        args: &mut [&mut HostBuffer],
    ) -> Result<Option<LaunchTiming>, LauncherError>;
}
