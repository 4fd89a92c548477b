//! A [`Launcher`] over a [`Context`]: how `kiln run` executes the
//! `gpu.launch_func`s of an MLIR Vulkan-runner program.
//!
//! * Each `gpu.module` is compiled once, on its first launch, with
//!   [`kiln_core::lower`]: for the device's own env
//!   ([`Context::target_env`]), bounded by the module's `spirv.target_env`
//!   when it (or the top module) has one, as MLIR reads it: the compiler
//!   uses only what both allow, and the device runs the module when it
//!   offers the minimal version, capabilities and extensions the compiled
//!   module needs (a declared list may name more: `Groups`, which no
//!   Vulkan device has); a [`RunnerError::UnsupportedTargetEnv`] names
//!   what the device lacks. Kernels without a workgroup size of their
//!   own get the constant `threads in (...)` of their launches.
//! * [`VulkanLauncher::with_binary`] replaces a module's compilation with a
//!   given SPIR-V binary (e.g. MLIR's), so the same host program can run
//!   either.
//! * A launch reflects the kernel's interface from the binary, makes (and
//!   caches) its pipeline, copies every argument into a host-visible buffer
//!   bound at set 0, binding *i* for argument *i* (what `lower-abi-attrs`
//!   assigns; arguments the kernel does not use are not bound), dispatches
//!   `blocks in (...)` workgroups, waits, and copies the buffers back.
//! * The launch's `threads in (...)` must equal the kernel's compiled
//!   workgroup size (the Vulkan runner cannot change it at dispatch time).

use std::collections::HashMap;

use kiln_core::host::{
    explicit_target_env, find_gpu_module, launch_block_sizes, HostBuffer, LaunchRequest,
    LaunchTiming, Launcher, LauncherError,
};
use kiln_core::kernel::KernelModule;
use kiln_core::lower::{self, LowerError, LowerOptions, LoweredModule};
use kiln_core::target::TargetEnv;
use kiln_core::validate::ValidationEnv;

use kiln_vulkan::{Buffer, BufferBinding, ComputePipeline, Context};

/// Why a launch failed.
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    /// No `gpu.module` of that name.
    #[error("no gpu.module @{module}")]
    UnknownModule {
        /// The name launched.
        module: String,
    },
    /// The compiled module needs more than the device has.
    #[error(
        "gpu.module @{module}: the device cannot run the compiled module: missing {missing}; the device offers {device}"
    )]
    UnsupportedTargetEnv {
        /// The module.
        module: String,
        /// What the device lacks, e.g. `SPIR-V v1.6 (device: v1.3), capability Float64`.
        missing: Missing,
        /// The device env's summary.
        device: String,
    },
    /// Lowering or validating the module failed.
    #[error("gpu.module @{module}: {source}")]
    Lower {
        /// The module.
        module: String,
        /// Why.
        #[source]
        source: Box<LowerError>,
    },
    /// The binary has no usable entry point for the kernel.
    #[error("gpu.module @{module}: kernel @{kernel}: {message}")]
    Reflect {
        /// The module.
        module: String,
        /// The kernel.
        kernel: String,
        /// Why.
        message: String,
    },
    /// `threads in (...)` differs from the kernel's workgroup size.
    #[error(
        "kernel @{module}::@{kernel}: launched with threads in {launch:?} but compiled with workgroup size {compiled:?}"
    )]
    WorkgroupSize {
        /// The module.
        module: String,
        /// The kernel.
        kernel: String,
        /// The launch's block size.
        launch: [u32; 3],
        /// The compiled `LocalSize`.
        compiled: [u32; 3],
    },
    /// An argument the GPU cannot take.
    #[error("kernel @{kernel}: argument #{index}: {message}")]
    Argument {
        /// The kernel.
        kernel: String,
        /// Argument position.
        index: usize,
        /// Why.
        message: String,
    },
    /// A Vulkan failure.
    #[error(transparent)]
    Vulkan(#[from] kiln_vulkan::Error),
}

/// One compiled (or given) `gpu.module` binary.
#[derive(Clone, Debug)]
pub struct ModuleBinary {
    /// The `gpu.module`'s name.
    pub name: String,
    /// The SPIR-V words.
    pub words: Vec<u32>,
    /// The environment it was validated for (None for a given binary).
    pub validation_env: Option<ValidationEnv>,
    /// The target env it was compiled for (None for a given binary).
    pub target_env: Option<TargetEnv>,
}

/// Runs `gpu.launch_func`s of a runner program on a Vulkan device.
pub struct VulkanLauncher<'a> {
    ctx: &'a Context,
    kernels: &'a KernelModule,
    given: HashMap<String, Vec<u32>>,
    binaries: Vec<ModuleBinary>,
    pipelines: HashMap<(String, String), ComputePipeline>,
    workgroup_sizes: HashMap<String, [u32; 3]>,
    timed: bool,
}

impl std::fmt::Debug for VulkanLauncher<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VulkanLauncher")
            .field("given", &self.given.keys().collect::<Vec<_>>())
            .field("binaries", &self.binaries.len())
            .finish_non_exhaustive()
    }
}

impl<'a> VulkanLauncher<'a> {
    /// A launcher for the kernels of `kernels` on `ctx`'s device.
    pub fn new(ctx: &'a Context, kernels: &'a KernelModule) -> Self {
        Self {
            ctx,
            kernels,
            given: HashMap::new(),
            binaries: Vec::new(),
            pipelines: HashMap::new(),
            workgroup_sizes: launch_block_sizes(kernels),
            timed: false,
        }
    }

    /// Times every launch ([`Context::dispatch_timed`]) and reports it, so
    /// the host interpreter prints mlir-vulkan-runner's timing lines.
    pub fn with_timing(mut self, timed: bool) -> Self {
        self.timed = timed;
        self
    }

    /// Uses `words` for `gpu.module @module` instead of compiling it.
    pub fn with_binary(mut self, module: &str, words: Vec<u32>) -> Self {
        self.given.insert(module.to_owned(), words);
        self
    }

    /// The binaries used so far, in the order they were first needed.
    pub fn binaries(&self) -> &[ModuleBinary] {
        &self.binaries
    }

    /// The binary of `module`, compiling it on first use.
    fn binary(&mut self, module: &str) -> Result<&ModuleBinary, RunnerError> {
        if let Some(i) = self.binaries.iter().position(|b| b.name == module) {
            return Ok(&self.binaries[i]);
        }
        // A given binary is moved into `binaries`, which is looked up first.
        let bin = match self.given.remove(module) {
            Some(words) => ModuleBinary {
                name: module.to_owned(),
                words,
                validation_env: None,
                target_env: None,
            },
            None => self.compile(module)?,
        };
        self.binaries.push(bin);
        Ok(&self.binaries[self.binaries.len() - 1])
    }

    fn compile(&self, module: &str) -> Result<ModuleBinary, RunnerError> {
        let m = self.kernels;
        let op = find_gpu_module(m, module).ok_or_else(|| RunnerError::UnknownModule {
            module: module.to_owned(),
        })?;
        let device = self.ctx.target_env();
        // A declared env bounds what the compiler may use (MLIR's reading):
        // the device runs the module when it has what the compiled module
        // needs, even if the declared list names more.
        let env = match explicit_target_env(m, op) {
            Some(declared) => kiln_core::codegen::target::bounded_env(device, &declared),
            None => device.clone(),
        };
        let options = LowerOptions {
            workgroup_sizes: self.workgroup_sizes.clone(),
            ..LowerOptions::default()
        };
        let lower_err = |source: LowerError| RunnerError::Lower {
            module: module.to_owned(),
            source: Box::new(source),
        };
        let spv = lower::convert_gpu_module(m, op, &env, &options).map_err(lower_err)?;
        let compiled = lower::compile_lowered(LoweredModule {
            name: module.to_owned(),
            module: spv,
            env: env.clone(),
        })
        .map_err(lower_err)?;
        if let Some(kiln_core::ir::AttrKind::Vce(needs)) = compiled
            .module
            .attr_kind(compiled.module.top(), "vce_triple")
        {
            check_supported(&TargetEnv::new(needs.clone()), device).map_err(|missing| {
                RunnerError::UnsupportedTargetEnv {
                    module: module.to_owned(),
                    missing,
                    device: device.summary(),
                }
            })?;
        }
        Ok(ModuleBinary {
            name: module.to_owned(),
            words: compiled.words,
            validation_env: Some(compiled.validation_env),
            target_env: Some(env),
        })
    }

    fn pipeline(&mut self, module: &str, kernel: &str) -> Result<&ComputePipeline, RunnerError> {
        let key = (module.to_owned(), kernel.to_owned());
        if !self.pipelines.contains_key(&key) {
            let ctx = self.ctx;
            let words = &self.binary(module)?.words;
            let iface = kiln_core::reflect::reflect_binary(words, kernel).map_err(|e| {
                RunnerError::Reflect {
                    module: module.to_owned(),
                    kernel: kernel.to_owned(),
                    message: e.to_string(),
                }
            })?;
            let pipeline = ComputePipeline::new(ctx, words, &iface)?;
            self.pipelines.insert(key.clone(), pipeline);
        }
        Ok(&self.pipelines[&key])
    }

    fn run(
        &mut self,
        request: &LaunchRequest<'_>,
        args: &mut [&mut HostBuffer],
    ) -> Result<Option<LaunchTiming>, RunnerError> {
        let ctx = self.ctx;
        let timed = self.timed;
        let pipeline = self.pipeline(request.module, request.kernel)?;
        let iface = pipeline.interface();
        if iface.workgroup_size != request.block {
            return Err(RunnerError::WorkgroupSize {
                module: request.module.to_owned(),
                kernel: request.kernel.to_owned(),
                launch: request.block,
                compiled: iface.workgroup_size,
            });
        }
        let used: Vec<(u32, u32)> = iface.bindings.iter().map(|b| b.key()).collect();
        let mut buffers: Vec<(u32, Buffer)> = Vec::new();
        for (i, arg) in args.iter().enumerate() {
            let index = u32::try_from(i).map_err(|_| RunnerError::Argument {
                kernel: request.kernel.to_owned(),
                index: i,
                message: "too many arguments".into(),
            })?;
            if arg.elem() == kiln_core::host::ElemType::Index {
                return Err(RunnerError::Argument {
                    kernel: request.kernel.to_owned(),
                    index: i,
                    message: "memrefs of index are 64-bit on the host and 32-bit on the device"
                        .into(),
                });
            }
            if !used.contains(&(0, index)) {
                continue;
            }
            // Whole 32-bit words: emulated 8/16-bit arrays are i32 arrays.
            let size = (arg.bytes().len() as u64).div_ceil(4).max(1) * 4;
            let mut buffer = Buffer::new(ctx, size)?;
            buffer.write(0, arg.bytes())?;
            buffers.push((index, buffer));
        }
        let bindings: Vec<BufferBinding<'_>> = buffers
            .iter()
            .map(|(i, b)| BufferBinding::new(0, *i, b))
            .collect();
        let timing = if timed {
            let t = ctx.dispatch_timed(pipeline, &bindings, &[], request.grid)?;
            Some(LaunchTiming {
                device: t.device,
                submit: t.submit,
                wait: t.wait,
            })
        } else {
            ctx.dispatch_bindings(pipeline, &bindings, &[], request.grid)?;
            None
        };
        for (i, buffer) in &buffers {
            let host = &mut args[*i as usize];
            buffer.read(0, host.bytes_mut())?;
        }
        Ok(timing)
    }
}

impl Launcher for VulkanLauncher<'_> {
    fn launch(
        &mut self,
        request: &LaunchRequest<'_>,
        args: &mut [&mut HostBuffer],
    ) -> Result<Option<LaunchTiming>, LauncherError> {
        self.run(request, args)
            .map_err(|e| Box::new(e) as LauncherError)
    }
}

/// One thing a device lacks for a module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MissingFeature {
    /// A newer SPIR-V version than the device's.
    Version {
        /// The module's.
        wanted: kiln_core::grammar::Version,
        /// The device's.
        device: kiln_core::grammar::Version,
    },
    /// A capability.
    Capability(kiln_core::grammar::Capability),
    /// An extension.
    Extension(kiln_core::grammar::Extension),
}

impl std::fmt::Display for MissingFeature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MissingFeature::Version { wanted, device } => {
                write!(f, "SPIR-V {wanted} (device: {device})")
            }
            MissingFeature::Capability(cap) => write!(f, "capability {}", cap.name()),
            MissingFeature::Extension(ext) => write!(f, "extension {}", ext.name()),
        }
    }
}

/// What a device lacks for a module (at least one thing); displayed
/// comma-separated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(", "))]
pub struct Missing(pub Vec<MissingFeature>);

/// Whether `device` offers everything `wanted` asks for; else what it
/// lacks.
pub fn check_supported(wanted: &TargetEnv, device: &TargetEnv) -> Result<(), Missing> {
    let mut missing = Vec::new();
    if wanted.version() > device.version() {
        missing.push(MissingFeature::Version {
            wanted: wanted.version(),
            device: device.version(),
        });
    }
    let caps = device.capability_closure();
    for cap in &wanted.vce.capabilities {
        if !caps.contains(cap) {
            missing.push(MissingFeature::Capability(*cap));
        }
    }
    for ext in &wanted.vce.extensions {
        if !device.allows_extension(*ext) {
            missing.push(MissingFeature::Extension(*ext));
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(Missing(missing))
    }
}
