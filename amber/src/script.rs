//! A parsed AmberScript file: what [`crate::parse`] returns and
//! [`crate::Runner`] runs.
//!
//! Names are resolved while parsing: pipelines, binds and commands refer to
//! shaders, buffers and pipelines by index into [`Script`]'s vectors. Every
//! item keeps the line it was declared on, so run-time failures name it.
//! Constructs kiln parses but cannot run (graphics pipelines, images,
//! samplers, ...) are kept as [`Unsupported`] notes: running a script with
//! any of them is a skip naming the first.

use crate::layout::{ElementLayout, Packing};
use crate::types::{DataType, Value};

/// A whole AmberScript file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Script {
    /// `DEVICE_FEATURE`, `DEVICE_PROPERTY`, `DEVICE_EXTENSION` and
    /// `INSTANCE_EXTENSION` lines, in file order.
    pub requirements: Vec<Requirement>,
    /// `SHADER` declarations.
    pub shaders: Vec<Shader>,
    /// `BUFFER` declarations.
    pub buffers: Vec<Buffer>,
    /// `PIPELINE` and `DERIVE_PIPELINE` declarations.
    pub pipelines: Vec<Pipeline>,
    /// The commands, in file order.
    pub commands: Vec<Command>,
    /// What the file uses that kiln cannot run, in file order.
    pub unsupported: Vec<Unsupported>,
}

impl Script {
    /// The buffer called `name`.
    pub fn buffer(&self, name: &str) -> Option<usize> {
        self.buffers.iter().position(|b| b.name == name)
    }

    /// The pipeline called `name`.
    pub fn pipeline(&self, name: &str) -> Option<usize> {
        self.pipelines.iter().position(|p| p.name == name)
    }

    /// The shader called `name`.
    pub fn shader(&self, name: &str) -> Option<usize> {
        self.shaders.iter().position(|s| s.name == name)
    }
}

/// A construct kiln parses but cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// Where it is.
    pub line: u32,
    /// What it is and why it cannot run (`graphics pipeline 'p'`).
    pub what: String,
}

/// What a device must offer for the script to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirement {
    /// The line.
    pub line: u32,
    /// What kind of requirement.
    pub kind: RequirementKind,
    /// The name as written (`shaderInt64`,
    /// `Storage16BitFeatures.storageBuffer16BitAccess`,
    /// `VK_KHR_16bit_storage`).
    pub name: String,
}

/// The kinds of requirement lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequirementKind {
    /// `DEVICE_FEATURE`.
    Feature,
    /// `DEVICE_PROPERTY`.
    Property,
    /// `DEVICE_EXTENSION`.
    DeviceExtension,
    /// `INSTANCE_EXTENSION`.
    InstanceExtension,
}

/// A shader's source language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShaderFormat {
    /// `GLSL`, compiled with glslangValidator.
    Glsl,
    /// `HLSL` (not run: kiln has no HLSL compiler).
    Hlsl,
    /// `SPIRV-ASM`, assembled with SPIRV-Tools.
    SpirvAsm,
    /// `SPIRV-HEX`: the module's bytes in hex.
    SpirvHex,
    /// `SPIRV-BIN`: a binary module (from a `FILE`).
    SpirvBin,
    /// `OPENCL-C` (not run: kiln has no clspv).
    OpenClC,
    /// `SPIRV-MLIR` (kiln only): an `spirv.module` in MLIR syntax.
    SpirvMlir,
}

impl ShaderFormat {
    /// The format's keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            ShaderFormat::Glsl => "GLSL",
            ShaderFormat::Hlsl => "HLSL",
            ShaderFormat::SpirvAsm => "SPIRV-ASM",
            ShaderFormat::SpirvHex => "SPIRV-HEX",
            ShaderFormat::SpirvBin => "SPIRV-BIN",
            ShaderFormat::OpenClC => "OPENCL-C",
            ShaderFormat::SpirvMlir => "SPIRV-MLIR",
        }
    }
}

/// Where a shader's text comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShaderSource {
    /// Written in the script (or in a `VIRTUAL_FILE`); the line its text
    /// starts on.
    Inline {
        /// The text.
        text: String,
        /// Its first line in the script.
        first_line: u32,
    },
    /// `FILE path`, relative to the script's directory.
    File(String),
}

/// A `SHADER` declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shader {
    /// Its name.
    pub name: String,
    /// The line of the `SHADER` command.
    pub line: u32,
    /// The stage keyword (`compute`, `vertex`, ...).
    pub stage: String,
    /// The source language.
    pub format: ShaderFormat,
    /// `TARGET_ENV`, as written (`spv1.3`, `vulkan1.1`).
    pub target_env: Option<String>,
    /// The source.
    pub source: ShaderSource,
}

/// How a buffer is filled before first use.
#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    /// No data (`FORMAT` buffers, `SIZE n` without an initializer): zeros.
    Zero {
        /// Elements.
        elements: u64,
    },
    /// `DATA ... END`: one value per component, in order.
    Data(Vec<Value>),
    /// `SIZE n FILL v`: every component `v`.
    Fill {
        /// Elements.
        elements: u64,
        /// The value.
        value: Value,
    },
    /// `SIZE n SERIES_FROM start INC_BY inc` (scalar types only).
    Series {
        /// Elements.
        elements: u64,
        /// The first value.
        start: Value,
        /// The increment.
        inc: Value,
    },
    /// `SIZE n FILE [TEXT|BINARY] path`, relative to the script.
    File {
        /// Elements (`None`: as many as the file holds).
        elements: Option<u64>,
        /// Text (values as in `DATA`) or binary (raw bytes).
        text: bool,
        /// The path.
        path: String,
    },
}

/// A `BUFFER` declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    /// Its name.
    pub name: String,
    /// The line of the `BUFFER` command.
    pub line: u32,
    /// The element type.
    pub ty: DataType,
    /// `STD140` or `STD430`.
    pub packing: Packing,
    /// Where its elements' components sit.
    pub layout: ElementLayout,
    /// Its initial contents.
    pub init: Initializer,
}

/// The pipeline kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PipelineKind {
    /// `compute`.
    Compute,
    /// `graphics` (not run).
    Graphics,
    /// `raytracing` (not run).
    RayTracing,
}

/// A `SPECIALIZE id AS type value` of an attached shader.
#[derive(Clone, Debug, PartialEq)]
pub struct Specialization {
    /// The SpecId.
    pub id: u32,
    /// The type's bytes (`uint32`, `int32`, `float`, or kiln's wider
    /// choice of any scalar type).
    pub bytes: Vec<u8>,
}

/// The compute shader of a pipeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Attachment {
    /// The shader.
    pub shader: usize,
    /// The line of the `ATTACH`.
    pub line: u32,
    /// `ENTRY_POINT` (default `main`).
    pub entry_point: String,
    /// Its specializations.
    pub specializations: Vec<Specialization>,
    /// `SHADER_OPTIMIZATION` passes (spirv-opt flags).
    pub optimizations: Vec<String>,
}

/// The kind of a buffer binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindKind {
    /// `storage`.
    Storage,
    /// `uniform`.
    Uniform,
    /// `storage_dynamic`.
    StorageDynamic,
    /// `uniform_dynamic`.
    UniformDynamic,
}

impl BindKind {
    /// The keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            BindKind::Storage => "storage",
            BindKind::Uniform => "uniform",
            BindKind::StorageDynamic => "storage_dynamic",
            BindKind::UniformDynamic => "uniform_dynamic",
        }
    }

    /// Whether the descriptor is dynamic.
    pub fn is_dynamic(self) -> bool {
        matches!(self, BindKind::StorageDynamic | BindKind::UniformDynamic)
    }

    /// Whether it binds a uniform buffer.
    pub fn is_uniform(self) -> bool {
        matches!(self, BindKind::Uniform | BindKind::UniformDynamic)
    }
}

/// One buffer of a `BIND BUFFER` / `BIND BUFFER_ARRAY`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundBuffer {
    /// The buffer.
    pub buffer: usize,
    /// `OFFSET` (dynamic bindings).
    pub dynamic_offset: u32,
    /// `DESCRIPTOR_OFFSET`.
    pub descriptor_offset: u64,
    /// `DESCRIPTOR_RANGE` (`None`: the rest of the buffer).
    pub descriptor_range: Option<u64>,
}

/// A `BIND BUFFER[_ARRAY] ... DESCRIPTOR_SET s BINDING b`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bind {
    /// The line.
    pub line: u32,
    /// The descriptor set.
    pub set: u32,
    /// The binding.
    pub binding: u32,
    /// The descriptor kind.
    pub kind: BindKind,
    /// One buffer, or the elements of a descriptor array in order.
    pub buffers: Vec<BoundBuffer>,
}

/// A `PIPELINE` (or `DERIVE_PIPELINE`) block.
#[derive(Clone, Debug, PartialEq)]
pub struct Pipeline {
    /// Its name.
    pub name: String,
    /// The line of its declaration.
    pub line: u32,
    /// Compute, graphics or ray tracing.
    pub kind: PipelineKind,
    /// The compute shader.
    pub attachment: Option<Attachment>,
    /// Descriptor bindings (a later `BIND` of the same set and binding
    /// replaces an earlier one, as `DERIVE_PIPELINE` bodies do).
    pub binds: Vec<Bind>,
    /// `BIND BUFFER b AS push_constant`.
    pub push_constant: Option<usize>,
}

/// A comparison of `EXPECT buf IDX ...`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparator {
    /// `EQ` (floats within a relative 1e-8, as Amber).
    Eq,
    /// `NE`.
    Ne,
    /// `LT`.
    Lt,
    /// `LE`.
    Le,
    /// `GT`.
    Gt,
    /// `GE`.
    Ge,
}

impl Comparator {
    /// The keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Comparator::Eq => "EQ",
            Comparator::Ne => "NE",
            Comparator::Lt => "LT",
            Comparator::Le => "LE",
            Comparator::Gt => "GT",
            Comparator::Ge => "GE",
        }
    }

    /// The comparator a keyword names.
    pub fn from_keyword(word: &str) -> Option<Self> {
        [
            Comparator::Eq,
            Comparator::Ne,
            Comparator::Lt,
            Comparator::Le,
            Comparator::Gt,
            Comparator::Ge,
        ]
        .into_iter()
        .find(|c| c.keyword() == word)
    }
}

/// A `TOLERANCE` value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// The amount.
    pub value: f64,
    /// Written with `%`: relative to the expected value.
    pub percent: bool,
}

/// `EXPECT buf IDX offset [TOLERANCE t...] CMP values...`.
#[derive(Clone, Debug, PartialEq)]
pub struct Expect {
    /// The line.
    pub line: u32,
    /// The buffer.
    pub buffer: usize,
    /// `IDX`: a byte offset, a multiple of the element stride.
    pub offset: u64,
    /// The comparison.
    pub comparator: Comparator,
    /// Tolerances (with `EQ` only; the first applies to every value, as in
    /// Amber).
    pub tolerances: Vec<Tolerance>,
    /// The expected values, one per component from `offset` on.
    pub values: Vec<Value>,
}

/// How `EXPECT a ... b` compares two whole buffers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BufferComparison {
    /// `EQ_BUFFER`: every value equal.
    Equal,
    /// `RMSE_BUFFER b TOLERANCE t`: root mean square error at most `t`.
    Rmse(f64),
    /// `EQ_HISTOGRAM_EMD_BUFFER b TOLERANCE t`: earth mover's distance of
    /// the per-channel histograms at most `t`.
    HistogramEmd(f64),
}

/// A command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `RUN [TIMED_EXECUTION] pipeline x y z`.
    Run {
        /// The line.
        line: u32,
        /// The pipeline.
        pipeline: usize,
        /// Workgroups per dimension.
        groups: [u32; 3],
        /// `TIMED_EXECUTION`: measure and report the dispatch.
        timed: bool,
    },
    /// `EXPECT buf IDX ...`.
    Expect(Expect),
    /// `EXPECT a EQ_BUFFER|RMSE_BUFFER|EQ_HISTOGRAM_EMD_BUFFER b`.
    CompareBuffers {
        /// The line.
        line: u32,
        /// The buffer checked.
        actual: usize,
        /// The buffer it is compared with.
        expected: usize,
        /// How.
        comparison: BufferComparison,
    },
    /// `COPY from TO to`.
    Copy {
        /// The line.
        line: u32,
        /// The source.
        from: usize,
        /// The destination.
        to: usize,
    },
    /// `REPEAT n ... END`.
    Repeat {
        /// The line.
        line: u32,
        /// How many times.
        count: u32,
        /// The commands repeated.
        body: Vec<Command>,
    },
    /// A command that needs a graphics pipeline (`CLEAR`, `CLEAR_COLOR`,
    /// `RUN ... DRAW_RECT`, `EXPECT ... EQ_RGB`, ...); the script also
    /// records it as [`Unsupported`].
    Graphics {
        /// The line.
        line: u32,
    },
}
