//! [`ResourceLimits`]: the device limits the compiler consults.
//!
//! The first group of fields is exactly MLIR 19's `#spirv.resource_limits`
//! (same names, same defaults: `max_compute_shared_memory_size = 16384`,
//! `max_compute_workgroup_invocations = 128`,
//! `max_compute_workgroup_size = [128, 128, 64]`, `subgroup_size = 32`, no
//! `min_subgroup_size` / `max_subgroup_size`, no cooperative-matrix
//! properties). The second group is kiln's own ("extras"): limits MLIR does
//! not model but kiln checks before touching Vulkan. Their defaults are the
//! minimum (or, for alignments, maximum) values the Vulkan 1.0 specification
//! requires of every implementation, so the default limits describe any
//! conforming device.

use std::fmt;

use crate::grammar::Scope;
use crate::ir::{FloatKind, Signedness};

/// A scalar element type of a cooperative matrix (`i8`, `si8`, `ui8`, `f16`,
/// `bf16`, `f32`, ...), spelled as MLIR spells builtin types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    /// `iN` / `siN` / `uiN`.
    Int {
        /// Bit width (1 to 64).
        width: u32,
        /// Signedness semantics.
        signedness: Signedness,
    },
    /// `f16` / `bf16` / `f32` / `f64`.
    Float(FloatKind),
}

impl ScalarType {
    /// Parses `i8`, `si32`, `ui16`, `f16`, `bf16`, `f32`, `f64`; `None`
    /// otherwise (integer widths 1 to 64).
    pub fn parse(s: &str) -> Option<ScalarType> {
        match s {
            "f16" => return Some(ScalarType::Float(FloatKind::F16)),
            "bf16" => return Some(ScalarType::Float(FloatKind::BF16)),
            "f32" => return Some(ScalarType::Float(FloatKind::F32)),
            "f64" => return Some(ScalarType::Float(FloatKind::F64)),
            _ => {}
        }
        let (signedness, digits) = if let Some(d) = s.strip_prefix("si") {
            (Signedness::Signed, d)
        } else if let Some(d) = s.strip_prefix("ui") {
            (Signedness::Unsigned, d)
        } else {
            (Signedness::Signless, s.strip_prefix('i')?)
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
            return None;
        }
        let width: u32 = digits.parse().ok()?;
        (1..=64)
            .contains(&width)
            .then_some(ScalarType::Int { width, signedness })
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScalarType::Int { width, signedness } => {
                let prefix = match signedness {
                    Signedness::Signless => "i",
                    Signedness::Signed => "si",
                    Signedness::Unsigned => "ui",
                };
                write!(f, "{prefix}{width}")
            }
            ScalarType::Float(kind) => f.write_str(match kind {
                FloatKind::F16 => "f16",
                FloatKind::BF16 => "bf16",
                FloatKind::F32 => "f32",
                FloatKind::F64 => "f64",
            }),
        }
    }
}

/// One supported cooperative-matrix configuration
/// (`VkCooperativeMatrixPropertiesKHR`; MLIR's
/// `#spirv.coop_matrix_props_khr<...>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CoopMatrixPropertiesKhr {
    /// Rows of A and of the result.
    pub m_size: u32,
    /// Columns of B and of the result.
    pub n_size: u32,
    /// Columns of A, rows of B.
    pub k_size: u32,
    /// Element type of A.
    pub a_type: ScalarType,
    /// Element type of B.
    pub b_type: ScalarType,
    /// Element type of C.
    pub c_type: ScalarType,
    /// Element type of the result.
    pub result_type: ScalarType,
    /// Whether saturating accumulation is supported.
    pub acc_sat: bool,
    /// The scope the matrices live in.
    pub scope: Scope,
}

/// One supported cooperative-matrix configuration of the older NV extension
/// (`VkCooperativeMatrixPropertiesNV`; MLIR's `#spirv.coop_matrix_props_nv<...>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CoopMatrixPropertiesNv {
    /// Rows of A and of the result.
    pub m_size: u32,
    /// Columns of B and of the result.
    pub n_size: u32,
    /// Columns of A, rows of B.
    pub k_size: u32,
    /// Element type of A.
    pub a_type: ScalarType,
    /// Element type of B.
    pub b_type: ScalarType,
    /// Element type of C.
    pub c_type: ScalarType,
    /// Element type of the result.
    pub result_type: ScalarType,
    /// The scope the matrices live in.
    pub scope: Scope,
}

/// Resource limits of a target (see the module docs for the defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceLimits {
    // ---- MLIR's #spirv.resource_limits ---------------------------------
    /// Bytes of `Workgroup` storage a compute shader may use
    /// (`maxComputeSharedMemorySize`; default 16384).
    pub max_compute_shared_memory_size: u32,
    /// Invocations in one workgroup (`maxComputeWorkGroupInvocations`;
    /// default 128).
    pub max_compute_workgroup_invocations: u32,
    /// Workgroup size per dimension (`maxComputeWorkGroupSize`; default
    /// `[128, 128, 64]`).
    pub max_compute_workgroup_size: [u32; 3],
    /// The default number of invocations per subgroup (default 32).
    pub subgroup_size: u32,
    /// Smallest subgroup size when it is controllable.
    pub min_subgroup_size: Option<u32>,
    /// Largest subgroup size when it is controllable.
    pub max_subgroup_size: Option<u32>,
    /// Supported `SPV_KHR_cooperative_matrix` configurations (default none).
    pub cooperative_matrix_properties_khr: Vec<CoopMatrixPropertiesKhr>,
    /// Supported `SPV_NV_cooperative_matrix` configurations (default none).
    pub cooperative_matrix_properties_nv: Vec<CoopMatrixPropertiesNv>,

    // ---- kiln extras ---------------------------------------------------
    /// Workgroups per dispatch per dimension (`maxComputeWorkGroupCount`;
    /// default `[65535, 65535, 65535]`).
    pub max_compute_workgroup_count: [u32; 3],
    /// Bytes of push constants (`maxPushConstantsSize`; default 128).
    pub max_push_constants_size: u32,
    /// Bytes one storage-buffer descriptor may cover (`maxStorageBufferRange`;
    /// default 2^27).
    pub max_storage_buffer_range: u32,
    /// Bytes one uniform-buffer descriptor may cover (`maxUniformBufferRange`;
    /// default 16384).
    pub max_uniform_buffer_range: u32,
    /// Storage buffers per shader stage
    /// (`maxPerStageDescriptorStorageBuffers`; default 4).
    pub max_per_stage_descriptor_storage_buffers: u32,
    /// Uniform buffers per shader stage
    /// (`maxPerStageDescriptorUniformBuffers`; default 12).
    pub max_per_stage_descriptor_uniform_buffers: u32,
    /// Descriptor sets bound at once (`maxBoundDescriptorSets`; default 4).
    pub max_bound_descriptor_sets: u32,
    /// Required alignment of storage-buffer offsets, in bytes
    /// (`minStorageBufferOffsetAlignment`; default 256, the largest value
    /// Vulkan allows).
    pub min_storage_buffer_offset_alignment: u64,
    /// Nanoseconds per timestamp tick (`timestampPeriod`; default 1.0).
    pub timestamp_period: f32,
    /// The float widths (16, 32, 64; sorted, each once) whose signed
    /// zeros, infinities and NaNs a shader may ask the driver to preserve
    /// with `ExecutionMode SignedZeroInfNanPreserve <width>`
    /// (`shaderSignedZeroInfNanPreserveFloat{16,32,64}` of
    /// `VkPhysicalDeviceFloatControlsProperties`; default none, which
    /// Vulkan allows). Without the mode a driver may fold `x * 0.0` to `+0`
    /// (Mesa's NIR does): [`crate::target::TargetEnv::preserves_signed_zero_inf_nan`].
    pub signed_zero_inf_nan_preserve_widths: Vec<u32>,
    /// The float widths (16, 32, 64; sorted, each once) whose denormals a
    /// shader may ask the driver to preserve with `ExecutionMode
    /// DenormPreserve <width>` (`shaderDenormPreserveFloat{16,32,64}` of
    /// `VkPhysicalDeviceFloatControlsProperties`; default none). Without
    /// the mode a driver may flush denormal inputs and results to zero
    /// (NVIDIA's does for f32: `1e-45 * 2` gives 0 and a denormal times
    /// infinity NaN), which Vulkan allows and IEEE does not:
    /// [`crate::target::TargetEnv::preserves_denormals`].
    pub denorm_preserve_widths: Vec<u32>,
}

/// MLIR's default `max_compute_shared_memory_size`.
pub const DEFAULT_MAX_COMPUTE_SHARED_MEMORY_SIZE: u32 = 16384;
/// MLIR's default `max_compute_workgroup_invocations`.
pub const DEFAULT_MAX_COMPUTE_WORKGROUP_INVOCATIONS: u32 = 128;
/// MLIR's default `max_compute_workgroup_size`.
pub const DEFAULT_MAX_COMPUTE_WORKGROUP_SIZE: [u32; 3] = [128, 128, 64];
/// MLIR's default `subgroup_size`.
pub const DEFAULT_SUBGROUP_SIZE: u32 = 32;

impl Default for ResourceLimits {
    fn default() -> Self {
        ResourceLimits {
            max_compute_shared_memory_size: DEFAULT_MAX_COMPUTE_SHARED_MEMORY_SIZE,
            max_compute_workgroup_invocations: DEFAULT_MAX_COMPUTE_WORKGROUP_INVOCATIONS,
            max_compute_workgroup_size: DEFAULT_MAX_COMPUTE_WORKGROUP_SIZE,
            subgroup_size: DEFAULT_SUBGROUP_SIZE,
            min_subgroup_size: None,
            max_subgroup_size: None,
            cooperative_matrix_properties_khr: Vec::new(),
            cooperative_matrix_properties_nv: Vec::new(),
            max_compute_workgroup_count: [65535; 3],
            max_push_constants_size: 128,
            max_storage_buffer_range: 1 << 27,
            max_uniform_buffer_range: 16384,
            max_per_stage_descriptor_storage_buffers: 4,
            max_per_stage_descriptor_uniform_buffers: 12,
            max_bound_descriptor_sets: 4,
            min_storage_buffer_offset_alignment: 256,
            timestamp_period: 1.0,
            signed_zero_inf_nan_preserve_widths: Vec::new(),
            denorm_preserve_widths: Vec::new(),
        }
    }
}

impl ResourceLimits {
    /// The bytes of one chunk of a storage buffer larger than
    /// `maxStorageBufferRange`: the largest power of two within the range,
    /// at least 16 (so a `vec4` never straddles two chunks) and at least
    /// `minStorageBufferOffsetAlignment` (a power of two, so every chunk
    /// starts aligned). A kernel binds such a buffer as an array of
    /// descriptors, chunk `k` at byte `k * chunk`, and splits an element
    /// index `i` into `i >> s` and `i & (2^s - 1)`; compiler and runtime
    /// both derive the chunk from here.
    pub fn storage_chunk_bytes(&self) -> u64 {
        let range = u64::from(self.max_storage_buffer_range.max(1));
        let pow2 = 1u64 << (63 - range.leading_zeros());
        pow2.max(16)
            .max(self.min_storage_buffer_offset_alignment.next_power_of_two())
    }

    /// Whether every kiln extra has its default value (so the MLIR form
    /// loses nothing).
    pub fn extras_are_default(&self) -> bool {
        let d = ResourceLimits::default();
        self.max_compute_workgroup_count == d.max_compute_workgroup_count
            && self.max_push_constants_size == d.max_push_constants_size
            && self.max_storage_buffer_range == d.max_storage_buffer_range
            && self.max_uniform_buffer_range == d.max_uniform_buffer_range
            && self.max_per_stage_descriptor_storage_buffers
                == d.max_per_stage_descriptor_storage_buffers
            && self.max_per_stage_descriptor_uniform_buffers
                == d.max_per_stage_descriptor_uniform_buffers
            && self.max_bound_descriptor_sets == d.max_bound_descriptor_sets
            && self.min_storage_buffer_offset_alignment == d.min_storage_buffer_offset_alignment
            && self.timestamp_period.to_bits() == d.timestamp_period.to_bits()
            && self.signed_zero_inf_nan_preserve_widths == d.signed_zero_inf_nan_preserve_widths
            && self.denorm_preserve_widths == d.denorm_preserve_widths
    }
}

/// The names of the limits MLIR's `#spirv.resource_limits` knows, in its
/// parameter order.
pub const MLIR_LIMIT_NAMES: [&str; 8] = [
    "max_compute_shared_memory_size",
    "max_compute_workgroup_invocations",
    "max_compute_workgroup_size",
    "subgroup_size",
    "min_subgroup_size",
    "max_subgroup_size",
    "cooperative_matrix_properties_khr",
    "cooperative_matrix_properties_nv",
];

/// The names of kiln's extra limits, sorted.
pub const KILN_LIMIT_NAMES: [&str; 11] = [
    "denorm_preserve_widths",
    "max_bound_descriptor_sets",
    "max_compute_workgroup_count",
    "max_per_stage_descriptor_storage_buffers",
    "max_per_stage_descriptor_uniform_buffers",
    "max_push_constants_size",
    "max_storage_buffer_range",
    "max_uniform_buffer_range",
    "min_storage_buffer_offset_alignment",
    "signed_zero_inf_nan_preserve_widths",
    "timestamp_period",
];

/// The float widths [`ResourceLimits::signed_zero_inf_nan_preserve_widths`]
/// and [`ResourceLimits::denorm_preserve_widths`] may list.
pub const FLOAT_CONTROL_WIDTHS: [u32; 3] = [16, 32, 64];
