//! The device vendor's BLAS beside kiln's matmuls: cuBLAS through
//! PyTorch's CUDA build (`torch.mm` on CUDA tensors), when the interpreter
//! numpy's column uses ([`super::numpy::python`], or `KILN_PYTHON`) can
//! `import torch` and `torch.cuda.is_available()` is true. GPU devices
//! only, never with `--quick`.
//!
//! What it measures: the script loads the program's inputs from the same
//! `.npy` files IREE reads, moves them to the GPU once, calls once
//! (warm-up), then times `runs` calls of `torch.mm(a, b)` (f32), or
//! `torch.mm(a, b, out_dtype=torch.float32)` for f16 inputs and an f32
//! result (`torch.mm(a, b).float()` where this torch has no `out_dtype`:
//! the product is then rounded to f16 before widening, which the check
//! may reject). Its last output is checked against the host reference as
//! kiln's is, before any figure is reported.
//!
//! TF32 is off (`torch.backends.cuda.matmul.allow_tf32 = False`) so the f32
//! rows are true fp32 SGEMM (TF32 keeps 10 mantissa bits: faster, and not
//! the arithmetic kiln does), and so is the reduced-precision f16
//! reduction (`allow_fp16_reduced_precision_reduction = False`).
//!
//! How a call is timed, against kiln's per-call wall time (which covers
//! allocating the output, recording, submitting and waiting for the
//! fence): the wall time is `time.perf_counter()` around the call and a
//! `torch.cuda.synchronize()`, so it covers the output's allocation (from
//! PyTorch's caching allocator), the launch and the wait, plus a few
//! microseconds of Python; the GPU time is a pair of
//! `torch.cuda.Event(enable_timing=True)` recorded on the stream around the
//! call (the script reports both in seconds). The script uses CUDA device
//! 0, which should be the Vulkan device benched (one GPU per machine here);
//! the row's check text names it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use kiln_runtime::bench::{Stats, Timing};
use kiln_runtime::DType;

use super::array;
use super::reference::{self, Reference};
use super::report::Measured;

/// The note when the column cannot run.
const NOT_FOUND: &str = "PyTorch with CUDA not found";

/// Whether torch sees a CUDA device, and what it is.
const PROBE: &str = r#"
import json
import torch
ok = torch.cuda.is_available()
print(json.dumps({
    "torch": torch.__version__,
    "cuda": ok,
    "hip": getattr(torch.version, "hip", None),
    "device": torch.cuda.get_device_name(0) if ok else None,
}))
"#;

/// `SCRIPT IN.npy... OUT.npy RUNS DTYPE`: times `torch.mm` (module docs)
/// and prints one JSON object: `times` and `gpu_times` (seconds per call),
/// `torch`, `device`, `call`, `fallback` (why `out_dtype` was not used, or
/// null); or `error`.
const SCRIPT: &str = r#"
import json, sys, time
import numpy as np
import torch

def fail(why):
    print(json.dumps({"error": why}))
    sys.exit(0)

*inputs, out, runs, dtype = sys.argv[1:]
runs = int(runs)
if len(inputs) != 2:
    fail(f"expected two inputs, got {len(inputs)}")
if not torch.cuda.is_available():
    fail("torch.cuda.is_available() is False")
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
want = {"f32": torch.float32, "f16": torch.float16}[dtype]
dev = torch.device("cuda", 0)
a, b = (torch.from_numpy(np.load(p)).to(dev) for p in inputs)
torch.cuda.synchronize()
fallback = None
if a.dtype == want:
    call_text = "torch.mm(a, b)"
    call = lambda: torch.mm(a, b)
elif a.dtype == torch.float16 and want == torch.float32:
    try:
        torch.mm(a, b, out_dtype=torch.float32)
        call_text = "torch.mm(a, b, out_dtype=torch.float32)"
        call = lambda: torch.mm(a, b, out_dtype=torch.float32)
    except (TypeError, RuntimeError) as e:
        fallback = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        call_text = "torch.mm(a, b).float()"
        call = lambda: torch.mm(a, b).float()
else:
    fail(f"{a.dtype} inputs with a {dtype} result are not supported")
c = call()
torch.cuda.synchronize()
start = torch.cuda.Event(enable_timing=True)
end = torch.cuda.Event(enable_timing=True)
times, gpu_times = [], []
for _ in range(runs):
    t = time.perf_counter()
    start.record()
    c = call()
    end.record()
    torch.cuda.synchronize()
    times.append(time.perf_counter() - t)
    gpu_times.append(start.elapsed_time(end) / 1e3)
np.save(out, c.cpu().numpy().astype(np.float32 if dtype == "f32" else np.float16))
print(json.dumps({
    "times": times,
    "gpu_times": gpu_times,
    "torch": torch.__version__,
    "device": torch.cuda.get_device_name(dev),
    "call": call_text,
    "fallback": fallback,
}))
"#;

/// An interpreter whose torch sees a CUDA device.
#[derive(Clone, Debug)]
pub struct Torch {
    python: String,
    /// `torch.__version__`.
    pub version: String,
    /// CUDA device 0's name.
    pub device: String,
}

/// The interpreter numpy's column uses, if its torch sees a CUDA device;
/// else why not (the column's note).
pub fn find() -> Result<Torch, String> {
    find_with(super::numpy::python())
}

fn find_with(python: String) -> Result<Torch, String> {
    let out = Command::new(&python)
        .args(["-c", PROBE])
        .output()
        .map_err(|e| format!("{NOT_FOUND} (cannot run {python}: {e})"))?;
    if !out.status.success() {
        return Err(failure(&python, &out.stderr));
    }
    let v = last_json(&out.stdout)?;
    let version = v["torch"].as_str().unwrap_or("?").to_owned();
    if let Some(hip) = v["hip"].as_str() {
        return Err(format!(
            "torch {version} is a ROCm build (HIP {hip}): this column is cuBLAS's"
        ));
    }
    if v["cuda"].as_bool() != Some(true) {
        return Err(format!(
            "{NOT_FOUND} (torch {version} for {python}: torch.cuda.is_available() is False)"
        ));
    }
    Ok(Torch {
        python,
        version,
        device: v["device"].as_str().unwrap_or("?").to_owned(),
    })
}

/// The note for a failed interpreter run.
fn failure(python: &str, stderr: &[u8]) -> String {
    let err = String::from_utf8_lossy(stderr);
    if err.contains("No module named 'torch'") {
        return format!("{NOT_FOUND} (no module named 'torch' for {python})");
    }
    if err.contains("No module named 'numpy'") {
        return format!("{NOT_FOUND} (no module named 'numpy' for {python})");
    }
    format!(
        "torch failed: {}",
        err.lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim()
    )
}

/// The last line of `stdout` as JSON.
fn last_json(stdout: &[u8]) -> Result<serde_json::Value, String> {
    let text = String::from_utf8_lossy(stdout);
    let line = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    serde_json::from_str(line).map_err(|e| format!("unexpected output from the torch script: {e}"))
}

/// What one run of the script reported.
#[derive(Clone, Debug)]
struct Run {
    timing: Timing,
    call: String,
    torch: String,
    device: String,
    fallback: Option<String>,
}

impl Run {
    /// `torch.mm(a, b) on NVIDIA H200, torch 2.5.1, TF32 off`.
    fn describe(&self) -> String {
        let mut s = format!(
            "{} on {}, torch {}, TF32 off",
            self.call, self.device, self.torch
        );
        if let Some(why) = &self.fallback {
            s.push_str(&format!(" (no out_dtype here: {why})"));
        }
        s
    }
}

/// The script's JSON: times in seconds into [`Timing`].
fn parse_run(stdout: &[u8]) -> Result<Run, String> {
    let v = last_json(stdout)?;
    if let Some(e) = v["error"].as_str() {
        return Err(format!("torch: {e}"));
    }
    let secs = |key: &str| -> Vec<Duration> {
        v[key]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|t| t.as_f64())
                    .filter(|t| t.is_finite() && *t >= 0.0)
                    .map(Duration::from_secs_f64)
                    .collect()
            })
            .unwrap_or_default()
    };
    let times = secs("times");
    let wall = Stats::new(&times).ok_or("no times from the torch script")?;
    let gpu_times = secs("gpu_times");
    let gpu = if gpu_times.len() == times.len() {
        Stats::new(&gpu_times)
    } else {
        None
    };
    let text = |key: &str| v[key].as_str().unwrap_or("?").to_owned();
    Ok(Run {
        timing: Timing { wall, gpu },
        call: text("call"),
        torch: text("torch"),
        device: text("device"),
        fallback: v["fallback"].as_str().map(str::to_owned),
    })
}

/// The vendor's `A B` of the two `.npy` `inputs` into a `result` array,
/// `runs` timed calls, the output (written to `out`, then removed) checked
/// against `reference`.
pub fn matmul(
    torch: &Torch,
    inputs: &[PathBuf],
    out: &Path,
    result: DType,
    runs: usize,
    reference: &Reference,
) -> Result<Measured, String> {
    let dtype = match result {
        DType::F32 => "f32",
        DType::F16 => "f16",
        other => return Err(format!("{} results are not supported", other.name())),
    };
    let output = Command::new(&torch.python)
        .arg("-c")
        .arg(SCRIPT)
        .args(inputs)
        .arg(out)
        .arg(runs.max(1).to_string())
        .arg(dtype)
        .output();
    let measured = match output {
        Err(e) => Err(format!("{NOT_FOUND} (cannot run {}: {e})", torch.python)),
        Ok(o) if !o.status.success() => Err(failure(&torch.python, &o.stderr)),
        Ok(o) => parse_run(&o.stdout).and_then(|run| {
            let bytes = std::fs::read(out)
                .map_err(|e| format!("the torch script wrote no {}: {e}", out.display()))?;
            let got =
                array::read_npy(&bytes).map_err(|e| format!("the torch script's output: {e}"))?;
            let checked = reference::check(&got, reference)
                .map_err(|e| format!("wrong result: {e} ({})", run.describe()))?;
            Ok(Measured {
                timing: run.timing,
                checked: format!("{checked}; {}", run.describe()),
            })
        }),
    };
    let _ = std::fs::remove_file(out);
    measured
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scripts_json_becomes_wall_and_gpu_stats() {
        let out = br#"
some warning printed by a library
{"times": [0.004, 0.002, 0.003], "gpu_times": [0.0035, 0.0015, 0.0025], "torch": "2.5.1+cu124", "device": "NVIDIA H200", "call": "torch.mm(a, b, out_dtype=torch.float32)", "fallback": null}
"#;
        let run = parse_run(out).unwrap();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        assert_eq!(run.timing.wall.runs, 3);
        assert!((ms(run.timing.wall.median) - 3.0).abs() < 1e-9);
        assert!((ms(run.timing.wall.min) - 2.0).abs() < 1e-9);
        assert!((ms(run.timing.wall.max) - 4.0).abs() < 1e-9);
        let gpu = run.timing.gpu.unwrap();
        assert!((ms(gpu.median) - 2.5).abs() < 1e-9);
        assert_eq!(
            run.describe(),
            "torch.mm(a, b, out_dtype=torch.float32) on NVIDIA H200, torch 2.5.1+cu124, TF32 off"
        );

        let fell_back = br#"{"times": [1e-3], "gpu_times": [], "torch": "2.1.0", "device": "d", "call": "torch.mm(a, b).float()", "fallback": "TypeError: mm() got an unexpected keyword argument 'out_dtype'"}"#;
        let run = parse_run(fell_back).unwrap();
        assert!(
            run.timing.gpu.is_none(),
            "GPU times must match the wall times"
        );
        assert!(run.describe().contains("no out_dtype here: TypeError"));

        assert_eq!(
            parse_run(br#"{"error": "torch.cuda.is_available() is False"}"#).unwrap_err(),
            "torch: torch.cuda.is_available() is False"
        );
        assert!(parse_run(br#"{"times": []}"#).is_err());
        assert!(parse_run(b"Traceback").is_err());
    }

    #[test]
    fn failures_become_notes() {
        let missing = b"Traceback (most recent call last):\n  File \"<string>\", line 3, in <module>\nModuleNotFoundError: No module named 'torch'\n";
        assert_eq!(
            failure("python3", missing),
            "PyTorch with CUDA not found (no module named 'torch' for python3)"
        );
        assert_eq!(
            failure(
                "python3",
                b"Traceback ...\nRuntimeError: CUDA error: out of memory\n\n"
            ),
            "torch failed: RuntimeError: CUDA error: out of memory"
        );
    }

    /// A fake interpreter without torch: `find` gives the note, no panic.
    #[cfg(unix)]
    #[test]
    fn an_interpreter_without_torch_gives_the_note() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("kiln-vendor-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fake = dir.join("python3");
        std::fs::write(
            &fake,
            "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'torch'\" >&2\nexit 1\n",
        )
        .unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let python = fake.display().to_string();
        let note = find_with(python.clone()).unwrap_err();
        assert_eq!(
            note,
            format!("PyTorch with CUDA not found (no module named 'torch' for {python})")
        );
        // An interpreter that cannot be started at all.
        let gone = dir.join("no-such-python").display().to_string();
        assert!(find_with(gone)
            .unwrap_err()
            .starts_with("PyTorch with CUDA not found (cannot run"));
        // A torch built without CUDA.
        std::fs::write(
            &fake,
            "#!/bin/sh\necho '{\"torch\": \"2.5.1+cpu\", \"cuda\": false, \"hip\": null, \"device\": null}'\n",
        )
        .unwrap();
        let note = find_with(python).unwrap_err();
        assert!(
            note.contains("torch 2.5.1+cpu") && note.contains("is_available() is False"),
            "{note}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
