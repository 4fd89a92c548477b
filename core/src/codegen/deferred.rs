//! Kernels lowered at their first use, not at compile time (issue 32).
//!
//! A dispatch whose kernels bind buffers sized at run time that may
//! exceed `maxStorageBufferRange` gets `_chunked` variants of them
//! (`strategy/planner/chunks.rs`), which run only when a call's buffers
//! are past the range: few calls, and none in most programs' lives. Their
//! lowering, serialization and spirv-val cost as much as the plain
//! kernels' or more (every access is one branch per chunk). A compile
//! with [`Lowering::DeferRunTimeVariants`] leaves them unlowered: each
//! keeps its memref-level text (`kernel_text`) and what lowering needs
//! besides ([`DeferredLowering`]), and an executor lowers it with
//! [`lower_deferred`] when a launch first selects it (the runtime and the
//! CPU runner keep the result for the program's later launches).
//! [`Lowering::All`] (what [`compile`](super::compile) does) lowers every
//! kernel, for a consumer that needs every binary: `kiln compile`'s
//! output, tests that validate or reflect every kernel.

use crate::kernel::KernelModule;
use crate::validate::ValidationEnv;

use super::bufferize::BufferId;
use super::error::CodegenError;
use super::kernels::Kernel;
use super::program::{lower_module, CompiledKernel, CompiledProgram};
use super::strategy::CHUNKED_SUFFIX;
use super::target::CodegenTarget;

/// Which kernels a compile lowers to SPIR-V (serialized and validated)
/// before it returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lowering {
    /// Every kernel.
    #[default]
    All,
    /// Every kernel but the `_chunked` variants, which run only past the
    /// storage range: they are left for [`lower_deferred`].
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

/// Kernel `k` left unlowered: its text kept, no words. Its `needs` and
/// `validation_env` are those of the plain kernel it is the variant of
/// (in `lowered`, its dispatch's kernels lowered so far), or the target
/// env's where there is none; [`lower_deferred`] gives the real ones.
pub(super) fn defer_kernel(
    k: Kernel,
    lowered: &[CompiledKernel],
    target: &CodegenTarget,
) -> CompiledKernel {
    let plain = k
        .name
        .strip_suffix(CHUNKED_SUFFIX)
        .and_then(|p| lowered.iter().find(|l| l.name == p));
    let (needs, validation_env) = match plain {
        Some(p) => (p.needs.clone(), p.validation_env),
        None => (
            target.env.vce.clone(),
            ValidationEnv::for_vulkan_module(target.env.version()),
        ),
    };
    CompiledKernel {
        kernel_text: crate::kernel::print(&k.module),
        name: k.name,
        words: Vec::new(),
        validation_env,
        needs,
        bindings: k.bindings,
        writes: k.writes,
        push: k.push,
        workgroup_size: k.workgroup_size,
        plan: k.plan,
        guard: k.guard,
        workgroups: k.workgroups,
        repeat: k.repeat,
        deferred: Some(DeferredLowering { split: k.split }),
    }
}

/// Kernel `k` of a program compiled for `target`, lowered: itself where
/// it was lowered at compile time, else its memref-level text parsed,
/// lowered, serialized and validated now (the same words a compile with
/// [`Lowering::All`] gives it).
pub fn lower_deferred(
    k: &CompiledKernel,
    target: &CodegenTarget,
) -> Result<CompiledKernel, CodegenError> {
    let Some(d) = &k.deferred else {
        return Ok(k.clone());
    };
    let module: KernelModule =
        crate::kernel::parse(&k.kernel_text).map_err(|e| CodegenError::DeferredText {
            kernel: k.name.clone(),
            error: Box::new(e),
        })?;
    let (words, validation_env, needs) = lower_module(&module, &k.name, &d.split, target)?;
    Ok(CompiledKernel {
        words,
        validation_env,
        needs,
        deferred: None,
        ..k.clone()
    })
}

impl CompiledKernel {
    /// Whether the kernel was left unlowered by its compile (see
    /// [`lower_deferred`]).
    pub fn is_deferred(&self) -> bool {
        self.deferred.is_some()
    }
}

impl CompiledProgram {
    /// Lowers every kernel its compile left unlowered ([`lower_deferred`]),
    /// in place: afterwards every kernel has its binary.
    pub fn lower_deferred(&mut self) -> Result<(), CodegenError> {
        let target = self.target.clone();
        for k in self
            .functions
            .iter_mut()
            .flat_map(|f| &mut f.dispatches)
            .flat_map(|d| &mut d.kernels)
        {
            if k.is_deferred() {
                *k = lower_deferred(k, &target)?;
            }
        }
        Ok(())
    }
}
