//! Lowering pieces several dialect files share. A dialect file depends on
//! the lowering context ([`super::context`]) and these helpers only, never
//! on another dialect file.
//!
//! * [`bit_count`]: `ctlz` / `cttz` / `ctpop` of 8- to 64-bit integers
//!   on 32-bit words (`math`).
//! * [`ints`]: emulated narrow integers (re-normalizing, zero-extending),
//!   integer comparisons, bool types of a shape (`arith`, `index`, `math`,
//!   `gpu`, `vector`).
//! * [`memory`]: element access to a memref (`memref.load`/`store`,
//!   `vector.load`/`store`) and module variables for workgroup and private
//!   buffers (kernel attributions, `memref.alloc`).
//! * [`saturate`]: `fptosi` / `fptoui` defined (saturating) where MLIR
//!   leaves them undefined (`arith`).
//! * [`reduce`]: the combiners of reductions (`gpu.subgroup_reduce`,
//!   `vector.reduction`).
//! * [`signed_zero`]: float arithmetic with a constant `+0.0` operand in
//!   forms llvmpipe computes as IEEE does (`arith`).
//! * [`texel`]: read-only memrefs bound as uniform texel buffers
//!   (kernel arguments, `memref.load`).

pub(crate) mod bit_count;
pub(crate) mod ints;
pub(crate) mod memory;
pub(crate) mod reduce;
pub(crate) mod saturate;
pub(crate) mod signed_zero;
pub(crate) mod texel;
