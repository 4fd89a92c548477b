//! The tensor compiler on the command line.
//!
//! * `kiln compile TENSOR.mlir -o OUT [--explain] [--target-env ENV | --device SEL]`
//!   compiles every function and writes the directory `OUT`: one validated
//!   SPIR-V binary per kernel (`<kernel>.spv`) and `manifest.json` (the
//!   target env and what the kernels need; per function its buffers,
//!   host-computed sizes and checks, and per dispatch its op, family,
//!   iteration space, strategy and kernels with their bindings, push
//!   constants and workgroup counts as functions of the sizes). Nothing is
//!   written unless everything compiled; the directory appears whole (it is
//!   written beside `OUT` and renamed). `--explain` prints each dispatch's
//!   strategy and why it was chosen.
//! * `kiln opt TENSOR.mlir` with a stage flag prints that stage's result:
//!   `--convert-elementwise-to-linalg` (the program after stage 1),
//!   `--form-dispatch-regions`, `--bufferize`, `--explain` (strategies),
//!   `--tensor-to-kernels` (the memref-level kernels, MLIR text).
//!
//! The target: `--target-env` (with the driver facts its file may carry,
//! `kiln devices --target-env-only --driver-facts`), else `--device`'s env (with its driver's
//! facts and the strategies `kiln tune` measured on it), else the file's declared `spirv.target_env`, else MLIR's
//! default env (Vulkan, SPIR-V 1.0, `Shader`); offline, the loop cap of
//! lavapipe is assumed.

use std::path::Path;

use anyhow::{bail, Context as _, Result};
use kiln_core::codegen::analysis::FuncInfo;
use kiln_core::codegen::bufferize::{bufferize, print_buffers, BufferOrigin};
use kiln_core::codegen::host::HostProgram;
use kiln_core::codegen::kernels::{PushValue, Repeat};
use kiln_core::codegen::regions::{form_dispatch_regions, print_regions};
use kiln_core::codegen::shapes::infer_shapes;
use kiln_core::codegen::{
    compile, explain, prepare_module, CodegenTarget, CompiledProgram, DriverFacts, ResultRef,
};
use kiln_core::tensor::TensorModule;
use serde_json::{json, Value};

use crate::Outcome;

/// A `kiln opt` stage of the tensor compiler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Stage 1: elementwise ops to `linalg.generic`.
    ElementwiseToLinalg,
    /// Stage 2: dispatch regions.
    DispatchRegions,
    /// Stage 3: buffers.
    Bufferize,
    /// Stage 4: strategies.
    Explain,
    /// Stage 5: memref-level kernels.
    Kernels,
}

/// The codegen target of a command.
pub fn target_for(
    module: &TensorModule,
    target_env: Option<&str>,
    device: Option<&str>,
) -> Result<CodegenTarget> {
    if let Some(text) = target_env {
        let (env, facts) = super::parse_target(text)?;
        return Ok(CodegenTarget::new(
            env,
            facts.unwrap_or_else(DriverFacts::conservative),
        ));
    }
    if let Some(sel) = device {
        let q = kiln_vulkan::query_device(&kiln_vulkan::DeviceSelector::parse(sel))
            .context("cannot query the Vulkan device")?;
        let mut env = q.target_env();
        if let Some(declared) =
            kiln_runtime::e2e::declared_env(module).map_err(anyhow::Error::msg)?
        {
            env = kiln_core::codegen::target::bounded_env(&env, &declared);
        }
        let s = &q.summary;
        let mut tuning = kiln_core::codegen::strategy::Tuning::default();
        if let Some(dir) = kiln_runtime::default_cache_dir() {
            let path = kiln_runtime::tune::tuning_file(
                &dir,
                s.vendor_id,
                s.device_id,
                &s.name,
                s.driver_name.as_deref(),
            );
            match kiln_runtime::tune::load_tuning(&path) {
                Ok(t) => tuning = t,
                Err(warning) => eprintln!("warning: {warning}"),
            }
        }
        let target = kiln_runtime::target::target_of(
            env,
            &s.name,
            s.driver_name.as_deref(),
            q.limits.max_texel_buffer_elements.into(),
            tuning,
        );
        return Ok(target);
    }
    let env = match kiln_runtime::e2e::declared_env(module).map_err(anyhow::Error::msg)? {
        Some(env) => env,
        None => kiln_core::lower::default_env(),
    };
    Ok(CodegenTarget::new(env, DriverFacts::conservative()))
}

/// `kiln opt` of one stage.
pub fn opt_stage(
    module: &TensorModule,
    name: &str,
    stage: Stage,
    target: &CodegenTarget,
) -> Result<String> {
    let prepared = prepare_module(module).map_err(|e| super::in_file(name, e))?;
    let mut text = String::new();
    if stage == Stage::ElementwiseToLinalg {
        text = kiln_core::tensor::print(&prepared);
    }
    for &f in prepared.funcs() {
        if prepared.func(f).body.is_none() || stage == Stage::ElementwiseToLinalg {
            continue;
        }
        let info = FuncInfo::new(&prepared, f).map_err(|e| super::in_file(name, e))?;
        match stage {
            Stage::DispatchRegions => {
                let r = form_dispatch_regions(&info);
                text.push_str(&print_regions(&prepared, &info, &r));
            }
            Stage::Bufferize => {
                let r = form_dispatch_regions(&info);
                let shapes = infer_shapes(&info).map_err(|e| super::in_file(name, e))?;
                let b = bufferize(&info, &r, &shapes);
                text.push_str(&print_buffers(&info, &shapes, &b, &prepared.func(f).name));
            }
            Stage::Explain | Stage::Kernels => {
                let cf = kiln_core::codegen::compile_function(&prepared, f, target)
                    .map_err(|e| super::in_file(name, e))?;
                if stage == Stage::Explain {
                    text.push_str(&explain(&cf));
                } else {
                    for d in &cf.dispatches {
                        for k in &d.kernels {
                            text.push_str(&format!(
                                "// kernel @{} ({})\n",
                                k.name,
                                d.family.name()
                            ));
                            text.push_str(&k.kernel_text);
                        }
                    }
                }
            }
            Stage::ElementwiseToLinalg => {}
        }
    }
    Ok(text)
}

/// `kiln compile` of a tensor program into directory `out`.
pub fn compile_to_dir(
    module: &TensorModule,
    name: &str,
    target: &CodegenTarget,
    out: &Path,
    print_explain: bool,
) -> Result<Outcome> {
    let program = compile(module, target).map_err(|e| super::in_file(name, e))?;
    if print_explain {
        for f in &program.functions {
            print!("{}", explain(f));
        }
    }
    write_dir(&program, out)?;
    Ok(Outcome::Success)
}

/// Writes the binaries and the manifest into a fresh directory beside
/// `out`, then puts it in place.
fn write_dir(program: &CompiledProgram, out: &Path) -> Result<()> {
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let file_name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = parent.join(format!(".{file_name}.kiln-tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
    let result = (|| -> Result<()> {
        for k in program
            .functions
            .iter()
            .flat_map(|f| &f.dispatches)
            .flat_map(|d| &d.kernels)
        {
            let bytes: Vec<u8> = k.words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let path = tmp.join(format!("{}.spv", k.name));
            std::fs::write(&path, bytes)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        let manifest = serde_json::to_string_pretty(&manifest(program))?;
        std::fs::write(tmp.join("manifest.json"), manifest + "\n")
            .context("cannot write manifest.json")?;
        if out.exists() {
            if !out.join("manifest.json").exists() {
                bail!(
                    "{} exists and is not a kiln compile output (no manifest.json); not replacing it",
                    out.display()
                );
            }
            std::fs::remove_dir_all(out)
                .with_context(|| format!("cannot replace {}", out.display()))?;
        }
        std::fs::rename(&tmp, out).with_context(|| format!("cannot create {}", out.display()))?;
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result
}

fn size_text(h: &HostProgram, s: kiln_core::codegen::host::Size) -> String {
    h.text(s)
}

/// The manifest of a compiled program.
pub fn manifest(p: &CompiledProgram) -> Value {
    let needs = kiln_core::target::TargetEnv::new(p.needs());
    let functions: Vec<Value> = p
        .functions
        .iter()
        .map(|f| {
            let h = &f.host;
            let buffers: Vec<Value> = f
                .buffers
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    let origin = match b.origin {
                        BufferOrigin::Argument(a) => json!({"argument": a}),
                        BufferOrigin::Constant(_) => json!("constant"),
                        BufferOrigin::Dispatch(d) => json!({"dispatch": d}),
                        BufferOrigin::Scratch(d) => json!({"scratch_of_dispatch": d}),
                        BufferOrigin::Fault => json!("fault"),
                    };
                    json!({
                        "id": i,
                        "element_type": b.elem.name(),
                        "shape": b.shape.iter().map(|&s| size_text(h, s)).collect::<Vec<_>>(),
                        "origin": origin,
                    })
                })
                .collect();
            let dispatches: Vec<Value> = f
                .dispatches
                .iter()
                .map(|d| {
                    let kernels: Vec<Value> = d
                        .kernels
                        .iter()
                        .map(|k| {
                            let push: Vec<String> = k
                                .push
                                .iter()
                                .map(|p| match p {
                                    PushValue::Slot(s) => h.slots[*s].text.clone(),
                                    PushValue::SlotHigh(s) => {
                                        format!("high({})", h.slots[*s].text)
                                    }
                                    PushValue::ChunkBegin => "chunk_begin".into(),
                                    PushValue::ChunkEnd => "chunk_end".into(),
                                    PushValue::ChunkFirst => "chunk_is_first".into(),
                                    PushValue::ChunkLast => "chunk_is_last".into(),
                                })
                                .collect();
                            let repeat = match k.repeat {
                                Repeat::Once => json!(1),
                                Repeat::Chunks { total, chunk } => {
                                    json!(format!("ceildiv({}, {chunk})", size_text(h, total)))
                                }
                            };
                            json!({
                                "name": k.name,
                                "file": format!("{}.spv", k.name),
                                "validated_for": format!("{:?}", k.validation_env),
                                "bindings": k.bindings,
                                "writes": k.writes,
                                "push_constants": push,
                                "workgroup_size": k.workgroup_size,
                                "workgroups": size_text(h, k.workgroups),
                                "runs_when": k.guard.0.iter().map(|c| c.text(h)).collect::<Vec<_>>(),
                                "dispatches": repeat,
                            })
                        })
                        .collect();
                    json!({
                        "name": d.name,
                        "family": d.family.name(),
                        "op": d.op,
                        "location": d.loc.to_string(),
                        "points": d.points.iter().map(|&s| size_text(h, s)).collect::<Vec<_>>(),
                        "reduction": d.reduction.map(|s| size_text(h, s)),
                        "strategy": {
                            "workgroup_size": d.strategy.workgroup_size,
                            "distribution": format!("{:?}", d.strategy.distribution),
                            "reduction": d.strategy.reduction.map(|r| format!("{r:?}")),
                            "workgroup_memory_bytes": d.strategy.workgroup_memory,
                            "loop_budget": d.strategy.loop_budget,
                            "types": d.strategy.types.iter().map(|(e, r)| format!("{e}: {}", r.describe())).collect::<Vec<_>>(),
                            "reason": d.strategy.reason,
                        },
                        "kernels": kernels,
                    })
                })
                .collect();
            let results: Vec<Value> = f
                .results
                .iter()
                .map(|r| match r {
                    ResultRef::Buffer { buffer, shape, elem, scalar } => json!({
                        "buffer": buffer,
                        "element_type": elem.name(),
                        "shape": shape.iter().map(|&s| size_text(h, s)).collect::<Vec<_>>(),
                        "scalar": scalar,
                    }),
                    ResultRef::Host { elem, .. } => json!({"host_scalar": elem.name()}),
                })
                .collect();
            json!({
                "name": f.name,
                "host_values": h.slots.iter().map(|s| s.text.clone()).collect::<Vec<_>>(),
                "checks": h.checks.iter().map(|(_, c)| format!("{}: {} ({:?} {} {})", c.op, c.what, c.kind, size_text(h, c.a), size_text(h, c.b))).collect::<Vec<_>>(),
                "buffers": buffers,
                "dispatches": dispatches,
                "results": results,
            })
        })
        .collect();
    json!({
        "target_env": p.target.env.print(kiln_core::text::Prefix::Spirv),
        "loop_iteration_cap": p.target.facts.loop_iteration_cap,
        "needs": needs.print(kiln_core::text::Prefix::Spirv),
        "functions": functions,
    })
}
