//! Tensors: an element type and a [`Layout`] over a slice of a pooled
//! device buffer, or several slices for a tensor larger than one
//! allocation may be (see `pieces`).
//!
//! Cloning a tensor or taking a view (reshape, narrow, transpose, permute)
//! shares the buffer; no data moves. The buffer goes back to its pool when
//! the last tensor on it is dropped **and** the last submission that used
//! it completed (submissions hold the buffer until then).
//!
//! Where the device has unified memory (integrated GPUs, lavapipe) tensors
//! live in device-local host-visible memory: [`Tensor::from_slice`] and
//! [`Tensor::zeros`] write it from the host, and reads copy out of it once
//! the last write completed. Elsewhere they live in device-local memory and
//! host data moves through staging buffers with copies on the GPU, in
//! chunks of [`DeviceOptions::staging_chunk_size`](crate::DeviceOptions::staging_chunk_size)
//! so that the host's and the device's copies overlap (see `transfer`).
//!
//! Reads wait only for the work that writes the bytes they read, on any
//! stream and through any view: those batches are submitted if they were
//! not yet ("a read needs it"), then [`Tensor::to_vec`] blocks on the
//! timeline and [`Tensor::read`] returns a future. A read future sees the
//! tensor as it was when the read was issued, also when work enqueued
//! later overwrites it (see `hazard`).

use std::marker::PhantomData;
use std::sync::{Arc, Mutex};

use kiln_vulkan::{HostMemory, MemoryKind, Slice};

use crate::pieces::Pieces;

use crate::device::Device;
use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use crate::hazard::Hazards;
use crate::inner::DeviceInner;
use crate::layout::Layout;
use crate::profile::AtomicCounters;
use crate::read::{gather, ReadFuture, ReadSource};
use crate::stream::Stream;

/// A pooled device buffer (in pieces past one allocation's limit) and the
/// accesses of it queued work makes (see `hazard`).
pub(crate) struct Storage {
    pub(crate) device: Arc<DeviceInner>,
    pub(crate) slice: Pieces,
    pub(crate) hazards: Mutex<Hazards>,
    /// Run-time index checks of the work that wrote this buffer (or its
    /// inputs), read before the buffer is (see `fault`).
    pub(crate) faults: crate::fault::Faults,
    /// The buffer's number in the process, in allocation order (a capture
    /// tells the tensors made while it recorded by it; see `ops::capture`).
    pub(crate) serial: u64,
    /// The lazy queues whose pending op calls touch this buffer (see
    /// `pending`).
    pub(crate) pending: crate::pending::Marks,
}

/// The next [`Storage::serial`].
pub(crate) static NEXT_SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A device tensor. Cheap to clone (clones and views share the buffer).
///
/// ```
/// # fn main() -> Result<(), kiln_runtime::Error> {
/// use kiln_runtime::{Device, DeviceOptions, Tensor};
/// let device = Device::new(&DeviceOptions::default())?;
/// let t = Tensor::from_slice(&device, &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3])?;
/// let tt = t.transpose(0, 1)?; // a view: no copy
/// assert_eq!(tt.shape(), &[3, 2]);
/// assert_eq!(tt.to_vec::<f32>()?, vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
/// // Asynchronous readback, awaited with any executor:
/// assert_eq!(pollster::block_on(t.read::<f32>())?, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Tensor {
    pub(crate) storage: Arc<Storage>,
    dtype: DType,
    pub(crate) layout: Layout,
}

impl std::fmt::Debug for Tensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tensor")
            .field("dtype", &self.dtype)
            .field("shape", &self.layout.shape)
            .field("strides", &self.layout.strides)
            .field("offset", &self.layout.offset)
            .finish()
    }
}

impl Tensor {
    /// A tensor of `dtype` and `shape` with unspecified contents.
    pub fn empty(device: &Device, dtype: DType, shape: &[usize]) -> Result<Self> {
        Self::alloc(&device.inner, dtype, shape)
    }

    pub(crate) fn alloc(device: &Arc<DeviceInner>, dtype: DType, shape: &[usize]) -> Result<Self> {
        let layout = Layout::contiguous(shape);
        let bytes = (layout.numel() * dtype.size()) as u64;
        // Whole 16-byte units: a kernel binding the tensor as vec4s (or
        // 64-bit word pairs) binds its last partial vector whole.
        // Past one allocation's limit, in pieces (see `pieces`).
        let memory = Pieces::allocate(
            bytes.next_multiple_of(16),
            device.ctx.max_allocation_size(),
            device.ctx.target_env().limits.storage_chunk_bytes(),
            device.tensors.alignment(),
            |n| device.allocate(&device.tensors, n),
        )?;
        Ok(Self::over_pieces(device, memory, dtype, layout))
    }

    /// A tensor of `dtype` and `layout` over a fresh storage of `slice`.
    pub(crate) fn over(
        device: &Arc<DeviceInner>,
        slice: Slice,
        dtype: DType,
        layout: Layout,
    ) -> Self {
        Self::over_pieces(device, Pieces::one(slice), dtype, layout)
    }

    /// A tensor of `dtype` and `layout` over a fresh storage of `slice`.
    fn over_pieces(device: &Arc<DeviceInner>, slice: Pieces, dtype: DType, layout: Layout) -> Self {
        Self {
            storage: Arc::new(Storage {
                device: Arc::clone(device),
                slice,
                hazards: Mutex::new(Hazards::default()),
                faults: crate::fault::Faults::default(),
                serial: NEXT_SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
                pending: crate::pending::Marks::default(),
            }),
            dtype,
            layout,
        }
    }

    /// A contiguous tensor of `dtype` and `shape` over the caller's host
    /// memory, without a copy (`VK_EXT_external_memory_host`): kernels
    /// read `memory`'s bytes in place, and writes to them on either side
    /// are seen by the other (the host's once the work that writes
    /// completed; the device's by work enqueued after the host wrote).
    /// `memory` is kept until the tensor, its views and the work using
    /// them are gone. Read-only memory makes a tensor every write into
    /// which fails. Where the device cannot import host memory, or these
    /// bytes (see [`Device::can_import_host`]), this is an error: copy
    /// instead ([`from_fill`](Self::from_fill)).
    pub fn from_host_memory(
        device: &Device,
        dtype: DType,
        shape: &[usize],
        memory: Box<dyn HostMemory>,
    ) -> Result<Self> {
        let layout = Layout::contiguous(shape);
        let bytes = layout.numel() * dtype.size();
        if memory.host_len() != bytes {
            return Err(Error::Shape {
                what: "from_host_memory",
                reason: format!(
                    "{} bytes for shape {shape:?} of {} ({bytes})",
                    memory.host_len(),
                    dtype.name()
                ),
            });
        }
        let inner = &device.inner;
        inner.alive()?;
        let slice = inner.ctx.import_host(memory).map_err(|e| inner.vk(e))?;
        Ok(Self::over(inner, slice, dtype, layout))
    }

    /// Whether the tensor's buffer is the caller's host memory
    /// ([`from_host_memory`](Self::from_host_memory)); then the address of
    /// its first element.
    pub fn host_address(&self) -> Option<usize> {
        let slice = self.storage.slice.first();
        if !slice.is_imported() {
            return None;
        }
        let at = self.layout.offset * self.dtype.size();
        slice.host_address().map(|a| a + at)
    }

    /// A tensor of `shape` holding a copy of `data` (row-major; `data.len()`
    /// must be the element count).
    pub fn from_slice<T: Element>(device: &Device, data: &[T], shape: &[usize]) -> Result<Self> {
        let numel: usize = shape.iter().product();
        if data.len() != numel {
            return Err(Error::Shape {
                what: "from_slice",
                reason: format!("{} elements for shape {shape:?} ({numel})", data.len()),
            });
        }
        let inner = &device.inner;
        let mut t = Self::alloc(inner, T::DTYPE, shape)?;
        let bytes = T::as_bytes(data);
        if bytes.is_empty() {
            return Ok(t);
        }
        if t.storage.slice.kind() == MemoryKind::Unified {
            t.write_fresh(bytes)?;
        } else {
            let stream = Stream::new(inner);
            stream.upload(&t, data)?;
            stream.flush()?;
        }
        Ok(t)
    }

    /// A tensor of `dtype` and `shape` whose bytes (row-major, as the
    /// tensor stores them: `numel * dtype.size()`) `fill` writes. On
    /// unified memory `fill` writes the tensor's memory in place (one copy
    /// from the caller's data, none of kiln's); elsewhere it writes a host
    /// buffer that is staged to the device.
    pub fn from_fill(
        device: &Device,
        dtype: DType,
        shape: &[usize],
        fill: impl FnOnce(&mut [u8]),
    ) -> Result<Self> {
        let inner = &device.inner;
        let mut t = Self::alloc(inner, dtype, shape)?;
        let n = t.numel() * dtype.size();
        if n == 0 {
            return Ok(t);
        }
        if t.storage.slice.kind() == MemoryKind::Unified {
            let storage = Arc::get_mut(&mut t.storage).expect("a fresh tensor is not shared");
            let (device, slice) = (&storage.device, &mut storage.slice);
            slice.write_with(0, n, fill).map_err(|e| device.vk(e))?;
            AtomicCounters::add(&device.counters.bytes_direct, n as u64);
        } else {
            let mut bytes = vec![0u8; n];
            fill(&mut bytes);
            let stream = Stream::new(inner);
            stream.upload(&t.reinterpret(DType::U8, &[n]), &bytes)?;
            stream.flush()?;
        }
        Ok(t)
    }

    /// A tensor of `shape` with every element `value`.
    pub fn full<T: Element>(device: &Device, value: T, shape: &[usize]) -> Result<Self> {
        let numel: usize = shape.iter().product();
        let inner = &device.inner;
        let mut t = Self::alloc(inner, T::DTYPE, shape)?;
        if numel == 0 {
            return Ok(t);
        }
        if t.storage.slice.kind() == MemoryKind::Unified {
            t.write_fresh(T::as_bytes(&vec![value; numel]))?;
        } else {
            let stream = Stream::new(inner);
            stream.fill(&t, value)?;
            stream.flush()?;
        }
        Ok(t)
    }

    /// A tensor of `dtype` and `shape` filled with zeros.
    pub fn zeros(device: &Device, dtype: DType, shape: &[usize]) -> Result<Self> {
        let numel: usize = shape.iter().product();
        let inner = &device.inner;
        let mut t = Self::alloc(inner, dtype, shape)?;
        if numel == 0 {
            return Ok(t);
        }
        let bytes = (numel * dtype.size()) as u64;
        if t.storage.slice.kind() == MemoryKind::Unified {
            t.write_fresh(&vec![0u8; bytes as usize])?;
        } else {
            let stream = Stream::new(inner);
            stream.fill(&t.as_u32_words(), 0u32)?;
            stream.flush()?;
        }
        Ok(t)
    }

    /// Writes `bytes` at the start of a fresh tensor in unified memory from
    /// the host (no work uses a fresh buffer yet).
    fn write_fresh(&mut self, bytes: &[u8]) -> Result<()> {
        let storage = Arc::get_mut(&mut self.storage).expect("a fresh tensor is not shared");
        let (device, slice) = (&storage.device, &mut storage.slice);
        slice.write(0, bytes).map_err(|e| device.vk(e))?;
        AtomicCounters::add(&device.counters.bytes_direct, bytes.len() as u64);
        Ok(())
    }

    /// The first `shape` elements of this contiguous tensor's buffer,
    /// seen as `dtype` (the bytes are taken as they are).
    pub(crate) fn reinterpret(&self, dtype: DType, shape: &[usize]) -> Tensor {
        Tensor {
            storage: Arc::clone(&self.storage),
            dtype,
            layout: Layout::contiguous(shape),
        }
    }

    /// The same buffer seen as whole `u32` words (for fills).
    fn as_u32_words(&self) -> Tensor {
        let words = self.storage.slice.size() as usize / 4;
        Tensor {
            storage: Arc::clone(&self.storage),
            dtype: DType::U32,
            layout: Layout::contiguous(&[words]),
        }
    }

    /// Writes `data` into this (contiguous) tensor, ordered after the work
    /// already enqueued on the device's streams that reads or writes its
    /// bytes (those batches are submitted first); submitted at once.
    pub fn upload<T: Element>(&self, data: &[T]) -> Result<()> {
        let stream = Stream::new(&self.storage.device);
        stream.upload(self, data)?;
        stream.flush()
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The extent of each dimension.
    pub fn shape(&self) -> &[usize] {
        &self.layout.shape
    }

    /// Elements between neighbours along each dimension.
    pub fn strides(&self) -> &[usize] {
        &self.layout.strides
    }

    /// The first element's index in the buffer.
    pub fn offset(&self) -> usize {
        self.layout.offset
    }

    /// The number of elements.
    pub fn numel(&self) -> usize {
        self.layout.numel()
    }

    /// The layout (shape, strides, offset).
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Whether the elements are consecutive in row-major order.
    pub fn is_contiguous(&self) -> bool {
        self.layout.is_contiguous()
    }

    /// Whether `other` shares this tensor's buffer (a view or clone of it).
    pub fn shares_buffer(&self, other: &Tensor) -> bool {
        Arc::ptr_eq(&self.storage, &other.storage)
    }

    /// Where the buffer is: the pool block's id and the byte offset of the
    /// buffer in it (for tests and debugging: two live tensors never
    /// overlap); for a tensor in pieces, its first piece's.
    pub fn buffer_location(&self) -> (u64, u64) {
        let first = self.storage.slice.first();
        (first.block_id(), first.offset())
    }

    /// How many allocations the tensor's buffer is made of: 1, or more for
    /// a tensor larger than one allocation may be
    /// ([`Context::max_allocation_size`](kiln_vulkan::Context::max_allocation_size)),
    /// split in pieces of whole storage chunks.
    pub fn allocation_count(&self) -> usize {
        self.storage.slice.count()
    }

    /// The device this tensor lives on.
    pub fn device(&self) -> Device {
        Device::from_inner(Arc::clone(&self.storage.device))
    }

    /// The contiguous view's byte offset in its buffer and its byte length.
    pub(crate) fn byte_range(&self) -> (u64, u64) {
        let size = self.dtype.size() as u64;
        (
            self.layout.offset as u64 * size,
            self.layout.numel() as u64 * size,
        )
    }

    fn view(&self, layout: Layout) -> Tensor {
        Tensor {
            storage: Arc::clone(&self.storage),
            dtype: self.dtype,
            layout,
        }
    }

    /// The same elements with another shape (a view; contiguous tensors
    /// only — others need [`contiguous`](Self::contiguous) first).
    pub fn reshape(&self, shape: &[usize]) -> Result<Tensor> {
        Ok(self.view(self.layout.reshape(shape)?))
    }

    /// Elements `start .. start + len` of dimension `dim` (a view).
    pub fn narrow(&self, dim: usize, start: usize, len: usize) -> Result<Tensor> {
        Ok(self.view(self.layout.narrow(dim, start, len)?))
    }

    /// Dimensions `a` and `b` swapped (a view).
    pub fn transpose(&self, a: usize, b: usize) -> Result<Tensor> {
        Ok(self.view(self.layout.transpose(a, b)?))
    }

    /// Dimensions reordered: dimension `perm[i]` becomes `i` (a view).
    pub fn permute(&self, perm: &[usize]) -> Result<Tensor> {
        Ok(self.view(self.layout.permute(perm)?))
    }

    /// The tensor broadcast to `shape` without copying (PyTorch's
    /// `expand`): new leading dimensions and dimensions of extent 1 are
    /// repeated by a stride of 0. Ops read such a view through a
    /// contiguous copy; write into it only through
    /// [`contiguous`](Self::contiguous).
    pub fn expand(&self, shape: &[usize]) -> Result<Tensor> {
        Ok(self.view(self.layout.expand(shape)?))
    }

    /// This tensor if contiguous, else a contiguous copy made on the GPU
    /// (one copy command with a region per run of consecutive elements).
    pub fn contiguous(&self) -> Result<Tensor> {
        if self.is_contiguous() {
            return Ok(self.clone());
        }
        let out = Self::alloc(&self.storage.device, self.dtype, self.shape())?;
        let stream = Stream::new(&self.storage.device);
        stream.copy(self, &out)?;
        stream.flush()?;
        Ok(out)
    }

    /// The elements in row-major order; blocks until the work that wrote
    /// the tensor completed.
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        let mut future = self.read::<T>();
        if let Some(e) = future.early.take() {
            return Err(e);
        }
        let device = Arc::clone(&future.device);
        let source = future.source.take().ok_or_else(|| Error::Shape {
            what: "to_vec",
            reason: "nothing to read".to_owned(),
        })?;
        // Waits as it goes: a staged read chunk by chunk.
        let out = gather(&device, &source, &future.layout)?;
        device.retire()?;
        Ok(out)
    }

    /// Copies the elements (row-major) into `out`, which must hold exactly
    /// [`numel`](Self::numel) of them; blocks like [`to_vec`](Self::to_vec).
    /// For a contiguous tensor this is one copy into memory the caller
    /// already has (no allocation).
    pub fn read_into<T: Element>(&self, out: &mut [T]) -> Result<()> {
        if out.len() != self.numel() {
            return Err(Error::Shape {
                what: "read_into",
                reason: format!("{} elements into a buffer of {}", self.numel(), out.len()),
            });
        }
        if !self.is_contiguous() {
            out.copy_from_slice(&self.to_vec::<T>()?);
            return Ok(());
        }
        let mut future = self.read::<T>();
        if let Some(e) = future.early.take() {
            return Err(e);
        }
        let device = Arc::clone(&future.device);
        let Some(source) = future.source.as_ref() else {
            return Ok(());
        };
        let base = match source {
            ReadSource::Direct { .. } => (self.layout.offset * self.dtype.size()) as u64,
            ReadSource::Staged(_) => 0,
        };
        // Waits as it goes: a staged read chunk by chunk.
        T::read_into(out, &mut |bytes: &mut [u8]| {
            source.read(&device, base, bytes)
        })?;
        device.retire()
    }

    /// Copies the tensor's bytes (row-major, as it stores them:
    /// `numel * dtype.size()`, which `out.len()` must be) into `out`; blocks
    /// like [`to_vec`](Self::to_vec). For a contiguous tensor this is one
    /// copy into memory the caller already has, whatever the element type.
    pub fn read_bytes_into(&self, out: &mut [u8]) -> Result<()> {
        let n = self.numel() * self.dtype.size();
        if out.len() != n {
            return Err(Error::Shape {
                what: "read_bytes_into",
                reason: format!("{n} bytes into a buffer of {}", out.len()),
            });
        }
        self.read_bytes_with(|bytes| out.copy_from_slice(bytes))
    }

    /// Calls `f` on the tensor's bytes (row-major, as it stores them:
    /// `numel * dtype.size()`) once the work that writes them completed
    /// (blocks like [`to_vec`](Self::to_vec)). On unified memory `f` sees
    /// a contiguous tensor's own memory (the caller copies it once, into
    /// memory of its own); elsewhere, or for a strided view, a host copy.
    pub fn read_bytes_with<R>(&self, f: impl FnOnce(&[u8]) -> R) -> Result<R> {
        if !self.is_contiguous() {
            return self.contiguous()?.read_bytes_with(f);
        }
        let size = self.dtype.size();
        let n = self.numel() * size;
        // The same bytes seen as u8 (the hazards are tracked by byte range).
        let bytes = Tensor {
            storage: Arc::clone(&self.storage),
            dtype: DType::U8,
            layout: Layout {
                shape: vec![n],
                strides: vec![1],
                offset: self.layout.offset * size,
            },
        };
        let mut future = bytes.read::<u8>();
        if let Some(e) = future.early.take() {
            return Err(e);
        }
        let device = Arc::clone(&future.device);
        let Some(source) = future.source.as_ref() else {
            return Ok(f(&[]));
        };
        let base = match source {
            ReadSource::Direct { .. } => bytes.layout.offset as u64,
            ReadSource::Staged(_) => 0,
        };
        let out = source.read_with(&device, base, n, f)?;
        device.retire()?;
        Ok(out)
    }

    /// A future of the elements in row-major order: the work it needs is
    /// submitted now, the future completes when that work has (see
    /// [`ReadFuture`]).
    pub fn read<T: Element>(&self) -> ReadFuture<T> {
        let device = Arc::clone(&self.storage.device);
        let mut future = ReadFuture {
            device: Arc::clone(&device),
            value: 0,
            source: None,
            layout: self.layout.clone(),
            early: None,
            _t: PhantomData,
        };
        match self.prepare_read::<T>() {
            Ok((value, source)) => {
                future.value = value;
                future.source = Some(source);
            }
            Err(e) => future.early = Some(e),
        }
        future
    }

    fn prepare_read<T: Element>(&self) -> Result<(u64, ReadSource)> {
        let device = &self.storage.device;
        device.alive()?;
        // Pending op calls that write (or read) it run first.
        crate::pending::settle(&self.storage.pending)?;
        crate::fault::check_storage(&self.storage)?;
        if T::DTYPE != self.dtype {
            return Err(Error::DType {
                what: "read",
                tensor: self.dtype,
                host: T::DTYPE,
            });
        }
        let size = self.dtype.size() as u64;
        let span = self.layout.span();
        let bytes = (span.end - span.start) as u64 * size;
        let start = span.start as u64 * size;
        // Submits the work writing the bytes read (and fails if a batch of
        // it failed to submit).
        let written = crate::hazard::written(&self.storage, start, start + bytes)?;
        if self.storage.slice.kind() == MemoryKind::Unified || bytes == 0 {
            AtomicCounters::add(&device.counters.bytes_direct, bytes);
            let read = crate::hazard::host_read(&self.storage, start, start + bytes, written);
            let source = ReadSource::Direct {
                storage: Arc::clone(&self.storage),
                read,
            };
            return Ok((written, source));
        }
        let n = span.end - span.start;
        let src = self.view(Layout {
            shape: vec![n],
            strides: vec![1],
            offset: span.start,
        });
        let chunk = crate::transfer::chunk_size(device);
        let chunks = crate::transfer::stage_out(&Stream::new(device).inner, &src, chunk)?;
        let value = chunks.last().map_or(written, |c| c.value);
        Ok((value, ReadSource::Staged(chunks)))
    }
}
