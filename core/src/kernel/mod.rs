//! The memref-level kernel IR: the SIMT body MLIR writes with `gpu`,
//! `arith`, `math`, `memref`, `scf`, `vector` and `index` ops, plus the host
//! `func.func @main` of MLIR's Vulkan-runner test files.
//!
//! * [`types`]: kernel types (integers, floats, index, vectors, memrefs).
//! * [`ops`]: the table of kernel ops by MLIR name.
//! * [`module`]: [`KernelModule`], its arenas and builder primitives.

pub mod module;
pub mod ops;
pub mod types;

pub use module::{KAttr, KBlockData, KOpData, KRegionData, KValueData, KValueDef, KernelModule};
pub use ops::KOp;
pub use types::{FloatTy, GpuAddressSpace, KType, MemRefLayout, MemorySpace};
