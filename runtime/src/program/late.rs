//! The kernels a program makes at their first launch: the `_chunked`
//! variants, which run only when a call's buffers are past
//! `maxStorageBufferRange` (issue 32). [`Program::load`] makes no
//! pipeline for them; a program compiled by [`Program::compile`] has not
//! even lowered them ([`Lowering::DeferRunTimeVariants`](kiln_core::codegen::Lowering)).
//! The first launch that selects one lowers it where its compile deferred
//! it, checks that the device has what its binary needs, makes its
//! pipeline and keeps it for the program's later launches.

use kiln_core::codegen::CompiledKernel;

use super::{program_error, Program};
use crate::error::{Error, Result};
use crate::kernel::Kernel;

impl Program {
    /// Kernel `k` of function `function` (a `_chunked` variant, not made
    /// at load): made at its first launch, kept for the next.
    pub(super) fn late_kernel(&self, function: &str, k: &CompiledKernel) -> Result<Kernel> {
        let mut late = self.late.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(kernel) = late.get(&k.name) {
            return Ok(kernel.clone());
        }
        let lowered =
            kiln_core::codegen::lower_deferred(k, &self.compiled.target).map_err(|e| {
                Error::Compile {
                    kernel: k.name.clone(),
                    message: e.to_string(),
                }
            })?;
        let wanted = kiln_core::target::TargetEnv::new(lowered.needs.clone());
        crate::runner::check_supported(&wanted, self.device.target_env()).map_err(|missing| {
            program_error(
                function,
                format!(
                    "the device cannot run kernel @{}: missing {missing}",
                    k.name
                ),
            )
        })?;
        let kernel = self
            .device
            .load_kernel(crate::KernelSource::spirv(&lowered.words, &k.name))?;
        late.insert(k.name.clone(), kernel.clone());
        Ok(kernel)
    }

    /// The names of the kernels made since the program was loaded, at
    /// their first launch (the `_chunked` variants a call selected), in no
    /// particular order.
    pub fn late_kernels(&self) -> Vec<String> {
        let late = self.late.lock().unwrap_or_else(|e| e.into_inner());
        late.keys().cloned().collect()
    }
}
