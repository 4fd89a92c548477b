//! Buffers over host memory the caller owns (`VK_EXT_external_memory_host`):
//! a numpy array's memory seen by kernels without a copy.
//!
//! Where the device offers the extension (Vulkan 1.1+, where
//! `VK_KHR_external_memory` is core), can import host allocations into
//! buffers, and has unified memory (the host and the device see the same
//! memory at the same speed: lavapipe, integrated GPUs), the context
//! enables it and [`Context::import_host`] makes a [`Slice`] over the
//! caller's bytes: the whole pages around them are imported as one
//! `VkDeviceMemory` bound to its own `VkBuffer`, and the slice is the
//! bytes' range of it. The [`HostMemory`] value that lends the bytes is
//! kept with the buffer and dropped after the buffer and its memory are
//! destroyed, which happens when the last slice reference is gone (queued
//! work holds its slices until it completed).
//!
//! A slice over read-only host memory refuses every write: host writes
//! through [`Slice::write`] and commands that write it (a dispatch binding
//! it writable, a copy, fill or update into it) fail with
//! [`Error::ReadOnlyMemory`] before anything is recorded.

use std::ffi::c_void;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use ash::vk;

use crate::context::{Context, DeviceShared};
use crate::error::{Error, Result};
use crate::fault::CallFamily;
use crate::pool::{Block, BlockMemory, MappedPtr, MemoryKind, Slice, SliceShared, NEXT_BLOCK_ID};

/// Host memory lent to the device for as long as the value lives.
///
/// # Safety
///
/// An implementor guarantees that, from the value's creation until it is
/// dropped, [`host_ptr`](Self::host_ptr) and [`host_len`](Self::host_len)
/// always return the same range, that the range is one allocation of
/// ordinary (not device-mapped) host memory that stays allocated and
/// readable, and, when [`host_writable`](Self::host_writable) is true,
/// writable. Nothing else may free or unmap it before the value is
/// dropped. The owner may change the contents (the device sees the bytes
/// as they are when its work reads them), but not while kiln's host code
/// reads or writes them through the slice ([`Slice::read`],
/// [`Slice::write`]): the owner orders its writes with those (Python's
/// GIL, held around kiln's calls, does).
pub unsafe trait HostMemory: Send + Sync + 'static {
    /// The first byte.
    fn host_ptr(&self) -> *mut u8;
    /// The number of bytes.
    fn host_len(&self) -> usize;
    /// Whether the bytes may be written (by the device or through the
    /// slice).
    fn host_writable(&self) -> bool;
}

/// The extension's entry point and what the device allows.
pub(crate) struct HostImport {
    fns: ash::ext::external_memory_host::Device,
    /// `minImportedHostPointerAlignment`: imports start and end on it.
    pub(crate) page: u64,
}

impl HostImport {
    /// `minImportedHostPointerAlignment` of `physical` when kiln can import
    /// host memory there: the extension is offered, the Vulkan version is
    /// 1.1+, memory is unified, and buffers can be bound to imported host
    /// allocations (`vkGetPhysicalDeviceExternalBufferProperties`).
    pub(crate) fn query(
        instance: &ash::Instance,
        physical: vk::PhysicalDevice,
        offered: bool,
        version: u32,
        unified: bool,
    ) -> Option<u64> {
        if !offered || !unified || version < vk::API_VERSION_1_1 {
            return None;
        }
        let mut host = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
        let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut host);
        // SAFETY: `physical` belongs to the live instance, which is 1.1+
        // (checked above through the effective version); the chained
        // struct belongs to an extension the device offers.
        unsafe { instance.get_physical_device_properties2(physical, &mut props) };
        let page = host.min_imported_host_pointer_alignment;
        let info = vk::PhysicalDeviceExternalBufferInfo::default()
            .usage(crate::conv::buffer_info(1).usage)
            .handle_type(vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT);
        let mut external = vk::ExternalBufferProperties::default();
        // SAFETY: as above; `info` names a handle type of the offered
        // extension.
        unsafe {
            instance.get_physical_device_external_buffer_properties(physical, &info, &mut external)
        };
        let importable = external
            .external_memory_properties
            .external_memory_features
            .contains(vk::ExternalMemoryFeatureFlags::IMPORTABLE);
        (importable && page.is_power_of_two()).then_some(page)
    }

    /// The entry point on the device (made with the extension enabled).
    pub(crate) fn new(instance: &ash::Instance, device: &ash::Device, page: u64) -> Self {
        Self {
            fns: ash::ext::external_memory_host::Device::new(instance, device),
            page,
        }
    }
}

impl Context {
    /// `minImportedHostPointerAlignment` where [`import_host`](Self::import_host)
    /// is available, else `None`.
    pub fn host_import_alignment(&self) -> Option<u64> {
        self.shared.host_import.as_ref().map(|h| h.page)
    }

    /// Whether the `len` bytes at address `addr` can be imported: the
    /// device imports host memory, `len` is not zero, and `addr` and `len`
    /// are multiples of the slice alignment ([`slice_alignment`](Self::slice_alignment):
    /// a slice binds as any buffer descriptor, and a kernel reading the
    /// last partial 16-byte vector of a tensor whole stays in its bytes).
    pub fn can_import_host(&self, addr: usize, len: usize) -> bool {
        let align = self.slice_alignment() as usize;
        self.shared.host_import.is_some() && len > 0 && addr % align == 0 && len % align == 0
    }

    /// A slice over `memory`'s bytes, without a copy (see the module
    /// docs): [`Error::Unsupported`] where the device cannot import host
    /// memory, [`Error::HostImport`] where these bytes cannot be
    /// ([`can_import_host`](Self::can_import_host) says why not, or the
    /// driver refuses the pointer). The slice is of kind
    /// [`MemoryKind::Unified`]: the host reads and writes it in place.
    pub fn import_host(&self, memory: Box<dyn HostMemory>) -> Result<Slice> {
        let shared = &self.shared;
        let Some(import) = shared.host_import.as_ref() else {
            return Err(Error::Unsupported {
                what: "importing host memory (VK_EXT_external_memory_host on unified memory)",
            });
        };
        let (ptr, len) = (memory.host_ptr(), memory.host_len());
        let addr = ptr as usize;
        if !self.can_import_host(addr, len) {
            return Err(Error::HostImport {
                reason: format!(
                    "{len} bytes at {addr:#x}: the address and the length must be non-zero \
                     multiples of {}",
                    self.slice_alignment()
                ),
            });
        }
        let page = import.page as usize;
        let base = addr & !(page - 1);
        let end = addr
            .checked_add(len)
            .and_then(|e| e.checked_next_multiple_of(page))
            .ok_or_else(|| Error::HostImport {
                reason: format!("{len} bytes at {addr:#x} overflow the address space"),
            })?;
        let size = (end - base) as u64;
        // The pointer at the start of its page: the same allocation's
        // pages (a page holding one of its bytes is mapped whole).
        let base_ptr = ptr.wrapping_sub(addr - base);
        let handle = vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;
        let mut host_props = vk::MemoryHostPointerPropertiesEXT::default();
        // SAFETY: the function was loaded from the device, which enabled
        // the extension; `base_ptr` points into host memory the caller
        // lends (`HostMemory`'s contract), aligned to
        // `minImportedHostPointerAlignment`.
        let r = unsafe {
            (import.fns.fp().get_memory_host_pointer_properties_ext)(
                shared.raw.handle(),
                handle,
                base_ptr.cast_const().cast::<c_void>(),
                &mut host_props,
            )
        };
        if r != vk::Result::SUCCESS {
            return Err(Error::HostImport {
                reason: format!("vkGetMemoryHostPointerPropertiesEXT failed with {r:?}"),
            });
        }
        let mut external = vk::ExternalMemoryBufferCreateInfo::default().handle_types(handle);
        let info = crate::conv::buffer_info(size).push_next(&mut external);
        // SAFETY: valid create info (non-zero size, supported usage, a
        // handle type the device can import buffers from) for the live
        // device.
        let raw = shared.call(CallFamily::Create, "vkCreateBuffer", || unsafe {
            shared.raw.create_buffer(&info, None)
        })?;
        let writable = memory.host_writable();
        // From here on, dropping `block` destroys what exists, then drops
        // `memory`.
        let mut block = Block {
            device: Arc::clone(shared),
            raw,
            allocation: Mutex::new(None),
            size,
            mapped: None,
            id: NEXT_BLOCK_ID.fetch_add(1, Ordering::Relaxed),
            kind: MemoryKind::Unified,
            memory: BlockMemory::Imported {
                memory: vk::DeviceMemory::null(),
                read_only: !writable,
                _owner: memory,
            },
        };
        // SAFETY: `raw` is a live buffer of this device.
        let requirements = unsafe { shared.raw.get_buffer_memory_requirements(raw) };
        let Some(type_index) = memory_type(
            shared,
            requirements.memory_type_bits & host_props.memory_type_bits,
        ) else {
            return Err(Error::HostImport {
                reason: format!(
                    "no memory type both a buffer ({:#x}) and the host pointer ({:#x}) allow",
                    requirements.memory_type_bits, host_props.memory_type_bits
                ),
            });
        };
        if requirements.size > size {
            return Err(Error::HostImport {
                reason: format!(
                    "a buffer over {size} bytes needs {} bytes of memory",
                    requirements.size
                ),
            });
        }
        let mut import_info = vk::ImportMemoryHostPointerInfoEXT::default()
            .handle_type(handle)
            .host_pointer(base_ptr.cast::<c_void>());
        let alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(size)
            .memory_type_index(type_index)
            .push_next(&mut import_info);
        if let Some(code) = shared.faults.take(CallFamily::Memory) {
            return Err(shared.failed(CallFamily::Memory, "vkAllocateMemory", code));
        }
        shared.note_call();
        // SAFETY: `base_ptr .. base_ptr + size` are whole pages of the
        // caller's allocation (aligned to minImportedHostPointerAlignment,
        // a multiple of it long), which stays allocated while the block
        // holds `memory`; the memory type is one the host pointer allows.
        let device_memory = unsafe { shared.raw.allocate_memory(&alloc, None) }
            .map_err(|r| crate::error::map_family(CallFamily::Memory, "vkAllocateMemory", r))?;
        if let BlockMemory::Imported { memory, .. } = &mut block.memory {
            *memory = device_memory;
        }
        // SAFETY: the memory is `size` bytes of a type the buffer allows,
        // at least its requirements' size, bound at offset 0 (aligned to
        // anything); the buffer is not bound yet.
        shared.call(CallFamily::Create, "vkBindBufferMemory", || unsafe {
            shared.raw.bind_buffer_memory(raw, device_memory, 0)
        })?;
        block.mapped = std::ptr::NonNull::new(base_ptr).map(MappedPtr);
        Ok(Slice {
            shared: Arc::new(SliceShared {
                pool: None,
                block: Arc::new(block),
                offset: (addr - base) as u64,
                size: len as u64,
                reserved: len as u64,
            }),
        })
    }
}

/// The first memory type in `bits`, preferring host-visible coherent ones.
fn memory_type(shared: &DeviceShared, bits: u32) -> Option<u32> {
    // SAFETY: `physical` belongs to the live instance.
    let props = unsafe {
        shared
            .instance
            .raw
            .get_physical_device_memory_properties(shared.physical)
    };
    let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
    let types = &props.memory_types[..props.memory_type_count as usize];
    let allowed = |i: &usize| bits & (1 << i) != 0;
    (0..types.len())
        .filter(allowed)
        .find(|&i| types[i].property_flags.contains(want))
        .or_else(|| (0..types.len()).find(allowed))
        .map(|i| i as u32)
}

/// Zeroed, page-aligned host memory of kiln's own, importable with
/// [`Context::import_host`]: the host fills it (or reads it back) through
/// [`as_mut_slice`](Self::as_mut_slice) before lending it, then through
/// the slice ([`Slice::write`], [`Slice::read`]).
pub struct HostPages {
    ptr: std::ptr::NonNull<u8>,
    layout: std::alloc::Layout,
    len: usize,
    writable: bool,
}

impl std::fmt::Debug for HostPages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostPages")
            .field("len", &self.len)
            .field("writable", &self.writable)
            .finish_non_exhaustive()
    }
}

// SAFETY: the allocation is owned by the value alone; `&self` gives only
// shared (read) access to it, `&mut self` exclusive access.
unsafe impl Send for HostPages {}
// SAFETY: as above.
unsafe impl Sync for HostPages {}

impl HostPages {
    /// `len` zero bytes (at least one) starting on a multiple of `align`
    /// (a power of two: 4096 covers the usual
    /// `minImportedHostPointerAlignment`), writable by the device.
    /// `None` for a zero length, an alignment that is not a power of two,
    /// or a failed allocation.
    pub fn new(len: usize, align: usize) -> Option<Self> {
        let size = len.checked_next_multiple_of(align.max(1))?;
        let layout = std::alloc::Layout::from_size_align(size, align).ok()?;
        if len == 0 {
            return None;
        }
        // SAFETY: `layout` has a non-zero size.
        let ptr = std::ptr::NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        Some(Self {
            ptr,
            layout,
            len,
            writable: true,
        })
    }

    /// The same memory lent read-only: a slice over it refuses every write.
    pub fn read_only(mut self) -> Self {
        self.writable = false;
        self
    }

    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: `ptr` holds `len` initialized (zeroed) bytes owned by
        // `self`, borrowed shared for the reference's lifetime.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// The bytes, to write.
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as in `as_slice`, borrowed exclusively.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for HostPages {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout, freed once.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr(), self.layout) };
    }
}

// SAFETY: the range is the value's own allocation, freed only by its drop;
// its address and length never change; it is writable memory.
unsafe impl HostMemory for HostPages {
    fn host_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    fn host_len(&self) -> usize {
        self.len
    }

    fn host_writable(&self) -> bool {
        self.writable
    }
}
