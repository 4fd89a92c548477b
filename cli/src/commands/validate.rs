//! `kiln validate`: run SPIRV-Tools' validator on a binary.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use kiln_core::grammar::Version;
use kiln_core::validate::{validate_with, LayoutRules, ValidationEnv};

use crate::Outcome;

/// Arguments of `kiln validate`.
#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// SPIR-V binary (`-` for stdin).
    pub input: PathBuf,
    /// Environment to validate for: vulkan1.0..vulkan1.3 or
    /// universal1.0..universal1.6. Default: the lowest Vulkan environment
    /// that accepts the module's SPIR-V version.
    #[arg(long = "target-env")]
    pub target_env: Option<ValidationEnv>,
    /// Accept scalar block layout (VK_EXT_scalar_block_layout), as
    /// `spirv-val --scalar-block-layout`.
    #[arg(long = "scalar-block-layout")]
    pub scalar_block_layout: bool,
    /// Accept std430 rules for uniform blocks
    /// (VK_KHR_uniform_buffer_standard_layout), as `spirv-val
    /// --uniform-buffer-standard-layout`.
    #[arg(long = "uniform-buffer-standard-layout")]
    pub uniform_buffer_standard_layout: bool,
}

/// Runs `kiln validate`: prints `valid` (exit 0) or the validator's message
/// (exit 1).
pub fn run(args: &ValidateArgs) -> Result<Outcome> {
    let words = crate::input::read_spirv(&args.input)?;
    let env = match args.target_env {
        Some(env) => env,
        None => {
            let v = words[1];
            let version = Version {
                major: ((v >> 16) & 0xff) as u8,
                minor: ((v >> 8) & 0xff) as u8,
            };
            ValidationEnv::for_vulkan_module(version)
        }
    };
    let rules = LayoutRules {
        scalar_block_layout: args.scalar_block_layout,
        uniform_buffer_standard_layout: args.uniform_buffer_standard_layout,
    };
    match validate_with(&words, env, rules) {
        Ok(()) => {
            println!("valid");
            Ok(Outcome::Success)
        }
        Err(e) => {
            println!("{e}");
            Ok(Outcome::Exit(1))
        }
    }
}
