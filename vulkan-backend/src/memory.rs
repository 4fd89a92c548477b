//! Buffers: host-visible storage buffers backed by gpu-allocator.
//!
//! Every [`Buffer`] lives in host-visible, host-coherent memory (gpu-allocator
//! only hands out coherent memory for its CPU locations), so the host writes
//! and reads it directly through a persistent mapping, and no flush or
//! invalidate is needed. Dispatch makes shader writes visible to the host
//! with a barrier before its fence signals.
//!
//! A buffer is `Send` but not `Sync`: a shared reference is what dispatch
//! binds, and the host must not read a buffer from one thread while another
//! thread's dispatch writes it.

use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::Arc;

use ash::vk;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme};
use gpu_allocator::MemoryLocation;

use crate::context::{Context, DeviceShared};
use crate::error::{map_create, Error, Result};

/// What a buffer is mostly used for; picks the memory type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MemoryUsage {
    /// Written by the host, read by shaders (`CpuToGpu`: may be device-local
    /// on GPUs with host-visible VRAM). Host reads work but may be slow.
    #[default]
    Upload,
    /// Written by shaders, read back by the host (`GpuToCpu`: host-cached
    /// where available).
    Readback,
}

impl MemoryUsage {
    fn location(self) -> MemoryLocation {
        match self {
            Self::Upload => MemoryLocation::CpuToGpu,
            Self::Readback => MemoryLocation::GpuToCpu,
        }
    }
}

/// A host-visible storage (and uniform) buffer.
pub struct Buffer {
    pub(crate) device: Arc<DeviceShared>,
    pub(crate) raw: vk::Buffer,
    /// `None` only during drop.
    allocation: Option<Allocation>,
    size: u64,
    /// Makes the type `!Sync` (see the module documentation).
    _not_sync: PhantomData<Cell<()>>,
}

impl std::fmt::Debug for Buffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Buffer")
            .field("raw", &self.raw)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl Buffer {
    /// A zero-initialized buffer of `size` bytes for [`MemoryUsage::Upload`].
    pub fn new(ctx: &Context, size: u64) -> Result<Self> {
        Self::with_usage(ctx, size, MemoryUsage::Upload)
    }

    /// A zero-initialized buffer of `size` bytes in memory suited to `usage`.
    pub fn with_usage(ctx: &Context, size: u64, usage: MemoryUsage) -> Result<Self> {
        if size == 0 {
            return Err(Error::ZeroSizedBuffer);
        }
        let device = Arc::clone(&ctx.shared);
        let info = crate::conv::buffer_info(size);
        device.note_call();
        // SAFETY: valid create info (non-zero size, supported usage) for
        // the live device.
        let raw = unsafe { device.raw.create_buffer(&info, None) }
            .map_err(|r| map_create("vkCreateBuffer", r))?;
        // From here on, dropping `buffer` cleans up whatever exists.
        let mut buffer = Self {
            device,
            raw,
            allocation: None,
            size,
            _not_sync: PhantomData,
        };
        // SAFETY: `raw` is a live buffer of this device.
        let requirements = unsafe { buffer.device.raw.get_buffer_memory_requirements(raw) };
        let mut allocation = buffer
            .device
            .allocator()
            .allocate(&AllocationCreateDesc {
                name: "kiln buffer",
                requirements,
                location: usage.location(),
                linear: true,
                allocation_scheme: AllocationScheme::GpuAllocatorManaged,
            })
            .map_err(|source| Error::Allocation {
                what: format!("a buffer of {size} bytes"),
                source,
            })?;
        // Fresh memory is not guaranteed to be zero; make it so.
        match allocation.mapped_slice_mut() {
            Some(bytes) => bytes.fill(0),
            None => {
                let _ = buffer.device.allocator().free(allocation);
                return Err(Error::Allocation {
                    what: format!("a buffer of {size} bytes"),
                    source: gpu_allocator::AllocationError::FailedToMap(
                        "the memory type is not host-visible".to_owned(),
                    ),
                });
            }
        }
        buffer.device.note_call();
        // SAFETY: the allocation satisfies the buffer's requirements (it was
        // made from them), is not bound to anything else, and the buffer is
        // not bound yet.
        unsafe {
            buffer
                .device
                .raw
                .bind_buffer_memory(raw, allocation.memory(), allocation.offset())
        }
        .map_err(|r| {
            let _ = buffer
                .device
                .allocator()
                .free(std::mem::take(&mut allocation));
            map_create("vkBindBufferMemory", r)
        })?;
        buffer.allocation = Some(allocation);
        Ok(buffer)
    }

    /// A buffer holding a copy of `bytes`.
    pub fn from_bytes(ctx: &Context, bytes: &[u8]) -> Result<Self> {
        let mut buffer = Self::new(ctx, bytes.len() as u64)?;
        buffer.write(0, bytes)?;
        Ok(buffer)
    }

    /// A buffer holding a copy of `data`'s bytes.
    pub fn from_slice<T: bytemuck::Pod>(ctx: &Context, data: &[T]) -> Result<Self> {
        Self::from_bytes(ctx, bytemuck::cast_slice(data))
    }

    /// The buffer's size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The raw Vulkan buffer.
    pub fn raw(&self) -> vk::Buffer {
        self.raw
    }

    fn range(&self, offset: u64, len: usize) -> Result<std::ops::Range<usize>> {
        let len64 = len as u64;
        match offset.checked_add(len64) {
            Some(end) if end <= self.size => {
                // Both fit in usize: `size` bytes are mapped in this process.
                Ok(offset as usize..end as usize)
            }
            _ => Err(Error::OutOfRange {
                offset,
                len: len64,
                size: self.size,
            }),
        }
    }

    fn mapped(&self) -> &[u8] {
        self.allocation
            .as_ref()
            .and_then(Allocation::mapped_slice)
            .expect("buffers are created mapped and stay mapped")
    }

    /// Writes `data` at byte `offset`.
    pub fn write(&mut self, offset: u64, data: &[u8]) -> Result<()> {
        let range = self.range(offset, data.len())?;
        let bytes = self
            .allocation
            .as_mut()
            .and_then(Allocation::mapped_slice_mut)
            .expect("buffers are created mapped and stay mapped");
        bytes[range].copy_from_slice(data);
        Ok(())
    }

    /// Writes `data`'s bytes at offset 0.
    pub fn write_slice<T: bytemuck::Pod>(&mut self, data: &[T]) -> Result<()> {
        self.write(0, bytemuck::cast_slice(data))
    }

    /// Reads `out.len()` bytes at byte `offset`.
    pub fn read(&self, offset: u64, out: &mut [u8]) -> Result<()> {
        let range = self.range(offset, out.len())?;
        out.copy_from_slice(&self.mapped()[range]);
        Ok(())
    }

    /// A copy of the whole buffer.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.mapped()[..self.size as usize].to_vec()
    }

    /// The whole buffer as `T`s (trailing bytes that do not fill a `T` are
    /// left out).
    pub fn to_vec<T: bytemuck::Pod>(&self) -> Vec<T> {
        let n = self.size as usize / std::mem::size_of::<T>().max(1);
        let mut out = vec![T::zeroed(); n];
        let dst: &mut [u8] = bytemuck::cast_slice_mut(&mut out);
        let len = dst.len();
        dst.copy_from_slice(&self.mapped()[..len]);
        out
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        // SAFETY: dispatch waits for its work before returning, so the GPU
        // no longer uses the buffer; the memory is freed after the buffer.
        unsafe { self.device.raw.destroy_buffer(self.raw, None) };
        if let Some(allocation) = self.allocation.take() {
            // A failure here only means the allocator's bookkeeping is off;
            // the device frees all memory when it is destroyed.
            let _ = self.device.allocator().free(allocation);
        }
    }
}
