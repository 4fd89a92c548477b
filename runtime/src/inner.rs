//! What every handle on one device shares: the context and timeline, the
//! pools, the submissions in flight, the caches, the counters, and the
//! sticky device-lost state.
//!
//! Invariants:
//! - **Freed on completion.** A submission in flight keeps every buffer its
//!   work uses; it is retired (and only then lets them go back to their
//!   pools) once the timeline shows its value completed. Retirement happens
//!   on every submit, sync, read completion, memory report and trim.
//! - **Lost is forever.** The first device loss any call sees is recorded
//!   with what was running; [`DeviceInner::alive`] returns it to every later
//!   call, before any Vulkan call is made.
//! - **Bounded queue.** At most `max_in_flight` submissions are queued; a
//!   further submit waits (blocking, in the driver) for the oldest.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use kiln_vulkan::{
    BlockPool, CommandBatch, Context, MemoryKind, PipelineCache, Slice, Submission, Timeline,
};

use crate::device::DeviceOptions;
use crate::error::{Error, Result};
use crate::kernel::Kernel;
use crate::profile::{AtomicCounters, ProfileRecord};
use crate::read::Waiter;

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One dispatch of a submission, for errors and profiles.
#[derive(Clone, Debug)]
pub(crate) struct DispatchInfo {
    pub(crate) index: u64,
    pub(crate) label: Arc<str>,
    pub(crate) grid: [u32; 3],
}

/// What a submission did, in words: its first dispatch and its size.
pub(crate) fn describe(work: &[DispatchInfo]) -> String {
    match work.first() {
        Some(d) => format!(
            "dispatch #{} (kernel \"{}\", grid {:?}) of a submission of {} dispatch(es)",
            d.index,
            d.label,
            d.grid,
            work.len()
        ),
        None => "a submission of copies and fills".to_owned(),
    }
}

struct InFlight {
    submission: Submission,
    work: Vec<DispatchInfo>,
    profiled: bool,
}

/// Cache statistics counters.
#[derive(Debug, Default)]
pub(crate) struct CacheCounters {
    pub(crate) memory_hits: AtomicU64,
    pub(crate) disk_hits: AtomicU64,
    pub(crate) compiled: AtomicU64,
    pub(crate) disk_writes: AtomicU64,
    pub(crate) rejected_files: AtomicU64,
    pub(crate) pipeline_cache_loaded: AtomicU64,
    pub(crate) program_memory_hits: AtomicU64,
    pub(crate) program_disk_hits: AtomicU64,
    pub(crate) programs_compiled: AtomicU64,
    pub(crate) program_disk_writes: AtomicU64,
}

pub(crate) struct DeviceInner {
    pub(crate) ctx: Context,
    pub(crate) timeline: Arc<Timeline>,
    pub(crate) options: DeviceOptions,
    /// Where tensors live: unified memory where the device has it, else
    /// device-local.
    pub(crate) tensors: BlockPool,
    pub(crate) upload: BlockPool,
    pub(crate) readback: BlockPool,
    inflight: Mutex<VecDeque<InFlight>>,
    spare: Mutex<Vec<CommandBatch>>,
    lost: Mutex<Option<String>>,
    lost_flag: AtomicBool,
    pub(crate) kernels: Mutex<HashMap<String, Kernel>>,
    /// Compiled tensor programs by cache key (see `Program::compile`).
    pub(crate) programs: Mutex<HashMap<String, Arc<kiln_core::codegen::CompiledProgram>>>,
    pub(crate) cache_dir: Option<PathBuf>,
    pub(crate) pipeline_cache: PipelineCache,
    pub(crate) counters: AtomicCounters,
    pub(crate) cache_counters: CacheCounters,
    profile: Mutex<Vec<ProfileRecord>>,
    warnings: Mutex<Vec<String>>,
    pub(crate) waiter: Waiter,
    next_dispatch: AtomicU64,
    /// The [`ops`](crate::ops) module's compiled programs.
    pub(crate) ops: crate::ops::OpCache,
    /// The tuning file's choices, read on first use (see [`crate::tune`]).
    pub(crate) tuning: std::sync::OnceLock<kiln_core::codegen::strategy::Tuning>,
    /// Print the profile records nobody took when the device is dropped
    /// (`KILN_PROFILE=1`).
    pub(crate) print_profile: AtomicBool,
    /// The trace written when the device is dropped (`KILN_TRACE`).
    pub(crate) tracer: Option<crate::trace::Tracer>,
}

impl DeviceInner {
    pub(crate) fn new(
        ctx: Context,
        options: DeviceOptions,
        cache_dir: Option<PathBuf>,
        pipeline_cache: PipelineCache,
        warnings: Vec<String>,
    ) -> Result<Self> {
        let timeline = Timeline::new(&ctx)?;
        let tensor_kind = if ctx.has_unified_memory() && options.unified_memory {
            MemoryKind::Unified
        } else {
            MemoryKind::DeviceLocal
        };
        let tensors = BlockPool::new(&ctx, tensor_kind, options.tensor_block_size)?;
        let upload = BlockPool::new(&ctx, MemoryKind::Upload, options.staging_block_size)?;
        let readback = BlockPool::new(&ctx, MemoryKind::Readback, options.staging_block_size)?;
        let tracer = options
            .trace
            .clone()
            .map(|path| crate::trace::Tracer::new(path, ctx.device_summary().name.clone()));
        Ok(Self {
            waiter: Waiter::new(Arc::clone(&timeline)),
            ctx,
            timeline,
            options,
            tensors,
            upload,
            readback,
            inflight: Mutex::new(VecDeque::new()),
            spare: Mutex::new(Vec::new()),
            lost: Mutex::new(None),
            lost_flag: AtomicBool::new(false),
            kernels: Mutex::new(HashMap::new()),
            programs: Mutex::new(HashMap::new()),
            cache_dir,
            pipeline_cache,
            counters: AtomicCounters::default(),
            cache_counters: CacheCounters::default(),
            tuning: std::sync::OnceLock::new(),
            profile: Mutex::new(Vec::new()),
            warnings: Mutex::new(warnings),
            next_dispatch: AtomicU64::new(0),
            ops: crate::ops::OpCache::default(),
            print_profile: AtomicBool::new(false),
            tracer,
        })
    }

    /// `Ok` while the device is usable; the recorded loss afterwards.
    pub(crate) fn alive(&self) -> Result<()> {
        if self.lost_flag.load(Ordering::Acquire) || self.ctx.is_lost() {
            let context = lock(&self.lost)
                .clone()
                .unwrap_or_else(|| "reported by a Vulkan call".to_owned());
            return Err(Error::DeviceLost { context });
        }
        Ok(())
    }

    /// Records a device loss seen by `call` while `work` ran.
    fn mark_lost(&self, context: String) -> Error {
        let mut lost = lock(&self.lost);
        let context = lost.get_or_insert(context).clone();
        self.lost_flag.store(true, Ordering::Release);
        Error::DeviceLost { context }
    }

    /// The runtime error for `e`, which `work` ran into: a device loss is
    /// recorded (sticky); other failures of queued work name the work.
    pub(crate) fn failed(&self, e: Error, work: Option<&[DispatchInfo]>) -> Error {
        if e.is_device_lost() {
            let Error::DeviceLost { context } = e else {
                return self.mark_lost(e.to_string());
            };
            let context = match work {
                Some(w) => format!("{context}, while running {}", describe(w)),
                None => context,
            };
            return self.mark_lost(context);
        }
        match work {
            Some(w) => Error::Work {
                work: describe(w),
                source: Box::new(e),
            },
            None => e,
        }
    }

    /// The runtime error for a kiln-vulkan error outside queued work.
    pub(crate) fn vk(&self, e: kiln_vulkan::Error) -> Error {
        self.failed(e.into(), None)
    }

    pub(crate) fn warn(&self, message: String) {
        log::warn!("kiln-runtime: {message}");
        lock(&self.warnings).push(message);
    }

    pub(crate) fn warnings(&self) -> Vec<String> {
        lock(&self.warnings).clone()
    }

    pub(crate) fn next_dispatch_index(&self) -> u64 {
        self.next_dispatch.fetch_add(1, Ordering::Relaxed)
    }

    /// An empty batch: a recycled one, else a new one.
    pub(crate) fn batch(&self) -> Result<CommandBatch> {
        self.alive()?;
        if let Some(b) = lock(&self.spare).pop() {
            return Ok(b);
        }
        CommandBatch::new(&self.ctx).map_err(|e| self.vk(e))
    }

    /// Submits `batch` (recorded with `work`); returns its timeline value.
    /// Waits for the oldest submission first when `max_in_flight` are
    /// queued.
    pub(crate) fn submit(
        &self,
        batch: CommandBatch,
        work: Vec<DispatchInfo>,
        profiled: bool,
    ) -> Result<u64> {
        self.alive()?;
        let oldest = {
            let q = lock(&self.inflight);
            (q.len() >= self.options.max_in_flight.max(1))
                .then(|| q.front().map(|f| f.submission.value()))
                .flatten()
        };
        if let Some(value) = oldest {
            self.wait(value)?;
        }
        let submission = batch
            .submit(&self.timeline)
            .map_err(|e| self.failed(e.into(), Some(&work)))?;
        AtomicCounters::add(&self.counters.submits, 1);
        let value = submission.value();
        if let Some(t) = &self.tracer {
            t.submitted(value, &work);
        }
        lock(&self.inflight).push_back(InFlight {
            submission,
            work,
            profiled,
        });
        self.retire()?;
        Ok(value)
    }

    /// Retires the submissions that completed, oldest first: records their
    /// profiles, recycles their batches, and so releases what they used.
    pub(crate) fn retire(&self) -> Result<()> {
        loop {
            let done = {
                let mut q = lock(&self.inflight);
                let Some(front) = q.front() else {
                    return Ok(());
                };
                match front.submission.is_complete() {
                    Ok(true) => q.pop_front(),
                    Ok(false) => return Ok(()),
                    Err(e) => return Err(self.failed(e.into(), Some(&front.work))),
                }
            };
            let Some(done) = done else { return Ok(()) };
            self.finish(done)?;
        }
    }

    fn finish(&self, done: InFlight) -> Result<()> {
        let mut spans = Vec::new();
        if done.profiled {
            spans = done
                .submission
                .timestamp_spans()
                .map_err(|e| self.failed(e.into(), Some(&done.work)))?;
            let mut profile = lock(&self.profile);
            for (d, t) in done.work.iter().zip(&spans) {
                profile.push(ProfileRecord {
                    kernel: Arc::clone(&d.label),
                    dispatch: d.index,
                    grid: d.grid,
                    gpu_time: t.map(|(a, b)| std::time::Duration::from_nanos(b.saturating_sub(a))),
                });
            }
        }
        if let Some(t) = &self.tracer {
            t.completed(done.submission.value(), &spans);
        }
        let batch = done
            .submission
            .recycle()
            .map_err(|e| self.failed(e.into(), Some(&done.work)))?;
        let mut spare = lock(&self.spare);
        if spare.len() < 4 {
            spare.push(batch);
        }
        Ok(())
    }

    /// Blocks until timeline value `value` completed (a driver wait), then
    /// retires what finished.
    pub(crate) fn wait(&self, value: u64) -> Result<()> {
        self.alive()?;
        if value == 0 {
            return Ok(());
        }
        if let Err(e) = self.timeline.wait(value, None) {
            let work = lock(&self.inflight)
                .iter()
                .find(|f| f.submission.value() >= value)
                .map(|f| f.work.clone());
            return Err(self.failed(e.into(), work.as_deref()));
        }
        self.retire()
    }

    /// Waits for everything submitted so far.
    pub(crate) fn wait_all(&self) -> Result<()> {
        self.wait(self.timeline.submitted())
    }

    /// A slice of `size` bytes from `pool`: on out-of-memory, waits for all
    /// queued work, retires it, trims every pool and tries once more.
    pub(crate) fn allocate(&self, pool: &BlockPool, size: u64) -> Result<Slice> {
        self.alive()?;
        let size = size.max(4);
        match pool.allocate(size) {
            Ok(s) => Ok(s),
            Err(kiln_vulkan::Error::OutOfDeviceMemory { .. }) => {
                self.wait_all()?;
                self.trim_pools();
                pool.allocate(size).map_err(|e| match e {
                    kiln_vulkan::Error::OutOfDeviceMemory { .. } => {
                        let stats = pool.stats();
                        Error::OutOfMemory {
                            requested: size,
                            pool: pool.kind().name(),
                            reserved: stats.reserved,
                            in_use: stats.in_use,
                        }
                    }
                    other => self.vk(other),
                })
            }
            Err(e) => Err(self.vk(e)),
        }
    }

    pub(crate) fn trim_pools(&self) -> u64 {
        self.tensors.trim() + self.upload.trim() + self.readback.trim()
    }

    pub(crate) fn take_profile(&self) -> Vec<ProfileRecord> {
        std::mem::take(&mut *lock(&self.profile))
    }

    pub(crate) fn profile(&self) -> Vec<ProfileRecord> {
        lock(&self.profile).clone()
    }
}

impl Drop for DeviceInner {
    fn drop(&mut self) {
        // Let queued work finish (submissions wait on drop anyway), then
        // keep what the driver compiled.
        if self.alive().is_ok() {
            let _ = self.wait_all();
            let _ = crate::device::save_pipeline_cache(self);
        }
        if self.print_profile.load(Ordering::Relaxed) {
            let _ = self.retire();
            let records = self.take_profile();
            if !records.is_empty() {
                eprint!(
                    "{}={}: the device's dispatches by kernel:\n{}",
                    crate::profile::ENV_PROFILE,
                    std::env::var(crate::profile::ENV_PROFILE).unwrap_or_default(),
                    crate::profile::ProfileReport::new(&records)
                );
            }
        }
        if let Some(t) = &self.tracer {
            let _ = self.retire();
            if let Err(e) = t.write() {
                eprintln!("kiln: cannot write the trace {}: {e}", t.path().display());
            }
        }
        self.waiter.shutdown();
    }
}
