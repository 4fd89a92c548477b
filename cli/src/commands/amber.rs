//! `kiln amber`: run AmberScript compute tests on a Vulkan device.
//!
//! ```text
//! kiln amber FILE.amber... [--device SEL] [--validation] [--no-validate] [-t ENV]
//! ```
//!
//! Each file is parsed and run with [`kiln_amber::Runner`]; stdout gets
//! one line per file — `PASS FILE`, `FAIL FILE: line N: why` (a parse
//! error reads `FAIL FILE:LINE:COL: why`) or `SKIP FILE: why` — followed by
//! an indented line per `RUN TIMED_EXECUTION`, then the summary
//! `N passed, N failed, N skipped`. The exit status is 1 when any file
//! failed, 0 otherwise (skips are not failures).

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use kiln_amber::{RunOptions, Runner, Summary};

use crate::Outcome;

/// Arguments of `kiln amber`.
#[derive(Args, Debug)]
pub struct AmberArgs {
    /// AmberScript files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Device: an index from `kiln devices`, or part of a device name
    /// (default: KILN_DEVICE, else the first discrete, integrated, virtual,
    /// CPU device).
    #[arg(long, value_name = "SEL")]
    pub device: Option<String>,
    /// Enable the Khronos validation layer; any message fails the RUN
    /// that caused it.
    #[arg(long)]
    pub validation: bool,
    /// Do not validate shaders with spirv-val before running them (as
    /// drivers would run them).
    #[arg(long)]
    pub no_validate: bool,
    /// The target environment of shaders without TARGET_ENV (spv1.0 to
    /// spv1.6, vulkan1.0 to vulkan1.3; default spv1.0, as in Amber).
    #[arg(short = 't', long = "target-env", value_name = "ENV")]
    pub target_env: Option<String>,
}

/// Runs `kiln amber`.
pub fn run(args: &AmberArgs) -> Result<Outcome> {
    let ctx = super::vulkan_context(args.device.as_deref(), args.validation)?;
    let runner = Runner::with_options(
        &ctx,
        RunOptions {
            validate: !args.no_validate,
            target_env: args.target_env.clone(),
            base_dir: None,
        },
    );
    let mut summary = Summary::default();
    for file in &args.files {
        let report = runner.run_file(file);
        println!("{}", report.render(&file.display().to_string()));
        summary.add(&report.outcome);
    }
    println!("{summary}");
    Ok(if summary.failed > 0 {
        Outcome::Exit(1)
    } else {
        Outcome::Success
    })
}
