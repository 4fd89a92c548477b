//! `kiln reflect X.spv|X.mlir [--json] [--entry NAME] [--target-env ENV|@FILE]`:
//! print the pipeline interface of a module's compute entry points and
//! check it against a target env's limits.
//!
//! The input is a SPIR-V binary when it starts with the SPIR-V magic
//! number, spv text otherwise. Text is parsed, verified and, when its
//! entry functions still carry `spirv.interface_var_abi` /
//! `spirv.entry_point_abi` attributes, lowered with `lower-abi-attrs`
//! first (a no-op for lowered modules). For each `GLCompute` entry point
//! (or only `--entry NAME`) it prints the interface: workgroup size (and
//! the SpecIds driving it), each binding (set, binding, descriptor type,
//! access, minimum size and runtime-array stride), the push-constant
//! range, the specialization constants, the workgroup memory. `--json`
//! prints one JSON object instead: `{"entry_points": [{...}, ...]}`.
//!
//! The limits come from `--target-env` (text or `@FILE`), else from the
//! module's own `spirv.target_env` (text input only); without either
//! nothing is checked. Every violation is reported on stderr as
//! `error: ...` naming the limit and the value, and the command exits with
//! status 1 (after printing the interface).

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use kiln_abi::PipelineInterface;
use kiln_core::target::TargetEnv;
use serde_json::{json, Value};

use crate::Outcome;

/// Arguments of `kiln reflect`.
#[derive(Args, Debug)]
pub struct ReflectArgs {
    /// A SPIR-V binary or an spv text module (`-` for stdin).
    #[arg(default_value = "-")]
    pub input: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Only this entry point (default: every GLCompute entry point).
    #[arg(long, value_name = "NAME")]
    pub entry: Option<String>,
    /// Check against this target env: `#spirv.target_env<...>` text, or
    /// `@FILE` holding it. Default: the module's `spirv.target_env`.
    #[arg(long = "target-env", value_name = "ENV|@FILE")]
    pub target_env: Option<String>,
}

/// The interfaces of the selected entry points, and the target env to
/// check them against.
struct Reflected {
    interfaces: Vec<PipelineInterface>,
    env: Option<TargetEnv>,
}

/// Runs `kiln reflect`.
pub fn run(args: &ReflectArgs) -> Result<Outcome> {
    let name = super::display_name(&args.input);
    let bytes = crate::input::read_bytes(&args.input)?;
    // The SPIR-V magic number in either byte order (words_from_bytes reads
    // both).
    let magic = kiln_core::binary::words::MAGIC;
    let is_binary = bytes.len() >= 4
        && (bytes[..4] == magic.to_le_bytes() || bytes[..4] == magic.to_be_bytes());
    let reflected = if is_binary {
        reflect_binary(&bytes, args, &name)?
    } else {
        reflect_text(&bytes, args, &name)?
    };
    let limits = reflected.env.as_ref().map(kiln_core::reflect::limits);
    let violations: Vec<String> = match &limits {
        Some(l) => reflected
            .interfaces
            .iter()
            .flat_map(|i| i.limit_violations(l))
            .map(|e| e.to_string())
            .collect(),
        None => Vec::new(),
    };
    let text = if args.json {
        let entries: Vec<Value> = reflected.interfaces.iter().map(to_json).collect();
        let mut doc = json!({ "entry_points": entries });
        if limits.is_some() {
            doc["limit_violations"] = json!(violations);
        }
        let mut s = serde_json::to_string_pretty(&doc).context("cannot format JSON")?;
        s.push('\n');
        s
    } else {
        reflected
            .interfaces
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("")
    };
    crate::input::write_output(&PathBuf::from("-"), text.as_bytes())?;
    if violations.is_empty() {
        return Ok(Outcome::Success);
    }
    for v in &violations {
        eprintln!("error: {name}: {v}");
    }
    Ok(Outcome::Exit(1))
}

/// The entry points to reflect: `--entry`, or every GLCompute one.
fn select(all: Vec<(String, String)>, args: &ReflectArgs, name: &str) -> Result<Vec<String>> {
    match &args.entry {
        Some(e) => Ok(vec![e.clone()]),
        None => {
            let compute: Vec<String> = all
                .into_iter()
                .filter(|(_, model)| model == "GLCompute")
                .map(|(n, _)| n)
                .collect();
            if compute.is_empty() {
                bail!("{name}: the module has no GLCompute entry point");
            }
            Ok(compute)
        }
    }
}

fn given_env(args: &ReflectArgs) -> Result<Option<TargetEnv>> {
    args.target_env
        .as_deref()
        .map(super::parse_target_env)
        .transpose()
}

fn reflect_binary(bytes: &[u8], args: &ReflectArgs, name: &str) -> Result<Reflected> {
    let words = crate::input::words_from_bytes(bytes)
        .with_context(|| format!("{name} is not a SPIR-V binary"))?;
    let all = kiln_core::reflect::binary_entry_points(&words)
        .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let interfaces = select(all, args, name)?
        .iter()
        .map(|e| {
            kiln_core::reflect::reflect_binary(&words, e)
                .map_err(|err| anyhow::anyhow!("{name}: {err}"))
        })
        .collect::<Result<_>>()?;
    Ok(Reflected {
        interfaces,
        env: given_env(args)?,
    })
}

fn reflect_text(bytes: &[u8], args: &ReflectArgs, name: &str) -> Result<Reflected> {
    let text = std::str::from_utf8(bytes).with_context(|| format!("{name} is not valid UTF-8"))?;
    let mut module = kiln_core::text::parse(text).map_err(|e| super::in_file(name, e))?;
    kiln_core::ir::verify::verify(&module)
        .map_err(|errs| anyhow::anyhow!("{name}: module failed verification: {errs}"))?;
    let own_env = TargetEnv::lookup(&module)
        .map_err(|e| anyhow::anyhow!("{name}: invalid spirv.target_env attribute: {e}"))?;
    let env = match given_env(args)? {
        Some(env) => Some(env),
        None => own_env,
    };
    kiln_core::passes::lower_abi_attrs::run(&mut module, &env.clone().unwrap_or_default())
        .map_err(|e| anyhow::anyhow!("{name}: lower-abi-attrs: {}", super::error_chain(&e)))?;
    let all = kiln_core::reflect::entry_points(&module);
    let interfaces = select(all, args, name)?
        .iter()
        .map(|e| {
            kiln_core::reflect::reflect_module(&module, e)
                .map_err(|err| anyhow::anyhow!("{name}: {err}"))
        })
        .collect::<Result<_>>()?;
    Ok(Reflected { interfaces, env })
}

/// One entry point's interface as JSON.
fn to_json(i: &PipelineInterface) -> Value {
    let bindings: Vec<Value> = i
        .bindings
        .iter()
        .map(|b| {
            json!({
                "set": b.set,
                "binding": b.binding,
                "descriptor_type": b.descriptor_type.name(),
                "access": b.access.to_string(),
                "min_size": b.min_size,
                "element_stride": b.element_stride,
                "texel_format": b.texel_format.map(|f| f.name()),
            })
        })
        .collect();
    let spec: Vec<Value> = i
        .spec_constants
        .iter()
        .map(|c| {
            json!({
                "id": c.id,
                "name": c.name,
                "type": c.ty.name(),
                "default": c.default_text(),
            })
        })
        .collect();
    json!({
        "name": i.entry_point,
        "workgroup_size": i.workgroup_size,
        "workgroup_size_spec_ids": i.workgroup_size_spec_ids,
        "bindings": bindings,
        "push_constants": i.push_constants.map(|p| json!({"offset": p.offset, "size": p.size})),
        "spec_constants": spec,
        "workgroup_memory": i.workgroup_memory,
    })
}
