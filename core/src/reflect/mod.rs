//! Reflection: the [`PipelineInterface`](kiln_abi::PipelineInterface) of a
//! compute entry point, recovered from the spv IR or from a SPIR-V binary,
//! and the device [`Limits`](kiln_abi::Limits) a target environment
//! promises. The interface type and the limits type are the `kiln-abi`
//! crate's (the contract between compiler and runtime); this module is the
//! compiler's side of it.
//!
//! * [`reflect_module`] ([`ir`]) reads a lowered module (after
//!   `lower-abi-attrs`): the `spv.EntryPoint` and its `spv.ExecutionMode`s,
//!   the global variables the entry function and its callees reach through
//!   `spv.mlir.addressof`, their types and decoration attributes, and the
//!   module's `spv.SpecConstant`s. [`entry_points`] lists a module's entry
//!   points.
//! * [`reflect_binary`] ([`binary`]) reads the words of a module with
//!   rspirv and gives the same interface as [`reflect_module`] on the
//!   module the binary was serialized from; [`binary_entry_points`] lists a
//!   binary's entry points. The rules for each part of the interface are
//!   listed in [`ir`] and [`binary`].
//! * [`limits`] converts a [`TargetEnv`](crate::target::TargetEnv)'s
//!   resource limits to the [`Limits`](kiln_abi::Limits) a pipeline
//!   interface is checked against
//!   ([`kiln_abi::PipelineInterface::check_limits`]).
//!
//! Both reflectors share their error ([`ReflectError`]) and the rules that
//! do not depend on the representation (choosing the entry point, merging
//! aliased bindings, access from `NonWritable`/`NonReadable`, the
//! push-constant range): `common.rs`.
//!
//! Sizes: a buffer's size comes from its explicit layout (`Offset`,
//! `ArrayStride`, `MatrixStride`: the decorations are the layout, as for a
//! binary). Workgroup variables carry no explicit layout; their size is
//! computed with the std430 rules (scalars and vectors aligned to their
//! size, three-component vectors to four components, arrays and structs to
//! their largest member), which is what drivers allocate for them in
//! practice. A bool takes 4 bytes. `size.rs` computes both over IR types;
//! [`binary`] does the same over the binary's type instructions.

pub mod binary;
mod common;
mod error;
pub mod ir;
mod limits;
mod size;

pub use binary::{binary_entry_points, reflect_binary};
pub use error::ReflectError;
pub use ir::{entry_points, reflect_module};
pub use limits::limits;
