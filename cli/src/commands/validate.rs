//! `kiln validate`: run SPIRV-Tools' validator on a binary.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use kiln_core::grammar::Version;
use kiln_core::validate::{validate, ValidationEnv};

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
    match validate(&words, env) {
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
