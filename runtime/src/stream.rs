//! Streams: work enqueued without waiting, submitted in batches.
//!
//! A [`Stream`] records dispatches, copies, fills and uploads into one
//! command batch (kiln-vulkan's [`CommandBatch`]): every call returns once
//! the command is recorded, after the checks before Vulkan. The batch
//! inserts the barriers the commands' access requires (each binding's
//! read/write access comes from the kernel's reflected interface). It is
//! submitted
//! - when asked ([`Stream::flush`], [`Stream::sync`]);
//! - when a read needs it: reading a tensor submits the batches that write
//!   its bytes; and any command on one stream first submits the batches of
//!   other streams whose accesses conflict with its own (read after write,
//!   write after read, write after write, on overlapping bytes of one
//!   buffer, through any view), so the timeline orders them (see
//!   `hazard`);
//! - after [`DeviceOptions::max_dispatches_per_submit`](crate::DeviceOptions::max_dispatches_per_submit)
//!   dispatches or [`max_bytes_per_submit`](crate::DeviceOptions::max_bytes_per_submit)
//!   transferred bytes.
//!
//! Every submission waits for the previous value of the device's timeline
//! semaphore and signals the next, so submissions of all streams run in
//! submission order. A failure of submitted work (or of an automatic
//! submit) is kept and returned by the next [`Stream::sync`], naming the
//! first dispatch (number and kernel) of the submission that failed.
//! Dropping a stream submits what it still holds.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use kiln_vulkan::{CommandBatch, CopyRegion, SliceBinding};

use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::hazard::Use;
use crate::inner::{lock, DeviceInner, DispatchInfo};
use crate::kernel::Kernel;
use crate::pieces::Pieces;
use crate::profile::AtomicCounters;
use crate::tensor::Tensor;

/// Which batch of which stream last wrote a buffer: its timeline value once
/// submitted.
#[derive(Debug)]
pub(crate) struct Ticket {
    /// 0 until the batch is submitted.
    pub(crate) value: AtomicU64,
    /// Set when submitting the batch failed.
    pub(crate) failed: AtomicBool,
    pub(crate) stream: Weak<StreamInner>,
}

impl Ticket {
    fn new(stream: Weak<StreamInner>) -> Arc<Self> {
        Arc::new(Self {
            value: AtomicU64::new(0),
            failed: AtomicBool::new(false),
            stream,
        })
    }
}

struct StreamState {
    batch: Option<CommandBatch>,
    ticket: Arc<Ticket>,
    work: Vec<DispatchInfo>,
    dispatches: u32,
    bytes: u64,
    profile: bool,
    max_dispatches: u32,
    max_bytes: u64,
    /// The first failure of submitted work not yet reported.
    error: Option<Error>,
    /// The timeline value of the last submission.
    last_value: u64,
    /// Run-time index checks of enqueued work, read by the next sync.
    faults: Vec<Arc<crate::fault::FaultCheck>>,
}

pub(crate) struct StreamInner {
    pub(crate) device: Arc<DeviceInner>,
    /// The stream's number in the process (its track in a trace).
    id: u64,
    state: Mutex<StreamState>,
    this: Weak<StreamInner>,
    /// The pending op calls while the stream is lazy (made when it is
    /// first turned lazy; see `ops::lazy`).
    pub(crate) lazy: std::sync::OnceLock<Arc<crate::ops::lazy::Queue>>,
}

/// A queue of work on a device. Cheap to clone (clones are the same
/// stream); `Send + Sync`.
///
/// ```
/// # fn main() -> Result<(), kiln_runtime::Error> {
/// use kiln_runtime::{DType, Device, DeviceOptions, Tensor};
/// let device = Device::new(&DeviceOptions::default())?;
/// let stream = device.stream();
/// let t = Tensor::empty(&device, DType::F32, &[4])?;
/// stream.fill(&t, 2.5f32)?; // enqueued, not yet submitted
/// stream.sync()?; // submitted and complete
/// assert_eq!(t.to_vec::<f32>()?, vec![2.5; 4]);
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Stream {
    pub(crate) inner: Arc<StreamInner>,
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stream").finish_non_exhaustive()
    }
}

impl Stream {
    pub(crate) fn new(device: &Arc<DeviceInner>) -> Self {
        let options = &device.options;
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        let inner = Arc::new_cyclic(|this: &Weak<StreamInner>| StreamInner {
            device: Arc::clone(device),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            state: Mutex::new(StreamState {
                batch: None,
                ticket: Ticket::new(this.clone()),
                work: Vec::new(),
                dispatches: 0,
                bytes: 0,
                profile: options.profile,
                max_dispatches: options.max_dispatches_per_submit,
                max_bytes: options.max_bytes_per_submit,
                error: None,
                last_value: 0,
                faults: Vec::new(),
            }),
            this: this.clone(),
            lazy: std::sync::OnceLock::new(),
        });
        Self { inner }
    }

    /// The device the stream enqueues on.
    pub fn device(&self) -> crate::Device {
        crate::Device::from_inner(Arc::clone(&self.inner.device))
    }

    /// Times every dispatch enqueued from now on with GPU timestamps (on by
    /// default with `KILN_PROFILE=1`); the records appear in
    /// [`Device::profile`](crate::Device::profile) once the work completed.
    pub fn profile(&self, on: bool) {
        lock(&self.inner.state).profile = on;
    }

    /// Submits automatically after `dispatches` dispatches or `bytes`
    /// transferred bytes in one batch (at least 1 each).
    pub fn set_submit_limits(&self, dispatches: u32, bytes: u64) {
        let mut st = lock(&self.inner.state);
        st.max_dispatches = dispatches.max(1);
        st.max_bytes = bytes.max(1);
    }

    /// Enqueues `kernel` over `grid` workgroups with `args` bound to its
    /// bindings in `(set, binding)` order (see [`Kernel::interface`]).
    /// Each binding gets its tensor's byte range, as the descriptor type
    /// the interface declares: a storage or uniform buffer, or a uniform or
    /// storage texel buffer (a view of the range in the binding's texel
    /// format, rounded down to whole texels). A binding that is an array
    /// of `N` storage-buffer descriptors takes one tensor in chunks: element
    /// `k` binds bytes `k * C ..` of it, at most `C` of them, where `C` is
    /// the target env's `ResourceLimits::storage_chunk_bytes` (how kiln's
    /// compiler splits a tensor larger than `maxStorageBufferRange`); an
    /// error when the tensor ends before chunk `N - 1`. Tensors must be contiguous;
    /// their element offset must meet the device's offset alignment for
    /// that descriptor type (`minTexelBufferOffsetAlignment` for texel
    /// buffers). Checked before anything is recorded.
    pub fn dispatch(&self, kernel: &Kernel, args: &[&Tensor], grid: [u32; 3]) -> Result<()> {
        self.dispatch_with(kernel, args, &[], grid)
    }

    /// [`dispatch`](Self::dispatch) with push-constant bytes (exactly the
    /// kernel's push-constant range).
    pub fn dispatch_with(
        &self,
        kernel: &Kernel,
        args: &[&Tensor],
        push_constants: &[u8],
        grid: [u32; 3],
    ) -> Result<()> {
        let inner = &self.inner;
        let device = &inner.device;
        let (bindings, uses) = dispatch_parts(device, kernel, args)?;
        let pipeline = &kernel.inner.pipeline;
        let info = DispatchInfo {
            index: 0,
            label: Arc::clone(&kernel.inner.label),
            grid,
        };
        inner.record(Some(info), 0, &uses, |batch| {
            batch
                .dispatch(pipeline, &bindings, push_constants, grid)
                .map(|_| ())
        })
    }

    /// Enqueues a copy of `src`'s elements (any layout; row-major order)
    /// into the contiguous `dst` of the same element type and count.
    pub fn copy(&self, src: &Tensor, dst: &Tensor) -> Result<()> {
        let inner = &self.inner;
        inner.device.alive()?;
        inner.check_tensor(dst, "copy")?;
        inner.check_same_device(src)?;
        if src.dtype() != dst.dtype() || src.numel() != dst.numel() {
            return Err(Error::Shape {
                what: "copy",
                reason: format!(
                    "{} {:?} into {} {:?}",
                    src.dtype(),
                    src.shape(),
                    dst.dtype(),
                    dst.shape()
                ),
            });
        }
        let size = src.dtype().size() as u64;
        let mut at = dst.byte_range().0;
        let regions: Vec<CopyRegion> = src
            .layout
            .runs()
            .into_iter()
            .map(|(start, len)| {
                let r = CopyRegion {
                    src_offset: start as u64 * size,
                    dst_offset: at,
                    size: len as u64 * size,
                };
                at += r.size;
                r
            })
            .collect();
        let (dst_offset, bytes) = dst.byte_range();
        let span = src.layout.span();
        let uses = [
            Use::read(
                &src.storage,
                span.start as u64 * size,
                (span.end - span.start) as u64 * size,
            ),
            Use::write(&dst.storage, dst_offset, bytes),
        ];
        inner.record(None, bytes, &uses, |batch| {
            Pieces::copy_regions(batch, &src.storage.slice, &dst.storage.slice, &regions)
        })?;
        let checks = crate::fault::inherited([&*src.storage]);
        crate::fault::attach(std::slice::from_ref(dst), &checks);
        Ok(())
    }

    /// Enqueues setting every element of the contiguous `dst` to `value`.
    pub fn fill<T: Element>(&self, dst: &Tensor, value: T) -> Result<()> {
        let inner = &self.inner;
        inner.device.alive()?;
        inner.check_tensor(dst, "fill")?;
        check_dtype::<T>(dst, "fill")?;
        let (offset, len) = dst.byte_range();
        let pattern = T::as_bytes(std::slice::from_ref(&value));
        if pattern.len() <= 4 && offset % 4 == 0 {
            let mut word = [0u8; 4];
            for (i, b) in word.iter_mut().enumerate() {
                *b = pattern[i % pattern.len()];
            }
            let word = u32::from_le_bytes(word);
            let uses = [Use::write(&dst.storage, offset, len)];
            return inner.record(None, len, &uses, |batch| {
                dst.storage.slice.fill(batch, offset, len, word)
            });
        }
        let data: Vec<T> = vec![value; dst.numel()];
        self.upload(dst, &data)
    }

    /// Enqueues writing `data` into the contiguous `dst` (through an upload
    /// staging buffer, ordered with the stream's other work). Data larger
    /// than [`DeviceOptions::staging_chunk_size`](crate::DeviceOptions::staging_chunk_size)
    /// moves in chunks, each submitted (with what the stream held before)
    /// as soon as its host copy is done, so the device copies one chunk
    /// while the host copies the next; with a few chunks queued, the call
    /// blocks on the timeline until the oldest completed, whose staging
    /// memory the next chunk then reuses (see `transfer`).
    pub fn upload<T: Element>(&self, dst: &Tensor, data: &[T]) -> Result<()> {
        let inner = &self.inner;
        inner.device.alive()?;
        inner.check_tensor(dst, "upload")?;
        check_dtype::<T>(dst, "upload")?;
        if data.len() != dst.numel() {
            return Err(Error::Shape {
                what: "upload",
                reason: format!("{} elements into a tensor of {}", data.len(), dst.numel()),
            });
        }
        let bytes = T::as_bytes(data);
        if bytes.is_empty() {
            return Ok(());
        }
        let device = &inner.device;
        let chunk = crate::transfer::chunk_size(device);
        if bytes.len() as u64 > chunk {
            return crate::transfer::upload_chunked(inner, dst, bytes, chunk);
        }
        let mut staging = device.allocate(&device.upload, bytes.len() as u64)?;
        staging.write(0, bytes).map_err(|e| device.vk(e))?;
        AtomicCounters::add(&device.counters.bytes_staged, bytes.len() as u64);
        let offset = dst.byte_range().0;
        let uses = [Use::write(&dst.storage, offset, bytes.len() as u64)];
        inner.record(None, bytes.len() as u64, &uses, |batch| {
            dst.storage
                .slice
                .copy_in(batch, &staging, 0, offset, bytes.len() as u64)
        })
    }

    /// Makes the stream lazy (`true`) or eager (`false`, the default).
    /// On a lazy stream, [`ops`](crate::ops) calls check their operands
    /// and allocate their results at the call but run later, together, as
    /// one compiled graph: when the stream is synced or flushed, when
    /// anything else touches a buffer a pending call reads or writes (a
    /// read of a result, a copy, a dispatch), or when many calls are
    /// pending (see "Lazy streams" in [`ops`](crate::ops)). Turning it
    /// eager enqueues the pending calls.
    pub fn set_lazy(&self, on: bool) -> Result<()> {
        if on {
            let inner = &self.inner;
            inner
                .lazy
                .get_or_init(|| crate::ops::lazy::Queue::new(inner))
                .set_on(true)
        } else {
            match self.inner.lazy.get() {
                Some(q) => q.set_on(false),
                None => Ok(()),
            }
        }
    }

    /// Whether [`ops`](crate::ops) calls on the stream are deferred (see
    /// [`set_lazy`](Self::set_lazy)); false again once a lazy stream fell
    /// back to eager.
    pub fn is_lazy(&self) -> bool {
        self.inner.lazy.get().is_some_and(|q| q.is_on())
    }

    /// What the stream's lazy mode did since it was first turned on.
    pub fn lazy_stats(&self) -> crate::ops::LazyStats {
        self.inner.lazy.get().map(|q| q.stats()).unwrap_or_default()
    }

    /// Enqueues the op calls pending on a lazy stream.
    fn materialise(&self) -> Result<()> {
        match self.inner.lazy.get() {
            Some(q) => crate::pending::Materialise::materialise(&**q),
            None => Ok(()),
        }
    }

    /// Submits what is enqueued (without waiting).
    pub fn flush(&self) -> Result<()> {
        self.materialise()?;
        let mut st = lock(&self.inner.state);
        self.inner.flush_locked(&mut st)
    }

    /// Submits what is enqueued and blocks until all of the stream's
    /// submitted work completed; returns the first error of earlier work
    /// (naming the dispatch and kernel) if any failed, then the first
    /// index out of range a kernel of it found ([`Error::Index`], naming
    /// the op; see `fault`).
    pub fn sync(&self) -> Result<()> {
        self.materialise()?;
        let (flushed, value, error, faults) = {
            let mut st = lock(&self.inner.state);
            let flushed = self.inner.flush_locked(&mut st);
            (
                flushed,
                st.last_value,
                st.error.take(),
                std::mem::take(&mut st.faults),
            )
        };
        if let Some(e) = error {
            return Err(e);
        }
        flushed?;
        self.inner.device.wait(value)?;
        for c in &faults {
            c.result()?;
        }
        Ok(())
    }

    /// Notes a run-time index check of work just enqueued, for the next
    /// [`sync`](Self::sync).
    pub(crate) fn note_fault(&self, check: &Arc<crate::fault::FaultCheck>) {
        lock(&self.inner.state).faults.push(Arc::clone(check));
    }
}

/// The bytes bound for a tensor of `len` bytes at binding `b`: `len`
/// rounded up to whole 32-bit words and, for a block ending in a runtime
/// array, to whole array elements, for a texel buffer to whole texels
/// (the caller caps it at the tensor's storage, which tensors allocate in
/// whole 16-byte units). A kernel that
/// reads a tensor as vec4 (or stores it as 64-bit words) through a second
/// binding of it sees its last partial vector as an element, which it
/// never touches (a dynamic or odd-length space checks each group), while
/// the backend requires whole elements.
fn bound_range(len: u64, b: &kiln_abi::ResourceBinding) -> u64 {
    let len = len.next_multiple_of(4);
    if let Some(texel) = b.texel_format.and_then(|f| f.texel_size()) {
        // A view holds whole texels: a tensor of fewer elements than a
        // texel (a dynamic one) still binds one.
        return len.next_multiple_of(u64::from(texel));
    }
    match b.element_stride {
        Some(stride) if stride > 0 && len > b.min_size => {
            b.min_size + (len - b.min_size).next_multiple_of(u64::from(stride))
        }
        _ => len,
    }
}

fn check_dtype<T: Element>(t: &Tensor, what: &'static str) -> Result<()> {
    if t.dtype() == T::DTYPE {
        Ok(())
    } else {
        Err(Error::DType {
            what,
            tensor: t.dtype(),
            host: T::DTYPE,
        })
    }
}

/// The bindings of a dispatch of `kernel` with `args` (each tensor's byte
/// range, see [`Stream::dispatch`]) and its uses: each binding's bytes, as
/// its reflected access uses them.
pub(crate) type DispatchParts<'t> = (Vec<SliceBinding<'t>>, Vec<Use<'t>>);

/// [`DispatchParts`] of `kernel` with `args` on `device`, after checking
/// that the device is alive, the kernel is its own, the argument count is
/// the kernel's, and every tensor is contiguous and on the device (the
/// checks a stream dispatch and a recorded one share).
pub(crate) fn dispatch_parts<'t>(
    device: &Arc<DeviceInner>,
    kernel: &Kernel,
    args: &[&'t Tensor],
) -> Result<DispatchParts<'t>> {
    device.alive()?;
    if kernel.inner.device != Arc::as_ptr(device) as usize {
        return Err(Error::ForeignDevice { what: "the kernel" });
    }
    let iface = kernel.interface();
    if args.len() != iface.bindings.len() {
        return Err(Error::ArgumentCount {
            kernel: kernel.label().to_owned(),
            expected: iface.bindings.len(),
            got: args.len(),
        });
    }
    for t in args {
        check_tensor_on(device, t, "dispatch")?;
    }
    let chunk = device.ctx.target_env().limits.storage_chunk_bytes();
    let mut bindings: Vec<SliceBinding<'t>> = Vec::with_capacity(args.len());
    let mut uses: Vec<Use<'t>> = Vec::with_capacity(args.len());
    for (b, t) in iface.bindings.iter().zip(args) {
        let (offset, len) = t.byte_range();
        let memory = &t.storage.slice;
        let bound = bound_range(len, b).min(memory.size() - offset);
        // The slice holding `size` bytes at `at` whole: a tensor in pieces
        // (past one allocation) binds only ranges inside one piece.
        let place = |at: u64, size: u64| {
            memory
                .within(at, size)
                .ok_or_else(|| Error::SplitAllocation {
                    kernel: kernel.label().to_owned(),
                    binding: b.binding,
                    start: at,
                    bytes: size,
                    piece: memory.piece(),
                    allocations: memory.count(),
                })
        };
        if b.count > 1 && b.descriptor_type == kiln_abi::DescriptorType::StorageBuffer {
            // A tensor larger than maxStorageBufferRange, or one sized at
            // run time bound by a `_chunked` kernel: element `k` of the
            // descriptor array binds its `k`-th chunk (see
            // `ResourceLimits::storage_chunk_bytes`); past its last chunk
            // the last one again (every descriptor the kernel uses must
            // be valid; its per-chunk branches never reach those). In
            // pieces, each chunk lies in one (see `pieces`).
            let has = bound.div_ceil(chunk).max(1);
            if has > u64::from(b.count) {
                return Err(Error::ChunkedBinding {
                    kernel: kernel.label().to_owned(),
                    binding: b.binding,
                    bytes: len,
                    chunks: b.count,
                    chunk,
                });
            }
            for k in 0..b.count {
                let start = u64::from(k).min(has - 1) * chunk;
                let size = chunk.min(bound - start);
                let (slice, at) = place(offset + start, size)?;
                let one = SliceBinding::new(b.set, b.binding, slice);
                bindings.push(one.range(at, Some(size)).element(k));
            }
        } else {
            let (slice, at) = place(offset, bound)?;
            let one = SliceBinding::new(b.set, b.binding, slice);
            bindings.push(one.range(at, Some(bound)));
        }
        uses.push(Use {
            storage: &t.storage,
            start: offset,
            end: offset + bound,
            write: b.access.writes(),
        });
    }
    Ok((bindings, uses))
}

/// An error unless `t` is a contiguous tensor of `device`.
fn check_tensor_on(device: &Arc<DeviceInner>, t: &Tensor, what: &'static str) -> Result<()> {
    if !Arc::ptr_eq(&t.storage.device, device) {
        return Err(Error::ForeignDevice { what: "a tensor" });
    }
    if !t.is_contiguous() {
        return Err(Error::NotContiguous {
            what,
            shape: t.shape().to_vec(),
            strides: t.strides().to_vec(),
        });
    }
    Ok(())
}

impl StreamInner {
    fn check_same_device(&self, t: &Tensor) -> Result<()> {
        if Arc::ptr_eq(&t.storage.device, &self.device) {
            Ok(())
        } else {
            Err(Error::ForeignDevice { what: "a tensor" })
        }
    }

    fn check_tensor(&self, t: &Tensor, what: &'static str) -> Result<()> {
        check_tensor_on(&self.device, t, what)
    }

    /// Records one command with `record` into the current batch (made on
    /// first use), after submitting the other streams' batches whose
    /// accesses conflict with its `uses` (see `hazard`); notes its uses,
    /// and submits when a limit is reached (a failure of that submit is
    /// kept for `sync`).
    pub(crate) fn record(
        &self,
        info: Option<DispatchInfo>,
        bytes: u64,
        uses: &[Use<'_>],
        record: impl FnOnce(&mut CommandBatch) -> kiln_vulkan::Result<()>,
    ) -> Result<()> {
        self.record_ticket(info, bytes, uses, record).map(|_| ())
    }

    /// [`record`](Self::record), returning the ticket of the batch the
    /// command went into.
    pub(crate) fn record_ticket(
        &self,
        info: Option<DispatchInfo>,
        bytes: u64,
        uses: &[Use<'_>],
        record: impl FnOnce(&mut CommandBatch) -> kiln_vulkan::Result<()>,
    ) -> Result<Arc<Ticket>> {
        let transfers = u64::from(info.is_none());
        self.record_commands(info.into_iter(), transfers, bytes, uses, record)
    }

    /// [`record_ticket`](Self::record_ticket) of commands holding the
    /// dispatches `infos` (in order) and `transfers` copies, fills or
    /// updates (a replayed graph: its copies and its recorded
    /// dispatches).
    pub(crate) fn record_commands(
        &self,
        infos: impl Iterator<Item = DispatchInfo>,
        transfers: u64,
        bytes: u64,
        uses: &[Use<'_>],
        record: impl FnOnce(&mut CommandBatch) -> kiln_vulkan::Result<()>,
    ) -> Result<Arc<Ticket>> {
        let device = &self.device;
        let current = Arc::clone(&lock(&self.state).ticket);
        let mut held = crate::hazard::order(&self.this, Some(&current), uses)?;
        let mut st = lock(&self.state);
        if !held.is_empty() && !Arc::ptr_eq(&st.ticket, &current) {
            // The batch that held some uses was submitted meanwhile: order
            // them like the others (outside the lock: ordering may submit
            // other streams' batches).
            drop(st);
            held = crate::hazard::order(&self.this, None, uses)?;
            st = lock(&self.state);
        }
        if st.batch.is_none() {
            let mut batch = device.batch()?;
            batch.set_timing(st.profile);
            st.batch = Some(batch);
        }
        let batch = st.batch.as_mut().expect("made above");
        record(batch).map_err(|e| device.vk(e))?;
        let ticket = Arc::clone(&st.ticket);
        // A use held by `current` is noted already, unless the batch was
        // submitted meanwhile (the ticket is a new one).
        if !Arc::ptr_eq(&ticket, &current) {
            held = crate::hazard::Held::default();
        }
        crate::hazard::note(&ticket, uses, held);
        let tracer = device.tracer.as_ref();
        let mut dispatches = 0;
        for mut info in infos {
            info.index = device.next_dispatch_index();
            if let Some(t) = tracer {
                t.enqueued(self.id, Some(&info), false, bytes);
            }
            st.work.push(info);
            dispatches += 1;
        }
        st.dispatches += dispatches;
        if dispatches > 0 {
            AtomicCounters::add(&device.counters.dispatches, u64::from(dispatches));
        }
        if transfers > 0 {
            if let Some(t) = tracer {
                t.enqueued(self.id, None, uses.iter().any(|u| !u.write), bytes);
            }
            AtomicCounters::add(&device.counters.transfers, transfers);
        }
        st.bytes += bytes;
        if st.dispatches >= st.max_dispatches || st.bytes >= st.max_bytes {
            if let Err(e) = self.flush_locked(&mut st) {
                if e.is_device_lost() {
                    return Err(e);
                }
                st.error.get_or_insert(e);
            }
        }
        Ok(ticket)
    }

    /// Submits the current batch, if it holds anything.
    fn flush_locked(&self, st: &mut StreamState) -> Result<()> {
        let Some(batch) = st.batch.take() else {
            return Ok(());
        };
        let ticket = std::mem::replace(&mut st.ticket, Ticket::new(self.this.clone()));
        // The next batch's list sized like this one's: one allocation
        // instead of a reallocation at each doubling (a replay adds one
        // entry per dispatch it runs).
        let hint = st.work.len().min(st.max_dispatches as usize);
        let work = std::mem::replace(&mut st.work, Vec::with_capacity(hint));
        st.dispatches = 0;
        st.bytes = 0;
        let profiled = st.profile && batch.timing_available();
        match self.device.submit(batch, work, profiled) {
            Ok(value) => {
                ticket.value.store(value, Ordering::Release);
                st.last_value = value;
                Ok(())
            }
            Err(e) => {
                ticket.failed.store(true, Ordering::Release);
                Err(e)
            }
        }
    }

    /// Submits the batch of `ticket` if it is still this stream's current
    /// one; returns its timeline value.
    pub(crate) fn flush_ticket(&self, ticket: &Arc<Ticket>) -> Result<u64> {
        let mut st = lock(&self.state);
        if Arc::ptr_eq(&st.ticket, ticket) {
            self.flush_locked(&mut st)?;
        }
        ticket_value(ticket, &self.device)
    }
}

/// The timeline value of a submitted ticket, or the failure of its batch.
pub(crate) fn ticket_value(ticket: &Ticket, device: &DeviceInner) -> Result<u64> {
    device.alive()?;
    if ticket.failed.load(Ordering::Acquire) {
        return Err(Error::Work {
            work: "the submission that wrote this tensor".to_owned(),
            source: Box::new(Error::Shape {
                what: "submit",
                reason: "it failed; see Stream::sync".to_owned(),
            }),
        });
    }
    Ok(ticket.value.load(Ordering::Acquire))
}

impl Drop for StreamInner {
    fn drop(&mut self) {
        let st = self
            .state
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(batch) = st.batch.take() {
            let work = std::mem::take(&mut st.work);
            match self.device.submit(batch, work, st.profile) {
                Ok(value) => st.ticket.value.store(value, Ordering::Release),
                Err(_) => st.ticket.failed.store(true, Ordering::Release),
            }
        }
        // Pending op calls run on a stream of their own (after this
        // stream's batch, which they may read).
        if let Some(q) = self.lazy.get() {
            let _ = crate::pending::Materialise::materialise(&**q);
        }
    }
}
