//! The resource interface of one compute pipeline.
//!
//! A [`PipelineInterface`] says everything the host must provide to dispatch
//! one entry point of a SPIR-V module: the descriptor bindings it statically
//! uses (set, binding, descriptor type, access, size requirements), its
//! push-constant range and its workgroup size. The compiler produces it (or
//! `kiln_core::binary::reflect` recovers it from a binary), and the runtime
//! builds descriptor-set layouts, pipeline layouts and dispatch-time checks
//! from it alone.
//!
//! Invariants a well-formed interface keeps (checked by
//! [`PipelineInterface::check`]):
//! - `bindings` is sorted by `(set, binding)` with no duplicate pair;
//! - the push-constant range, when present, has an offset and a size that are
//!   multiples of 4 and a non-zero size;
//! - every workgroup-size component is at least 1.
//!
//! Plain data only: no Vulkan types, no IR types.

use std::fmt;

/// The kind of descriptor a binding expects, in Vulkan's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DescriptorType {
    /// A storage buffer (`StorageBuffer` storage class, or `Uniform` with
    /// `BufferBlock` in SPIR-V before 1.3).
    StorageBuffer,
    /// A uniform buffer (`Uniform` storage class with `Block`).
    UniformBuffer,
    /// A storage image (`OpTypeImage` with `Sampled = 2`).
    StorageImage,
    /// A sampled image (`OpTypeImage` with `Sampled = 1`).
    SampledImage,
    /// A sampler (`OpTypeSampler`).
    Sampler,
    /// A combined image-sampler (`OpTypeSampledImage`).
    CombinedImageSampler,
}

impl DescriptorType {
    /// Whether the descriptor refers to a buffer (storage or uniform).
    pub fn is_buffer(self) -> bool {
        matches!(self, Self::StorageBuffer | Self::UniformBuffer)
    }

    /// A short lower-case name, as used in messages ("storage buffer").
    pub fn name(self) -> &'static str {
        match self {
            Self::StorageBuffer => "storage buffer",
            Self::UniformBuffer => "uniform buffer",
            Self::StorageImage => "storage image",
            Self::SampledImage => "sampled image",
            Self::Sampler => "sampler",
            Self::CombinedImageSampler => "combined image sampler",
        }
    }
}

impl fmt::Display for DescriptorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How the shader accesses the resource behind a binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Access {
    /// Read and written (the default when nothing restricts it).
    #[default]
    ReadWrite,
    /// Only read (`NonWritable` on the variable or on every block member;
    /// always the case for uniform buffers, samplers and sampled images).
    ReadOnly,
    /// Only written (`NonReadable` on the variable or on every block member).
    WriteOnly,
}

impl Access {
    /// Whether the shader may write the resource.
    pub fn writes(self) -> bool {
        !matches!(self, Self::ReadOnly)
    }

    /// Whether the shader may read the resource.
    pub fn reads(self) -> bool {
        !matches!(self, Self::WriteOnly)
    }
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::ReadWrite => "read-write",
            Self::ReadOnly => "read-only",
            Self::WriteOnly => "write-only",
        })
    }
}

/// One descriptor binding of a pipeline.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResourceBinding {
    /// The descriptor set number (`DescriptorSet` decoration).
    pub set: u32,
    /// The binding number within the set (`Binding` decoration).
    pub binding: u32,
    /// What kind of descriptor the binding expects.
    pub descriptor_type: DescriptorType,
    /// How the shader accesses the resource.
    pub access: Access,
    /// For buffers: the smallest size in bytes the bound range must have.
    /// For a block ending in a runtime array this is the size of the part
    /// before the array (the array itself may be empty). 0 when unknown or
    /// not a buffer.
    pub min_size: u64,
    /// For buffers whose block ends in a runtime array: the array's stride in
    /// bytes (`ArrayStride`). `None` when the block has no runtime array.
    pub element_stride: Option<u32>,
}

impl ResourceBinding {
    /// The `(set, binding)` pair, the key bindings are sorted by.
    pub fn key(&self) -> (u32, u32) {
        (self.set, self.binding)
    }

    /// The number of runtime-array elements a buffer of `size` bytes holds,
    /// or `None` when the binding has no runtime array or `size` is smaller
    /// than [`min_size`](Self::min_size).
    pub fn runtime_array_len(&self, size: u64) -> Option<u64> {
        let stride = u64::from(self.element_stride?);
        let rest = size.checked_sub(self.min_size)?;
        Some(rest.checked_div(stride).unwrap_or(0))
    }
}

impl fmt::Display for ResourceBinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{} ({}, {}",
            self.set, self.binding, self.descriptor_type, self.access
        )?;
        if self.descriptor_type.is_buffer() {
            write!(f, ", at least {} bytes", self.min_size)?;
            if let Some(stride) = self.element_stride {
                write!(f, " + n * {stride}")?;
            }
        }
        f.write_str(")")
    }
}

/// The push-constant range of a pipeline, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PushConstantRange {
    /// Offset of the range in bytes (a multiple of 4).
    pub offset: u32,
    /// Size of the range in bytes (a non-zero multiple of 4).
    pub size: u32,
}

impl PushConstantRange {
    /// One past the last byte of the range.
    pub fn end(&self) -> u64 {
        u64::from(self.offset) + u64::from(self.size)
    }
}

/// Everything the host must provide to dispatch one compute entry point.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PipelineInterface {
    /// The name of the entry point (`OpEntryPoint` name).
    pub entry_point: String,
    /// The descriptor bindings the entry point statically uses, sorted by
    /// `(set, binding)`.
    pub bindings: Vec<ResourceBinding>,
    /// The push-constant range, if the entry point uses push constants.
    pub push_constants: Option<PushConstantRange>,
    /// The workgroup size (`LocalSize`, `LocalSizeId` or the `WorkgroupSize`
    /// built-in constant).
    pub workgroup_size: [u32; 3],
}

impl PipelineInterface {
    /// The binding at `(set, binding)`, if the entry point uses it.
    pub fn binding(&self, set: u32, binding: u32) -> Option<&ResourceBinding> {
        self.bindings
            .binary_search_by_key(&(set, binding), ResourceBinding::key)
            .ok()
            .map(|i| &self.bindings[i])
    }

    /// The distinct descriptor-set numbers used, ascending.
    pub fn sets(&self) -> Vec<u32> {
        let mut sets: Vec<u32> = self.bindings.iter().map(|b| b.set).collect();
        sets.sort_unstable();
        sets.dedup();
        sets
    }

    /// The bindings of one descriptor set, ascending by binding number.
    pub fn bindings_in_set(&self, set: u32) -> impl Iterator<Item = &ResourceBinding> + '_ {
        self.bindings.iter().filter(move |b| b.set == set)
    }

    /// The highest set number used, or `None` when there are no bindings.
    /// A pipeline layout needs `max_set + 1` set layouts.
    pub fn max_set(&self) -> Option<u32> {
        self.bindings.iter().map(|b| b.set).max()
    }

    /// The number of invocations in one workgroup.
    pub fn invocations_per_workgroup(&self) -> u64 {
        self.workgroup_size.iter().map(|&d| u64::from(d)).product()
    }

    /// Sorts `bindings` by `(set, binding)`, restoring the ordering invariant
    /// after the bindings were built in another order.
    pub fn sort_bindings(&mut self) {
        self.bindings.sort_by_key(ResourceBinding::key);
    }

    /// Checks the invariants listed in the module documentation.
    pub fn check(&self) -> Result<(), InterfaceError> {
        for pair in self.bindings.windows(2) {
            let (a, b) = (pair[0].key(), pair[1].key());
            if a == b {
                return Err(InterfaceError::DuplicateBinding {
                    set: a.0,
                    binding: a.1,
                });
            }
            if a > b {
                return Err(InterfaceError::Unsorted {
                    first: a,
                    second: b,
                });
            }
        }
        if let Some(pc) = self.push_constants {
            if pc.size == 0 || pc.size % 4 != 0 || pc.offset % 4 != 0 {
                return Err(InterfaceError::PushConstantRange {
                    offset: pc.offset,
                    size: pc.size,
                });
            }
        }
        if self.workgroup_size.contains(&0) {
            return Err(InterfaceError::EmptyWorkgroup {
                size: self.workgroup_size,
            });
        }
        Ok(())
    }
}

/// A broken invariant of a [`PipelineInterface`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InterfaceError {
    /// Two bindings share one `(set, binding)` pair.
    #[error("binding {set}:{binding} is declared twice")]
    DuplicateBinding {
        /// The set number.
        set: u32,
        /// The binding number.
        binding: u32,
    },
    /// The bindings are not sorted by `(set, binding)`.
    #[error("bindings are not sorted: {}:{} comes before {}:{}", first.0, first.1, second.0, second.1)]
    Unsorted {
        /// The earlier pair in the list.
        first: (u32, u32),
        /// The later pair in the list, which sorts before `first`.
        second: (u32, u32),
    },
    /// The push-constant range is empty or not 4-byte aligned.
    #[error(
        "push-constant range at offset {offset} with size {size} must have a non-zero size and \
         offset and size that are multiples of 4"
    )]
    PushConstantRange {
        /// The range's offset.
        offset: u32,
        /// The range's size.
        size: u32,
    },
    /// A workgroup-size component is zero.
    #[error("workgroup size {size:?} has a zero component")]
    EmptyWorkgroup {
        /// The workgroup size.
        size: [u32; 3],
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buf(set: u32, binding: u32) -> ResourceBinding {
        ResourceBinding {
            set,
            binding,
            descriptor_type: DescriptorType::StorageBuffer,
            access: Access::ReadWrite,
            min_size: 0,
            element_stride: Some(4),
        }
    }

    fn iface(bindings: Vec<ResourceBinding>) -> PipelineInterface {
        PipelineInterface {
            entry_point: "main".into(),
            bindings,
            push_constants: None,
            workgroup_size: [64, 1, 1],
        }
    }

    #[test]
    fn lookup_and_sets() {
        let i = iface(vec![buf(0, 0), buf(0, 3), buf(2, 1)]);
        assert_eq!(i.binding(0, 3).map(|b| b.binding), Some(3));
        assert!(i.binding(1, 0).is_none());
        assert_eq!(i.sets(), vec![0, 2]);
        assert_eq!(i.max_set(), Some(2));
        assert_eq!(i.bindings_in_set(0).count(), 2);
        assert_eq!(i.invocations_per_workgroup(), 64);
        assert_eq!(i.check(), Ok(()));
    }

    #[test]
    fn check_reports_broken_invariants() {
        let i = iface(vec![buf(0, 1), buf(0, 1)]);
        assert_eq!(
            i.check().unwrap_err().to_string(),
            "binding 0:1 is declared twice"
        );
        let mut i = iface(vec![buf(1, 0), buf(0, 0)]);
        assert_eq!(
            i.check().unwrap_err().to_string(),
            "bindings are not sorted: 1:0 comes before 0:0"
        );
        i.sort_bindings();
        assert_eq!(i.check(), Ok(()));
        let mut i = iface(vec![]);
        i.push_constants = Some(PushConstantRange { offset: 0, size: 6 });
        assert!(matches!(
            i.check(),
            Err(InterfaceError::PushConstantRange { .. })
        ));
        let mut i = iface(vec![]);
        i.workgroup_size = [0, 1, 1];
        assert!(matches!(
            i.check(),
            Err(InterfaceError::EmptyWorkgroup { .. })
        ));
    }

    #[test]
    fn runtime_array_len() {
        let mut b = buf(0, 0);
        b.min_size = 16;
        assert_eq!(b.runtime_array_len(16 + 40), Some(10));
        assert_eq!(b.runtime_array_len(8), None);
        b.element_stride = None;
        assert_eq!(b.runtime_array_len(100), None);
        assert_eq!(
            buf(1, 2).to_string(),
            "1:2 (storage buffer, read-write, at least 0 bytes + n * 4)"
        );
    }
}
