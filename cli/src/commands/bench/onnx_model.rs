//! `kiln bench MODEL.onnx [--input NAME=SPEC|SPEC]... [--runs N] [--json]`:
//! one model on the device through [`kiln_onnx::Session`] (compiled once,
//! weights uploaded once), beside onnxruntime's CPU provider and IREE's
//! Vulkan backend, in the same run.
//!
//! Each column is the median wall-clock time of one call after warm-up
//! calls, with the inputs on the host and the outputs read back to
//! it (onnxruntime's `InferenceSession.run` measures the same thing):
//! - kiln: [`kiln_onnx::Session::run`] (two warm-up calls, the second of
//!   which records the replay the timed calls run, where the model allows
//!   one);
//! - onnxruntime: a small Python subprocess (`KILN_ONNXRUNTIME_PYTHON`,
//!   else the Python package's venv `~/.cache/kiln/python-venv`, else
//!   `python3`) with its default thread count; its outputs are kept, and
//!   kiln's maximum absolute difference from them is printed;
//! - IREE: `iree-import-onnx` (from the IREE venv of `ci/setup-iree.sh`
//!   or PATH) after fixing the input shapes and upgrading opsets
//!   below 17 (with onnx, in that tool's Python), `iree-compile` for Vulkan, `iree-benchmark-module` (the
//!   time includes its host-to-device input copies only; its own figure).
//!
//! A column that cannot be filled says why ("not installed", the tool's
//! error, or `--iree-timeout`'s limit reached). `--iree-runs` gives IREE
//! fewer calls than the others where its calls take minutes (lavapipe). Inputs are given as `kiln run` takes them (`NAME=SPEC`) or,
//! as `iree-benchmark-module` takes them, in the model's input order
//! without names (`SHAPExTYPE=VALUE`, `@file.npy`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use kiln_onnx::HostTensor;
use kiln_runtime::bench::stats::Stats;
use kiln_runtime::Device;

use super::iree::Target;
use super::BenchArgs;
use crate::commands::onnx::inputs;
use crate::Outcome;

/// onnxruntime's side: loads the model, runs it once (outputs saved as
/// `ort_K.npy`), then `runs` timed calls; prints JSON.
const ORT_SCRIPT: &str = r#"
import json, sys, time
import numpy as np
import onnxruntime as ort
model, runs, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
feeds = {}
for a in sys.argv[4:]:
    name, path = a.split("=", 1)
    feeds[name] = np.load(path)
s = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
for i, y in enumerate(s.run(None, feeds)):
    np.save(f"{out}/ort_{i}.npy", y)
times = []
for _ in range(runs):
    t = time.perf_counter()
    s.run(None, feeds)
    times.append(time.perf_counter() - t)
print(json.dumps({"version": ort.__version__, "times": times}))
"#;

/// IREE's side, before `iree-import-onnx`: the model with its inputs'
/// shapes fixed to the given ones and shapes inferred (torch-mlir's ONNX
/// lowering refuses ops such as BatchNormalization on dynamic shapes).
const STATIC_SCRIPT: &str = r#"
import sys
import numpy as np
import onnx
m = onnx.load(sys.argv[1])
inits = {i.name for i in m.graph.initializer}
ins = [i for i in m.graph.input if i.name not in inits]
for i, path in zip(ins, sys.argv[3:]):
    for d, v in zip(i.type.tensor_type.shape.dim, np.load(path).shape):
        d.Clear()
        d.dim_value = v
onnx.save(onnx.shape_inference.infer_shapes(m, data_prop=True), sys.argv[2])
"#;

/// One column's result.
struct Column {
    label: String,
    result: Result<Stats, String>,
}

fn stats(samples: &[Duration]) -> Result<Stats, String> {
    Stats::new(samples).ok_or_else(|| "no runs".to_owned())
}

/// The model's graph inputs (not initializers), in order.
fn graph_inputs(model: &kiln_onnx::proto::ModelProto) -> Vec<String> {
    let Some(g) = &model.graph else {
        return Vec::new();
    };
    let inits: std::collections::HashSet<&str> = g.initializer.iter().map(|t| t.name()).collect();
    g.input
        .iter()
        .map(|i| i.name().to_owned())
        .filter(|n| !inits.contains(n.as_str()))
        .collect()
}

/// `--input` specs as `NAME=SPEC`: unnamed ones (`@f.npy`,
/// `SHAPExTYPE=VALUE`) take the model's inputs in order.
fn named_specs(specs: &[String], names: &[String]) -> Result<Vec<String>> {
    let mut out = Vec::with_capacity(specs.len());
    for (i, s) in specs.iter().enumerate() {
        let head = s.split('=').next().unwrap_or_default();
        let named = names.iter().any(|n| n == head);
        if named {
            out.push(s.clone());
        } else {
            let Some(n) = names.get(i) else {
                bail!(
                    "--input {s}: the model has {} input(s): {}",
                    names.len(),
                    names.join(", ")
                );
            };
            out.push(format!("{n}={s}"));
        }
    }
    Ok(out)
}

fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("KILN_ONNXRUNTIME_PYTHON") {
        return PathBuf::from(p);
    }
    let venv = std::env::var_os("KILN_PYTHON_VENV")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
                .map(|c| c.join("kiln").join("python-venv"))
        });
    match venv.map(|v| v.join("bin").join("python")) {
        Some(p) if p.is_file() => p,
        _ => PathBuf::from("python3"),
    }
}

/// The onnxruntime column and its first call's outputs.
fn onnxruntime(
    model: &Path,
    feeds: &[(String, PathBuf)],
    runs: usize,
    scratch: &Path,
) -> Result<(String, Stats, Vec<HostTensor>), String> {
    let py = python();
    let mut cmd = Command::new(&py);
    cmd.arg("-c")
        .arg(ORT_SCRIPT)
        .arg(model)
        .arg(runs.to_string())
        .arg(scratch);
    for (n, p) in feeds {
        cmd.arg(format!("{n}={}", p.display()));
    }
    let out = cmd
        .output()
        .map_err(|e| format!("not installed ({}: {e})", py.display()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        if err.contains("No module named 'onnxruntime'") {
            return Err(format!("not installed (in {})", py.display()));
        }
        let last = err.lines().rev().find(|l| !l.trim().is_empty());
        return Err(format!("onnxruntime failed: {}", last.unwrap_or("?")));
    }
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("onnxruntime's output: {e}"))?;
    let times: Vec<Duration> = json["times"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|t| t.as_f64())
                .map(Duration::from_secs_f64)
                .collect()
        })
        .unwrap_or_default();
    let version = json["version"].as_str().unwrap_or("?").to_owned();
    let mut outputs = Vec::new();
    for i in 0.. {
        let p = scratch.join(format!("ort_{i}.npy"));
        let Ok(bytes) = std::fs::read(&p) else { break };
        outputs.push(
            kiln_onnx::npy::read_npy(&bytes, &p.display().to_string())
                .map_err(|e| e.to_string())?,
        );
    }
    Ok((version, stats(&times)?, outputs))
}

/// `iree-import-onnx`: beside IREE's other tools, else on PATH.
fn iree_import_tool(dir: Option<&Path>) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = match dir {
        Some(d) => vec![d.join("bin"), d.to_path_buf()],
        None => super::iree::default_venv()
            .map(|v| v.join("bin"))
            .into_iter()
            .collect(),
    };
    if let Some(p) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&p));
    }
    dirs.into_iter()
        .map(|d| d.join("iree-import-onnx"))
        .find(|p| p.is_file())
}

/// The IREE Vulkan column.
fn iree_vulkan(
    args: &BenchArgs,
    model: &Path,
    opset: i64,
    feeds: &[(String, PathBuf)],
    runs: usize,
    scratch: &Path,
) -> Result<Stats, String> {
    if args.no_iree {
        return Err("--no-iree".to_owned());
    }
    let iree = super::find_iree(args).map_err(|_| "not installed".to_owned())?;
    let tool =
        iree_import_tool(args.iree.as_deref()).ok_or("not installed (no iree-import-onnx)")?;
    let py = tool
        .parent()
        .map(|d| d.join("python"))
        .filter(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from("python3"));
    let fixed = scratch.join("static.onnx");
    let out = Command::new(&py)
        .arg("-c")
        .arg(STATIC_SCRIPT)
        .arg(model)
        .arg(&fixed)
        .args(feeds.iter().map(|(_, p)| p))
        .output()
        .map_err(|e| format!("cannot run {}: {e}", py.display()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err.lines().rev().find(|l| !l.trim().is_empty());
        return Err(format!(
            "fixing the input shapes failed: {}",
            last.unwrap_or("?")
        ));
    }
    let mlir = scratch.join("model.mlir");
    let mut cmd = Command::new(&tool);
    cmd.arg(&fixed).arg("-o").arg(&mlir);
    // Older opsets are upgraded first (torch-mlir lowers opset-11
    // BatchNormalization only so).
    if opset < 17 {
        cmd.arg("--opset-version=17");
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err.lines().rev().find(|l| !l.trim().is_empty());
        return Err(format!("iree-import-onnx failed: {}", last.unwrap_or("?")));
    }
    let text = std::fs::read_to_string(&mlir).map_err(|e| e.to_string())?;
    let function = text
        .split("func.func @")
        .nth(1)
        .and_then(|s| s.split('(').next())
        .map(|s| s.trim_matches('"').to_owned())
        .ok_or("no function in iree-import-onnx's output")?;
    let (module, _) = iree
        .compile(Target::Vulkan, &mlir, scratch, "model")
        .map_err(|e| e.to_string())?;
    let inputs: Vec<String> = feeds
        .iter()
        .map(|(_, p)| format!("@{}", p.display()))
        .collect();
    iree.bench(Target::Vulkan, &module, &function, &inputs, runs, scratch)
        .map_err(|e| e.to_string())
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1e3)
}

/// Runs `kiln bench MODEL.onnx`.
pub fn run(args: &BenchArgs, file: &Path, runs: usize) -> Result<Outcome> {
    let name = file.display().to_string();
    let model = kiln_onnx::load_model(file)?;
    let names = graph_inputs(&model);
    let specs = named_specs(&args.inputs, &names)?;
    let missing: Vec<&str> = names
        .iter()
        .filter(|n| {
            !specs
                .iter()
                .any(|s| s.split('=').next() == Some(n.as_str()))
        })
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        bail!(
            "{name}: missing input(s) {} (give each with --input NAME=SHAPExTYPE=VALUE or NAME=@FILE.npy)",
            missing.join(", ")
        );
    }
    let opts = inputs::import_options(file, &specs)?;
    let t = Instant::now();
    let imported = kiln_onnx::import(&model, &opts).map_err(|e| anyhow!("{name}: {e}"))?;
    let import_time = t.elapsed();
    let device =
        Device::new(&super::device_options(args)).context("cannot open the Vulkan device")?;
    let scratch = super::Scratch::new()?;
    let t = Instant::now();
    let session = kiln_onnx::Session::new(&device, &imported).with_context(|| name.clone())?;
    let compile_time = t.elapsed();
    // The inputs as .npy files for the other two.
    let mut feeds = Vec::new();
    for (i, a) in session.inputs().iter().enumerate() {
        let Some(t) = opts.input_values.get(&a.name) else {
            continue;
        };
        let p = scratch.0.join(format!("input_{i}.npy"));
        std::fs::write(&p, kiln_onnx::npy::write_npy(t))
            .with_context(|| format!("cannot write {}", p.display()))?;
        feeds.push((a.name.clone(), p));
    }
    let load_before = super::loadavg();
    // Two warm-up calls: the second records the session's replay (see
    // `Session::run`), which the timed calls then run; the outputs
    // compared with onnxruntime's are the last timed call's.
    let mut last = Vec::new();
    for _ in 0..2 {
        last = session
            .run(&opts.input_values)
            .with_context(|| name.clone())?;
    }
    let mut samples = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        last = session
            .run(&opts.input_values)
            .with_context(|| name.clone())?;
        samples.push(t.elapsed());
    }
    let kiln = stats(&samples);
    let ort = onnxruntime(file, &feeds, runs, &scratch.0);
    let diff = ort.as_ref().ok().map(|(_, _, outs)| {
        if outs.len() != last.len() {
            return Err(format!(
                "{} outputs, onnxruntime {}",
                last.len(),
                outs.len()
            ));
        }
        let mut max = 0f64;
        for (k, o) in last.iter().zip(outs) {
            if k.shape() != o.shape() {
                return Err(format!(
                    "shape {:?}, onnxruntime {:?}",
                    k.shape(),
                    o.shape()
                ));
            }
            for i in 0..k.len() {
                let d = (k.float(i) - o.float(i)).abs();
                max = if d.is_nan() { f64::NAN } else { max.max(d) };
            }
        }
        Ok(max)
    });
    let iree_runs = args.iree_runs.unwrap_or(runs).max(1);
    let iree = iree_vulkan(args, file, imported.opset, &feeds, iree_runs, &scratch.0);
    let columns = [
        Column {
            label: "kiln (device)".to_owned(),
            result: kiln,
        },
        Column {
            label: match &ort {
                Ok((v, _, _)) => format!("onnxruntime {v} CPU"),
                Err(_) => "onnxruntime CPU".to_owned(),
            },
            result: ort.as_ref().map(|o| o.1).map_err(Clone::clone),
        },
        Column {
            label: if iree_runs == runs {
                "IREE Vulkan".to_owned()
            } else {
                format!("IREE Vulkan ({iree_runs} calls)")
            },
            result: iree,
        },
    ];
    let device_text = super::device_name(&device);
    let load = match (load_before, super::loadavg()) {
        (Some(a), Some(b)) => format!("load average {a} at the start, {b} at the end"),
        _ => String::new(),
    };
    let diff_text = match &diff {
        Some(Ok(d)) => format!("{d:.3e}"),
        Some(Err(e)) => e.clone(),
        None => "no onnxruntime".to_owned(),
    };
    if args.json {
        let col = |c: &Column| match &c.result {
            Ok(s) => {
                serde_json::json!({"label": c.label, "median_ms": s.median.as_secs_f64() * 1e3,
                "min_ms": s.min.as_secs_f64() * 1e3, "max_ms": s.max.as_secs_f64() * 1e3})
            }
            Err(e) => serde_json::json!({"label": c.label, "error": e}),
        };
        let j = serde_json::json!({
            "model": name,
            "device": device_text,
            "runs": runs,
            "iree_runs": iree_runs,
            "import_ms": import_time.as_secs_f64() * 1e3,
            "compile_ms": compile_time.as_secs_f64() * 1e3,
            "columns": columns.iter().map(col).collect::<Vec<_>>(),
            "max_abs_diff_vs_onnxruntime": match &diff { Some(Ok(d)) => serde_json::json!(d), _ => serde_json::json!(diff_text) },
            "load": load,
        });
        println!("{}", serde_json::to_string_pretty(&j)?);
    } else {
        println!("{name} on {device_text}: median ms per call of {runs} after a warm-up (inputs from the host, outputs read back)");
        println!(
            "kiln import {:.0} ms, compile + weight upload {:.0} ms; max |kiln - onnxruntime| {diff_text}",
            import_time.as_secs_f64() * 1e3,
            compile_time.as_secs_f64() * 1e3
        );
        let kiln_ms = columns[0].result.as_ref().ok().map(|s| s.median);
        for c in &columns {
            let text = match &c.result {
                Ok(s) => {
                    let ratio = match kiln_ms {
                        Some(k) if !std::ptr::eq(c, &columns[0]) => format!(
                            " (kiln at {:.2}x its speed)",
                            s.median.as_secs_f64() / k.as_secs_f64()
                        ),
                        _ => String::new(),
                    };
                    format!(
                        "{} ms [{} .. {}]{ratio}",
                        ms(s.median),
                        ms(s.min),
                        ms(s.max)
                    )
                }
                Err(e) => e.clone(),
            };
            println!("  {:<28} {text}", c.label);
        }
        if !load.is_empty() {
            println!(
                "{load} on {} threads",
                kiln_runtime::bench::host::host_threads()
            );
        }
    }
    let messages = device.context().take_validation_messages();
    for m in &messages {
        eprintln!("validation: {m}");
    }
    Ok(if messages.is_empty() {
        Outcome::Success
    } else {
        Outcome::Exit(1)
    })
}
