//! [`Device`]: the handle a framework keeps per GPU.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use kiln_abi::Limits;
use kiln_core::target::TargetEnv;
use kiln_vulkan::{
    ApiVersion, Context, ContextOptions, DeviceSelector, DeviceType, PipelineCache,
    PipelineCacheIdentity,
};

use crate::cache;
use crate::error::{Error, Result};
use crate::inner::DeviceInner;
use crate::kernel::{self, Kernel, KernelSource};
use crate::profile::{Counters, ProfileRecord, ProfileReport, ENV_PROFILE};
use crate::stream::Stream;

/// Where the disk caches go.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CacheLocation {
    /// `KILN_CACHE_DIR`, else the platform's cache directory
    /// ([`default_cache_dir`](crate::default_cache_dir)); no disk cache
    /// (with a warning) if it cannot be created.
    #[default]
    Default,
    /// This directory (created if missing; an error if it cannot be).
    Dir(PathBuf),
    /// No disk cache.
    Disabled,
}

/// How to open a [`Device`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceOptions {
    /// Which device (`KILN_DEVICE` applies when this is the default).
    pub device: DeviceSelector,
    /// The Khronos validation layer (`KILN_VALIDATION=1` turns it on too).
    pub validation: bool,
    /// Where the disk caches go.
    pub cache: CacheLocation,
    /// Size of the blocks tensors are suballocated from (larger tensors get
    /// a block of their own). Default 64 MiB.
    pub tensor_block_size: u64,
    /// Size of the staging blocks for uploads and readbacks. Default 16 MiB.
    pub staging_block_size: u64,
    /// Staged uploads and readbacks larger than this move in chunks of this
    /// size (at least 64 KiB), each submitted once its host copy is done, so
    /// the host copies one chunk while the device copies another. Default
    /// 8 MiB.
    pub staging_chunk_size: u64,
    /// A stream submits after this many dispatches. Default 100.
    pub max_dispatches_per_submit: u32,
    /// A stream submits after transferring this many bytes. Default 64 MiB.
    pub max_bytes_per_submit: u64,
    /// A submit waits for the oldest submission when this many are queued.
    /// Default 8.
    pub max_in_flight: usize,
    /// Time every dispatch of every stream (`KILN_PROFILE=1` turns it on
    /// too).
    pub profile: bool,
    /// Write a Chrome / Perfetto trace of the device's submissions,
    /// dispatches and copies to this file when the device is dropped
    /// (`KILN_TRACE=FILE.json` sets it when `None`; see [`ENV_TRACE`](crate::ENV_TRACE)).
    /// Turns [`profile`](Self::profile) on, for the dispatches' GPU times.
    pub trace: Option<PathBuf>,
    /// Keep tensors in host-visible device memory where the device has
    /// unified memory (default). `false` keeps them device-local and moves
    /// host data through staging copies, as on a discrete GPU.
    pub unified_memory: bool,
}

impl Default for DeviceOptions {
    fn default() -> Self {
        Self {
            device: DeviceSelector::Default,
            validation: false,
            cache: CacheLocation::Default,
            tensor_block_size: 64 << 20,
            staging_block_size: 16 << 20,
            staging_chunk_size: 8 << 20,
            max_dispatches_per_submit: 100,
            max_bytes_per_submit: 64 << 20,
            max_in_flight: 8,
            profile: false,
            trace: None,
            unified_memory: true,
        }
    }
}

/// What the device is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    /// Its name, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
    pub name: String,
    /// Its kind.
    pub device_type: DeviceType,
    /// The Vulkan version it supports.
    pub api_version: ApiVersion,
    /// The driver's name, where reported.
    pub driver_name: Option<String>,
    /// Vendor, device, driver version and pipeline-cache UUID.
    pub identity: PipelineCacheIdentity,
    /// Whether tensors live in host-visible device memory (no staging): the
    /// device has unified memory and [`DeviceOptions::unified_memory`] is on.
    pub unified_memory: bool,
    /// Whether dispatches can be timed.
    pub timestamps: bool,
}

/// One pool of [`MemoryReport`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolReport {
    /// `unified`, `device-local`, `upload` or `readback`.
    pub name: &'static str,
    /// Bytes of blocks held.
    pub reserved: u64,
    /// Bytes of live buffers (including those only queued work still
    /// holds).
    pub in_use: u64,
    /// The highest `in_use` so far.
    pub peak: u64,
    /// Blocks held.
    pub blocks: usize,
    /// Live buffers.
    pub buffers: usize,
}

/// Device memory held by the runtime, per pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryReport {
    /// Tensors, upload staging, readback staging.
    pub pools: Vec<PoolReport>,
}

impl MemoryReport {
    /// Bytes reserved over all pools.
    pub fn reserved(&self) -> u64 {
        self.pools.iter().map(|p| p.reserved).sum()
    }

    /// Bytes in use over all pools.
    pub fn in_use(&self) -> u64 {
        self.pools.iter().map(|p| p.in_use).sum()
    }

    /// The sum of the pools' peaks.
    pub fn peak(&self) -> u64 {
        self.pools.iter().map(|p| p.peak).sum()
    }
}

/// What the kernel caches did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Loads answered from memory.
    pub memory_hits: u64,
    /// Memref kernels whose binary came from the disk cache.
    pub disk_hits: u64,
    /// Memref kernels lowered and validated.
    pub compiled: u64,
    /// Binaries written to the disk cache.
    pub disk_writes: u64,
    /// Cache files ignored as corrupt or foreign.
    pub rejected_files: u64,
    /// Bytes of `VkPipelineCache` data loaded at open (0: none or ignored).
    pub pipeline_cache_loaded: u64,
    /// Tensor programs whose compiled form came from memory (compiled
    /// earlier by this device).
    pub program_memory_hits: u64,
    /// Tensor programs whose compiled form came from the disk cache.
    pub program_disk_hits: u64,
    /// Tensor programs compiled by the tensor compiler.
    pub programs_compiled: u64,
    /// Compiled tensor programs written to the disk cache.
    pub program_disk_writes: u64,
}

/// A Vulkan device for an ML framework: pooled memory, streams, cached
/// kernels, profiling. Cheap to clone; `Send + Sync`.
///
/// ```
/// # fn main() -> Result<(), kiln_runtime::Error> {
/// use kiln_runtime::{Device, DeviceOptions};
/// let device = Device::new(&DeviceOptions::default())?;
/// println!("{} ({})", device.info().name, device.target_env().summary());
/// let report = device.memory_report();
/// assert_eq!(report.in_use(), 0);
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Device {
    pub(crate) inner: Arc<DeviceInner>,
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device")
            .field("name", &self.inner.ctx.device_summary().name)
            .finish_non_exhaustive()
    }
}

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "1" | "true" | "yes" | "on"
        )
    })
}

impl Device {
    /// Opens a device: selects it (`options.device`, else `KILN_DEVICE`),
    /// creates the context, loads the pipeline cache of the cache
    /// directory (ignoring, with a warning, one that is corrupt or of
    /// another device or driver).
    pub fn new(options: &DeviceOptions) -> Result<Self> {
        let ctx = Context::new(&ContextOptions {
            validation: options.validation,
            device: options.device.clone(),
        })?;
        Self::from_context(ctx, options)
    }

    /// A device on a kiln-vulkan context made elsewhere: by
    /// [`Context::from_external`](kiln_vulkan::Context::from_external) on
    /// an application's own `VkInstance` and `VkDevice` (see the crate
    /// docs' Interop section), or by [`Context::new`]. `options.device`
    /// and `options.validation` are the context's business and ignored
    /// here; the rest applies as in [`Device::new`].
    pub fn from_context(ctx: Context, options: &DeviceOptions) -> Result<Self> {
        let mut options = options.clone();
        let print_profile = env_flag(ENV_PROFILE);
        options.profile |= print_profile;
        if options.trace.is_none() {
            options.trace = crate::trace::env_path();
        }
        options.profile |= options.trace.is_some();
        let mut warnings = Vec::new();
        let cache_dir = match &options.cache {
            CacheLocation::Disabled => None,
            CacheLocation::Dir(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| Error::CacheDir {
                    path: dir.clone(),
                    message: e.to_string(),
                })?;
                Some(dir.clone())
            }
            CacheLocation::Default => match cache::default_cache_dir() {
                Some(dir) => match std::fs::create_dir_all(&dir) {
                    Ok(()) => Some(dir),
                    Err(e) => {
                        warnings.push(format!(
                            "no disk cache: cannot create {}: {e}",
                            dir.display()
                        ));
                        None
                    }
                },
                None => {
                    warnings.push("no disk cache: no cache directory is known".to_owned());
                    None
                }
            },
        };
        let id = ctx.pipeline_cache_identity();
        let mut initial: Vec<u8> = Vec::new();
        let mut rejected = 0;
        if let Some(dir) = &cache_dir {
            let path = cache::pipeline_cache_path(dir, &id);
            match std::fs::read(&path) {
                Ok(file) => match cache::decode_pipeline_cache(&file, &id) {
                    Ok(blob) => initial = blob.to_vec(),
                    Err(why) => {
                        rejected += 1;
                        warnings.push(format!("ignoring pipeline cache {}: {why}", path.display()));
                    }
                },
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => warnings.push(format!("cannot read {}: {e}", path.display())),
            }
        }
        let pipeline_cache = match PipelineCache::new(&ctx, &initial) {
            Ok(c) => c,
            Err(e) if !initial.is_empty() => {
                warnings.push(format!("the driver refused the pipeline cache: {e}"));
                initial.clear();
                PipelineCache::new(&ctx, &[])?
            }
            Err(e) => return Err(e.into()),
        };
        let widths = ctx.target_env().unpreserved_float_widths();
        if !widths.is_empty() {
            let names: Vec<String> = widths.iter().map(|w| format!("f{w}")).collect();
            warnings.push(format!(
                "the device does not preserve IEEE signed zeros, infinities and NaNs of {} \
                 on request (shaderSignedZeroInfNanPreserveFloat*): its shader compiler may \
                 fold x * 0.0 to +0 and x + 0.0 to x, so such results may differ from IEEE's",
                names.join(", ")
            ));
        }
        for w in &warnings {
            log::warn!("kiln-runtime: {w}");
        }
        let inner = DeviceInner::new(ctx, options, cache_dir, pipeline_cache, warnings)?;
        inner.print_profile.store(print_profile, Ordering::Relaxed);
        inner
            .cache_counters
            .pipeline_cache_loaded
            .store(initial.len() as u64, Ordering::Relaxed);
        inner
            .cache_counters
            .rejected_files
            .store(rejected, Ordering::Relaxed);
        Ok(Self {
            inner: Arc::new(inner),
        })
    }

    pub(crate) fn from_inner(inner: Arc<DeviceInner>) -> Self {
        Self { inner }
    }

    /// A new stream.
    pub fn stream(&self) -> Stream {
        Stream::new(&self.inner)
    }

    /// What the device is.
    pub fn info(&self) -> DeviceInfo {
        let ctx = &self.inner.ctx;
        let s = ctx.device_summary();
        DeviceInfo {
            name: s.name.clone(),
            device_type: s.device_type,
            api_version: s.api_version,
            driver_name: s.driver_name.clone(),
            identity: ctx.pipeline_cache_identity(),
            unified_memory: self.inner.tensors.kind() == kiln_vulkan::MemoryKind::Unified,
            timestamps: kiln_vulkan::CommandBatch::new(ctx).is_ok_and(|b| b.timing_available()),
        }
    }

    /// The target env kernels are compiled for.
    pub fn target_env(&self) -> &TargetEnv {
        self.inner.ctx.target_env()
    }

    /// The device limits dispatches are checked against.
    pub fn limits(&self) -> &Limits {
        self.inner.ctx.limits()
    }

    /// The options the device was opened with (environment applied).
    pub fn options(&self) -> &DeviceOptions {
        &self.inner.options
    }

    /// The cache directory in use, if any.
    pub fn cache_dir(&self) -> Option<&std::path::Path> {
        self.inner.cache_dir.as_deref()
    }

    /// Memory held per pool, after releasing what finished work used.
    pub fn memory_report(&self) -> MemoryReport {
        let _ = self.inner.retire();
        let i = &self.inner;
        MemoryReport {
            pools: [&i.tensors, &i.upload, &i.readback]
                .into_iter()
                .map(|p| {
                    let s = p.stats();
                    PoolReport {
                        name: p.kind().name(),
                        reserved: s.reserved,
                        in_use: s.in_use,
                        peak: s.peak_in_use,
                        blocks: s.blocks,
                        buffers: s.slices,
                    }
                })
                .collect(),
        }
    }

    /// Releases what finished work used and gives the pools' empty blocks
    /// back to the driver; returns the bytes released.
    pub fn trim(&self) -> Result<u64> {
        self.inner.alive()?;
        self.inner.retire()?;
        Ok(self.inner.trim_pools())
    }

    /// Loads a kernel (compiling and caching it as [`KernelSource`]
    /// describes).
    pub fn load_kernel(&self, source: KernelSource<'_>) -> Result<Kernel> {
        kernel::load(&self.inner, source)
    }

    /// Compiles tensor program `module` for this device and loads it: the
    /// same as [`Program::compile`](crate::Program::compile)`(self, module)`.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use kiln_core::tensor::eval::{Tensor, Value};
    /// use kiln_core::tensor::attr::Elements;
    /// use kiln_core::tensor::ElemType;
    /// use kiln_runtime::{CacheLocation, Device, DeviceOptions};
    /// let module = kiln_core::tensor::load(
    ///     r#"func.func @relu(%x: tensor<4xf32>) -> tensor<4xf32> {
    ///   %z = arith.constant dense<0.0> : tensor<4xf32>
    ///   %y = arith.maximumf %x, %z : tensor<4xf32>
    ///   return %y : tensor<4xf32>
    /// }"#,
    /// )?;
    /// let options = DeviceOptions { cache: CacheLocation::Disabled, ..DeviceOptions::default() };
    /// let device = Device::new(&options)?;
    /// let program = device.compile(&module)?;
    /// let data = Elements::F32(vec![-1.0, 2.0, -3.0, 4.0]);
    /// let x = Tensor { elem: ElemType::F32, shape: vec![4], data };
    /// let out = program.run("relu", &[Value::Tensor(x.into())])?;
    /// let y = &out[0].tensor().unwrap().data;
    /// assert_eq!(*y, Elements::F32(vec![0.0, 2.0, 0.0, 4.0]));
    /// # Ok(())
    /// # }
    /// ```
    pub fn compile(&self, module: &kiln_core::tensor::TensorModule) -> Result<crate::Program> {
        crate::Program::compile(self, module)
    }

    /// The first half of [`Device::compile`]: tensor program `module`
    /// compiled for this device (its kernels lowered, serialized and
    /// validated), from the program caches (this device's memory, then the
    /// disk cache) or the tensor compiler; no pipeline is made.
    /// [`Program::load`](crate::Program::load) makes them.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use kiln_runtime::{CacheLocation, Device, DeviceOptions, Program};
    /// let module = kiln_core::tensor::load(
    ///     r#"func.func @neg(%x: tensor<4xf32>) -> tensor<4xf32> {
    ///   %y = arith.negf %x : tensor<4xf32>
    ///   return %y : tensor<4xf32>
    /// }"#,
    /// )?;
    /// let options = DeviceOptions { cache: CacheLocation::Disabled, ..DeviceOptions::default() };
    /// let device = Device::new(&options)?;
    /// let compiled = device.compile_program(&module)?;
    /// let again = device.compile_program(&module)?; // from memory
    /// assert!(std::sync::Arc::ptr_eq(&compiled, &again));
    /// assert_eq!(device.cache_stats().program_memory_hits, 1);
    /// let program = Program::load(&device, compiled)?;
    /// # let _ = program;
    /// # Ok(())
    /// # }
    /// ```
    pub fn compile_program(
        &self,
        module: &kiln_core::tensor::TensorModule,
    ) -> Result<std::sync::Arc<kiln_core::codegen::CompiledProgram>> {
        let target = crate::target::device_target(self);
        crate::Program::compiled_for(self, module, &target)
    }

    /// Blocks until all work submitted on the device completed.
    pub fn sync(&self) -> Result<()> {
        self.inner.wait_all()
    }

    /// Whether the device was lost (then every call returns
    /// [`Error::DeviceLost`]).
    pub fn is_lost(&self) -> bool {
        self.inner.alive().is_err()
    }

    /// Writes the `VkPipelineCache` blob to the cache directory now
    /// (atomically; also done when the last handle is dropped).
    pub fn save_caches(&self) -> Result<()> {
        self.inner.alive()?;
        save_pipeline_cache(&self.inner)
    }

    /// What the caches did since the device was opened.
    pub fn cache_stats(&self) -> CacheStats {
        let c = &self.inner.cache_counters;
        let get = |a: &std::sync::atomic::AtomicU64| a.load(Ordering::Relaxed);
        CacheStats {
            memory_hits: get(&c.memory_hits),
            disk_hits: get(&c.disk_hits),
            compiled: get(&c.compiled),
            disk_writes: get(&c.disk_writes),
            rejected_files: get(&c.rejected_files),
            pipeline_cache_loaded: get(&c.pipeline_cache_loaded),
            program_memory_hits: get(&c.program_memory_hits),
            program_disk_hits: get(&c.program_disk_hits),
            programs_compiled: get(&c.programs_compiled),
            program_disk_writes: get(&c.program_disk_writes),
        }
    }

    /// Warnings so far (ignored cache files, a missing cache directory);
    /// also logged through the `log` crate.
    pub fn warnings(&self) -> Vec<String> {
        self.inner.warnings()
    }

    /// The counters: submissions, dispatches, transfers, bytes staged.
    pub fn counters(&self) -> Counters {
        self.inner.counters.snapshot()
    }

    /// The profiled dispatches whose work completed (see [`Stream::profile`]).
    pub fn profile(&self) -> Vec<ProfileRecord> {
        let _ = self.inner.retire();
        self.inner.profile()
    }

    /// Takes (and clears) the profile records.
    pub fn take_profile(&self) -> Vec<ProfileRecord> {
        let _ = self.inner.retire();
        self.inner.take_profile()
    }

    /// The profile records summed per kernel, sorted by GPU time.
    pub fn profile_report(&self) -> ProfileReport {
        ProfileReport::new(&self.profile())
    }

    /// Whether the `len` bytes at address `addr` can become a tensor
    /// without a copy ([`Tensor::from_host_memory`](crate::Tensor::from_host_memory)):
    /// the device imports host memory (`VK_EXT_external_memory_host` on
    /// unified memory) and the address and the length are non-zero
    /// multiples of the slice alignment (16 bytes on lavapipe).
    pub fn can_import_host(&self, addr: usize, len: usize) -> bool {
        self.inner.ctx.can_import_host(addr, len)
    }

    /// The kiln-vulkan context underneath, for what the runtime does not
    /// wrap (validation messages, [`Context::inject_fault`] in tests, the
    /// raw Vulkan handles: [`Context::raw_handles`]).
    pub fn context(&self) -> &Context {
        &self.inner.ctx
    }

    /// Whether `other` is a handle on this same device (not merely the
    /// same physical device).
    pub fn same_device(&self, other: &Device) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// Whether tensors of this device can be shared with another device
    /// or Vulkan user as file descriptors: `(export, import)` (see
    /// [`Tensor::empty_exportable`](crate::Tensor::empty_exportable),
    /// [`Tensor::export_memory`](crate::Tensor::export_memory) and
    /// [`Tensor::from_exported_memory`](crate::Tensor::from_exported_memory)).
    pub fn can_share_memory(&self) -> (bool, bool) {
        self.inner.ctx.can_share_memory_fd()
    }
}

/// Writes the pipeline-cache blob of `inner` to its cache directory.
pub(crate) fn save_pipeline_cache(inner: &DeviceInner) -> Result<()> {
    let Some(dir) = &inner.cache_dir else {
        return Ok(());
    };
    let blob = inner.pipeline_cache.data().map_err(|e| inner.vk(e))?;
    let id = inner.ctx.pipeline_cache_identity();
    let path = cache::pipeline_cache_path(dir, &id);
    cache::write_atomic(&path, &cache::encode_pipeline_cache(&id, &blob)).map_err(|e| {
        Error::CacheDir {
            path: path.clone(),
            message: e.to_string(),
        }
    })
}

#[cfg(test)]
mod tests {
    /// The thread-safety the documentation promises.
    #[test]
    fn auto_traits() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<super::Device>();
        send_sync::<crate::Stream>();
        send_sync::<crate::Tensor>();
        send_sync::<crate::Kernel>();
        fn send<T: Send>() {}
        send::<crate::ReadFuture<f32>>();
    }
}
