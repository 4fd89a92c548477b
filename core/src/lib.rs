//! kiln-core: the compiler half of kiln. The spv IR (a Rust rendering of
//! MLIR's SPIR-V dialect), the memref-level kernel IR lowered to it, their
//! text forms, the SPIR-V serializer, reflection and in-process validation.
//!
//! Folders are stages of the flow; every module of the crate, roughly in
//! that order:
//!
//! * [`grammar`]: tables generated from the SPIR-V grammar (instructions,
//!   operand kinds, enumerants, their availability), and the extensions
//!   folded into each core version.
//! * [`availability`]: what an op, a type or an enumerant needs from the
//!   target (version, capabilities, extensions).
//! * [`target`]: the target environment (version / capabilities /
//!   extensions, device, resource limits), its text forms, and which ops are
//!   legal in it.
//! * [`layout`]: data layout: sizes and alignments of types, and interface
//!   blocks under the std140, std430 and scalar rules.
//! * [`ir`]: the spv IR: types, attributes, ops, the verifier.
//! * [`text`]: the spv IR's MLIR-syntax printer and parser.
//! * [`tensor`]: the tensor-level IR (`linalg`, `tensor`, `arith`/`math`
//!   on tensors, IREE's e2e test ops): text form, verifier, builder, the
//!   structured-op interface, the CPU reference evaluator and the e2e runner.
//! * [`kernel`]: the kernel IR (`gpu`, `arith`, `math`, `memref`, `scf`,
//!   `vector`, `index` ops), its text form, builder and verifier.
//! * [`codegen`]: the tensor compiler: tensor programs to dispatches of
//!   memref-level kernels (dispatch regions, bufferization, strategies).
//! * [`lower`]: lowering kernels to the spv IR (MLIR's
//!   `convert-gpu-to-spirv`).
//! * [`passes`]: passes over a whole spv module (`lower-abi-attrs`,
//!   `update-vce`).
//! * [`binary`]: the SPIR-V binary: words from bytes, the serializer, the
//!   deserializer (binary to spv IR, with its structurizer).
//! * [`validate`]: SPIRV-Tools' validator, in process.
//! * [`reflect`]: the pipeline interface of an entry point, from the spv IR
//!   or from a binary, and the device limits of a target environment.
//! * [`atomic_file`]: files written whole or not at all (temporary file,
//!   then rename).
//! * [`codec`]: what kiln's serde forms share (the grammar's enums as a
//!   format stores them, the reason a custom form refused a value).
//! * [`host_memory`]: overflow-free sizes and fallible host allocations
//!   for data sized by user input.
//! * [`host`]: the host side of an MLIR Vulkan-runner program, interpreted on
//!   the CPU around each kernel launch.
//! * [`fuzz`]: entry points of the fuzz targets (`fuzz/`) and of the CI
//!   replay of their corpora; structure-aware mutation of binaries.
//! * [`llvm`]: spv → LLVM (MLIR's LLVM dialect and LLVM IR), for the CPU
//!   runner and MLIR's `convert-spirv-to-llvm`.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod atomic_file;
pub mod availability;
pub mod binary;
pub mod codec;
pub mod codegen;
pub mod fuzz;
pub mod grammar;
pub mod host;
pub mod host_memory;
pub mod ir;
pub mod kernel;
pub mod layout;
pub mod llvm;
pub mod lower;
pub mod passes;
pub mod reflect;
pub mod target;
pub mod tensor;
pub mod text;
pub mod validate;

/// A hash of this build's kiln-core sources (computed by `build.rs`): two
/// builds with the same value lower alike. Caches of compiled kernels key
/// on it rather than on the crate version.
pub const SOURCE_HASH: &str = env!("KILN_CORE_SOURCE_HASH");
