//! Kernels lowered at their first use, not at compile time (issue 32).
//!
//! A dispatch whose kernels bind buffers sized at run time that may
//! exceed `maxStorageBufferRange` gets `_chunked` variants of them
//! (`strategy/planner/chunks.rs`), which run only when a call's buffers
//! are past the range: few calls, and none in most programs' lives. Their
//! lowering, serialization and spirv-val cost as much as the plain
//! kernels' or more (every access is one branch per chunk). A compile
//! with [`Lowering::DeferRunTimeVariants`](super::Lowering::DeferRunTimeVariants) leaves them unlowered: each
//! keeps its memref-level text (`kernel_text`) and what lowering needs
//! besides ([`DeferredLowering`](super::lowering::DeferredLowering)), and an executor lowers it with
//! [`lower_deferred`] when a launch first selects it (the runtime and the
//! CPU runner keep the result for the program's later launches).
//! [`Lowering::All`](super::Lowering::All) (what [`compile`](super::compile) does) lowers every
//! kernel, for a consumer that needs every binary: `kiln compile`'s
//! output, tests that validate or reflect every kernel.

use crate::kernel::KernelModule;

use super::error::CodegenError;
use super::program::{lower_module, CompiledKernel, CompiledProgram};
use super::target::CodegenTarget;

/// Kernel `k` of a program compiled for `target`, lowered: itself where
/// it was lowered at compile time, else its memref-level text parsed,
/// lowered, serialized and validated now (the same words a compile with
/// [`Lowering::All`](super::Lowering::All) gives it).
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
