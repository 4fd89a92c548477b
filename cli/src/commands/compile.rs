//! `kiln compile IN.mlir -o OUT.spv`: lower every `gpu.module` of a
//! memref-level kernel file (tensor programs and ONNX models, imported
//! first: [`super::tensor_compile`]) to SPIR-V for a target env, validate
//! it, and write the binaries; and `kiln opt --convert-to-spirv`, which
//! prints the lowered spv modules instead.
//!
//! The target env is `--target-env ENV` (text or `@FILE`), or the env of
//! the Vulkan device `--device SEL` (index, part of its name, `default`),
//! or the kernel file's own `spirv.target_env`, or kiln's conservative
//! default (Vulkan 1.0, SPIR-V 1.0, `Shader`).
//!
//! With one `gpu.module` the binary goes to `OUT` as given; with several,
//! `OUT.spv` becomes `OUT.<module>.spv` for each (`kernels.spv` with
//! modules `@a` and `@b` gives `kernels.a.spv` and `kernels.b.spv`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use kiln_core::lower::{self, IndexBits, LowerOptions};
use kiln_core::target::TargetEnv;
use kiln_core::text::{Prefix, PrintOptions};

use crate::Outcome;

/// Arguments of `kiln compile`.
#[derive(Args, Debug)]
pub struct CompileArgs {
    /// Kernel file (MLIR syntax; `-` for stdin), or an ONNX model
    /// (`.onnx`).
    pub input: PathBuf,
    /// Output binary (with several gpu.modules: `OUT.<module>.spv`).
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Target environment: `#spirv.target_env<...>` text, or `@FILE`.
    #[arg(long = "target-env", conflicts_with = "device")]
    pub target_env: Option<String>,
    /// Compile for this Vulkan device's target env (index, part of its
    /// name, or `default`).
    #[arg(long)]
    pub device: Option<String>,
    /// Lower `index` to 64-bit integers (needs `Int64`).
    #[arg(long = "index-64")]
    pub index_64: bool,
    /// Tensor programs: print each dispatch's strategy and why.
    #[arg(long)]
    pub explain: bool,
    /// ONNX models: fix an input's shape (and value), `NAME=SHAPExTYPE=VALUE`
    /// or `NAME=@FILE.npy`, as `kiln run` takes it; inputs not given keep
    /// their symbolic dimensions as dynamic sizes.
    #[arg(long = "input", value_name = "NAME=SPEC")]
    pub inputs: Vec<String>,
}

/// The explicit target env of a command, if any.
pub fn explicit_env(target_env: Option<&str>, device: Option<&str>) -> Result<Option<TargetEnv>> {
    if let Some(text) = target_env {
        return super::parse_target_env(text).map(Some);
    }
    if let Some(sel) = device {
        let q = kiln_vulkan::query_device(&kiln_vulkan::DeviceSelector::parse(sel))
            .context("cannot query the Vulkan device")?;
        return Ok(Some(q.target_env()));
    }
    Ok(None)
}

fn options(index_64: bool) -> LowerOptions {
    LowerOptions {
        index_bits: if index_64 {
            IndexBits::I64
        } else {
            IndexBits::I32
        },
        ..LowerOptions::default()
    }
}

/// The output path of module `name` when there are `count` modules.
pub fn output_path(out: &Path, name: &str, count: usize) -> PathBuf {
    if count <= 1 {
        return out.to_path_buf();
    }
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = match out.extension() {
        Some(ext) => format!("{stem}.{name}.{}", ext.to_string_lossy()),
        None => format!("{stem}.{name}"),
    };
    out.with_file_name(file)
}

/// Runs `kiln compile`.
pub fn run(args: &CompileArgs) -> Result<Outcome> {
    if super::onnx::is_onnx_path(&args.input) {
        return compile_onnx(args);
    }
    if !args.inputs.is_empty() {
        anyhow::bail!("--input applies to ONNX models");
    }
    let text = crate::input::read_text(&args.input)?;
    if kiln_core::tensor::is_tensor_text(&text) {
        let name = super::display_name(&args.input);
        let mut module = kiln_core::tensor::load(&text).map_err(|e| super::in_file(&name, e))?;
        if kiln_core::tensor::e2e::is_e2e(&module) {
            module = kiln_core::tensor::e2e::compute_module(&module)
                .map_err(|e| super::in_file(&name, e))?;
        }
        let target = super::tensor_compile::target_for(
            &module,
            args.target_env.as_deref(),
            args.device.as_deref(),
        )?;
        return super::tensor_compile::compile_to_dir(
            &module,
            &name,
            &target,
            &args.output,
            args.explain,
        );
    }
    if args.explain {
        anyhow::bail!("--explain applies to tensor programs");
    }
    let kernels = kiln_core::kernel::parse(&text)
        .map_err(|e| super::in_file(&super::display_name(&args.input), e))?;
    let env = explicit_env(args.target_env.as_deref(), args.device.as_deref())?;
    let input = super::display_name(&args.input);
    let compiled = lower::compile_to_binaries(&kernels, env.as_ref(), &options(args.index_64))
        .map_err(|e| super::in_file(&input, e))?;
    let count = compiled.len();
    for c in &compiled {
        let path = output_path(&args.output, &c.name, count);
        let bytes: Vec<u8> = c.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        kiln_core::atomic_file::write_atomic(&path, &bytes)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(Outcome::Success)
}

/// `kiln compile MODEL.onnx -o DIR`: the model's tensor program (as `kiln
/// onnx-import` prints it), compiled like a tensor program.
fn compile_onnx(args: &CompileArgs) -> Result<Outcome> {
    let name = args.input.display().to_string();
    let model = kiln_onnx::load_model(&args.input)?;
    let opts = super::onnx::inputs::import_options(&args.input, &args.inputs)?;
    let imported = kiln_onnx::import(&model, &opts).map_err(|e| {
        let hint = if args.inputs.is_empty() {
            " (an input's symbolic dimensions can be fixed with --input NAME=SHAPExTYPE)"
        } else {
            ""
        };
        anyhow::anyhow!("{name}: {e}{hint}")
    })?;
    let target = super::tensor_compile::target_for(
        &imported.module,
        args.target_env.as_deref(),
        args.device.as_deref(),
    )?;
    super::tensor_compile::compile_to_dir(
        &imported.module,
        &name,
        &target,
        &args.output,
        args.explain,
    )
}

/// `kiln opt --convert-to-spirv`: prints the lowered spv module(s).
pub fn run_opt(
    input: &Path,
    output: &Path,
    prefix: Prefix,
    target_env: Option<&str>,
    device: Option<&str>,
) -> Result<Outcome> {
    let kernels = super::load_kernels(input)?;
    let env = explicit_env(target_env, device)?;
    let name = super::display_name(input);
    let lowered = lower::convert_to_spirv(&kernels, env.as_ref(), &options(false))
        .map_err(|e| super::in_file(&name, e))?;
    let mut text = String::new();
    for l in &lowered {
        text.push_str(&kiln_core::text::print(&l.module, &PrintOptions { prefix }));
    }
    crate::input::write_output(output, text.as_bytes())?;
    Ok(Outcome::Success)
}
