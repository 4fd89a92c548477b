//! Shaders to SPIR-V words: GLSL, SPIR-V assembly, hex, binary files and
//! kiln's MLIR-syntax spv text; optimization passes; validation.
//!
//! - `GLSL`: `glslangValidator -V --stdin -S comp` as a subprocess (the
//!   reference GLSL compiler, installed by `ci/setup.sh`; see the crate
//!   docs for why not a binding). Its `stdin:N:` locations are turned into
//!   script lines.
//! - `SPIRV-ASM`: SPIRV-Tools' assembler in process, for the shader's
//!   `TARGET_ENV`.
//! - `SPIRV-HEX`: whitespace-separated byte values in hex (`0x` optional),
//!   little-endian words, as Amber reads them.
//! - `SPIRV-BIN`: the bytes of a `FILE`.
//! - `SPIRV-MLIR` (kiln only): an `spirv.module` in MLIR syntax, parsed,
//!   verified, with `lower-abi-attrs` applied (for modules written with
//!   `#spirv.interface_var_abi` attributes) and the VCE triple updated for
//!   the device, then serialized.
//!
//! The target environment is the shader's `TARGET_ENV`, else the runner's
//! default (Amber's is `spv1.0`, SPIR-V 1.0). `SHADER_OPTIMIZATION` passes
//! run through SPIRV-Tools' optimizer for the same environment. The
//! result is validated for the device's Vulkan environment (with the block
//! layouts the device enables) unless validation is off.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use kiln_vulkan::Context;
use spirv_tools::assembler::Assembler as _;
use spirv_tools::opt::{Optimizer as _, Passes};
use spirv_tools::TargetEnv;

use crate::script::{Shader, ShaderFormat, ShaderSource};

/// The environment `name` names (`spv1.3`, `vulkan1.1`, `vulkan1.1spv1.4`;
/// `universal1.x` and `spirv1.x` as aliases of `spv1.x`).
pub(crate) fn target_env(name: &str) -> Result<TargetEnv, String> {
    let canonical = name.replace("universal", "spv").replace("spirv", "spv");
    canonical
        .parse::<TargetEnv>()
        .ok()
        .filter(|_| canonical.starts_with("spv") || canonical.starts_with("vulkan"))
        .ok_or_else(|| format!("unknown target environment '{name}'"))
}

/// The shader's source text (reading a `FILE` relative to `base`).
fn source_text(shader: &Shader, base: Option<&Path>) -> Result<(String, u32), String> {
    match &shader.source {
        ShaderSource::Inline { text, first_line } => Ok((text.clone(), *first_line)),
        ShaderSource::File(path) => {
            let full = resolve(path, base);
            std::fs::read_to_string(&full)
                .map(|t| (t, 1))
                .map_err(|e| format!("cannot read {}: {e}", full.display()))
        }
    }
}

/// `path` relative to `base` (the script's directory).
pub(crate) fn resolve(path: &str, base: Option<&Path>) -> std::path::PathBuf {
    match base {
        Some(dir) => dir.join(path),
        None => Path::new(path).to_path_buf(),
    }
}

/// Compiles `shader` to SPIR-V words for `env` (its `TARGET_ENV` or the
/// default). Errors are messages without the shader's name.
pub(crate) fn compile(
    ctx: &Context,
    shader: &Shader,
    env: TargetEnv,
    base: Option<&Path>,
) -> Result<Vec<u32>, String> {
    if shader.format == ShaderFormat::SpirvBin {
        let ShaderSource::File(path) = &shader.source else {
            return Err("SPIRV-BIN shaders come from a FILE".to_owned());
        };
        let full = resolve(path, base);
        let bytes =
            std::fs::read(&full).map_err(|e| format!("cannot read {}: {e}", full.display()))?;
        return kiln_core::binary::words_from_bytes(&bytes).map_err(|e| e.to_string());
    }
    let (text, first_line) = source_text(shader, base)?;
    match shader.format {
        ShaderFormat::Glsl => glsl(&text, env, first_line),
        ShaderFormat::SpirvAsm => assemble(&text, env, first_line),
        ShaderFormat::SpirvHex => hex(&text),
        ShaderFormat::SpirvMlir => mlir(ctx, &text, first_line),
        ShaderFormat::SpirvBin | ShaderFormat::Hlsl | ShaderFormat::OpenClC => Err(format!(
            "{} shaders cannot be compiled by kiln",
            shader.format.keyword()
        )),
    }
}

fn assemble(text: &str, env: TargetEnv, first_line: u32) -> Result<Vec<u32>, String> {
    let assembler = spirv_tools::assembler::create(Some(env));
    match assembler.assemble(text, spirv_tools::assembler::AssemblerOptions::default()) {
        Ok(binary) => Ok(binary.as_words().to_vec()),
        Err(e) => Err(match e.diagnostic {
            Some(d) => format!(
                "spirv-as: line {}: {}",
                first_line as usize + d.line,
                d.message
            ),
            None => format!("spirv-as failed ({:?})", e.inner),
        }),
    }
}

fn hex(text: &str) -> Result<Vec<u32>, String> {
    let mut bytes = Vec::new();
    for tok in text.split_whitespace() {
        let digits = tok
            .strip_prefix("0x")
            .or_else(|| tok.strip_prefix("0X"))
            .unwrap_or(tok);
        let b = u8::from_str_radix(digits, 16)
            .map_err(|_| format!("SPIRV-HEX: '{tok}' is not a byte in hex"))?;
        bytes.push(b);
    }
    if bytes.len() % 4 != 0 {
        return Err(format!(
            "SPIRV-HEX: {} bytes is not a whole number of words",
            bytes.len()
        ));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// `glslangValidator --target-env` arguments for `env`: a Vulkan
/// environment as is; `spvX.Y` as the lowest Vulkan version that takes
/// SPIR-V X.Y plus `spirvX.Y` (Amber's shaderc mapping).
fn glslang_env(env: TargetEnv) -> Vec<String> {
    let name = env.to_string();
    let (vulkan, spirv) = match name.strip_prefix("spv") {
        Some(v) => {
            let vk = match v {
                "1.0" => "vulkan1.0",
                "1.1" | "1.2" | "1.3" => "vulkan1.1",
                "1.4" | "1.5" => "vulkan1.2",
                _ => "vulkan1.3",
            };
            (vk.to_owned(), Some(v.to_owned()))
        }
        None => match name.split_once("spv") {
            Some((vk, spv)) => (vk.to_owned(), Some(spv.to_owned())),
            None => (name.clone(), None),
        },
    };
    let mut args = vec!["--target-env".to_owned(), vulkan];
    if let Some(v) = spirv {
        args.extend(["--target-env".to_owned(), format!("spirv{v}")]);
    }
    args
}

fn glsl(text: &str, env: TargetEnv, first_line: u32) -> Result<Vec<u32>, String> {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let out = std::env::temp_dir().join(format!(
        "kiln-amber-{}-{}.spv",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let mut child = Command::new("glslangValidator")
        .args(glslang_env(env))
        .args(["--stdin", "-S", "comp", "-o"])
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!("cannot run glslangValidator ({e}); install glslang-tools (ci/setup.sh)")
        })?;
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        // A failed write shows up as a compile error below.
        let _ = stdin.write_all(text.as_bytes());
    }
    let output = child
        .wait_with_output()
        .map_err(|e| format!("glslangValidator: {e}"))?;
    let result = if output.status.success() {
        std::fs::read(&out)
            .map_err(|e| format!("cannot read glslangValidator's output: {e}"))
            .and_then(|b| kiln_core::binary::words_from_bytes(&b).map_err(|e| e.to_string()))
    } else {
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        // The error lines, without the closing count ("ERROR: 2
        // compilation errors.  No code generated.").
        let errors: Vec<String> = all
            .lines()
            .filter(|l| l.starts_with("ERROR:") && !l.contains("compilation errors"))
            .map(|l| relocate(l.trim_end(), first_line))
            .collect();
        Err(format!(
            "glslangValidator: {}",
            if errors.is_empty() {
                all.trim().to_owned()
            } else {
                errors.join("; ")
            }
        ))
    };
    let _ = std::fs::remove_file(&out);
    result
}

/// `ERROR: stdin:4: msg` with the shader's text starting on script line
/// `first_line` → `ERROR: line 4+first_line-1: msg`.
fn relocate(line: &str, first_line: u32) -> String {
    let Some((head, rest)) = line.split_once("stdin:") else {
        return line.to_owned();
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    match digits.parse::<u32>() {
        Ok(n) if n > 0 => format!("{head}line {}{}", first_line + n - 1, &rest[digits.len()..]),
        _ => line.to_owned(),
    }
}

fn mlir(ctx: &Context, text: &str, first_line: u32) -> Result<Vec<u32>, String> {
    use kiln_core::passes::{pipeline, PipelineError, PipelineOptions};
    let shift = |e: &dyn std::fmt::Display| {
        let s = e.to_string();
        // Errors start with `LINE:COL:`; make the line the script's.
        match s.split_once(':') {
            Some((l, rest)) if l.bytes().all(|b| b.is_ascii_digit()) && !l.is_empty() => {
                match l.parse::<u32>() {
                    Ok(n) => format!("line {}:{rest}", first_line + n - 1),
                    Err(_) => s,
                }
            }
            _ => s,
        }
    };
    let mut module = kiln_core::text::parse(text).map_err(|e| shift(&e))?;
    kiln_core::ir::verify::verify(&module).map_err(|e| e.to_string())?;
    // The module's own spirv.target_env must be valid, though the passes run
    // against the device's (lower-abi-attrs takes only the version from it,
    // and the pipeline recomputes the interfaces for the final one).
    kiln_core::target::TargetEnv::from_module(&module).map_err(|e| e.to_string())?;
    pipeline::run(&mut module, ctx.target_env(), &PipelineOptions::default()).map_err(
        |e| match e {
            PipelineError::LowerAbiAttrs(e) => e.to_string(),
            PipelineError::UpdateVce(e) => e.to_string(),
            PipelineError::Verify(e) => e.to_string(),
        },
    )?;
    kiln_core::binary::serialize(&module).map_err(|e| e.to_string())
}

/// The optimizer pass a `spirv-opt` flag names.
fn pass(flag: &str) -> Option<Passes> {
    Some(match flag {
        "--eliminate-dead-code-aggressive" => Passes::AggressiveDCE,
        "--merge-blocks" => Passes::BlockMerge,
        "--ccp" => Passes::ConditionalConstantPropagation,
        "--cfg-cleanup" => Passes::CFGCleanup,
        "--code-sink" => Passes::CodeSinking,
        "--combine-access-chains" => Passes::CombineAccessChains,
        "--compact-ids" => Passes::CompactIds,
        "--convert-relaxed-to-half" => Passes::ConvertRelaxedToHalf,
        "--copy-propagate-arrays" => Passes::CopyPropagateArrays,
        "--eliminate-dead-branches" => Passes::DeadBranchElim,
        "--eliminate-dead-inserts" => Passes::DeadInsertElim,
        "--eliminate-dead-variables" => Passes::DeadVariableElimination,
        "--descriptor-scalar-replacement" => Passes::DescriptorScalarReplacement,
        "--eliminate-dead-const" => Passes::EliminateDeadConstant,
        "--eliminate-dead-functions" => Passes::EliminateDeadFunctions,
        "--eliminate-dead-members" => Passes::EliminateDeadMembers,
        "--fix-storage-class" => Passes::FixStorageClass,
        "--flatten-decorations" => Passes::FlattenDecoration,
        "--fold-spec-const-op-composite" => Passes::FoldSpecConstantOpAndComposite,
        "--freeze-spec-const" => Passes::FreezeSpecConstantValue,
        "--graphics-robust-access" => Passes::GraphicsRobustAccess,
        "--if-conversion" => Passes::IfConversion,
        "--inline-entry-points-exhaustive" => Passes::InlineExhaustive,
        "--inline-entry-points-opaque" => Passes::InlineOpaque,
        "--eliminate-insert-extract" => Passes::InsertExtractElim,
        "--interpolate-fixup" => Passes::InterpolateFixup,
        "--convert-local-access-chains" => Passes::LocalAccessChainConvert,
        "--eliminate-local-multi-store" => Passes::LocalMultiStoreElim,
        "--local-redundancy-elimination" => Passes::LocalRedundancyElimination,
        "--eliminate-local-single-block" => Passes::LocalSingleBlockLoadStoreElim,
        "--eliminate-local-single-store" => Passes::LocalSingleStoreElim,
        "--loop-invariant-code-motion" => Passes::LoopInvariantCodeMotion,
        "--loop-peeling" => Passes::LoopPeeling,
        "--loop-unswitch" => Passes::LoopUnswitch,
        "--merge-return" => Passes::MergeReturn,
        "--private-to-local" => Passes::PrivateToLocal,
        "--propagate-line-info" => Passes::PropagateLineInfo,
        "--reduce-load-size" => Passes::ReduceLoadSize,
        "--redundancy-elimination" => Passes::RedundancyElimination,
        "--eliminate-redundant-line-info" => Passes::RedundantLineInfoElim,
        "--relax-float-ops" => Passes::RelaxFloatOps,
        "--remove-duplicates" => Passes::RemoveDuplicates,
        "--remove-unused-interface-variables" => Passes::RemoveUnusedInterfaceVariables,
        "--replace-invalid-opcode" => Passes::ReplaceInvalidOpcode,
        "--simplify-instructions" => Passes::Simplification,
        "--ssa-rewrite" => Passes::SSARewrite,
        "--strength-reduction" => Passes::StrengthReduction,
        "--strip-debug" => Passes::StripDebugInfo,
        "--strip-nonsemantic" | "--strip-reflect" => Passes::StripNonSemanticInfo,
        "--unify-const" => Passes::UnifyConstant,
        "--upgrade-memory-model" => Passes::UpgradeMemoryModel,
        "--vector-dce" => Passes::VectorDCE,
        "--workaround-1209" => Passes::Workaround1209,
        "--wrap-opkill" => Passes::WrapOpKill,
        _ => return None,
    })
}

/// Runs the `spirv-opt` flags `flags` over `words` (`-O` and `-Os` are the
/// performance and size recipes).
pub(crate) fn optimize(
    words: &[u32],
    flags: &[String],
    env: TargetEnv,
) -> Result<Vec<u32>, String> {
    let mut opt = spirv_tools::opt::create(Some(env));
    for flag in flags {
        match flag.as_str() {
            "-O" => {
                opt.register_performance_passes();
            }
            "-Os" => {
                opt.register_size_passes();
            }
            "--legalize-hlsl" => {
                opt.register_hlsl_legalization_passes();
            }
            other => match pass(other) {
                Some(p) => {
                    opt.register_pass(p);
                }
                None => return Err(format!("unknown optimization pass '{other}'")),
            },
        }
    }
    let mut messages = Vec::new();
    let mut callback = |m: spirv_tools::error::Message| messages.push(m.message);
    match opt.optimize(words, &mut callback, None) {
        Ok(binary) => Ok(binary.as_words().to_vec()),
        Err(e) => Err(format!(
            "spirv-opt: {}",
            if messages.is_empty() {
                format!("{e}")
            } else {
                messages.join("; ")
            }
        )),
    }
}

/// Validates `words` for the device (the validator's message on failure):
/// the Vulkan environment of its SPIR-V version, with the block layouts
/// its enabled features allow (`Context::validate_binary`).
pub(crate) fn validate(ctx: &Context, words: &[u32]) -> Result<(), String> {
    ctx.validate_binary(words).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_env_names() {
        assert_eq!(target_env("spv1.3"), Ok(TargetEnv::Universal_1_3));
        assert_eq!(target_env("spirv1.5"), Ok(TargetEnv::Universal_1_5));
        assert_eq!(
            target_env("vulkan1.1spv1.4"),
            Ok(TargetEnv::Vulkan_1_1_Spirv_1_4)
        );
        assert!(target_env("opengl4.5").is_err());
        assert!(target_env("vulkan9").is_err());
        assert_eq!(
            glslang_env(TargetEnv::Vulkan_1_1_Spirv_1_4).join(" "),
            "--target-env vulkan1.1 --target-env spirv1.4"
        );
        assert_eq!(
            glslang_env(TargetEnv::Universal_1_3).join(" "),
            "--target-env vulkan1.1 --target-env spirv1.3"
        );
        assert_eq!(
            glslang_env(TargetEnv::Vulkan_1_2).join(" "),
            "--target-env vulkan1.2"
        );
    }

    #[test]
    fn hex_words_are_little_endian() {
        assert_eq!(hex("03 02 23 07 0x01 0 0 0"), Ok(vec![0x0723_0203, 1]));
        assert!(hex("03 02 23").is_err());
        assert!(hex("zz 00 00 00").is_err());
    }

    #[test]
    fn glslang_locations_become_script_lines() {
        assert_eq!(
            relocate("ERROR: stdin:4: '' :  syntax error", 10),
            "ERROR: line 13: '' :  syntax error"
        );
        assert_eq!(
            relocate("ERROR: 1 compilation errors.", 10),
            "ERROR: 1 compilation errors."
        );
    }

    #[test]
    fn unknown_passes_are_errors() {
        let err = optimize(
            &[],
            &["--no-such-pass".to_owned()],
            TargetEnv::Universal_1_0,
        );
        assert_eq!(
            err,
            Err("unknown optimization pass '--no-such-pass'".to_owned())
        );
    }
}
