//! `kiln opt`: parse, verify, transform (`--lower-abi-attrs`, `--update-vce`)
//! and print an spv module.

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueEnum};
use kiln_core::passes::lower_abi_attrs::LowerAbiOptions;
use kiln_core::passes::{pipeline, PipelineError, PipelineOptions};
use kiln_core::text::{Prefix, PrintOptions};

use crate::Outcome;

/// Which dialect prefix to print.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PrefixArg {
    /// `spv.` with `spv.GLSL.*` (the seeds' spelling).
    Spv,
    /// `spirv.` with `spirv.GL.*` (current MLIR).
    Spirv,
}

impl From<PrefixArg> for Prefix {
    fn from(p: PrefixArg) -> Self {
        match p {
            PrefixArg::Spv => Prefix::Spv,
            PrefixArg::Spirv => Prefix::Spirv,
        }
    }
}

/// `X,Y,Z`: three SpecIds.
fn parse_spec_ids(text: &str) -> Result<[u32; 3], String> {
    let ids: Vec<u32> = text
        .split(',')
        .map(|p| p.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("expected three SpecIds X,Y,Z: {e}"))?;
    <[u32; 3]>::try_from(ids)
        .map_err(|ids| format!("expected three SpecIds X,Y,Z, got {}", ids.len()))
}

/// Arguments of `kiln opt`.
#[derive(Args, Debug)]
pub struct OptArgs {
    /// Input file (`-` for stdin).
    #[arg(default_value = "-")]
    pub input: PathBuf,
    /// Output file (`-` for stdout).
    #[arg(short = 'o', long = "output", default_value = "-")]
    pub output: PathBuf,
    /// Dialect prefix of the printed module.
    #[arg(long, value_enum, default_value = "spirv")]
    pub prefix: PrefixArg,
    /// Give the module the minimal VCE triple it needs under the target env;
    /// fail naming the op and the requirement the env cannot meet.
    #[arg(long = "update-vce")]
    pub update_vce: bool,
    /// Lower the shader-interface attributes of entry functions
    /// (`spirv.interface_var_abi`, `spirv.entry_point_abi`) to resource
    /// variables, an entry point and execution modes (runs before
    /// `--update-vce`).
    #[arg(long = "lower-abi-attrs")]
    pub lower_abi_attrs: bool,
    /// With `--lower-abi-attrs`: lay blocks out with the scalar block layout
    /// instead of std430 / std140.
    #[arg(long = "scalar-block-layout", requires = "lower_abi_attrs")]
    pub scalar_block_layout: bool,
    /// With `--lower-abi-attrs`: make the workgroup size three
    /// specialization constants with these SpecIds (`X,Y,Z`, defaults from
    /// `entry_point_abi`) decorated `BuiltIn WorkgroupSize`, instead of the
    /// `LocalSize` execution mode, so it can be chosen at pipeline creation
    /// (`kiln run-spv --spec ID=VALUE`).
    #[arg(
        long = "workgroup-size-spec-ids",
        value_name = "X,Y,Z",
        requires = "lower_abi_attrs",
        value_parser = parse_spec_ids
    )]
    pub workgroup_size_spec_ids: Option<[u32; 3]>,
    /// Target environment: `#spirv.target_env<...>` text, or `@FILE` holding
    /// it. Default: the module's `spirv.target_env` attribute, else
    /// Vulkan 1.0 / SPIR-V 1.0 / Shader with MLIR's default limits.
    #[arg(long = "target-env")]
    pub target_env: Option<String>,
    /// Treat the input as memref-level kernels and lower every gpu.module
    /// to an spv module (with lower-abi-attrs and update-vce), printing them.
    #[arg(long = "convert-to-spirv")]
    pub convert_to_spirv: bool,
    /// Process each `// -----` chunk of the input alone (MLIR's
    /// `--split-input-file`): outputs joined by `// -----`, errors with
    /// their line in the whole file, the other chunks still processed.
    #[arg(long = "split-input-file", conflicts_with = "convert_to_spirv")]
    pub split_input_file: bool,
    /// With `--convert-to-spirv` or a tensor stage: use this Vulkan
    /// device's target env (index, part of its name, or `default`).
    #[arg(long, conflicts_with = "target_env")]
    pub device: Option<String>,
    /// Tensor programs: print the program with `arith`/`math` on tensors
    /// converted to `linalg.generic` (stage 1).
    #[arg(long = "convert-elementwise-to-linalg")]
    pub convert_elementwise_to_linalg: bool,
    /// Tensor programs: print the dispatch regions (stage 2).
    #[arg(long = "form-dispatch-regions")]
    pub form_dispatch_regions: bool,
    /// Tensor programs: print the buffers (stage 3).
    #[arg(long)]
    pub bufferize: bool,
    /// Tensor programs: print each dispatch's strategy (stage 4).
    #[arg(long)]
    pub explain: bool,
    /// Tensor programs: print the memref-level kernels (stage 5).
    #[arg(long = "tensor-to-kernels")]
    pub tensor_to_kernels: bool,
    /// Convert the spv module (or spirv ops outside one) to MLIR's LLVM
    /// dialect, as `mlir-opt --convert-spirv-to-llvm` does.
    #[arg(long = "convert-spirv-to-llvm", conflicts_with_all = ["convert_to_spirv", "lower_abi_attrs", "update_vce"])]
    pub convert_spirv_to_llvm: bool,
    /// Options of the LLVM conversion.
    #[command(flatten)]
    pub llvm: super::llvm::LlvmArgs,
}

impl OptArgs {
    /// The tensor-compiler stage asked for, if any.
    pub fn tensor_stage(&self) -> Option<super::tensor_compile::Stage> {
        use super::tensor_compile::Stage;
        [
            (self.tensor_to_kernels, Stage::Kernels),
            (self.explain, Stage::Explain),
            (self.bufferize, Stage::Bufferize),
            (self.form_dispatch_regions, Stage::DispatchRegions),
            (
                self.convert_elementwise_to_linalg,
                Stage::ElementwiseToLinalg,
            ),
        ]
        .into_iter()
        .find_map(|(on, s)| on.then_some(s))
    }
}

/// Runs `kiln opt`.
pub fn run(args: &OptArgs) -> Result<Outcome> {
    if args.convert_spirv_to_llvm {
        return super::llvm::convert_file(
            &args.input,
            &args.llvm,
            args.split_input_file,
            super::llvm::Output::Mlir,
            &args.output,
        );
    }
    if args.convert_to_spirv {
        return super::compile::run_opt(
            &args.input,
            &args.output,
            args.prefix.into(),
            args.target_env.as_deref(),
            args.device.as_deref(),
        );
    }
    let text = crate::input::read_text(&args.input)?;
    let name = super::display_name(&args.input);
    crate::split::run_chunks(&text, args.split_input_file, &args.output, |chunk| {
        process(args, chunk, &name)
    })
}

/// Parses, verifies, transforms and prints one module (or kernel file, or
/// tensor program).
fn process(args: &OptArgs, text: &str, name: &str) -> Result<String> {
    // A text of nothing but comments and blank lines, as MLIR takes it.
    if text
        .lines()
        .all(|l| l.split("//").next().unwrap_or("").trim().is_empty())
    {
        return Ok(String::new());
    }
    // A tensor-level program (linalg, tensor, arith on tensors).
    if kiln_core::tensor::is_tensor_text(text) && !is_loose_spv_text(text) {
        if let Some(stage) = args.tensor_stage() {
            let mut module = kiln_core::tensor::load(text).map_err(|e| super::in_file(name, e))?;
            if kiln_core::tensor::e2e::is_e2e(&module) {
                module = kiln_core::tensor::e2e::compute_module(&module)
                    .map_err(|e| super::in_file(name, e))?;
            }
            let target = super::tensor_compile::target_for(
                &module,
                args.target_env.as_deref(),
                args.device.as_deref(),
            )?;
            return super::tensor_compile::opt_stage(&module, name, stage, &target);
        }
        return super::tensor::opt(args, text, name);
    }
    if args.tensor_stage().is_some() {
        anyhow::bail!("{name}: the tensor-compiler stages apply to tensor programs");
    }
    // spv ops outside a single spirv.module (in `func.func` bodies, at the
    // top level, or in several modules), as MLIR's SPIR-V dialect tests
    // write them: each module is verified and printed.
    if is_loose_spv_text(text) {
        if args.lower_abi_attrs || args.update_vce {
            anyhow::bail!(
                "{name}: --lower-abi-attrs and --update-vce work on a text holding one spirv.module"
            );
        }
        return print_loose_modules(args, text, name);
    }
    // A memref-level kernel file (gpu.module / func.func, no spirv.module)
    // is parsed, verified and printed back as a kernel module.
    if kiln_core::kernel::is_kernel_text(text) {
        if args.lower_abi_attrs || args.update_vce {
            anyhow::bail!(
                "{name}: a memref-level kernel file; --lower-abi-attrs and --update-vce work on \
                 spv modules (--convert-to-spirv lowers kernels and runs both)"
            );
        }
        let kernel = kiln_core::kernel::parse(text).map_err(|e| super::in_file(name, e))?;
        kiln_core::kernel::verify(&kernel).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        return Ok(kiln_core::kernel::print(&kernel));
    }
    let mut module = super::parse_module(text, name)?;
    if args.lower_abi_attrs || args.update_vce {
        let env = super::target_env(&module, args.target_env.as_deref())?;
        let options = PipelineOptions {
            lower_abi_attrs: args.lower_abi_attrs.then_some(LowerAbiOptions {
                scalar_block_layout: args.scalar_block_layout,
                workgroup_size_spec_ids: args.workgroup_size_spec_ids,
                // MLIR's pass declares float modes only for a target_width.
                signed_zero_inf_nan_preserve: false,
            }),
            update_vce: args.update_vce,
        };
        pipeline::run(&mut module, &env, &options).map_err(|e| match e {
            PipelineError::LowerAbiAttrs(e) => {
                anyhow::anyhow!("{name}: {}", super::error_chain(&e))
            }
            PipelineError::UpdateVce(e) => {
                anyhow::anyhow!("{name}: {}", super::error_chain(&e))
            }
            PipelineError::Verify(errs) => {
                anyhow::anyhow!("{name}: the lowered module fails verification: {errs}")
            }
        })?;
    }
    let text = kiln_core::text::print(
        &module,
        &PrintOptions {
            prefix: args.prefix.into(),
        },
    );
    Ok(text)
}

/// Whether `text` holds spv ops, types or attributes but not exactly one
/// `spirv.module` (and is no memref-level kernel file, linalg or tensor
/// program): spv ops in `func.func` bodies or at the top level, or several
/// modules. Comments are not looked at.
fn is_loose_spv_text(text: &str) -> bool {
    let code: Vec<&str> = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect();
    let has = |needle: &str| code.iter().any(|l| l.contains(needle));
    let modules: usize = code
        .iter()
        .map(|l| l.matches("spirv.module").count() + l.matches("spv.module").count())
        .sum();
    let kernel = has("gpu.module") || has("memref") || has("linalg.") || has("tensor.");
    if kernel || modules == 1 {
        return false;
    }
    // spv ops; or spv types and attributes only (`func.func` declarations
    // over `!spirv.array`), unless the text is a tensor program.
    code.iter().any(|l| names_spv_op(l))
        || ((has("spirv.") || has("spv.")) && !kiln_core::tensor::is_tensor_text(text))
}

/// Whether `line` names an spv op (`spirv.FAdd`, `spirv.mlir.loop`,
/// `spirv.func`), not an attribute or type (`#spirv.`, `!spirv.`,
/// `spirv.target_env = ...`).
fn names_spv_op(line: &str) -> bool {
    ["spirv.", "spv."].iter().any(|prefix| {
        line.match_indices(prefix).any(|(at, _)| {
            let before = line[..at].chars().next_back();
            let after = &line[at + prefix.len()..];
            let op_start = !matches!(before, Some(c) if c == '#' || c == '!' || c == '_' || c.is_alphanumeric());
            op_start
                && (after.starts_with(|c: char| c.is_ascii_uppercase())
                    || ["mlir.", "module", "func"].iter().any(|w| after.starts_with(w)))
        })
    })
}

/// Parses the modules of a text read by [`is_loose_spv_text`], verifies
/// each and prints them one after the other.
fn print_loose_modules(args: &OptArgs, text: &str, name: &str) -> Result<String> {
    let modules = kiln_core::text::parse_modules(text).map_err(|e| super::in_file(name, e))?;
    let options = PrintOptions {
        prefix: args.prefix.into(),
    };
    let mut out = String::new();
    for module in &modules {
        kiln_core::ir::verify::verify(module).map_err(|errs| {
            anyhow::anyhow!(
                "module failed verification: {}",
                super::prefix_lines(name, &errs.to_string())
            )
        })?;
        out.push_str(&kiln_core::text::print(module, &options));
    }
    Ok(out)
}
