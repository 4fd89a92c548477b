//! Kernels: where they come from, how they are compiled and cached.
//!
//! [`Device::load_kernel`](crate::Device::load_kernel) takes a
//! [`KernelSource`]:
//! - [`KernelSource::Spirv`]: a SPIR-V binary and its entry point; the
//!   interface (bindings, their read/write access, push constants,
//!   workgroup size) is reflected from the binary.
//! - [`KernelSource::Memref`]: a memref-level kernel in MLIR syntax (a
//!   `gpu.module` with `gpu.func ... kernel`), lowered for the device's
//!   target env by kiln-core's pipeline (lower, serialize, spirv-val with
//!   the Vulkan rules), then treated as a binary.
//!
//! Tensor-level programs arrive with the tensor compiler as a further
//! source; the enum is `#[non_exhaustive]` so that adding it breaks no
//! caller.
//!
//! Caching is layered. **In memory**, a loaded kernel (its pipeline) is
//! kept per cache key: the source's hash, the entry point, the lowering
//! options and the device's target env; a SPIR-V kernel is also kept by
//! its code without its names, so that a kernel that differs from a
//! loaded one only in its entry point's name shares that pipeline (under
//! its own label; see `spirv_code`). **On disk**, a memref kernel's
//! validated binary is stored under the same key (see [`crate::cache`]), so
//! a new process skips lowering and validation; the driver's own compilation
//! is kept in the `VkPipelineCache` blob, loaded when the device opens and
//! written back atomically ([`Device::save_caches`](crate::Device::save_caches),
//! and when the device is dropped).

use std::sync::atomic::Ordering;
use std::sync::Arc;

use kiln_abi::PipelineInterface;
use kiln_vulkan::ComputePipeline;

use crate::cache;
use crate::error::{Error, Result};
use crate::inner::{lock, DeviceInner};

/// Where a kernel comes from.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum KernelSource<'a> {
    /// A SPIR-V binary and the entry point to run.
    Spirv {
        /// The module's words.
        words: &'a [u32],
        /// The entry point's name.
        entry: &'a str,
    },
    /// A memref-level kernel module in MLIR syntax and the `gpu.func` to
    /// run (lowered for the device's own target env; every `gpu.func`
    /// needs a workgroup size of its own, e.g. `spirv.entry_point_abi`).
    Memref {
        /// The module text (`gpu.module @m { gpu.func @k(...) kernel ... }`,
        /// alone or in a `module`).
        text: &'a str,
        /// The kernel's symbol name.
        kernel: &'a str,
    },
}

impl<'a> KernelSource<'a> {
    /// A SPIR-V binary and its entry point.
    pub fn spirv(words: &'a [u32], entry: &'a str) -> Self {
        Self::Spirv { words, entry }
    }

    /// A memref-level kernel module and its kernel.
    pub fn memref(text: &'a str, kernel: &'a str) -> Self {
        Self::Memref { text, kernel }
    }

    fn entry(&self) -> &'a str {
        match self {
            Self::Spirv { entry, .. } => entry,
            Self::Memref { kernel, .. } => kernel,
        }
    }

    /// The cache key of this source on a device with target env `env`.
    fn key(&self, env: &str) -> String {
        match self {
            Self::Spirv { words, entry } => {
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                format!(
                    "kiln-kernel-v1|spirv|{:016x}|{}|{entry}|{env}",
                    cache::fnv1a(&bytes),
                    words.len()
                )
            }
            // kiln's build: another build of the compiler may lower
            // differently, even at the same crate version.
            Self::Memref { text, kernel } => format!(
                "kiln-kernel-v1|kiln {} {}|memref|{:016x}|{}|{kernel}|lower:default|{env}",
                env!("CARGO_PKG_VERSION"),
                kiln_core::SOURCE_HASH,
                cache::fnv1a(text.as_bytes()),
                text.len()
            ),
        }
    }
}

/// A loaded kernel: its pipeline and interface. Cheap to clone.
#[derive(Clone)]
pub struct Kernel {
    pub(crate) inner: Arc<KernelInner>,
}

pub(crate) struct KernelInner {
    pub(crate) pipeline: Arc<ComputePipeline>,
    pub(crate) label: Arc<str>,
    /// The device it was made on (compared by address).
    pub(crate) device: usize,
}

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernel")
            .field("label", &self.inner.label)
            .finish_non_exhaustive()
    }
}

impl Kernel {
    /// The kernel's label (its entry point), used in errors and profiles.
    pub fn label(&self) -> &str {
        &self.inner.label
    }

    /// The kiln-vulkan pipeline, for code that records work itself (e.g.
    /// with [`kiln_vulkan::CommandBatch`]).
    pub fn pipeline(&self) -> &Arc<ComputePipeline> {
        &self.inner.pipeline
    }

    /// Its interface: bindings (in the order tensors are passed to
    /// [`Stream::dispatch`](crate::Stream::dispatch)), their access, push
    /// constants, workgroup size.
    pub fn interface(&self) -> &PipelineInterface {
        self.inner.pipeline.interface()
    }
}

/// What [`load`] found where.
pub(crate) fn load(device: &Arc<DeviceInner>, source: KernelSource<'_>) -> Result<Kernel> {
    device.alive()?;
    let env = device.ctx.target_env().to_string();
    let key = source.key(&env);
    if let Some(k) = lock(&device.kernels).get(&key) {
        device
            .cache_counters
            .memory_hits
            .fetch_add(1, Ordering::Relaxed);
        return Ok(k.clone());
    }
    let entry = source.entry();
    // A kernel of the same code under another name (see `spirv_code`):
    // its pipeline, with this kernel's label.
    let code = match source {
        KernelSource::Spirv { words, .. } => crate::spirv_code::code_key(words)
            .map(|(hash, len)| format!("kiln-kernel-code-v1|{hash:016x}|{len}|{env}")),
        KernelSource::Memref { .. } => None,
    };
    if let Some(code) = &code {
        let mut kernels = lock(&device.kernels);
        if let Some(same) = kernels.get(code).cloned() {
            let kernel = Kernel {
                inner: Arc::new(KernelInner {
                    pipeline: Arc::clone(&same.inner.pipeline),
                    label: entry.into(),
                    device: same.inner.device,
                }),
            };
            kernels.insert(key, kernel.clone());
            device
                .cache_counters
                .memory_hits
                .fetch_add(1, Ordering::Relaxed);
            return Ok(kernel);
        }
    }
    let words = match source {
        KernelSource::Spirv { words, .. } => {
            // A binary kiln did not produce: spirv-val before the driver
            // sees it (drivers need not survive invalid modules).
            device
                .ctx
                .validate_binary(words)
                .map_err(|e| Error::Compile {
                    kernel: entry.to_owned(),
                    message: e.to_string(),
                })?;
            words.to_vec()
        }
        KernelSource::Memref { text, kernel } => memref_binary(device, text, kernel, &key)?,
    };
    let interface =
        kiln_core::reflect::reflect_binary(&words, entry).map_err(|e| Error::Reflect {
            kernel: entry.to_owned(),
            message: e.to_string(),
        })?;
    let pipeline = ComputePipeline::with_cache(
        &device.ctx,
        &words,
        &interface,
        &[],
        Some(&device.pipeline_cache),
    )
    .map_err(|e| device.vk(e))?;
    let kernel = Kernel {
        inner: Arc::new(KernelInner {
            pipeline: Arc::new(pipeline),
            label: entry.into(),
            device: Arc::as_ptr(device) as usize,
        }),
    };
    let mut kernels = lock(&device.kernels);
    if let Some(code) = code {
        kernels.entry(code).or_insert_with(|| kernel.clone());
    }
    kernels.insert(key, kernel.clone());
    Ok(kernel)
}

/// The validated binary of a memref kernel: from the disk cache, else
/// compiled (and stored there).
fn memref_binary(device: &DeviceInner, text: &str, kernel: &str, key: &str) -> Result<Vec<u32>> {
    let path = device.cache_dir.as_ref().map(|d| cache::spirv_path(d, key));
    if let Some(path) = &path {
        match std::fs::read(path) {
            Ok(file) => match cache::decode_spirv(&file, key) {
                Ok(words) => {
                    device
                        .cache_counters
                        .disk_hits
                        .fetch_add(1, Ordering::Relaxed);
                    return Ok(words);
                }
                Err(why) => {
                    device
                        .cache_counters
                        .rejected_files
                        .fetch_add(1, Ordering::Relaxed);
                    device.warn(format!(
                        "ignoring kernel cache file {}: {why}",
                        path.display()
                    ));
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => device.warn(format!("cannot read {}: {e}", path.display())),
        }
    }
    let words = compile_memref(device, text, kernel)?;
    device
        .cache_counters
        .compiled
        .fetch_add(1, Ordering::Relaxed);
    if let Some(path) = &path {
        match cache::write_atomic(path, &cache::encode_spirv(key, &words)) {
            Ok(()) => {
                device
                    .cache_counters
                    .disk_writes
                    .fetch_add(1, Ordering::Relaxed);
            }
            Err(e) => device.warn(format!("cannot write {}: {e}", path.display())),
        }
    }
    Ok(words)
}

/// Lowers the `gpu.module` holding `kernel` for the device's target env,
/// serializes and validates it.
fn compile_memref(device: &DeviceInner, text: &str, kernel: &str) -> Result<Vec<u32>> {
    let err = |message: String| Error::Compile {
        kernel: kernel.to_owned(),
        message,
    };
    let module = kiln_core::kernel::parse(text).map_err(|e| err(e.to_string()))?;
    let compiled = kiln_core::lower::compile_to_binaries(
        &module,
        Some(device.ctx.target_env()),
        &kiln_core::lower::LowerOptions::default(),
    )
    .map_err(|e| err(e.to_string()))?;
    compiled
        .into_iter()
        .find(|m| kiln_core::reflect::reflect_binary(&m.words, kernel).is_ok())
        .map(|m| m.words)
        .ok_or_else(|| err("no gpu.func of that name with `kernel` in the module".to_owned()))
}
