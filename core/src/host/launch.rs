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

/// Runs kernels for the host interpreter.
///
/// `args` are the launch's memref arguments in argument order (a buffer
/// passed twice is refused before the launcher is called); the launcher
/// reads them before and writes them back after the kernel runs, as
/// mlir-vulkan-runner copies its host buffers in and out.
pub trait Launcher {
    /// Runs one launch to completion.
    fn launch(
        &mut self,
        request: &LaunchRequest<'_>,
        args: &mut [&mut HostBuffer],
    ) -> Result<(), LauncherError>;
}
