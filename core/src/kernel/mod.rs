//! The memref-level kernel IR: the SIMT body MLIR writes with `gpu`,
//! `arith`, `math`, `memref`, `scf`, `vector` and `index` ops, plus the host
//! `func.func @main` of MLIR's Vulkan-runner test files.
//!
//! * [`entity`]: the typed handles [`KOp`], [`KValue`], [`KBlock`],
//!   [`KRegion`].
//! * [`types`]: kernel types (integers, floats, index, vectors, memrefs).
//! * [`ops`]: the table of kernel ops by MLIR name.
//! * [`module`]: [`KernelModule`], its arenas and builder primitives.
//! * [`parse()`] / [`print()`]: the text form (MLIR 19's syntax), with
//!   [`KernelParseError`].
//! * [`verify()`]: the kernel verifier.
//! * [`builder`]: [`KernelBuilder`](builder::KernelBuilder), to build
//!   kernels without text.

pub mod builder;
pub mod entity;
pub mod error;
mod forms;
pub mod module;
pub mod ops;
mod parse;
pub mod print;
pub mod types;
pub mod verify;

pub use entity::{KBlock, KOp, KRegion, KValue};
pub use error::KernelParseError;
pub use module::{KAttr, KBlockData, KOpData, KRegionData, KValueData, KValueDef, KernelModule};
pub use ops::KOpKind;
pub use parse::{parse, parse_type};
pub use print::{print, print_generic};
pub use types::{FloatTy, GpuAddressSpace, KType, MemRefLayout, MemorySpace, MmaOperand};
pub use verify::{is_kernel_text, verify, KernelVerifyError, KernelVerifyErrors};
