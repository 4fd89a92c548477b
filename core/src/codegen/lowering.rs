//! Which kernels a compile lowers now, and what a kernel left for later
//! keeps (`deferred.rs` lowers it; issue 32).

use super::bufferize::BufferId;
use super::strategy::CHUNKED_SUFFIX;

/// Which kernels a compile lowers to SPIR-V (serialized and validated)
/// before it returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lowering {
    /// Every kernel.
    #[default]
    All,
    /// Every kernel but the `_chunked` variants, which run only past the
    /// storage range: they are left for [`lower_deferred`](super::lower_deferred).
    DeferRunTimeVariants,
}

impl Lowering {
    /// Whether the kernel called `name` is left unlowered.
    pub(super) fn defers(self, name: &str) -> bool {
        self == Lowering::DeferRunTimeVariants && name.ends_with(CHUNKED_SUFFIX)
    }
}

/// What lowering a deferred kernel needs besides its memref-level text
/// and the program's target.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DeferredLowering {
    /// Its bindings bound as arrays of descriptors (a buffer in chunks),
    /// as `(binding, buffer, descriptors)`.
    pub split: Vec<(u32, BufferId, u32)>,
}
