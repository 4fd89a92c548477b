//! The resource interface of one compute pipeline.
//!
//! A [`PipelineInterface`] says everything the host must provide to dispatch
//! one entry point of a SPIR-V module: the descriptor bindings it statically
//! uses (set, binding, descriptor type, access, size requirements), its
//! push-constant range, its specialization constants, its workgroup size
//! (and which specialization constants drive it) and the workgroup memory
//! it declares. The compiler produces it (`kiln_core::reflect::reflect_module`
//! from the IR, or `kiln_core::reflect::reflect_binary` from a binary), and the
//! runtime builds descriptor-set layouts, pipeline layouts, specialization
//! info and dispatch-time checks from it alone.
//!
//! Invariants a well-formed interface keeps (checked by
//! [`PipelineInterface::check`]):
//! - `bindings` is sorted by `(set, binding)` with no duplicate pair;
//! - the push-constant range, when present, has an offset and a size that are
//!   multiples of 4 and a non-zero size;
//! - every workgroup-size component is at least 1;
//! - `spec_constants` is sorted by id with no duplicate id, and every id in
//!   `workgroup_size_spec_ids` names one of them.
//!
//! Whether the interface fits a device is a separate question,
//! [`PipelineInterface::check_limits`] against [`Limits`]: bound sets,
//! per-stage descriptor counts, push-constant size, workgroup size per
//! dimension and in total, and workgroup (shared) memory.
//!
//! Plain data only: no Vulkan types, no IR types.

use std::fmt;

use crate::limits::{LimitError, Limits, AXES};

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
    /// A uniform texel buffer (`OpTypeImage` with `Dim = Buffer` and
    /// `Sampled = 1`, read with `OpImageFetch`): a typed, read-only view
    /// (`VkBufferView`) of a buffer range. Its texel format is the binding's
    /// [`ResourceBinding::texel_format`]. Counts against
    /// `maxPerStageDescriptorSampledImages`.
    UniformTexelBuffer,
    /// A storage texel buffer (`OpTypeImage` with `Dim = Buffer` and
    /// `Sampled = 2`, read with `OpImageRead`, written with
    /// `OpImageWrite`): a typed view of a buffer range the shader may write.
    /// Its texel format is the binding's [`ResourceBinding::texel_format`].
    /// Counts against `maxPerStageDescriptorStorageImages`.
    StorageTexelBuffer,
}

impl DescriptorType {
    /// Whether the descriptor refers to a buffer range directly (storage or
    /// uniform buffer, `VkDescriptorBufferInfo`). Texel buffers are views of
    /// buffers and answer `false`; see [`takes_buffer`](Self::takes_buffer).
    pub fn is_buffer(self) -> bool {
        matches!(self, Self::StorageBuffer | Self::UniformBuffer)
    }

    /// Whether the descriptor is a texel buffer (uniform or storage): a
    /// `VkBufferView` of a buffer range with a texel format.
    pub fn is_texel_buffer(self) -> bool {
        matches!(self, Self::UniformTexelBuffer | Self::StorageTexelBuffer)
    }

    /// Whether the host binds a range of a `VkBuffer` to it: a buffer
    /// ([`is_buffer`](Self::is_buffer)) or a texel buffer
    /// ([`is_texel_buffer`](Self::is_texel_buffer)).
    pub fn takes_buffer(self) -> bool {
        self.is_buffer() || self.is_texel_buffer()
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
            Self::UniformTexelBuffer => "uniform texel buffer",
            Self::StorageTexelBuffer => "storage texel buffer",
        }
    }
}

impl fmt::Display for DescriptorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The texel format of a texel-buffer binding: SPIR-V's `Image Format`
/// operand of its `OpTypeImage`, which the host's `VkBufferView` must match.
///
/// kiln binds the formats below; [`Unknown`](Self::Unknown) (a module that
/// leaves the format to the host, with `StorageImageReadWithoutFormat`)
/// reflects, but binding it is refused: kiln needs an explicit format to
/// create the view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TexelFormat {
    /// `Rgba32f`: four 32-bit floats (`VK_FORMAT_R32G32B32A32_SFLOAT`).
    Rgba32f,
    /// `Rgba32i`: four 32-bit signed integers (`VK_FORMAT_R32G32B32A32_SINT`).
    Rgba32i,
    /// `Rgba32ui`: four 32-bit unsigned integers
    /// (`VK_FORMAT_R32G32B32A32_UINT`).
    Rgba32ui,
    /// `Rgba16f`: four 16-bit floats (`VK_FORMAT_R16G16B16A16_SFLOAT`),
    /// fetched as 32-bit floats (exactly: every f16 is an f32).
    Rgba16f,
    /// `R32f`: one 32-bit float (`VK_FORMAT_R32_SFLOAT`).
    R32f,
    /// `R32i`: one 32-bit signed integer (`VK_FORMAT_R32_SINT`).
    R32i,
    /// `R32ui`: one 32-bit unsigned integer (`VK_FORMAT_R32_UINT`).
    R32ui,
    /// `Unknown`: no format in the module; cannot be bound.
    Unknown,
}

impl TexelFormat {
    /// The size of one texel in bytes: 16 for the RGBA32 formats, 8 for
    /// `Rgba16f`, 4 for the R formats, `None` for
    /// [`Unknown`](Self::Unknown).
    pub fn texel_size(self) -> Option<u32> {
        match self {
            Self::Rgba32f | Self::Rgba32i | Self::Rgba32ui => Some(16),
            Self::Rgba16f => Some(8),
            Self::R32f | Self::R32i | Self::R32ui => Some(4),
            Self::Unknown => None,
        }
    }

    /// The number of components of one texel (4 or 1), `None` for
    /// [`Unknown`](Self::Unknown).
    pub fn components(self) -> Option<u32> {
        match self {
            Self::Rgba32f | Self::Rgba32i | Self::Rgba32ui | Self::Rgba16f => Some(4),
            Self::R32f | Self::R32i | Self::R32ui => Some(1),
            Self::Unknown => None,
        }
    }

    /// The format's name as SPIR-V spells the `Image Format` operand
    /// (`Rgba32f`); GLSL's layout qualifier is its lower-case form.
    pub fn name(self) -> &'static str {
        match self {
            Self::Rgba32f => "Rgba32f",
            Self::Rgba32i => "Rgba32i",
            Self::Rgba32ui => "Rgba32ui",
            Self::Rgba16f => "Rgba16f",
            Self::R32f => "R32f",
            Self::R32i => "R32i",
            Self::R32ui => "R32ui",
            Self::Unknown => "Unknown",
        }
    }
}

impl fmt::Display for TexelFormat {
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
    /// The number of descriptors: 1, or the length of a descriptor array
    /// (a variable whose type is an `OpTypeArray` of blocks, GLSL's
    /// `buffer B { ... } b[2];`). `min_size` and `element_stride` describe
    /// one element; each element is bound separately.
    pub count: u32,
    /// For texel buffers ([`DescriptorType::is_texel_buffer`]): the format
    /// of the view the host binds. `None` exactly for the other descriptor
    /// types (checked by [`PipelineInterface::check`]).
    pub texel_format: Option<TexelFormat>,
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
        if self.count != 1 {
            write!(f, ", array of {}", self.count)?;
        }
        if let Some(format) = self.texel_format {
            write!(f, ", {format}")?;
        }
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

/// The scalar type of a specialization constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpecType {
    /// `OpTypeBool` (`OpSpecConstantTrue` / `False`): 4 bytes (`VkBool32`)
    /// in the specialization data, any non-zero value is true.
    Bool,
    /// An integer of `width` bits.
    Int {
        /// Bit width (8, 16, 32 or 64).
        width: u32,
        /// Whether it is signed (`si32` / SPIR-V signedness 1).
        signed: bool,
    },
    /// A float of `width` bits (16, 32 or 64).
    Float {
        /// Bit width.
        width: u32,
    },
}

impl SpecType {
    /// The number of bytes a value takes in `VkSpecializationInfo` data.
    pub fn size(self) -> usize {
        match self {
            Self::Bool => 4,
            Self::Int { width, .. } | Self::Float { width } => (width as usize).div_ceil(8),
        }
    }

    /// The MLIR spelling (`i1`, `i32`, `si8`, `f16`).
    pub fn name(self) -> String {
        match self {
            Self::Bool => "i1".to_owned(),
            Self::Int {
                width,
                signed: true,
            } => format!("si{width}"),
            Self::Int { width, .. } => format!("i{width}"),
            Self::Float { width } => format!("f{width}"),
        }
    }

    /// Parses a value of this type from text into its bits (little-endian
    /// order is that of [`to_bytes`](Self::to_bytes)): `true` / `false` /
    /// `0` / `1` for bools; decimal (signed allowed) or `0x` hexadecimal for
    /// integers, range-checked against the width; a decimal float (or
    /// `0x` raw bits) for floats.
    pub fn parse_value(self, text: &str) -> Result<u64, String> {
        let t = text.trim();
        let hex = t
            .strip_prefix("0x")
            .or_else(|| t.strip_prefix("0X"))
            .map(|h| u64::from_str_radix(h, 16));
        let bits = self.size() as u32 * 8;
        let mask = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        match self {
            Self::Bool => match t {
                "true" | "1" => Ok(1),
                "false" | "0" => Ok(0),
                _ => Err(format!("`{t}` is not a bool (true, false, 1 or 0)")),
            },
            Self::Int { width, signed } => {
                if let Some(h) = hex {
                    let v = h.map_err(|_| format!("`{t}` is not a hexadecimal integer"))?;
                    return if v & !mask == 0 {
                        Ok(v)
                    } else {
                        Err(format!("`{t}` does not fit in {width} bits"))
                    };
                }
                let v: i128 = t.parse().map_err(|_| format!("`{t}` is not an integer"))?;
                let (lo, hi) = if signed {
                    (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
                } else {
                    // Signless integers take either reading.
                    (-(1i128 << (width - 1)), (1i128 << width) - 1)
                };
                if v < lo || v > hi {
                    return Err(format!(
                        "{v} is out of range for {} ({lo} to {hi})",
                        self.name()
                    ));
                }
                Ok((v as u64) & mask)
            }
            Self::Float { width } => {
                if let Some(h) = hex {
                    let v = h.map_err(|_| format!("`{t}` is not hexadecimal bits"))?;
                    return if v & !mask == 0 {
                        Ok(v)
                    } else {
                        Err(format!("`{t}` does not fit in {width} bits"))
                    };
                }
                let v: f64 = t.parse().map_err(|_| format!("`{t}` is not a number"))?;
                match width {
                    16 | 32 | 64 => Ok(self.float_bits(v)),
                    _ => Err(format!("f{width} values are not supported")),
                }
            }
        }
    }

    /// The bits of `value` stored as this type (floats round to the width;
    /// bools are `value != 0`; integers truncate toward zero).
    pub fn float_bits(self, value: f64) -> u64 {
        match self {
            Self::Float { width: 16 } => u64::from(f32_to_f16_bits(value as f32)),
            Self::Float { width: 32 } => u64::from((value as f32).to_bits()),
            Self::Float { .. } => value.to_bits(),
            Self::Bool => u64::from(value != 0.0),
            Self::Int { .. } => value as i64 as u64,
        }
    }

    /// Formats the value whose bits are `bits`.
    pub fn format_value(self, bits: u64) -> String {
        match self {
            Self::Bool => (bits != 0).to_string(),
            Self::Int { width, signed } => {
                if signed && width < 64 {
                    let shift = 64 - width;
                    (((bits << shift) as i64) >> shift).to_string()
                } else if signed {
                    (bits as i64).to_string()
                } else {
                    bits.to_string()
                }
            }
            Self::Float { width: 16 } => format!("{:?}", f16_bits_to_f32(bits as u16)),
            Self::Float { width: 32 } => format!("{:?}", f32::from_bits(bits as u32)),
            Self::Float { width: 64 } => format!("{:?}", f64::from_bits(bits)),
            Self::Float { .. } => format!("{bits:#x}"),
        }
    }

    /// The little-endian bytes of a value (`size()` of them).
    pub fn to_bytes(self, bits: u64) -> Vec<u8> {
        bits.to_le_bytes()[..self.size().min(8)].to_vec()
    }

    /// The bits of a value from its little-endian bytes; `None` when the
    /// length is not [`size`](Self::size).
    pub fn from_bytes(self, bytes: &[u8]) -> Option<u64> {
        if bytes.len() != self.size() || bytes.len() > 8 {
            return None;
        }
        let mut word = [0u8; 8];
        word[..bytes.len()].copy_from_slice(bytes);
        Some(u64::from_le_bytes(word))
    }
}

impl fmt::Display for SpecType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Rounds an `f32` to the nearest `f16` (ties to even).
fn f32_to_f16_bits(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let mant = bits & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    let round = |value: u32, rem: u32, half: u32| {
        if rem > half || (rem == half && value & 1 == 1) {
            value + 1
        } else {
            value
        }
    };
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let v = round(m >> shift, m & ((1 << shift) - 1), 1 << (shift - 1));
        return sign | v as u16;
    }
    // A carry out of the mantissa correctly bumps the exponent.
    let v = round(((e as u32) << 10) | (mant >> 13), mant & 0x1fff, 0x1000);
    sign | v as u16
}

/// Widens `f16` bits to an `f32`.
fn f16_bits_to_f32(h: u16) -> f32 {
    let negative = h & 0x8000 != 0;
    let exp = u32::from((h >> 10) & 0x1f);
    let mant = u32::from(h & 0x3ff);
    let magnitude = match exp {
        0 => mant as f32 * (-24f32).exp2(),
        0x1f => f32::from_bits(0x7f80_0000 | (mant << 13)),
        _ => f32::from_bits(((exp + 112) << 23) | (mant << 13)),
    };
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

/// A specialization constant of the module (`OpSpecConstant*` decorated
/// `SpecId`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpecConstant {
    /// The `SpecId`.
    pub id: u32,
    /// Its symbol or debug name, when the module has one.
    pub name: Option<String>,
    /// Its type.
    pub ty: SpecType,
    /// The default value's bits (see [`SpecType::parse_value`]).
    pub default: u64,
}

impl SpecConstant {
    /// The default value as text.
    pub fn default_text(&self) -> String {
        self.ty.format_value(self.default)
    }
}

impl fmt::Display for SpecConstant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} = {}", self.id, self.ty, self.default_text())?;
        if let Some(name) = &self.name {
            write!(f, " ({name})")?;
        }
        Ok(())
    }
}

/// A value for one specialization constant, as passed at pipeline creation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpecValue {
    /// The `SpecId` it sets.
    pub id: u32,
    /// The value's little-endian bytes ([`SpecType::size`] of them).
    pub bytes: Vec<u8>,
}

impl SpecValue {
    /// A value given as raw bytes.
    pub fn new(id: u32, bytes: impl Into<Vec<u8>>) -> Self {
        Self {
            id,
            bytes: bytes.into(),
        }
    }
    /// A 32-bit unsigned integer.
    pub fn u32(id: u32, value: u32) -> Self {
        Self::new(id, value.to_le_bytes())
    }
    /// A 32-bit signed integer.
    pub fn i32(id: u32, value: i32) -> Self {
        Self::new(id, value.to_le_bytes())
    }
    /// A 32-bit float.
    pub fn f32(id: u32, value: f32) -> Self {
        Self::new(id, value.to_le_bytes())
    }
    /// A bool (a `VkBool32`).
    pub fn bool(id: u32, value: bool) -> Self {
        Self::u32(id, u32::from(value))
    }
}

/// Specialization values that do not fit the interface.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecializationError {
    /// No specialization constant has the id.
    #[error(
        "entry point \"{entry_point}\" has no specialization constant with SpecId {id} \
         (its SpecIds: {})",
        if known.is_empty() { "none".to_owned() } else {
            known.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
        }
    )]
    UnknownId {
        /// The id given.
        id: u32,
        /// The pipeline's entry point.
        entry_point: String,
        /// The ids the module declares.
        known: Vec<u32>,
    },
    /// The value's size does not match the constant's type.
    #[error(
        "specialization constant {id} is a {ty} of {expected} bytes, but {got} bytes were given"
    )]
    Size {
        /// The SpecId.
        id: u32,
        /// Its type.
        ty: SpecType,
        /// The size its type has.
        expected: usize,
        /// The size given.
        got: usize,
    },
    /// Two values were given for one id.
    #[error("two values were given for specialization constant {id}")]
    Duplicate {
        /// The SpecId.
        id: u32,
    },
    /// A specialized workgroup size is zero.
    #[error("specialization constant {id} sets the workgroup size in {axis} to 0")]
    ZeroWorkgroupSize {
        /// The SpecId.
        id: u32,
        /// The dimension (`x`, `y`, `z`).
        axis: &'static str,
    },
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
    /// built-in constant), with specialization constants at their defaults.
    pub workgroup_size: [u32; 3],
    /// Per dimension, the SpecId of the specialization constant that sets
    /// the workgroup size, when one does.
    pub workgroup_size_spec_ids: [Option<u32>; 3],
    /// The module's specialization constants, sorted by SpecId.
    pub spec_constants: Vec<SpecConstant>,
    /// Bytes of `Workgroup` (shared) memory the entry point's statically
    /// used variables take.
    pub workgroup_memory: u64,
}

impl Default for PipelineInterface {
    /// No entry-point name, no resources, a workgroup of one invocation.
    fn default() -> Self {
        Self {
            entry_point: String::new(),
            bindings: Vec::new(),
            push_constants: None,
            workgroup_size: [1, 1, 1],
            workgroup_size_spec_ids: [None; 3],
            spec_constants: Vec::new(),
            workgroup_memory: 0,
        }
    }
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
        for b in &self.bindings {
            if b.texel_format.is_some() != b.descriptor_type.is_texel_buffer() {
                return Err(InterfaceError::TexelFormat {
                    set: b.set,
                    binding: b.binding,
                    descriptor_type: b.descriptor_type,
                    format: b.texel_format,
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
        for pair in self.spec_constants.windows(2) {
            if pair[0].id >= pair[1].id {
                return Err(InterfaceError::SpecConstantOrder {
                    first: pair[0].id,
                    second: pair[1].id,
                });
            }
        }
        for (axis, id) in AXES.iter().zip(&self.workgroup_size_spec_ids) {
            if let Some(id) = *id {
                if self.spec_constant(id).is_none() {
                    return Err(InterfaceError::UnknownWorkgroupSpecId { axis, id });
                }
            }
        }
        Ok(())
    }

    /// The specialization constant with SpecId `id`.
    pub fn spec_constant(&self, id: u32) -> Option<&SpecConstant> {
        self.spec_constants
            .binary_search_by_key(&id, |c| c.id)
            .ok()
            .map(|i| &self.spec_constants[i])
    }

    /// Every way the interface exceeds `limits`, in the order: bound sets,
    /// per-stage descriptor counts (storage buffers, uniform buffers,
    /// storage images and storage texel buffers, sampled images and uniform
    /// texel buffers, samplers, all resources),
    /// push-constant size, workgroup size per dimension, invocations per
    /// workgroup, workgroup memory. Empty when it fits.
    pub fn limit_violations(&self, limits: &Limits) -> Vec<LimitError> {
        let mut out = Vec::new();
        let ep = &self.entry_point;
        let sets = self.max_set().map_or(0, |s| u64::from(s) + 1);
        if sets > u64::from(limits.max_bound_descriptor_sets) {
            out.push(LimitError::new(
                format!(
                    "the number of descriptor sets (highest set number + 1) of entry point \"{ep}\""
                ),
                sets,
                "maxBoundDescriptorSets",
                limits.max_bound_descriptor_sets,
            ));
        }
        let count = |pred: &dyn Fn(DescriptorType) -> bool| {
            self.bindings
                .iter()
                .filter(|b| pred(b.descriptor_type))
                .map(|b| u64::from(b.count))
                .sum::<u64>()
        };
        use DescriptorType as D;
        let per_stage: [(&str, u64, &'static str, u32); 6] = [
            (
                "storage buffers",
                count(&|t| t == D::StorageBuffer),
                "maxPerStageDescriptorStorageBuffers",
                limits.max_per_stage_descriptor_storage_buffers,
            ),
            (
                "uniform buffers",
                count(&|t| t == D::UniformBuffer),
                "maxPerStageDescriptorUniformBuffers",
                limits.max_per_stage_descriptor_uniform_buffers,
            ),
            (
                "storage images",
                count(&|t| matches!(t, D::StorageImage | D::StorageTexelBuffer)),
                "maxPerStageDescriptorStorageImages",
                limits.max_per_stage_descriptor_storage_images,
            ),
            (
                "sampled images",
                count(&|t| {
                    matches!(
                        t,
                        D::SampledImage | D::CombinedImageSampler | D::UniformTexelBuffer
                    )
                }),
                "maxPerStageDescriptorSampledImages",
                limits.max_per_stage_descriptor_sampled_images,
            ),
            (
                "samplers",
                count(&|t| matches!(t, D::Sampler | D::CombinedImageSampler)),
                "maxPerStageDescriptorSamplers",
                limits.max_per_stage_descriptor_samplers,
            ),
            (
                "resources",
                count(&|_| true),
                "maxPerStageResources",
                limits.max_per_stage_resources,
            ),
        ];
        for (what, n, name, max) in per_stage {
            if n > u64::from(max) {
                out.push(LimitError::new(
                    format!("the number of {what} used by entry point \"{ep}\""),
                    n,
                    name,
                    max,
                ));
            }
        }
        if let Some(pc) = self.push_constants {
            if pc.end() > u64::from(limits.max_push_constants_size) {
                out.push(LimitError::new(
                    format!("the end of the push-constant range of entry point \"{ep}\""),
                    pc.end(),
                    "maxPushConstantsSize",
                    limits.max_push_constants_size,
                ));
            }
        }
        for ((axis, &size), &max) in AXES
            .iter()
            .zip(&self.workgroup_size)
            .zip(&limits.max_compute_work_group_size)
        {
            if size > max {
                out.push(LimitError::new(
                    format!("the workgroup size in {axis} of entry point \"{ep}\""),
                    size.into(),
                    "maxComputeWorkGroupSize",
                    max,
                ));
            }
        }
        let invocations = self.invocations_per_workgroup();
        if invocations > u64::from(limits.max_compute_work_group_invocations) {
            let [x, y, z] = self.workgroup_size;
            out.push(LimitError::new(
                format!(
                    "the number of invocations per workgroup of entry point \"{ep}\" \
                     (workgroup size [{x}, {y}, {z}])"
                ),
                invocations,
                "maxComputeWorkGroupInvocations",
                limits.max_compute_work_group_invocations,
            ));
        }
        if self.workgroup_memory > u64::from(limits.max_compute_shared_memory_size) {
            out.push(LimitError::new(
                format!("the workgroup memory (bytes) of entry point \"{ep}\""),
                self.workgroup_memory,
                "maxComputeSharedMemorySize",
                limits.max_compute_shared_memory_size,
            ));
        }
        out
    }

    /// Checks the interface against `limits`; the first violation of
    /// [`limit_violations`](Self::limit_violations) is the error.
    pub fn check_limits(&self, limits: &Limits) -> Result<(), LimitError> {
        match self.limit_violations(limits).into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The interface with `values` applied: each constant's default becomes
    /// the given value, and workgroup-size components driven by a
    /// specialization constant take its value. Checks that every id exists,
    /// appears once, and has a value of its type's size.
    pub fn specialize(
        &self,
        values: &[SpecValue],
    ) -> Result<PipelineInterface, SpecializationError> {
        let mut out = self.clone();
        for (i, v) in values.iter().enumerate() {
            if values[..i].iter().any(|p| p.id == v.id) {
                return Err(SpecializationError::Duplicate { id: v.id });
            }
            let Ok(index) = out.spec_constants.binary_search_by_key(&v.id, |c| c.id) else {
                return Err(SpecializationError::UnknownId {
                    id: v.id,
                    entry_point: self.entry_point.clone(),
                    known: self.spec_constants.iter().map(|c| c.id).collect(),
                });
            };
            let c = &mut out.spec_constants[index];
            let bits = c.ty.from_bytes(&v.bytes).ok_or(SpecializationError::Size {
                id: v.id,
                ty: c.ty,
                expected: c.ty.size(),
                got: v.bytes.len(),
            })?;
            c.default = bits;
            for (d, axis) in AXES.iter().enumerate() {
                if self.workgroup_size_spec_ids[d] == Some(v.id) {
                    let size = u32::try_from(bits).unwrap_or(u32::MAX);
                    if size == 0 {
                        return Err(SpecializationError::ZeroWorkgroupSize { id: v.id, axis });
                    }
                    out.workgroup_size[d] = size;
                }
            }
        }
        Ok(out)
    }
}

impl fmt::Display for PipelineInterface {
    /// A human-readable summary, one fact per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.workgroup_size;
        writeln!(f, "entry point \"{}\"", self.entry_point)?;
        write!(f, "  workgroup size: [{x}, {y}, {z}]")?;
        let driven: Vec<String> = AXES
            .iter()
            .zip(&self.workgroup_size_spec_ids)
            .filter_map(|(axis, id)| id.map(|id| format!("{axis} = spec {id}")))
            .collect();
        if !driven.is_empty() {
            write!(f, " ({})", driven.join(", "))?;
        }
        writeln!(f)?;
        if self.bindings.is_empty() {
            writeln!(f, "  bindings: none")?;
        }
        for b in &self.bindings {
            writeln!(f, "  binding {b}")?;
        }
        match self.push_constants {
            Some(pc) => writeln!(
                f,
                "  push constants: {} bytes at offset {}",
                pc.size, pc.offset
            )?,
            None => writeln!(f, "  push constants: none")?,
        }
        for c in &self.spec_constants {
            writeln!(f, "  spec constant {c}")?;
        }
        writeln!(f, "  workgroup memory: {} bytes", self.workgroup_memory)
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
    /// The specialization constants are not sorted by id, or an id repeats.
    #[error(
        "specialization constants are not sorted by unique SpecId: {first} comes before {second}"
    )]
    SpecConstantOrder {
        /// The earlier id in the list.
        first: u32,
        /// The later id, not greater than `first`.
        second: u32,
    },
    /// A workgroup-size component names a specialization constant the
    /// interface does not list.
    #[error("the workgroup size in {axis} is set by SpecId {id}, which is not a specialization constant of the interface")]
    UnknownWorkgroupSpecId {
        /// The dimension.
        axis: &'static str,
        /// The SpecId.
        id: u32,
    },
    /// A texel buffer without a texel format, or another descriptor with one.
    #[error(
        "binding {set}:{binding} is a {descriptor_type} with texel format {}; texel buffers \
         need a format and other descriptors have none",
        format.map_or("none", TexelFormat::name)
    )]
    TexelFormat {
        /// The set number.
        set: u32,
        /// The binding number.
        binding: u32,
        /// The binding's descriptor type.
        descriptor_type: DescriptorType,
        /// The binding's texel format.
        format: Option<TexelFormat>,
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
            count: 1,
            texel_format: None,
        }
    }

    fn texel(set: u32, binding: u32, format: TexelFormat) -> ResourceBinding {
        ResourceBinding {
            set,
            binding,
            descriptor_type: DescriptorType::UniformTexelBuffer,
            access: Access::ReadOnly,
            min_size: 0,
            element_stride: None,
            count: 1,
            texel_format: Some(format),
        }
    }

    fn iface(bindings: Vec<ResourceBinding>) -> PipelineInterface {
        PipelineInterface {
            entry_point: "main".into(),
            bindings,
            push_constants: None,
            workgroup_size: [64, 1, 1],
            ..PipelineInterface::default()
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
    fn limit_violations_name_limit_and_value_in_order() {
        let mut i = iface((0..6).map(|b| buf(5, b)).collect());
        i.push_constants = Some(PushConstantRange {
            offset: 0,
            size: 132,
        });
        i.workgroup_size = [256, 1, 65];
        i.workgroup_memory = 20000;
        let names: Vec<&str> = i
            .limit_violations(&Limits::default())
            .iter()
            .map(|e| e.limit_name)
            .collect();
        assert_eq!(
            names,
            [
                "maxBoundDescriptorSets",
                "maxPerStageDescriptorStorageBuffers",
                "maxPushConstantsSize",
                "maxComputeWorkGroupSize",
                "maxComputeWorkGroupSize",
                "maxComputeWorkGroupInvocations",
                "maxComputeSharedMemorySize",
            ]
        );
        assert_eq!(
            i.check_limits(&Limits::default()).unwrap_err().to_string(),
            "the number of descriptor sets (highest set number + 1) of entry point \"main\" \
             is 6, above the device limit maxBoundDescriptorSets = 4"
        );
        let ok = iface(vec![buf(0, 0), buf(3, 9)]);
        assert_eq!(ok.check_limits(&Limits::default()), Ok(()));
    }

    #[test]
    fn descriptor_arrays_count_every_element() {
        // Vulkan 1.0's minimum: 4 storage buffers per stage.
        let mut array = buf(0, 0);
        array.count = 4;
        let i = iface(vec![array.clone(), buf(0, 1)]);
        let err = i.check_limits(&Limits::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the number of storage buffers used by entry point \"main\" is 5, above the \
             device limit maxPerStageDescriptorStorageBuffers = 4"
        );
        assert_eq!(
            iface(vec![array.clone()]).check_limits(&Limits::default()),
            Ok(())
        );
        assert_eq!(
            array.to_string(),
            "0:0 (storage buffer, read-write, array of 4, at least 0 bytes + n * 4)"
        );
    }

    #[test]
    fn specialize_sets_values_and_workgroup_size() {
        let mut i = iface(vec![]);
        i.spec_constants = vec![
            SpecConstant {
                id: 1,
                name: None,
                ty: SpecType::Int {
                    width: 32,
                    signed: false,
                },
                default: 64,
            },
            SpecConstant {
                id: 2,
                name: None,
                ty: SpecType::Float { width: 32 },
                default: 0,
            },
        ];
        i.workgroup_size_spec_ids = [Some(1), None, None];
        assert_eq!(i.check(), Ok(()));
        let s = i.specialize(&[SpecValue::u32(1, 256)]).unwrap();
        assert_eq!(s.workgroup_size, [256, 1, 1]);
        assert_eq!(s.spec_constants[0].default, 256);
        assert!(matches!(
            i.specialize(&[SpecValue::u32(3, 1)]),
            Err(SpecializationError::UnknownId { id: 3, .. })
        ));
        assert!(matches!(
            i.specialize(&[SpecValue::u32(1, 0)]),
            Err(SpecializationError::ZeroWorkgroupSize { id: 1, .. })
        ));
        assert!(matches!(
            i.specialize(&[SpecValue::new(2, vec![0u8; 2])]),
            Err(SpecializationError::Size { id: 2, .. })
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

    #[test]
    fn texel_buffers_carry_a_format_and_count_as_images() {
        let t = texel(0, 1, TexelFormat::Rgba32f);
        assert_eq!(
            t.to_string(),
            "0:1 (uniform texel buffer, read-only, Rgba32f)"
        );
        assert!(t.descriptor_type.is_texel_buffer());
        assert!(t.descriptor_type.takes_buffer());
        assert!(!t.descriptor_type.is_buffer());
        assert_eq!(TexelFormat::Rgba32ui.texel_size(), Some(16));
        assert_eq!(TexelFormat::R32i.texel_size(), Some(4));
        assert_eq!(TexelFormat::Unknown.texel_size(), None);
        assert_eq!(iface(vec![buf(0, 0), t.clone()]).check(), Ok(()));

        let mut no_format = t.clone();
        no_format.texel_format = None;
        assert_eq!(
            iface(vec![no_format]).check().unwrap_err().to_string(),
            "binding 0:1 is a uniform texel buffer with texel format none; texel buffers \
             need a format and other descriptors have none"
        );
        let mut stray = buf(0, 0);
        stray.texel_format = Some(TexelFormat::R32f);
        assert!(matches!(
            iface(vec![stray]).check(),
            Err(InterfaceError::TexelFormat {
                set: 0,
                binding: 0,
                ..
            })
        ));

        // Vulkan 1.0's minimums: 16 sampled images, 4 storage images.
        let many: Vec<_> = (0..17).map(|b| texel(0, b, TexelFormat::Rgba32i)).collect();
        assert_eq!(
            iface(many)
                .check_limits(&Limits::default())
                .unwrap_err()
                .to_string(),
            "the number of sampled images used by entry point \"main\" is 17, above the \
             device limit maxPerStageDescriptorSampledImages = 16"
        );
        let storage: Vec<_> = (0..5)
            .map(|b| ResourceBinding {
                descriptor_type: DescriptorType::StorageTexelBuffer,
                ..texel(0, b, TexelFormat::R32ui)
            })
            .collect();
        assert_eq!(
            iface(storage)
                .check_limits(&Limits::default())
                .unwrap_err()
                .limit_name,
            "maxPerStageDescriptorStorageImages"
        );
    }
}
