//! Tensors and other Vulkan users: a tensor's raw buffer range, memory
//! shared as a file descriptor, copies between devices (see the crate
//! docs' Interop section).

use std::sync::Arc;
use std::time::Instant;

use kiln_vulkan::{BufferRange, ExportedMemory, MemoryKind};

use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::tensor::Tensor;

impl Tensor {
    /// The bytes of the tensor's buffer from its first to its last element
    /// (a contiguous tensor's elements, row-major), whose raw `VkBuffer`,
    /// offset and size [`BufferRange::raw`] (`unsafe`; its docs say what
    /// the caller must not do) gives to another Vulkan user of the same
    /// device. The range borrows the tensor, which keeps the bytes
    /// allocated. Order access with kiln's work: [`Device::sync`] (or a
    /// read of the tensor) before the other user touches the bytes, and
    /// its work completed before kiln's next work on them.
    pub fn vulkan_buffer(&self) -> Result<BufferRange<'_>> {
        // Op calls pending on a lazy stream that touch it are enqueued.
        crate::pending::settle(&self.storage.pending)?;
        let size = self.dtype().size() as u64;
        let span = self.layout.span();
        let (start, len) = (
            span.start as u64 * size,
            (span.end - span.start) as u64 * size,
        );
        // A tensor in pieces (past one allocation) has one range only
        // where its bytes lie in one of them.
        let memory = &self.storage.slice;
        let (slice, at) = memory.within(start, len).ok_or_else(|| Error::Shape {
            what: "vulkan_buffer",
            reason: format!(
                "bytes {start}..{} of a tensor split across {} allocations of {} bytes \
                 (larger than one allocation may be) are not in one buffer",
                start + len,
                memory.count(),
                memory.piece()
            ),
        })?;
        slice.range(at, len).map_err(|e| self.storage.device.vk(e))
    }

    /// A tensor of `dtype` and `shape` (unspecified contents) in memory of
    /// its own that [`export_memory`](Self::export_memory) can share with
    /// another device or Vulkan user. Host-visible where the device has
    /// unified memory. An error where the device cannot export memory as
    /// file descriptors (`VK_KHR_external_memory_fd`; see
    /// [`Device::can_share_memory`]).
    pub fn empty_exportable(device: &Device, dtype: DType, shape: &[usize]) -> Result<Self> {
        let inner = &device.inner;
        inner.alive()?;
        let layout = Layout::contiguous(shape);
        let bytes = (layout.numel() * dtype.size()) as u64;
        let slice = inner
            .ctx
            .allocate_exportable(bytes.max(4).next_multiple_of(16))
            .map_err(|e| inner.vk(e))?;
        Ok(Self::over(inner, slice, dtype, layout))
    }

    /// A new opaque file descriptor for the memory of a tensor made by
    /// [`empty_exportable`](Self::empty_exportable) (its whole buffer,
    /// which views of it share), with what an importer needs: another kiln
    /// device ([`from_exported_memory`](Self::from_exported_memory)),
    /// another Vulkan user, or CUDA (`cudaImportExternalMemory` with
    /// `cudaExternalMemoryHandleTypeOpaqueFd`). No copy: both sides see
    /// the same bytes. Nothing orders work across devices: make the
    /// writer's work complete ([`Device::sync`]) before the other side
    /// reads. An error for any other tensor, or where the device cannot
    /// export memory.
    pub fn export_memory(&self) -> Result<ExportedMemory> {
        let device = &self.storage.device;
        device.alive()?;
        // Op calls pending on a lazy stream that touch it are enqueued.
        crate::pending::settle(&self.storage.pending)?;
        self.storage
            .slice
            .first()
            .export_fd()
            .map_err(|e| device.vk(e))
    }

    /// A contiguous tensor of `dtype` and `shape` over memory another
    /// device exported ([`export_memory`](Self::export_memory)), without a
    /// copy. The device must be on the same physical device and driver as
    /// the exporter (their UUIDs are compared). `memory`'s descriptor is
    /// consumed. An error where the shape needs more bytes than were
    /// exported, or the device cannot import memory as file descriptors.
    pub fn from_exported_memory(
        device: &Device,
        dtype: DType,
        shape: &[usize],
        memory: ExportedMemory,
    ) -> Result<Self> {
        let inner = &device.inner;
        inner.alive()?;
        let layout = Layout::contiguous(shape);
        let bytes = (layout.numel() * dtype.size()) as u64;
        if bytes > memory.size {
            return Err(Error::Shape {
                what: "from_exported_memory",
                reason: format!(
                    "shape {shape:?} of {} needs {bytes} bytes; {} were exported",
                    dtype.name(),
                    memory.size
                ),
            });
        }
        let slice = inner.ctx.import_fd(memory).map_err(|e| inner.vk(e))?;
        Ok(Self::over(inner, slice, dtype, layout))
    }

    /// A contiguous copy of the tensor on `device` (this tensor itself when
    /// `device` is its own). The copy goes through the host: once the
    /// work writing the tensor completed, its bytes are read and written
    /// into a new tensor of `device` — one host copy where both devices
    /// have unified memory (lavapipe, integrated GPUs), staging copies on
    /// either side elsewhere. For no copy at all on one physical device,
    /// share memory instead ([`export_memory`](Self::export_memory)).
    pub fn to_device(&self, device: &Device) -> Result<Tensor> {
        if Arc::ptr_eq(&self.storage.device, &device.inner) {
            return Ok(self.clone());
        }
        device.inner.alive()?;
        let started = Instant::now();
        let (dtype, shape) = (self.dtype(), self.shape().to_vec());
        let n = self.numel() * dtype.size();
        let out = self.read_bytes_with(|bytes| {
            Tensor::from_fill(device, dtype, &shape, |dst| dst.copy_from_slice(bytes))
        })??;
        if let Some(t) = &self.storage.device.tracer {
            t.host_copy(started, n as u64, &device.inner.ctx.device_summary().name);
        }
        Ok(out)
    }

    /// Whether the tensor's memory can be shared
    /// ([`export_memory`](Self::export_memory)).
    pub fn is_exportable(&self) -> bool {
        self.storage.slice.first().is_exportable()
    }

    /// Whether the host reads and writes the tensor's memory directly
    /// (unified memory) rather than through staging copies.
    pub fn is_host_visible(&self) -> bool {
        self.storage.slice.kind() == MemoryKind::Unified
    }
}
