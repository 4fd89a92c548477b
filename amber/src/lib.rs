//! AmberScript compute tests, run natively on kiln's Vulkan layer.
//!
//! [AmberScript](https://github.com/google/amber/blob/main/docs/amber_script.md)
//! is the test format of google/amber and of the Vulkan CTS's `.amber`
//! files. This crate parses it ([`parse`]) and runs its compute pipelines
//! on a [`kiln_vulkan::Context`] ([`Runner`]): every shader is compiled,
//! validated with spirv-val for the device's Vulkan environment, reflected
//! with kiln's reflection and dispatched through kiln's pipelines, and every
//! `EXPECT` is checked in file order. A script passes, fails (with the
//! first failing line, value, expected and actual value) or is skipped
//! (with the reason: a graphics pipeline, an image, a device feature the
//! device lacks, ...). `kiln amber FILE...` is the command-line front end.
//!
//! # What runs
//!
//! - Shaders: `GLSL` (glslangValidator), `SPIRV-ASM` (SPIRV-Tools'
//!   assembler, honouring `TARGET_ENV`), `SPIRV-HEX`, `SPIRV-BIN` from a
//!   `FILE`, `VIRTUAL_FILE` and `FILE` sources, and — kiln only —
//!   `SPIRV-MLIR`: a `spirv.module` in MLIR syntax, compiled by kiln
//!   ([`ShaderFormat::SpirvMlir`](crate::script::ShaderFormat::SpirvMlir)).
//!   `SHADER_OPTIMIZATION` passes go through SPIRV-Tools' optimizer.
//! - Buffers: `DATA_TYPE` scalars, vectors, matrices and image-format
//!   names, `STD140` / `STD430` ([`layout`]), `DATA`, `SIZE ... FILL`,
//!   `SERIES_FROM ... INC_BY`, `FILE TEXT|BINARY`, `WIDTH ... HEIGHT`,
//!   `FORMAT` buffers; `COPY`.
//! - Pipelines: `PIPELINE compute`, `ATTACH ... ENTRY_POINT ... SPECIALIZE`,
//!   `BIND BUFFER` / `BUFFER_ARRAY` as `storage`, `uniform`,
//!   `storage_dynamic`, `uniform_dynamic` (with `OFFSET`,
//!   `DESCRIPTOR_OFFSET`, `DESCRIPTOR_RANGE`) and `push_constant`,
//!   `DERIVE_PIPELINE`.
//! - Commands: `RUN`, `RUN TIMED_EXECUTION` (GPU timestamps, reported),
//!   `REPEAT`, `EXPECT ... IDX` with `EQ NE LT LE GT GE` and `TOLERANCE`
//!   (absolute and `%`), `EQ_BUFFER`, `RMSE_BUFFER`,
//!   `EQ_HISTOGRAM_EMD_BUFFER`.
//! - Requirements: `DEVICE_FEATURE` (Amber's names: `shaderInt64`,
//!   `Storage16BitFeatures.storageBuffer16BitAccess`, ...),
//!   `DEVICE_PROPERTY`, `DEVICE_EXTENSION`, `INSTANCE_EXTENSION`, checked
//!   against what the device reported; unmet ones make the script a skip
//!   naming them.
//!
//! Skipped with a reason: graphics and ray-tracing pipelines, images,
//! samplers, texel buffers, structs, acceleration structures, HLSL and
//! OpenCL C shaders, OpenCL kernel arguments, required subgroup sizes,
//! packed and depth/stencil formats.
//!
//! Where kiln's semantics differ from Amber's, the module docs say so:
//! float expectations round to the component type, and orderings with a
//! NaN fail (the `run::check` module); `STD140` arrays of doubles and
//! 16-bit vectors follow GLSL's 16-byte array stride ([`layout`]); `inf`
//! is accepted as a number and shader text ends at a line starting with
//! `END` (the `lex` module); `SPECIALIZE` takes any scalar type; histogram
//! comparisons take any number of 8-bit channels.
//!
//! # GLSL: why a subprocess
//!
//! GLSL goes through `glslangValidator` (installed by `ci/setup.sh`) as a
//! subprocess rather than a crate binding: the binding crates (`shaderc`,
//! `glslang`) build glslang's C++ from source — minutes on CI's two cores,
//! on top of SPIRV-Tools — or need a system shaderc the Debian image does
//! not ship; the subprocess costs a process start per shader (milliseconds
//! against a test's dispatches) and uses the very compiler the rest of
//! kiln's tests already treat as the GLSL reference.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod compile;
mod device;
pub mod layout;
mod lex;
mod parse;
mod report;
mod run;
pub mod script;
pub mod types;

pub use parse::{parse, ParseError};
pub use report::{Failure, Outcome, Report, Summary, TimedRun};
pub use run::{RunOptions, Runner, MAX_BUFFER_BYTES};
pub use script::Script;
