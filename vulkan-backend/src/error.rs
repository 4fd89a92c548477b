//! The runtime's error type and the `VkResult` mappers.
//!
//! Every Vulkan call that can fail goes through the mapper of its family
//! (instance creation, enumeration, device creation, object creation,
//! descriptor allocation, queue work). Each mapper turns the codes the
//! specification lists for that family into a typed variant carrying the
//! call's name, and anything else into [`Error::Other`].

use ash::vk;
use kiln_abi::DescriptorType;

use crate::fault::CallFamily;

/// A `Result` with the runtime's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in the Vulkan runtime.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The Vulkan loader library (libvulkan) could not be loaded.
    #[error(
        "cannot load the Vulkan loader: {reason} (install a Vulkan loader and a driver, \
         e.g. libvulkan1 and mesa-vulkan-drivers for lavapipe)"
    )]
    LoaderMissing {
        /// Why loading failed.
        reason: String,
    },
    /// The loader found no physical device.
    #[error(
        "no Vulkan device found (no installed driver reports a device; \
         mesa-vulkan-drivers provides lavapipe, a CPU implementation)"
    )]
    NoDevice,
    /// No physical device matches the selector.
    #[error("no Vulkan device matches {selector}; available devices: {}", available.join("; "))]
    DeviceNotFound {
        /// The selector, as text.
        selector: String,
        /// The available devices, one summary each.
        available: Vec<String>,
    },
    /// The driver ran out of host memory.
    #[error("{call}: out of host memory")]
    OutOfHostMemory {
        /// The failing Vulkan call.
        call: &'static str,
    },
    /// The driver ran out of device memory.
    #[error("{call}: out of device memory")]
    OutOfDeviceMemory {
        /// The failing Vulkan call.
        call: &'static str,
    },
    /// The device was lost (driver crash, hang, reset).
    #[error("{call}: device lost")]
    DeviceLost {
        /// The failing Vulkan call.
        call: &'static str,
    },
    /// Initialization of an implementation object failed.
    #[error("{call}: initialization failed")]
    InitializationFailed {
        /// The failing Vulkan call.
        call: &'static str,
    },
    /// A requested instance layer is not installed.
    #[error(
        "Vulkan layer {name} is not installed (Debian/Ubuntu: apt-get install \
         vulkan-validationlayers); installed layers: {}",
        if available.is_empty() { "(none)".to_owned() } else { available.join(", ") }
    )]
    LayerNotPresent {
        /// The layer's name.
        name: String,
        /// The installed layers.
        available: Vec<String>,
    },
    /// A requested extension is not supported.
    #[error("{call}: Vulkan extension {name} is not supported")]
    ExtensionNotPresent {
        /// The Vulkan call (or the step) that needed it.
        call: &'static str,
        /// The extension's name, when known.
        name: String,
    },
    /// A requested device feature is not supported.
    #[error("{call}: a requested device feature is not supported")]
    FeatureNotPresent {
        /// The failing Vulkan call.
        call: &'static str,
    },
    /// No installed driver accepts the instance: none is installed (or
    /// found through `VK_ICD_FILENAMES`/`VK_DRIVER_FILES`), or none supports
    /// the requested API version.
    #[error(
        "{call}: no compatible Vulkan driver (VK_ERROR_INCOMPATIBLE_DRIVER: no driver is \
         installed or found, or none supports the requested API version; \
         mesa-vulkan-drivers provides lavapipe)"
    )]
    IncompatibleDriver {
        /// The failing Vulkan call.
        call: &'static str,
    },
    /// The selected device has no queue family with compute support.
    #[error("device {device} has no queue family that supports compute")]
    NoComputeQueue {
        /// The device's name.
        device: String,
    },
    /// The memory allocator failed.
    #[error("allocating memory for {what}: {source}")]
    Allocation {
        /// What the memory was for.
        what: String,
        /// The allocator's error.
        #[source]
        source: gpu_allocator::AllocationError,
    },
    /// A binding of the pipeline has no buffer.
    #[error(
        "binding {set}:{binding} ({descriptor_type}) is used by entry point \"{entry_point}\" \
         but no buffer was given for it"
    )]
    MissingBinding {
        /// The set number.
        set: u32,
        /// The binding number.
        binding: u32,
        /// What the binding expects.
        descriptor_type: DescriptorType,
        /// The pipeline's entry point.
        entry_point: String,
    },
    /// A buffer was given for a binding the pipeline does not use.
    #[error(
        "a buffer was given for binding {set}:{binding}, which entry point \"{entry_point}\" \
         does not use (it uses: {})",
        if declared.is_empty() { "no bindings".to_owned() } else { declared.join(", ") }
    )]
    UnexpectedBinding {
        /// The set number.
        set: u32,
        /// The binding number.
        binding: u32,
        /// The pipeline's entry point.
        entry_point: String,
        /// The bindings the pipeline uses, as `set:binding`.
        declared: Vec<String>,
    },
    /// Two buffers were given for one binding.
    #[error("two buffers were given for binding {set}:{binding}")]
    DuplicateBinding {
        /// The set number.
        set: u32,
        /// The binding number.
        binding: u32,
    },
    /// A buffer was given for an element past the end of a binding's
    /// descriptor array.
    #[error(
        "a buffer was given for element {element} of binding {set}:{binding}, which has \
         {count} descriptor(s)"
    )]
    ArrayElement {
        /// The set number.
        set: u32,
        /// The binding number.
        binding: u32,
        /// The element given.
        element: u32,
        /// The binding's descriptor count.
        count: u32,
    },
    /// An element of a descriptor array has no buffer.
    #[error(
        "binding {set}:{binding} of entry point \"{entry_point}\" is an array of {count} \
         descriptors, but no buffer was given for element {element}"
    )]
    MissingArrayElement {
        /// The set number.
        set: u32,
        /// The binding number.
        binding: u32,
        /// The element without a buffer.
        element: u32,
        /// The binding's descriptor count.
        count: u32,
        /// The pipeline's entry point.
        entry_point: String,
    },
    /// A dynamic offset the binding cannot take.
    #[error("binding {set}:{binding}[{element}]: dynamic offset {offset}: {reason}")]
    DynamicOffset {
        /// The set number.
        set: u32,
        /// The binding number.
        binding: u32,
        /// The array element.
        element: u32,
        /// The dynamic offset.
        offset: u32,
        /// Why it is rejected.
        reason: String,
    },
    /// A binding named dynamic at pipeline creation that cannot be.
    #[error("binding {set}:{binding}: {reason}")]
    DynamicDescriptor {
        /// The set number.
        set: u32,
        /// The binding number.
        binding: u32,
        /// Why it cannot be dynamic.
        reason: String,
    },
    /// A binding expects a descriptor kind that dispatch cannot bind yet.
    #[error(
        "binding {set}:{binding} is a {descriptor_type}; dispatch can only bind buffers and \
         texel buffers"
    )]
    UnsupportedDescriptor {
        /// The set number.
        set: u32,
        /// The binding number.
        binding: u32,
        /// What the binding expects.
        descriptor_type: DescriptorType,
    },
    /// A texel buffer whose module names no texel format (`Unknown`): kiln
    /// cannot create the buffer view without one.
    #[error(
        "binding {set}:{binding} is a {descriptor_type} of texel format Unknown; kiln needs an \
         explicit format in the module (Rgba32f, Rgba32i, Rgba32ui, Rgba16f, R32f, R32i or R32ui) to \
         create its buffer view"
    )]
    UnknownTexelFormat {
        /// The set number.
        set: u32,
        /// The binding number.
        binding: u32,
        /// The binding's descriptor type (uniform or storage texel buffer).
        descriptor_type: DescriptorType,
    },
    /// A texel buffer whose format the device cannot view a buffer as
    /// (`vkGetPhysicalDeviceFormatProperties` lacks the feature in
    /// `bufferFeatures`).
    #[error(
        "binding {set}:{binding} is a {descriptor_type} of format {format}, which the device \
         does not support for {descriptor_type}s (its bufferFeatures lack {feature})"
    )]
    UnsupportedTexelFormat {
        /// The set number.
        set: u32,
        /// The binding number.
        binding: u32,
        /// The binding's descriptor type.
        descriptor_type: DescriptorType,
        /// The texel format.
        format: kiln_abi::TexelFormat,
        /// The missing format feature (`UNIFORM_TEXEL_BUFFER` or
        /// `STORAGE_TEXEL_BUFFER`).
        feature: &'static str,
    },
    /// A buffer is smaller than its binding requires.
    #[error("binding {set}:{binding} needs at least {required} bytes, but its buffer has {size}")]
    BufferTooSmall {
        /// The set number.
        set: u32,
        /// The binding number.
        binding: u32,
        /// The binding's minimum size.
        required: u64,
        /// The buffer's size.
        size: u64,
    },
    /// A bound range that does not fit a whole number of a runtime
    /// array's elements after the fixed part of its block.
    #[error(
        "binding {set}:{binding}: the bound {size} bytes are not the fixed {min_size} bytes plus \
         a whole number of {stride}-byte elements"
    )]
    PartialElement {
        /// The set.
        set: u32,
        /// The binding.
        binding: u32,
        /// The bound size.
        size: u64,
        /// The fixed part of the block.
        min_size: u64,
        /// The runtime array's element stride.
        stride: u32,
    },
    /// A bound range whose offset breaks the device's alignment.
    #[error(
        "binding {set}:{binding}: offset {offset} is not a multiple of the device limit \
         {limit_name} = {alignment}"
    )]
    MisalignedOffset {
        /// The set.
        set: u32,
        /// The binding.
        binding: u32,
        /// The offset.
        offset: u64,
        /// `minStorageBufferOffsetAlignment`, `minUniformBufferOffsetAlignment`
        /// or `minTexelBufferOffsetAlignment`.
        limit_name: &'static str,
        /// Its value.
        alignment: u64,
    },
    /// A bound range that ends beyond its buffer.
    #[error(
        "binding {set}:{binding}: the range of {size} bytes at offset {offset} ends beyond the \
         buffer's {buffer_size} bytes"
    )]
    RangeOutsideBuffer {
        /// The set.
        set: u32,
        /// The binding.
        binding: u32,
        /// The range's offset.
        offset: u64,
        /// The range's size.
        size: u64,
        /// The buffer's size.
        buffer_size: u64,
    },
    /// A request exceeds a device limit.
    #[error("{what} is {requested}, above the device limit {limit_name} = {limit}")]
    LimitExceeded {
        /// What exceeded the limit.
        what: String,
        /// The requested amount.
        requested: u64,
        /// The Vulkan limit's name.
        limit_name: &'static str,
        /// The limit's value.
        limit: u64,
    },
    /// The push-constant bytes do not match the pipeline's range.
    #[error(
        "entry point \"{entry_point}\" expects {expected} bytes of push constants, {got} were given"
    )]
    PushConstantSize {
        /// The pipeline's entry point.
        entry_point: String,
        /// The range's size (0 when the pipeline has none).
        expected: u32,
        /// The number of bytes given.
        got: usize,
    },
    /// The SPIR-V words are not a module.
    #[error("invalid SPIR-V module: {reason}")]
    InvalidSpirv {
        /// What is wrong.
        reason: String,
    },
    /// The pipeline interface breaks one of its invariants.
    #[error("invalid pipeline interface: {0}")]
    InvalidInterface(#[from] kiln_abi::InterfaceError),
    /// Specialization-constant values that do not fit the interface.
    #[error("specialization: {0}")]
    Specialization(#[from] kiln_abi::SpecializationError),
    /// A host access falls outside a buffer.
    #[error(
        "buffer access at offset {offset} of {len} bytes is outside the buffer's {size} bytes"
    )]
    OutOfRange {
        /// The access's offset.
        offset: u64,
        /// The access's length.
        len: u64,
        /// The buffer's size.
        size: u64,
    },
    /// A request larger than one memory allocation may be
    /// ([`Context::max_allocation_size`](crate::Context::max_allocation_size):
    /// `maxMemoryAllocationSize`, or a lower limit a test forced).
    #[error("{what} of {bytes} bytes is larger than one allocation may be ({limit} bytes, maxMemoryAllocationSize or a forced lower limit)")]
    AllocationTooLarge {
        /// What was asked for.
        what: String,
        /// Its size.
        bytes: u64,
        /// The most one allocation may have.
        limit: u64,
    },
    /// A buffer of size zero was requested (Vulkan has none).
    #[error("a buffer must have a non-zero size")]
    ZeroSizedBuffer,
    /// An object made on another context was used with this one.
    #[error("the {what} was created on another Context")]
    ForeignObject {
        /// Which object.
        what: &'static str,
    },
    /// The device lacks something a building block needs.
    #[error("the device does not support {what}")]
    Unsupported {
        /// What is missing, e.g. `timeline semaphores (Vulkan 1.2 or VK_KHR_timeline_semaphore)`.
        what: &'static str,
    },
    /// Host memory that cannot be imported as a buffer (see
    /// [`Context::import_host`](crate::Context::import_host)).
    #[error("cannot import host memory: {reason}")]
    HostImport {
        /// Why, with the offending values.
        reason: String,
    },
    /// Memory that cannot be exported or imported as a file descriptor
    /// (see [`Context::import_fd`](crate::Context::import_fd)).
    #[error("cannot share device memory as a file descriptor: {reason}")]
    ExternalMemory {
        /// Why, with the offending values.
        reason: String,
    },
    /// An application's Vulkan objects kiln cannot run on (see
    /// [`Context::from_external`](crate::Context::from_external)).
    #[error("cannot use the application's Vulkan device: {reason}")]
    ExternalDevice {
        /// Why, with the offending values.
        reason: String,
    },
    /// A host write or a recorded command that would write a slice over
    /// read-only imported host memory.
    #[error("{what} writes a buffer over read-only host memory")]
    ReadOnlyMemory {
        /// The write: `a host write`, `vkCmdCopyBuffer`, a dispatch's binding.
        what: String,
    },
    /// A pool slice or block used with a batch of another context.
    #[error("a command batch was given {what} of another Context")]
    ForeignBatchObject {
        /// Which object.
        what: &'static str,
    },
    /// A copy, fill or update whose range or alignment Vulkan does not
    /// allow.
    #[error("{command}: {reason}")]
    InvalidTransfer {
        /// `vkCmdCopyBuffer`, `vkCmdFillBuffer` or `vkCmdUpdateBuffer`.
        command: &'static str,
        /// What is wrong, with the offending values.
        reason: String,
    },
    /// A call made on a batch of the wrong kind: submitting a reusable
    /// (secondary) batch, executing one from another reusable batch.
    #[error("{call}: {reason}")]
    BatchKind {
        /// The call refused.
        call: &'static str,
        /// Why.
        reason: &'static str,
    },
    /// Any other failure of a Vulkan call.
    #[error("{call} failed with {result:?} ({result})")]
    Other {
        /// The failing Vulkan call.
        call: &'static str,
        /// Its result code.
        result: vk::Result,
    },
}

/// Codes every call that allocates can return.
impl From<kiln_abi::LimitError> for Error {
    fn from(e: kiln_abi::LimitError) -> Self {
        Error::LimitExceeded {
            what: e.what,
            requested: e.value,
            limit_name: e.limit_name,
            limit: e.limit,
        }
    }
}

fn map_oom_or(call: &'static str, result: vk::Result) -> Error {
    match result {
        vk::Result::ERROR_OUT_OF_HOST_MEMORY => Error::OutOfHostMemory { call },
        vk::Result::ERROR_OUT_OF_DEVICE_MEMORY => Error::OutOfDeviceMemory { call },
        result => Error::Other { call, result },
    }
}

/// The mapper of each [`CallFamily`] (the families fault injection works
/// on): [`map_memory`] for `Memory`, [`map_create`] for `Create` and
/// `PipelineCache`, [`map_allocate_descriptor_sets`] for `DescriptorSets`,
/// [`map_queue`] for `Submit` and `Wait`.
pub(crate) fn map_family(family: CallFamily, call: &'static str, result: vk::Result) -> Error {
    match family {
        CallFamily::Memory => map_memory(call, result),
        CallFamily::Create | CallFamily::PipelineCache => map_create(call, result),
        CallFamily::DescriptorSets => map_allocate_descriptor_sets(result),
        CallFamily::Submit | CallFamily::Wait => map_queue(call, result),
    }
}

/// Device-memory allocation (`vkAllocateMemory`): out of host or device
/// memory, too many allocations (`VK_ERROR_TOO_MANY_OBJECTS`, reported as
/// out of device memory: the caller's remedy is the same, free and retry).
pub(crate) fn map_memory(call: &'static str, result: vk::Result) -> Error {
    match result {
        vk::Result::ERROR_TOO_MANY_OBJECTS => Error::OutOfDeviceMemory { call },
        result => map_oom_or(call, result),
    }
}

/// gpu-allocator's failure to allocate `what`: its out-of-memory is
/// [`Error::OutOfDeviceMemory`] (as [`map_memory`] maps the driver's),
/// anything else [`Error::Allocation`].
pub(crate) fn map_allocator(
    what: impl FnOnce() -> String,
    e: gpu_allocator::AllocationError,
) -> Error {
    match e {
        gpu_allocator::AllocationError::OutOfMemory => Error::OutOfDeviceMemory {
            call: "vkAllocateMemory",
        },
        source => Error::Allocation {
            what: what(),
            source,
        },
    }
}

/// `vkCreateInstance`: out of memory, initialization failed, layer or
/// extension not present, incompatible driver.
pub(crate) fn map_create_instance(result: vk::Result) -> Error {
    const CALL: &str = "vkCreateInstance";
    match result {
        vk::Result::ERROR_INITIALIZATION_FAILED => Error::InitializationFailed { call: CALL },
        vk::Result::ERROR_LAYER_NOT_PRESENT => Error::LayerNotPresent {
            name: "(one of the requested layers)".to_owned(),
            available: Vec::new(),
        },
        vk::Result::ERROR_EXTENSION_NOT_PRESENT => Error::ExtensionNotPresent {
            call: CALL,
            name: "(one of the requested extensions)".to_owned(),
        },
        vk::Result::ERROR_INCOMPATIBLE_DRIVER => Error::IncompatibleDriver { call: CALL },
        result => map_oom_or(CALL, result),
    }
}

/// `vkEnumerate*` queries: out of memory, initialization failed.
pub(crate) fn map_enumerate(call: &'static str, result: vk::Result) -> Error {
    match result {
        vk::Result::ERROR_INITIALIZATION_FAILED => Error::InitializationFailed { call },
        result => map_oom_or(call, result),
    }
}

/// `vkCreateDevice`: out of memory, initialization failed, extension or
/// feature not present, too many objects, device lost.
pub(crate) fn map_create_device(result: vk::Result) -> Error {
    const CALL: &str = "vkCreateDevice";
    match result {
        vk::Result::ERROR_INITIALIZATION_FAILED => Error::InitializationFailed { call: CALL },
        vk::Result::ERROR_EXTENSION_NOT_PRESENT => Error::ExtensionNotPresent {
            call: CALL,
            name: "(one of the requested extensions)".to_owned(),
        },
        vk::Result::ERROR_FEATURE_NOT_PRESENT => Error::FeatureNotPresent { call: CALL },
        vk::Result::ERROR_DEVICE_LOST => Error::DeviceLost { call: CALL },
        result => map_oom_or(CALL, result),
    }
}

/// Object creation and command-buffer recording (`vkCreate*`,
/// `vkAllocateCommandBuffers`, `vkBegin/EndCommandBuffer`): out of memory.
pub(crate) fn map_create(call: &'static str, result: vk::Result) -> Error {
    map_oom_or(call, result)
}

/// `vkAllocateDescriptorSets`: out of memory; fragmented or exhausted pools
/// (which cannot happen with kiln's one-pool-per-dispatch use) are `Other`.
pub(crate) fn map_allocate_descriptor_sets(result: vk::Result) -> Error {
    map_oom_or("vkAllocateDescriptorSets", result)
}

/// Queue work and waits (`vkQueueSubmit`, `vkWaitForFences`,
/// `vkDeviceWaitIdle`): out of memory, device lost.
pub(crate) fn map_queue(call: &'static str, result: vk::Result) -> Error {
    match result {
        vk::Result::ERROR_DEVICE_LOST => Error::DeviceLost { call },
        result => map_oom_or(call, result),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mappers_name_the_call() {
        assert_eq!(
            map_queue("vkQueueSubmit", vk::Result::ERROR_DEVICE_LOST).to_string(),
            "vkQueueSubmit: device lost"
        );
        assert_eq!(
            map_create("vkCreateBuffer", vk::Result::ERROR_OUT_OF_DEVICE_MEMORY).to_string(),
            "vkCreateBuffer: out of device memory"
        );
        assert_eq!(
            map_enumerate("vkEnumeratePhysicalDevices", vk::Result::ERROR_UNKNOWN).to_string(),
            "vkEnumeratePhysicalDevices failed with ERROR_UNKNOWN (An unknown error has occurred, due to an implementation or application bug)"
        );
        assert!(matches!(
            map_create_device(vk::Result::ERROR_FEATURE_NOT_PRESENT),
            Error::FeatureNotPresent { .. }
        ));
        assert!(matches!(
            map_create_instance(vk::Result::ERROR_INCOMPATIBLE_DRIVER),
            Error::IncompatibleDriver { .. }
        ));
    }
}
