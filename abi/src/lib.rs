//! The contract between kiln's compiler and its runtime.
//!
//! Nothing here knows about Vulkan or about the IR: these are plain data types
//! describing what a compute pipeline expects from the host (descriptor sets,
//! bindings, push constants, specialization constants, workgroup size and
//! memory), shared by the compiler that produces them and the runtime that
//! honours them.
//!
//! * [`attrs`]: the dialect's shader-interface attributes
//!   (`#spirv.interface_var_abi`, `#spirv.entry_point_abi`), parsed from and
//!   printed to text.
//! * [`interface`]: [`PipelineInterface`], its invariants, specialization
//!   and its checks against device [`Limits`].
//! * [`limits`]: [`Limits`] and [`LimitError`].
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod attrs;
pub mod host_layout;
pub mod interface;
pub mod limits;

pub use attrs::{AbiAttrError, AbiSyntax, EntryPointAbi, InterfaceVarAbi, StorageClass};
pub use interface::*;
pub use limits::{LimitError, Limits};
