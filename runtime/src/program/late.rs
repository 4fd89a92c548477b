//! The kernels a program makes at their first launch: the `_chunked`
//! variants, which run only when a call's buffers are past
//! `maxStorageBufferRange` (issue 32). [`Program::load`] makes no
//! pipeline for them; a program compiled by [`Program::compile`] has not
//! even lowered them ([`Lowering::DeferRunTimeVariants`](kiln_core::codegen::Lowering)).
//! The first launch that selects one lowers it where its compile deferred
//! it, checks that the device has what its binary needs, makes its
//! pipeline and keeps it for the program's later launches, and in the
//! device's kernel cache for other programs of the same compile.

use kiln_core::codegen::CompiledKernel;

use super::{program_error, Program};
use crate::cache;
use crate::error::{Error, Result};
use crate::inner::lock;
use crate::kernel::Kernel;

impl Program {
    /// Kernel `k` of function `function` (a `_chunked` variant, not made
    /// at load): made at its first launch, kept for the next.
    pub(super) fn late_kernel(&self, function: &str, k: &CompiledKernel) -> Result<Kernel> {
        let mut late = self.late.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(kernel) = late.get(&k.name) {
            return Ok(kernel.clone());
        }
        // Programs that share the device share what was lowered (the
        // `ops` make a `Program` per call of one compiled program).
        let key = self.deferred_key(k);
        if let Some(kernel) = lock(&self.device.inner.kernels).get(&key).cloned() {
            late.insert(k.name.clone(), kernel.clone());
            return Ok(kernel);
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
        lock(&self.device.inner.kernels).insert(key, kernel.clone());
        late.insert(k.name.clone(), kernel.clone());
        Ok(kernel)
    }

    /// The device kernel cache's key of `k` lowered for this program's
    /// target: what lowering reads (its text, split bindings and name, the
    /// target env and driver facts), hashed.
    fn deferred_key(&self, k: &CompiledKernel) -> String {
        let target = &self.compiled.target;
        let what = format!(
            "{}|{:?}|{}|{:?}|{:?}",
            k.name,
            k.deferred,
            target.env.print(kiln_core::text::Prefix::Spv),
            target.env.device,
            target.facts,
        );
        format!(
            "deferred|{:016x}|{:016x}|{}",
            cache::fnv1a(k.kernel_text.as_bytes()),
            cache::fnv1a(what.as_bytes()),
            k.kernel_text.len()
        )
    }

    /// The names of the kernels made since the program was loaded, at
    /// their first launch (the `_chunked` variants a call selected), in no
    /// particular order.
    pub fn late_kernels(&self) -> Vec<String> {
        let late = self.late.lock().unwrap_or_else(|e| e.into_inner());
        late.keys().cloned().collect()
    }
}
