//! The pass pipeline of a lowered spv module, written once:
//!
//! 1. `lower-abi-attrs` ([`lower_abi_attrs::run_with`]): entry functions'
//!    shader-interface attributes become resource variables, entry points
//!    and execution modes;
//! 2. `update-vce` ([`update_vce()`]): the minimal VCE triple in the target
//!    env;
//! 3. entry-point interfaces ([`lower_abi_attrs::update_entry_point_interfaces`]):
//!    when both passes ran, the interface lists are recomputed for the
//!    version `update-vce` chose;
//! 4. the verifier ([`crate::ir::verify::verify`]).
//!
//! Every caller (kernel lowering, `kiln opt`, the ABI tests) runs it
//! through [`run`], choosing which passes with [`PipelineOptions`].
//!
//! # Why step 3 and not a second lowering
//!
//! An entry point's interface list depends on the module's SPIR-V version
//! (from 1.4 on it names every global variable the entry function and its
//! callees reference, before that only the `Input`/`Output` ones), and the
//! version is only known after `update-vce`, which runs after
//! `lower-abi-attrs` because the ABI lowering itself adds features
//! (`SignedZeroInfNanPreserve`) whose requirements count. The interface
//! list is the only output of `lower-abi-attrs` that depends on the
//! version, and `update-vce` does not read it (an interface is a list of
//! symbol names, which require nothing), so recomputing the lists for the
//! final version gives the module that lowering again for that version
//! would give, without the second lowering.

use super::lower_abi_attrs::{self, LowerAbiError, LowerAbiOptions};
use super::update_vce::{update_vce, UpdateVceError};
use crate::ir::verify::VerifyErrors;
use crate::ir::Module;
use crate::target::TargetEnv;

/// Which passes [`run`] runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipelineOptions {
    /// Run `lower-abi-attrs` with these options (`None`: skip it).
    pub lower_abi_attrs: Option<LowerAbiOptions>,
    /// Run `update-vce`.
    pub update_vce: bool,
}

impl Default for PipelineOptions {
    /// Both passes, `lower-abi-attrs` with its default options (what kernel
    /// lowering runs).
    fn default() -> Self {
        Self {
            lower_abi_attrs: Some(LowerAbiOptions::default()),
            update_vce: true,
        }
    }
}

/// Which step of the pipeline failed.
#[derive(Clone, Debug, thiserror::Error)]
pub enum PipelineError {
    /// `lower-abi-attrs` failed.
    #[error("lower-abi-attrs")]
    LowerAbiAttrs(#[source] LowerAbiError),
    /// `update-vce` failed.
    #[error("update-vce")]
    UpdateVce(#[source] UpdateVceError),
    /// The module does not verify after the passes.
    #[error("the module does not verify after the pass pipeline")]
    Verify(#[source] VerifyErrors),
}

/// Runs the pipeline on `module` for `env` (see the module docs). `env`
/// is what `update-vce` meets; `lower-abi-attrs` takes the version from the
/// module's `vce_triple`, else from `env`.
pub fn run(
    module: &mut Module,
    env: &TargetEnv,
    options: &PipelineOptions,
) -> Result<(), PipelineError> {
    if let Some(abi_options) = &options.lower_abi_attrs {
        lower_abi_attrs::run_with(module, env, abi_options)
            .map_err(PipelineError::LowerAbiAttrs)?;
    }
    if options.update_vce {
        update_vce(module, env).map_err(PipelineError::UpdateVce)?;
        if options.lower_abi_attrs.is_some() {
            lower_abi_attrs::update_entry_point_interfaces(module);
        }
    }
    crate::ir::verify::verify(module).map_err(PipelineError::Verify)
}
