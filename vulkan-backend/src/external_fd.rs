//! Device memory shared with another Vulkan device, another Vulkan user or
//! CUDA as an opaque POSIX file descriptor (`VK_KHR_external_memory_fd`).
//!
//! Where the device offers the extension (Vulkan 1.1+, where
//! `VK_KHR_external_memory` is core) and can export and import buffers'
//! memory as `VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT`, the context
//! enables it. Then:
//! - [`Context::allocate_exportable`] makes a [`Slice`] over memory of its
//!   own (not a pool block: exporting a pooled block would share its other
//!   slices' bytes too), allocated exportable, host-mapped where it is
//!   host-visible (unified memory);
//! - [`Slice::export_fd`] returns an [`ExportedMemory`]: a new file
//!   descriptor for that memory plus what an importer must allocate it with
//!   (size, memory type, device and driver UUIDs);
//! - [`Context::import_fd`] makes a slice over an exported allocation on
//!   another context (another `VkDevice` of the same physical device, or
//!   of one with the same device and driver UUIDs), without a copy: both
//!   slices are the same bytes.
//!
//! Nothing orders work across devices: the owner of the two devices makes
//! the writer's work complete (a sync) before the other reads.
//! The memory lives until the last device memory object over it is freed
//! (each side frees its own when its last slice is gone) and every file
//! descriptor of it is closed.

use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd, OwnedFd};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use ash::vk;

use crate::context::{Context, DeviceShared};
use crate::error::{Error, Result};
use crate::fault::CallFamily;
use crate::pool::{Block, BlockMemory, MappedPtr, MemoryKind, Slice, SliceShared, NEXT_BLOCK_ID};

/// The handle type kiln exports and imports.
const HANDLE: vk::ExternalMemoryHandleTypeFlags = vk::ExternalMemoryHandleTypeFlags::OPAQUE_FD;

/// Memory exported as an opaque file descriptor ([`Slice::export_fd`]):
/// the descriptor and what an importer needs to allocate memory over it
/// (Vulkan requires the same allocation size and memory type, on a device
/// with the same device and driver UUIDs).
#[derive(Debug)]
pub struct ExportedMemory {
    /// The file descriptor (`VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT`).
    /// Importing it into Vulkan transfers its ownership.
    pub fd: OwnedFd,
    /// `VkMemoryAllocateInfo::allocationSize` of the exported memory.
    pub allocation_size: u64,
    /// `VkMemoryAllocateInfo::memoryTypeIndex` of the exported memory.
    pub memory_type_index: u32,
    /// Where the shared bytes start in the memory.
    pub offset: u64,
    /// How many bytes are shared.
    pub size: u64,
    /// Whether the memory is a dedicated allocation of one buffer
    /// (`VkMemoryDedicatedAllocateInfo`): an importer must import it as one.
    pub dedicated: bool,
    /// `VkPhysicalDeviceIDProperties::deviceUUID` of the exporting device.
    pub device_uuid: [u8; 16],
    /// `VkPhysicalDeviceIDProperties::driverUUID` of the exporting device.
    pub driver_uuid: [u8; 16],
}

/// The extension's entry points and what the device allows.
pub(crate) struct ExternalFd {
    fns: ash::khr::external_memory_fd::Device,
    /// Buffers' memory can be exported.
    exportable: bool,
    /// Buffers' memory can be imported.
    importable: bool,
    /// Exported or imported memory must be a dedicated allocation.
    dedicated_only: bool,
    device_uuid: [u8; 16],
    driver_uuid: [u8; 16],
}

impl ExternalFd {
    /// The entry points on `device` (made with the extension enabled) and
    /// what `physical` allows for buffers; `None` where it can neither
    /// export nor import them.
    pub(crate) fn new(
        instance: &ash::Instance,
        physical: vk::PhysicalDevice,
        device: &ash::Device,
    ) -> Option<Self> {
        let info = vk::PhysicalDeviceExternalBufferInfo::default()
            .usage(crate::conv::buffer_info(1).usage)
            .handle_type(HANDLE);
        let mut external = vk::ExternalBufferProperties::default();
        // SAFETY: `physical` belongs to the live 1.1+ instance (the
        // extension is enabled only there); the handle type is the
        // extension's.
        unsafe {
            instance.get_physical_device_external_buffer_properties(physical, &info, &mut external)
        };
        let features = external.external_memory_properties.external_memory_features;
        let exportable = features.contains(vk::ExternalMemoryFeatureFlags::EXPORTABLE);
        let importable = features.contains(vk::ExternalMemoryFeatureFlags::IMPORTABLE);
        if !exportable && !importable {
            return None;
        }
        let mut ids = vk::PhysicalDeviceIDProperties::default();
        let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut ids);
        // SAFETY: as above; the ID properties are core in 1.1.
        unsafe { instance.get_physical_device_properties2(physical, &mut props) };
        Some(Self {
            fns: ash::khr::external_memory_fd::Device::new(instance, device),
            exportable,
            importable,
            dedicated_only: features.contains(vk::ExternalMemoryFeatureFlags::DEDICATED_ONLY),
            device_uuid: ids.device_uuid,
            driver_uuid: ids.driver_uuid,
        })
    }
}

/// What [`Error::Unsupported`] names when the device cannot share memory.
const UNSUPPORTED: &str =
    "sharing buffer memory as opaque file descriptors (VK_KHR_external_memory_fd)";

fn external_error(reason: String) -> Error {
    Error::ExternalMemory { reason }
}

impl Context {
    /// Whether this device can export ([`allocate_exportable`](Self::allocate_exportable),
    /// [`Slice::export_fd`]) and import ([`import_fd`](Self::import_fd))
    /// buffer memory as opaque file descriptors.
    pub fn can_share_memory_fd(&self) -> (bool, bool) {
        self.shared
            .external_fd
            .as_ref()
            .map_or((false, false), |e| (e.exportable, e.importable))
    }

    /// A slice of `size` bytes over memory of its own, allocated so that
    /// [`Slice::export_fd`] can share it (see the module docs): kind
    /// [`MemoryKind::Unified`] (host-mapped) where the device has unified
    /// memory, else [`MemoryKind::DeviceLocal`]. [`Error::Unsupported`]
    /// where the device cannot export memory as file descriptors.
    pub fn allocate_exportable(&self, size: u64) -> Result<Slice> {
        let shared = &self.shared;
        let Some(ext) = shared.external_fd.as_ref().filter(|e| e.exportable) else {
            return Err(Error::Unsupported { what: UNSUPPORTED });
        };
        if size == 0 {
            return Err(Error::ZeroSizedBuffer);
        }
        let buffer_size = size.next_multiple_of(16);
        let (raw, requirements) = external_buffer(shared, buffer_size)?;
        let mut block = external_block(shared, raw, buffer_size);
        let want = if shared.unified_memory {
            vk::MemoryPropertyFlags::DEVICE_LOCAL
                | vk::MemoryPropertyFlags::HOST_VISIBLE
                | vk::MemoryPropertyFlags::HOST_COHERENT
        } else {
            vk::MemoryPropertyFlags::DEVICE_LOCAL
        };
        let types = memory_types(shared);
        let allowed = |i: &usize| requirements.memory_type_bits & (1 << i) != 0;
        let Some(type_index) = (0..types.len())
            .filter(allowed)
            .find(|&i| types[i].property_flags.contains(want))
            .or_else(|| (0..types.len()).find(allowed))
        else {
            return Err(external_error(format!(
                "no memory type for an exportable buffer ({:#x})",
                requirements.memory_type_bits
            )));
        };
        let type_index = type_index as u32;
        let mut export = vk::ExportMemoryAllocateInfo::default().handle_types(HANDLE);
        let mut dedicated = vk::MemoryDedicatedAllocateInfo::default().buffer(raw);
        let mut alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(requirements.size)
            .memory_type_index(type_index)
            .push_next(&mut export);
        if ext.dedicated_only {
            alloc = alloc.push_next(&mut dedicated);
        }
        if let Some(code) = shared.faults.take(CallFamily::Memory) {
            return Err(shared.failed(CallFamily::Memory, "vkAllocateMemory", code));
        }
        shared.note_call();
        // SAFETY: valid allocate info for the live device: the memory type
        // is one the buffer allows, the chained structs name a handle type
        // the device exports buffers with (checked at creation), and the
        // dedicated buffer, when chained, is unbound.
        let memory = unsafe { shared.raw.allocate_memory(&alloc, None) }
            .map_err(|r| crate::error::map_family(CallFamily::Memory, "vkAllocateMemory", r))?;
        block.memory = BlockMemory::External {
            memory,
            exportable: true,
            memory_type_index: type_index,
            allocation_size: requirements.size,
            dedicated: ext.dedicated_only,
        };
        bind_and_map(
            shared,
            &mut block,
            memory,
            types[type_index as usize].property_flags,
        )?;
        Ok(own_slice(block, 0, size))
    }

    /// A slice over memory another device exported ([`Slice::export_fd`]),
    /// without a copy: the same bytes as the exporter's slice (see the
    /// module docs). On success Vulkan owns `memory.fd`; on failure it is
    /// closed. [`Error::Unsupported`] where this device cannot import
    /// memory as file descriptors; [`Error::ExternalMemory`] where the
    /// exporter is another device or driver (UUIDs differ) or the sizes
    /// or memory type do not fit.
    pub fn import_fd(&self, memory: ExportedMemory) -> Result<Slice> {
        let shared = &self.shared;
        let Some(ext) = shared.external_fd.as_ref().filter(|e| e.importable) else {
            return Err(Error::Unsupported { what: UNSUPPORTED });
        };
        if memory.device_uuid != ext.device_uuid || memory.driver_uuid != ext.driver_uuid {
            return Err(external_error(format!(
                "the memory comes from another device or driver (device UUID {}, driver UUID \
                 {}; this device's are {} and {})",
                hex(&memory.device_uuid),
                hex(&memory.driver_uuid),
                hex(&ext.device_uuid),
                hex(&ext.driver_uuid)
            )));
        }
        let end = memory.offset.checked_add(memory.size);
        if memory.size == 0 || end.is_none_or(|e| e > memory.allocation_size) {
            return Err(external_error(format!(
                "{} bytes at offset {} do not fit an allocation of {} bytes",
                memory.size, memory.offset, memory.allocation_size
            )));
        }
        let types = memory_types(shared);
        let type_index = memory.memory_type_index;
        let Some(flags) = types.get(type_index as usize).map(|t| t.property_flags) else {
            return Err(external_error(format!(
                "memory type {type_index} does not exist here ({} types)",
                types.len()
            )));
        };
        // The buffer covers the allocation whole, bound at offset 0; the
        // slice is the shared range of it.
        let (raw, requirements) = external_buffer(shared, memory.allocation_size)?;
        let mut block = external_block(shared, raw, memory.allocation_size);
        if requirements.memory_type_bits & (1 << type_index) == 0
            || requirements.size > memory.allocation_size
        {
            return Err(external_error(format!(
                "a buffer over the {} bytes needs {} bytes of memory types {:#x}, not type \
                 {type_index}",
                memory.allocation_size, requirements.size, requirements.memory_type_bits
            )));
        }
        let mut import = vk::ImportMemoryFdInfoKHR::default()
            .handle_type(HANDLE)
            .fd(memory.fd.as_raw_fd());
        let mut dedicated = vk::MemoryDedicatedAllocateInfo::default().buffer(raw);
        let mut alloc = vk::MemoryAllocateInfo::default()
            .allocation_size(memory.allocation_size)
            .memory_type_index(type_index)
            .push_next(&mut import);
        if memory.dedicated || ext.dedicated_only {
            alloc = alloc.push_next(&mut dedicated);
        }
        if let Some(code) = shared.faults.take(CallFamily::Memory) {
            return Err(shared.failed(CallFamily::Memory, "vkAllocateMemory", code));
        }
        shared.note_call();
        // SAFETY: valid allocate info for the live device: the descriptor
        // is an open opaque-fd export of a device with our UUIDs (checked),
        // with the allocation size and memory type it was exported with
        // (the exporter's record); the buffer, when chained, is unbound.
        let device_memory = unsafe { shared.raw.allocate_memory(&alloc, None) }
            .map_err(|r| crate::error::map_family(CallFamily::Memory, "vkAllocateMemory", r))?;
        // Vulkan owns the descriptor now (it closes it).
        let _ = memory.fd.into_raw_fd();
        block.memory = BlockMemory::External {
            memory: device_memory,
            exportable: false,
            memory_type_index: type_index,
            allocation_size: memory.allocation_size,
            dedicated: memory.dedicated || ext.dedicated_only,
        };
        bind_and_map(shared, &mut block, device_memory, flags)?;
        Ok(own_slice(block, memory.offset, memory.size))
    }
}

impl Slice {
    /// A new file descriptor for the memory of a slice made by
    /// [`Context::allocate_exportable`], with what an importer needs (see
    /// the module docs). [`Error::ExternalMemory`] for any other slice
    /// (a pooled one shares its block with other slices);
    /// [`Error::Unsupported`] where the device cannot export memory.
    pub fn export_fd(&self) -> Result<ExportedMemory> {
        let s = &self.shared;
        let shared = &s.block.device;
        let Some(ext) = shared.external_fd.as_ref().filter(|e| e.exportable) else {
            return Err(Error::Unsupported { what: UNSUPPORTED });
        };
        let BlockMemory::External {
            memory,
            exportable: true,
            memory_type_index,
            allocation_size,
            dedicated,
        } = s.block.memory
        else {
            return Err(external_error(
                "the buffer was not allocated exportable (Context::allocate_exportable)".to_owned(),
            ));
        };
        let info = vk::MemoryGetFdInfoKHR::default()
            .memory(memory)
            .handle_type(HANDLE);
        // SAFETY: the memory is live (the slice holds its block) and was
        // allocated exportable with this handle type.
        let fd = shared.call(CallFamily::Memory, "vkGetMemoryFdKHR", || unsafe {
            ext.fns.get_memory_fd(&info)
        })?;
        // SAFETY: vkGetMemoryFdKHR returned a new descriptor the caller owns.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        Ok(ExportedMemory {
            fd,
            allocation_size,
            memory_type_index,
            offset: s.offset,
            size: s.size,
            dedicated,
            device_uuid: ext.device_uuid,
            driver_uuid: ext.driver_uuid,
        })
    }

    /// Whether the slice's memory can be exported ([`export_fd`](Self::export_fd)).
    pub fn is_exportable(&self) -> bool {
        matches!(
            self.shared.block.memory,
            BlockMemory::External {
                exportable: true,
                ..
            }
        )
    }
}

/// A buffer of `size` bytes whose memory may be external, and its memory
/// requirements.
fn external_buffer(
    shared: &DeviceShared,
    size: u64,
) -> Result<(vk::Buffer, vk::MemoryRequirements)> {
    let mut external = vk::ExternalMemoryBufferCreateInfo::default().handle_types(HANDLE);
    let info = crate::conv::buffer_info(size).push_next(&mut external);
    // SAFETY: valid create info (non-zero size, supported usage, a handle
    // type the device exports or imports buffers with) for the live device.
    let raw = shared.call(CallFamily::Create, "vkCreateBuffer", || unsafe {
        shared.raw.create_buffer(&info, None)
    })?;
    // SAFETY: `raw` is a live buffer of this device.
    let requirements = unsafe { shared.raw.get_buffer_memory_requirements(raw) };
    Ok((raw, requirements))
}

/// A block over `raw` with no memory yet: dropping it destroys the buffer
/// (and the memory, once set).
fn external_block(shared: &Arc<DeviceShared>, raw: vk::Buffer, size: u64) -> Block {
    Block {
        device: Arc::clone(shared),
        raw,
        allocation: Mutex::new(None),
        size,
        mapped: None,
        id: NEXT_BLOCK_ID.fetch_add(1, Ordering::Relaxed),
        kind: MemoryKind::DeviceLocal,
        memory: BlockMemory::External {
            memory: vk::DeviceMemory::null(),
            exportable: false,
            memory_type_index: 0,
            allocation_size: 0,
            dedicated: false,
        },
    }
}

/// Binds `memory` to the block's buffer at offset 0 and maps it whole
/// where it is host-visible (then the block is [`MemoryKind::Unified`]).
fn bind_and_map(
    shared: &DeviceShared,
    block: &mut Block,
    memory: vk::DeviceMemory,
    flags: vk::MemoryPropertyFlags,
) -> Result<()> {
    let raw = block.raw;
    // SAFETY: the memory is at least the buffer's required size, of a type
    // it allows (checked by the callers), bound at offset 0; the buffer is
    // not bound yet.
    shared.call(CallFamily::Create, "vkBindBufferMemory", || unsafe {
        shared.raw.bind_buffer_memory(raw, memory, 0)
    })?;
    let mappable = flags
        .contains(vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT);
    if mappable && shared.unified_memory {
        // SAFETY: the memory is host-visible, not mapped yet; the mapping
        // lives until vkFreeMemory (the block's drop) unmaps it.
        let ptr = unsafe {
            shared
                .raw
                .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
        }
        .map_err(|r| crate::error::map_family(CallFamily::Memory, "vkMapMemory", r))?;
        block.mapped = std::ptr::NonNull::new(ptr.cast::<u8>()).map(MappedPtr);
        block.kind = MemoryKind::Unified;
    }
    Ok(())
}

/// A slice of `size` bytes at `offset` of a block of its own.
fn own_slice(block: Block, offset: u64, size: u64) -> Slice {
    Slice {
        shared: Arc::new(SliceShared {
            pool: None,
            block: Arc::new(block),
            offset,
            size,
            reserved: size.next_multiple_of(4),
        }),
    }
}

/// The device's memory types.
fn memory_types(shared: &DeviceShared) -> Vec<vk::MemoryType> {
    // SAFETY: `physical` belongs to the live instance.
    let props = unsafe {
        shared
            .instance
            .raw
            .get_physical_device_memory_properties(shared.physical)
    };
    props.memory_types[..props.memory_type_count as usize].to_vec()
}

/// A UUID as hex digits.
fn hex(uuid: &[u8; 16]) -> String {
    uuid.iter().map(|b| format!("{b:02x}")).collect()
}
