//! `kiln onnx-test DIR... [--reference|--cpu] [--json] [--rtol R] [--atol A]`:
//! runs ONNX backend test folders (`model.onnx` and
//! `test_data_set_N/{input,output}_K.pb`; a DIR holding such folders runs
//! each) and compares with ONNX's backend-runner rule
//! (`numpy.testing.assert_allclose(out, ref, rtol=1e-3, atol=1e-7)`: equal
//! shapes and types, NaN matching NaN, `|out - ref| <= atol + rtol |ref|`).
//! Prints `PASS name`, `FAIL name: reason` or `SKIP name: reason` per test
//! (SKIP: kiln refuses the model at import — an op, type or opset it does
//! not have), then `N passed, N failed, N skipped`; exit status 1 on any
//! failure.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use clap::Args;
use kiln_onnx::{HostTensor, ImportOptions, OnnxError};

use super::exec::{self, Engine};
use crate::commands::run::CpuArgs;
use crate::Outcome;

/// Arguments of `kiln onnx-test`.
#[derive(Args, Debug)]
pub struct OnnxTestArgs {
    /// Test folders, or folders of test folders.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Run on the CPU reference evaluator.
    #[arg(long)]
    pub reference: bool,
    /// Device (see `kiln devices`).
    #[arg(long, value_name = "SEL")]
    pub device: Option<String>,
    /// Enable the Khronos validation layer; a message fails the test.
    #[arg(long)]
    pub validation: bool,
    /// Relative tolerance (ONNX's default 1e-3).
    #[arg(long, default_value_t = 1e-3)]
    pub rtol: f64,
    /// Absolute tolerance (ONNX's default 1e-7).
    #[arg(long, default_value_t = 1e-7)]
    pub atol: f64,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// The kernels on the CPU through LLVM 19.
    #[command(flatten)]
    pub cpu: CpuArgs,
}

/// A test's result.
enum Status {
    Pass,
    Fail(String),
    Skip(String),
}

/// The test folders under `dirs`, sorted.
fn collect(dirs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for d in dirs {
        if d.join("model.onnx").is_file() {
            out.push(d.clone());
            continue;
        }
        let mut subs: Vec<PathBuf> = std::fs::read_dir(d)
            .with_context(|| format!("cannot read {}", d.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("model.onnx").is_file())
            .collect();
        subs.sort();
        if subs.is_empty() {
            anyhow::bail!("{}: no model.onnx in it or in its folders", d.display());
        }
        out.extend(subs);
    }
    Ok(out)
}

/// The `prefix_K.pb` files of a data set, by K.
fn numbered(dir: &Path, prefix: &str) -> Result<Vec<PathBuf>, OnnxError> {
    let mut v = Vec::new();
    for k in 0.. {
        let p = dir.join(format!("{prefix}_{k}.pb"));
        if !p.is_file() {
            break;
        }
        v.push(p);
    }
    Ok(v)
}

fn is_skip(e: &OnnxError) -> bool {
    matches!(
        e,
        OnnxError::Unsupported(_)
            | OnnxError::UnsupportedType { .. }
            | OnnxError::OpsetTooNew { .. }
            | OnnxError::Node { .. }
    )
}

fn one_line(s: &str) -> String {
    s.lines().map(str::trim).collect::<Vec<_>>().join(" ")
}

/// Runs one test folder.
fn run_one(dir: &Path, engine: &Engine, args: &OnnxTestArgs) -> Status {
    let model = match kiln_onnx::load_model(&dir.join("model.onnx")) {
        Ok(m) => m,
        Err(e) => return Status::Fail(e.to_string()),
    };
    if let Err(e) = kiln_onnx::import::model_opset(&model)
        .and_then(|_| kiln_onnx::import::check_supported(&model))
        .and_then(|_| kiln_onnx::import::check_signature(&model))
    {
        return Status::Skip(one_line(&e.to_string()));
    }
    let graph = model.graph.as_ref().expect("decode_model checks");
    let inits: Vec<&str> = graph
        .initializer
        .iter()
        .filter_map(|t| t.name.as_deref())
        .collect();
    let input_names: Vec<String> = graph
        .input
        .iter()
        .filter_map(|i| i.name.clone())
        .filter(|n| !inits.contains(&n.as_str()))
        .collect();
    let mut sets: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| {
            r.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    sets.sort();
    if sets.is_empty() {
        return Status::Fail("no test_data_set_N folder".into());
    }
    for set in sets {
        let load = |prefix: &str| -> Result<Vec<HostTensor>, OnnxError> {
            numbered(&set, prefix)?
                .iter()
                .map(|p| kiln_onnx::load_tensor(p).map(|(_, t)| t))
                .collect()
        };
        let (inputs, expected) = match (load("input"), load("output")) {
            (Ok(i), Ok(o)) => (i, o),
            (Err(e), _) | (_, Err(e)) => {
                return if is_skip(&e) || matches!(e, OnnxError::Decode { .. }) {
                    Status::Skip(format!("test data: {}", one_line(&e.to_string())))
                } else {
                    Status::Fail(e.to_string())
                }
            }
        };
        let named: HashMap<String, HostTensor> = input_names.iter().cloned().zip(inputs).collect();
        let opts = ImportOptions {
            input_shapes: named
                .iter()
                .map(|(n, t)| (n.clone(), t.shape().iter().map(|&d| d as u64).collect()))
                .collect(),
            input_values: named.clone(),
            base_dir: Some(dir.to_path_buf()),
        };
        let imported = match kiln_onnx::import(&model, &opts) {
            Ok(i) => i,
            Err(e) if is_skip(&e) => return Status::Skip(one_line(&e.to_string())),
            Err(e) => return Status::Fail(format!("import: {}", one_line(&e.to_string()))),
        };
        let got = match exec::run(engine, &imported, &named) {
            Ok(g) => g,
            Err(e) => return Status::Fail(one_line(&crate::commands::join_causes(e.chain()))),
        };
        if let Engine::Device(d) = engine {
            let messages = d.context().take_validation_messages();
            if let Some(m) = messages.first() {
                return Status::Fail(format!("validation: {}", one_line(&m.to_string())));
            }
        }
        if got.len() != expected.len() {
            return Status::Fail(format!(
                "{} outputs, {} expected",
                got.len(),
                expected.len()
            ));
        }
        for (k, (g, e)) in got.iter().zip(&expected).enumerate() {
            if let Err(m) = compare(g, e, args.rtol, args.atol) {
                return Status::Fail(format!("output {k}: {m}"));
            }
        }
    }
    Status::Pass
}

/// ONNX's rule (module docs).
pub fn compare(got: &HostTensor, want: &HostTensor, rtol: f64, atol: f64) -> Result<(), String> {
    if got.dtype != want.dtype {
        return Err(format!(
            "type {} , expected {}",
            got.dtype.name(),
            want.dtype.name()
        ));
    }
    if got.shape() != want.shape() {
        return Err(format!(
            "shape {:?}, expected {:?}",
            got.shape(),
            want.shape()
        ));
    }
    let rtol = if want.dtype == kiln_onnx::DataType::Bfloat16 {
        rtol.max(2f64.powi(-6))
    } else {
        rtol
    };
    let mut bad = 0usize;
    let mut first = None;
    for i in 0..want.len() {
        let ok = if want.dtype.compares_as_float() {
            let (g, w) = (got.float(i), want.float(i));
            if w.is_nan() || g.is_nan() {
                w.is_nan() && g.is_nan()
            } else if w.is_infinite() || g.is_infinite() {
                g == w
            } else {
                (g - w).abs() <= atol + rtol * w.abs()
            }
        } else {
            got.int(i) == want.int(i)
        };
        if !ok {
            bad += 1;
            if first.is_none() {
                let (g, w) = if want.dtype.compares_as_float() {
                    (got.float(i).to_string(), want.float(i).to_string())
                } else {
                    (got.int(i).to_string(), want.int(i).to_string())
                };
                first = Some(format!("element {i}: {g}, expected {w}"));
            }
        }
    }
    match first {
        None => Ok(()),
        Some(f) => Err(format!("{bad} of {} elements differ; {f}", want.len())),
    }
}

/// Runs `kiln onnx-test`.
pub fn run(args: &OnnxTestArgs) -> Result<Outcome> {
    let tests = collect(&args.dirs)?;
    let engine = if args.reference {
        Engine::Reference
    } else if args.cpu.cpu {
        Engine::Cpu(args.cpu.options())
    } else {
        Engine::Device(crate::commands::run_tensor::open_device(
            args.device.as_deref(),
            args.validation,
        )?)
    };
    let (mut passed, mut failed, mut skipped) = (0usize, 0usize, 0usize);
    let mut records = Vec::new();
    for t in &tests {
        let name = t.file_name().map_or_else(
            || t.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        // A panic in kiln (a bug) fails this test and the run goes on.
        let status =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_one(t, &engine, args)))
                .unwrap_or_else(|p| {
                    let msg = p
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                        .unwrap_or_default();
                    Status::Fail(format!("internal error (kiln panicked): {msg}"))
                });
        let (word, reason) = match &status {
            Status::Pass => {
                passed += 1;
                ("PASS", String::new())
            }
            Status::Fail(r) => {
                failed += 1;
                ("FAIL", r.clone())
            }
            Status::Skip(r) => {
                skipped += 1;
                ("SKIP", r.clone())
            }
        };
        if args.json {
            records.push(serde_json::json!({"name": name, "status": word, "reason": reason}));
        } else if reason.is_empty() {
            println!("{word} {name}");
        } else {
            println!("{word} {name}: {reason}");
        }
    }
    if args.json {
        let v = serde_json::json!({
            "engine": engine.name(),
            "passed": passed,
            "failed": failed,
            "skipped": skipped,
            "tests": records,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!("{passed} passed, {failed} failed, {skipped} skipped");
    }
    Ok(if failed > 0 {
        Outcome::Exit(1)
    } else {
        Outcome::Success
    })
}
