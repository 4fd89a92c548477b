//! A [`Launcher`] that runs the `gpu.launch_func`s of an MLIR runner
//! program on the CPU (`kiln run --cpu`).
//!
//! Like the Vulkan launcher: each `gpu.module` is lowered once with
//! [`kiln_core::lower`] (for its own `spirv.target_env`, else the one given
//! with [`CpuLauncher::with_target_env`], else [`cpu_target_env`]),
//! validated, converted to LLVM (kernel ABI) and compiled per kernel;
//! argument *i* of a launch is bound at set 0, binding *i* (a buffer of
//! whole 32-bit words, as on the device); `threads in (...)` must equal
//! the kernel's workgroup size.

use std::collections::HashMap;

use kiln_core::host::{
    explicit_target_env, find_gpu_module, launch_block_sizes, ElemType, HostBuffer, LaunchRequest,
    LaunchTiming, Launcher, LauncherError,
};
use kiln_core::ir::Module;
use kiln_core::kernel::KernelModule;
use kiln_core::lower::{self, LowerOptions, LoweredModule};
use kiln_core::target::TargetEnv;

use crate::env::cpu_target_env;
use crate::error::CpuError;
use crate::kernel::{BufferBinding, CpuKernel, DispatchOptions, DispatchReport};

/// Runs a runner program's kernels on the CPU.
pub struct CpuLauncher<'a> {
    kernels: &'a KernelModule,
    env: Option<TargetEnv>,
    options: DispatchOptions,
    timed: bool,
    modules: HashMap<String, Module>,
    compiled: HashMap<(String, String), CpuKernel>,
    workgroup_sizes: HashMap<String, [u32; 3]>,
    reports: Vec<(String, DispatchReport)>,
}

impl std::fmt::Debug for CpuLauncher<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CpuLauncher")
            .field("options", &self.options)
            .field("compiled", &self.compiled.len())
            .finish_non_exhaustive()
    }
}

impl<'a> CpuLauncher<'a> {
    /// A launcher for the kernels of `kernels`.
    pub fn new(kernels: &'a KernelModule) -> Self {
        CpuLauncher {
            kernels,
            env: None,
            options: DispatchOptions::default(),
            timed: false,
            modules: HashMap::new(),
            compiled: HashMap::new(),
            workgroup_sizes: launch_block_sizes(kernels),
            reports: Vec::new(),
        }
    }

    /// How dispatches run (subgroup size, threads, robust access).
    pub fn with_options(mut self, options: DispatchOptions) -> Self {
        self.options = options;
        self
    }

    /// Lowers modules without a `spirv.target_env` of their own for `env`
    /// (e.g. the env of the device the results are compared with).
    pub fn with_target_env(mut self, env: TargetEnv) -> Self {
        self.env = Some(env);
        self
    }

    /// Reports each launch's run time, so the host interpreter prints the
    /// runner's timing lines (the kernel time as the shader time).
    pub fn with_timing(mut self, timed: bool) -> Self {
        self.timed = timed;
        self
    }

    /// Runs `gpu.module @name`'s kernels from the SPIR-V binary `words`
    /// (as `mlir-vulkan-runner` takes a prebuilt binary) instead of
    /// lowering the module: the binary is imported by kiln's deserializer
    /// and converted like a lowered module. An import error names the
    /// module.
    pub fn with_binary(mut self, name: &str, words: &[u32]) -> Result<Self, CpuError> {
        let module = kiln_core::binary::deserialize(words)
            .map_err(|e| CpuError::Launch(format!("gpu.module @{name}: the given binary: {e}")))?;
        self.modules.insert(name.to_owned(), module);
        Ok(self)
    }

    /// `kernel name → what its dispatch measured`, in launch order.
    pub fn reports(&self) -> &[(String, DispatchReport)] {
        &self.reports
    }

    /// The lowered spv modules, by `gpu.module` name.
    pub fn modules(&self) -> &HashMap<String, Module> {
        &self.modules
    }

    fn lower(&mut self, name: &str) -> Result<(), CpuError> {
        if self.modules.contains_key(name) {
            return Ok(());
        }
        let m = self.kernels;
        let op = find_gpu_module(m, name)
            .ok_or_else(|| CpuError::Launch(format!("no gpu.module @{name}")))?;
        let env = explicit_target_env(m, op)
            .or_else(|| self.env.clone())
            .unwrap_or_else(|| cpu_target_env(self.options.subgroup_size));
        let options = LowerOptions {
            workgroup_sizes: self.workgroup_sizes.clone(),
            ..LowerOptions::default()
        };
        let err = |e: lower::LowerError| CpuError::Launch(format!("gpu.module @{name}: {e}"));
        let spv = lower::convert_gpu_module(m, op, &env, &options).map_err(err)?;
        let compiled = lower::compile_lowered(LoweredModule {
            name: name.to_owned(),
            module: spv,
            env,
        })
        .map_err(err)?;
        self.modules.insert(name.to_owned(), compiled.module);
        Ok(())
    }

    fn kernel(&mut self, module: &str, kernel: &str) -> Result<&CpuKernel, CpuError> {
        let key = (module.to_owned(), kernel.to_owned());
        if !self.compiled.contains_key(&key) {
            self.lower(module)?;
            let spv = &self.modules[module];
            let k = CpuKernel::compile_for_subgroup_size(
                spv,
                kernel,
                &HashMap::new(),
                Some(self.options.subgroup_size),
            )
            .map_err(|e| CpuError::Launch(format!("gpu.module @{module}: {e}")))?;
            self.compiled.insert(key.clone(), k);
        }
        Ok(&self.compiled[&key])
    }

    fn run(
        &mut self,
        request: &LaunchRequest<'_>,
        args: &mut [&mut HostBuffer],
    ) -> Result<Option<LaunchTiming>, CpuError> {
        let options = self.options.clone();
        let k = self.kernel(request.module, request.kernel)?;
        if k.info().local_size != request.block {
            return Err(CpuError::Launch(format!(
                "kernel @{}::@{}: launched with threads in {:?} but compiled with workgroup size {:?}",
                request.module,
                request.kernel,
                request.block,
                k.info().local_size
            )));
        }
        // Whole 32-bit words, as the device buffers are.
        let mut storage: Vec<Vec<u8>> = Vec::with_capacity(args.len());
        for (i, arg) in args.iter().enumerate() {
            if arg.elem() == ElemType::Index {
                return Err(CpuError::Binding {
                    what: format!("kernel @{} argument #{i}", request.kernel),
                    message: "memrefs of index are 64-bit on the host and 32-bit on the device"
                        .into(),
                });
            }
            let mut bytes = arg.bytes().to_vec();
            bytes.resize(bytes.len().div_ceil(4).max(1) * 4, 0);
            storage.push(bytes);
        }
        let mut bindings: Vec<BufferBinding<'_>> = storage
            .iter_mut()
            .enumerate()
            .map(|(i, bytes)| BufferBinding {
                set: 0,
                binding: i as u32,
                element: 0,
                bytes,
            })
            .collect();
        let report = k
            .dispatch(&mut bindings, &[], request.grid, &options)
            .map_err(|e| match e {
                CpuError::OutOfBounds { .. } => CpuError::Launch(format!(
                    "kernel @{}::@{}: {e} (binding i is kernel argument #i)",
                    request.module, request.kernel
                )),
                other => other,
            })?;
        for (arg, bytes) in args.iter_mut().zip(&storage) {
            let n = arg.bytes().len();
            arg.bytes_mut().copy_from_slice(&bytes[..n]);
        }
        self.reports.push((request.kernel.to_owned(), report));
        Ok(self.timed.then_some(LaunchTiming {
            device: Some(report.kernel),
            submit: std::time::Duration::ZERO,
            wait: report.total,
        }))
    }
}

impl Launcher for CpuLauncher<'_> {
    fn launch(
        &mut self,
        request: &LaunchRequest<'_>,
        args: &mut [&mut HostBuffer],
    ) -> Result<Option<LaunchTiming>, LauncherError> {
        self.run(request, args)
            .map_err(|e| Box::new(e) as LauncherError)
    }
}
