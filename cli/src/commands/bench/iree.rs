//! IREE in the same run: `iree-compile` for the vulkan (`vulkan-spirv`,
//! IREE's default Vulkan target) and CPU (`llvm-cpu` for the host CPU)
//! targets, `iree-run-module` for one call whose outputs are checked,
//! `iree-benchmark-module` for the timed calls.
//!
//! Timing: `--benchmark_min_time=1x` (each repetition is one call, so the
//! statistics are over calls, as kiln's), `--benchmark_repetitions=RUNS`,
//! one warm-up call (`--benchmark_min_warmup_time` shorter than any call);
//! the per-call `real_time` of each repetition is read from Google
//! Benchmark's JSON output. Inputs are given as `--input` flags (splats or
//! `.npy` files), so they are on the device before timing and each call
//! allocates its outputs.
//!
//! Where IREE is found: `--iree DIR` (a virtual environment made by
//! `ci/setup-iree.sh`, or a folder holding the tools), else
//! `KILN_IREE_VENV`, else `~/.cache/kiln/iree-venv` (`$XDG_CACHE_HOME` when
//! set), else `PATH`. Inside a virtual environment the real binaries under
//! `site-packages/iree/` are run, not the Python wrappers in `bin/` (which
//! add about 0.2 s per call of `iree-compile`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use kiln_runtime::bench::Stats;

/// The IREE target/driver pairs compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// `--iree-hal-target-backends=vulkan-spirv`, driver `vulkan`.
    Vulkan,
    /// `--iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=host`,
    /// driver `local-task`.
    Cpu,
}

impl Target {
    /// Both, Vulkan first.
    pub const ALL: [Target; 2] = [Target::Vulkan, Target::Cpu];

    /// The implementation's name in reports.
    pub fn label(self) -> &'static str {
        match self {
            Self::Vulkan => "IREE vulkan",
            Self::Cpu => "IREE llvm-cpu",
        }
    }

    fn flags(self) -> &'static [&'static str] {
        match self {
            Self::Vulkan => &["--iree-hal-target-backends=vulkan-spirv"],
            Self::Cpu => &[
                "--iree-hal-target-backends=llvm-cpu",
                "--iree-llvmcpu-target-cpu=host",
            ],
        }
    }

    fn device(self) -> &'static str {
        match self {
            Self::Vulkan => "vulkan",
            Self::Cpu => "local-task",
        }
    }

    /// The `--iree-target` name.
    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "vulkan" => Ok(Self::Vulkan),
            "cpu" | "llvm-cpu" => Ok(Self::Cpu),
            _ => bail!("unknown IREE target `{name}` (vulkan or cpu)"),
        }
    }

    fn stem(self) -> &'static str {
        match self {
            Self::Vulkan => "vulkan",
            Self::Cpu => "cpu",
        }
    }
}

/// The IREE tools found, and how `kiln bench` uses them.
#[derive(Clone, Debug)]
pub struct Iree {
    /// `iree-compile`; absent only where modules are prebuilt
    /// ([`Iree::modules`]).
    compile: Option<PathBuf>,
    run: PathBuf,
    bench: PathBuf,
    /// `iree-compile --version`'s first lines, joined (or where the
    /// prebuilt modules are).
    pub version: String,
    /// Extra `iree-compile` flags (`--iree-flag`), e.g.
    /// `--iree-vulkan-target=ampere`.
    pub flags: Vec<String>,
    /// A folder of compiled modules kept between runs (`--iree-modules`):
    /// each named by its program, target and a hash of the source and
    /// flags, reused when present, so modules compiled on one machine run
    /// on another that has only IREE's runtime tools.
    pub modules: Option<PathBuf>,
    /// The targets run (`--iree-target`; default both).
    pub targets: Vec<Target>,
    /// The longest one `iree-benchmark-module` may run before it is
    /// stopped and its column reports so (`--iree-timeout`; default none).
    pub timeout: Option<Duration>,
}

/// The default virtual environment of `ci/setup-iree.sh`.
pub(super) fn default_venv() -> Option<PathBuf> {
    if let Some(v) = std::env::var_os("KILN_IREE_VENV") {
        return Some(PathBuf::from(v));
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(cache.join("kiln").join("iree-venv"))
}

/// `name` in `dir`: the real binary inside a venv's site-packages, else
/// `dir/bin/name`, else `dir/name`.
fn tool_in(dir: &Path, name: &str) -> Option<PathBuf> {
    let lib = dir.join("lib");
    if let Ok(entries) = std::fs::read_dir(&lib) {
        let mut pythons: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        pythons.sort();
        for py in pythons {
            for sub in ["iree/compiler/_mlir_libs", "iree/_runtime_libs"] {
                let p = py.join("site-packages").join(sub).join(name);
                if p.is_file() {
                    return Some(p);
                }
            }
        }
    }
    [dir.join("bin").join(name), dir.join(name)]
        .into_iter()
        .find(|p| p.is_file())
}

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

fn command(tool: &Path) -> Command {
    let mut cmd = Command::new(tool);
    // The Vulkan loader complains without it.
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        cmd.env("XDG_RUNTIME_DIR", std::env::temp_dir());
    }
    cmd
}

/// FNV-1a, 64 bits: the modules folder's names.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A failed tool's message: its first `error:` line where it has one
/// (iree-compile prints the IR of the failing op after it, which the
/// last lines would show instead), else its last few lines.
fn tail(out: &std::process::Output) -> String {
    tail_text(&format!(
        "{}{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    ))
}

/// [`tail`] of a tool's output text.
fn tail_text(text: &str) -> String {
    if let Some(line) = text.lines().find(|l| l.contains("error:")) {
        // Without the `FILE:LINE:COL: ` prefix of the tool's input file.
        let msg = line.find("error:").map_or(line, |i| &line[i..]);
        return msg.trim().to_owned();
    }
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(3)..].join(" | ")
}

impl Iree {
    /// Finds the tools (module docs); `Err` says where it looked.
    /// `iree-compile` may be missing when `modules` is given (modules
    /// compiled elsewhere).
    pub fn find(
        dir: Option<&Path>,
        flags: Vec<String>,
        modules: Option<PathBuf>,
        targets: Vec<Target>,
    ) -> Result<Self> {
        let dirs: Vec<PathBuf> = match dir {
            Some(d) => vec![d.to_path_buf()],
            None => default_venv().into_iter().collect(),
        };
        let find = |name: &str| {
            dirs.iter()
                .find_map(|d| tool_in(d, name))
                .or_else(|| dir.is_none().then(|| on_path(name)).flatten())
        };
        let compile = find("iree-compile");
        let (Some(run), Some(bench)) = (find("iree-run-module"), find("iree-benchmark-module"))
        else {
            let looked: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
            bail!(
                "IREE not found (looked in {}{}; run `bash ci/setup-iree.sh`)",
                looked.join(", "),
                if dir.is_none() { " and PATH" } else { "" }
            );
        };
        let targets = if targets.is_empty() {
            Target::ALL.to_vec()
        } else {
            targets
        };
        let Some(compile) = compile else {
            let Some(m) = &modules else {
                bail!("IREE's runtime tools were found but not iree-compile (give --iree-modules DIR with modules compiled elsewhere)");
            };
            return Ok(Self {
                compile: None,
                run,
                bench,
                version: format!("modules prebuilt in {} (no iree-compile here)", m.display()),
                flags,
                modules,
                targets,
                timeout: None,
            });
        };
        let out = command(&compile)
            .arg("--version")
            .output()
            .with_context(|| format!("cannot run {}", compile.display()))?;
        if !out.status.success() {
            bail!("{} --version failed: {}", compile.display(), tail(&out));
        }
        let text = String::from_utf8_lossy(&out.stdout);
        let version = text
            .lines()
            .find(|l| l.contains("compiler version"))
            .unwrap_or(text.lines().next().unwrap_or("?"))
            .trim()
            .to_owned();
        Ok(Self {
            compile: Some(compile),
            run,
            bench,
            version,
            flags,
            modules,
            targets,
            timeout: None,
        })
    }

    /// Where the module of `src` for `target` goes: in the modules folder
    /// (named by a hash of the source and the flags) or in `scratch`.
    fn module_path(&self, target: Target, src: &Path, scratch: &Path, stem: &str) -> PathBuf {
        match &self.modules {
            None => scratch.join(format!("{stem}.{}.vmfb", target.stem())),
            Some(dir) => {
                let mut key = std::fs::read(src).unwrap_or_default();
                for f in target
                    .flags()
                    .iter()
                    .copied()
                    .chain(self.flags.iter().map(String::as_str))
                {
                    key.push(0);
                    key.extend_from_slice(f.as_bytes());
                }
                dir.join(format!(
                    "{stem}.{}.{:016x}.vmfb",
                    target.stem(),
                    fnv1a(&key)
                ))
            }
        }
    }

    /// Whether a module is deleted after use (not when kept in the
    /// modules folder).
    pub fn keeps_modules(&self) -> bool {
        self.modules.is_some()
    }

    /// Compiles `src` for `target` into `dir` (or the modules folder);
    /// returns the module's path and the compile time of the whole
    /// `iree-compile` process (`None`: a kept module was reused).
    pub fn compile(
        &self,
        target: Target,
        src: &Path,
        dir: &Path,
        stem: &str,
    ) -> Result<(PathBuf, Option<Duration>)> {
        let out = self.module_path(target, src, dir, stem);
        if self.modules.is_some() && out.is_file() {
            return Ok((out, None));
        }
        let Some(compiler) = &self.compile else {
            bail!("no module {} and no iree-compile to make it", out.display());
        };
        if let Some(m) = &self.modules {
            std::fs::create_dir_all(m).with_context(|| format!("cannot create {}", m.display()))?;
        }
        let t = Instant::now();
        let result = command(compiler)
            .args(target.flags())
            .args(&self.flags)
            .arg(src)
            .arg("-o")
            .arg(&out)
            .output()
            .context("cannot run iree-compile")?;
        let took = t.elapsed();
        if !result.status.success() {
            bail!("iree-compile failed: {}", tail(&result));
        }
        Ok((out, Some(took)))
    }

    /// One call of `function` with `inputs` (`--input` values); the
    /// results are written to `outputs` (`.npy`, one per result).
    pub fn run_once(
        &self,
        target: Target,
        module: &Path,
        function: &str,
        inputs: &[String],
        outputs: &[PathBuf],
    ) -> Result<()> {
        let mut cmd = command(&self.run);
        cmd.arg(format!("--device={}", target.device()))
            .arg(format!("--module={}", module.display()))
            .arg(format!("--function={function}"));
        for i in inputs {
            cmd.arg(format!("--input={i}"));
        }
        for o in outputs {
            cmd.arg(format!("--output=@{}", o.display()));
        }
        let out = cmd.output().context("cannot run iree-run-module")?;
        if !out.status.success() {
            bail!("iree-run-module failed: {}", tail(&out));
        }
        Ok(())
    }

    /// `runs` timed calls after a warm-up (module docs).
    pub fn bench(
        &self,
        target: Target,
        module: &Path,
        function: &str,
        inputs: &[String],
        runs: usize,
        scratch: &Path,
    ) -> Result<Stats> {
        let json = scratch.join(format!("bench.{}.json", target.stem()));
        let mut cmd = command(&self.bench);
        cmd.arg(format!("--device={}", target.device()))
            .arg(format!("--module={}", module.display()))
            .arg(format!("--function={function}"));
        for i in inputs {
            cmd.arg(format!("--input={i}"));
        }
        cmd.arg(format!("--benchmark_repetitions={}", runs.max(1)))
            .arg("--benchmark_min_time=1x")
            .arg("--benchmark_min_warmup_time=0.000001")
            .arg(format!("--benchmark_out={}", json.display()))
            .arg("--benchmark_out_format=json");
        let out = match self.timeout {
            None => cmd.output().context("cannot run iree-benchmark-module")?,
            Some(limit) => {
                let Some(out) = output_within(cmd, limit, scratch)? else {
                    bail!(
                        "not done in {} s (a warm-up and {} call{}): stopped",
                        limit.as_secs(),
                        runs.max(1),
                        if runs > 1 { "s" } else { "" }
                    );
                };
                out
            }
        };
        if !out.status.success() {
            bail!("iree-benchmark-module failed: {}", tail(&out));
        }
        let text = std::fs::read_to_string(&json)
            .with_context(|| format!("no benchmark output in {}", json.display()))?;
        let _ = std::fs::remove_file(&json);
        parse_benchmark_json(&text)
    }
}

/// `cmd`'s output, or `None` where it runs past `limit` (it is then
/// killed). Its output goes through files in `scratch` (a pipe left
/// unread would stall it).
fn output_within(
    mut cmd: Command,
    limit: Duration,
    scratch: &Path,
) -> Result<Option<std::process::Output>> {
    let (out_path, err_path) = (scratch.join("tool.stdout"), scratch.join("tool.stderr"));
    let file = |p: &Path| {
        std::fs::File::create(p).with_context(|| format!("cannot create {}", p.display()))
    };
    cmd.stdout(file(&out_path)?).stderr(file(&err_path)?);
    let mut child = cmd.spawn().context("cannot run iree-benchmark-module")?;
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if start.elapsed() >= limit {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Ok(Some(std::process::Output {
        status,
        stdout: std::fs::read(&out_path).unwrap_or_default(),
        stderr: std::fs::read(&err_path).unwrap_or_default(),
    }))
}

/// The per-call times of Google Benchmark's JSON output: the `real_time`
/// of each `"run_type": "iteration"` entry (one call each with `1x`;
/// divided by `iterations` otherwise).
pub fn parse_benchmark_json(text: &str) -> Result<Stats> {
    let v: serde_json::Value =
        serde_json::from_str(text).context("benchmark output is not JSON")?;
    let entries = v["benchmarks"]
        .as_array()
        .ok_or_else(|| anyhow!("benchmark output has no `benchmarks` list"))?;
    let mut times = Vec::new();
    for e in entries {
        if e["run_type"].as_str() != Some("iteration") {
            continue;
        }
        if let Some(err) = e["error_message"].as_str() {
            bail!("benchmark error: {err}");
        }
        let real = e["real_time"]
            .as_f64()
            .ok_or_else(|| anyhow!("an entry has no real_time"))?;
        let scale = match e["time_unit"].as_str().unwrap_or("ns") {
            "ns" => 1e-9,
            "us" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            u => bail!("unknown time unit {u:?}"),
        };
        // Google Benchmark's real_time is already per iteration.
        times.push(Duration::from_secs_f64(real * scale));
    }
    Stats::new(&times).ok_or_else(|| anyhow!("benchmark output has no repetitions"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_repetitions_not_aggregates() {
        let text = r#"{"context": {}, "benchmarks": [
          {"name": "BM_main/process_time/real_time", "run_type": "iteration",
           "iterations": 1, "real_time": 4.0e2, "time_unit": "ms"},
          {"name": "BM_main/process_time/real_time", "run_type": "iteration",
           "iterations": 1, "real_time": 100.0, "time_unit": "ms"},
          {"name": "BM_main/process_time/real_time", "run_type": "iteration",
           "iterations": 1, "real_time": 1.2e5, "time_unit": "us"},
          {"name": "BM_main/process_time/real_time_median", "run_type": "aggregate",
           "iterations": 3, "real_time": 120.0, "time_unit": "ms"}]}"#;
        let s = parse_benchmark_json(text).unwrap();
        assert_eq!(s.runs, 3);
        assert_eq!(s.median, Duration::from_millis(120));
        assert_eq!(s.min, Duration::from_millis(100));
        assert_eq!(s.max, Duration::from_millis(400));
        assert!(parse_benchmark_json(r#"{"benchmarks": []}"#).is_err());
        assert!(parse_benchmark_json("nope").is_err());
    }

    #[test]
    fn a_failure_reads_as_its_first_error_line() {
        // iree-compile's legalization failure on Silero VAD's `If`: the
        // IR of the op follows the error.
        let text = "silero.mlir:91:13: error: failed to legalize operation 'torch.operator'\n  %1 = torch.operator\n}) : (i1) -> f32\n";
        assert_eq!(
            tail_text(text),
            "error: failed to legalize operation 'torch.operator'"
        );
        assert_eq!(tail_text("a\n\nb\nc\nd\n"), "b | c | d");
    }

    #[test]
    fn a_tool_past_its_limit_is_stopped() {
        let dir = std::env::temp_dir().join(format!("kiln-iree-limit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut slow = Command::new("sleep");
        slow.arg("5");
        let t = Instant::now();
        assert!(output_within(slow, Duration::from_millis(100), &dir)
            .unwrap()
            .is_none());
        assert!(t.elapsed() < Duration::from_secs(4));
        let mut quick = Command::new("echo");
        quick.arg("done");
        let out = output_within(quick, Duration::from_secs(10), &dir)
            .unwrap()
            .unwrap();
        assert!(out.status.success());
        assert_eq!(out.stdout, b"done\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
