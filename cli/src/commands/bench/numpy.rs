//! numpy's sgemm (`numpy.matmul` on f32, whatever BLAS numpy links) as the
//! host's arithmetic limit, when `python3 -c 'import numpy'` works: the
//! script checks `C = A B` against a float64 product first, then times
//! `runs` calls after a warm-up and prints the times as JSON.

use std::process::Command;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use kiln_runtime::bench::{Measurement, Stats, Timing, Work};

const SCRIPT: &str = r#"
import json, sys, time
import numpy as np
n, runs = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(0)
a = rng.standard_normal((n, n), dtype=np.float32)
b = rng.standard_normal((n, n), dtype=np.float32)
c = np.empty((n, n), dtype=np.float32)
np.matmul(a, b, out=c)
ref = a.astype(np.float64) @ b.astype(np.float64)
err = float(np.abs(c - ref).max() / np.abs(ref).max())
if not err < 1e-4:
    print(json.dumps({"error": f"max normalised error {err:.2e}"}))
    sys.exit(0)
times = []
for _ in range(runs):
    t = time.perf_counter()
    np.matmul(a, b, out=c)
    times.append(time.perf_counter() - t)
print(json.dumps({"times": times, "error_max": err, "numpy": np.__version__}))
"#;

/// The interpreter: `KILN_PYTHON`, else the first of `python3` and
/// `/usr/bin/python3` that has numpy (a pyenv shim on `PATH` may hide the
/// system's), else `python3`.
pub(super) fn python() -> String {
    if let Some(p) = std::env::var_os("KILN_PYTHON").filter(|p| !p.is_empty()) {
        return p.to_string_lossy().into_owned();
    }
    ["python3", "/usr/bin/python3"]
        .into_iter()
        .find(|p| {
            Command::new(p)
                .args(["-c", "import numpy"])
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .unwrap_or("python3")
        .to_owned()
}

/// `n`³ sgemm, `runs` timed calls; `Err` when python3 or numpy is missing
/// (the column is then skipped with this note) or the check failed.
pub fn sgemm(n: usize, runs: usize) -> Result<Measurement> {
    let out = Command::new(python())
        .arg("-c")
        .arg(SCRIPT)
        .arg(n.to_string())
        .arg(runs.max(1).to_string())
        .output()
        .context("python3 not found")?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        if err.contains("No module named 'numpy'") {
            bail!("numpy is not installed for python3");
        }
        bail!(
            "python3 failed: {}",
            err.lines().last().unwrap_or("").trim()
        );
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| anyhow!("unexpected output from the sgemm script: {e}"))?;
    if let Some(e) = v["error"].as_str() {
        bail!("numpy sgemm gave a wrong result: {e}");
    }
    let times: Vec<Duration> = v["times"]
        .as_array()
        .ok_or_else(|| anyhow!("no times from the sgemm script"))?
        .iter()
        .filter_map(|t| t.as_f64().map(Duration::from_secs_f64))
        .collect();
    let wall = Stats::new(&times).ok_or_else(|| anyhow!("no times from the sgemm script"))?;
    Ok(Measurement {
        name: format!(
            "numpy {} sgemm {n}^3 f32",
            v["numpy"].as_str().unwrap_or("?")
        ),
        work: Work::flops(2.0 * (n as f64).powi(3)),
        timing: Timing { wall, gpu: None },
        checked: format!(
            "max normalised error {:.1e} vs float64",
            v["error_max"].as_f64().unwrap_or(f64::NAN)
        ),
    })
}
