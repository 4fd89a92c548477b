//! Tuning: the candidate strategies of each dispatch of a tensor program
//! timed on the device, the fastest correct one kept per dispatch shape in
//! the cache directory, and used by later compilations for that device
//! ([`device_target`](crate::target::device_target) reads it; `kiln tune`
//! writes it, `kiln compile --explain` shows it).
//!
//! The file: `<cache dir>/tuning/<vendor>-<device>-<hash of name and
//! driver>.tune`, the text form of [`Tuning`], written atomically. A file
//! that does not parse is ignored with a warning. Its choices are only
//! taken where they are candidates of the dispatch (see
//! [`kiln_core::codegen::strategy::choose`]), so a stale file can make a
//! program slower, never wrong.
//!
//! Candidates compute the same values (most by the same operations in
//! the same order per output); the tuner checks it before timing: a
//! candidate whose results do not agree with the
//! heuristic strategy's (bit for bit, except for float reductions split
//! another way) is rejected, not timed.

pub mod agree;

use std::path::{Path, PathBuf};
use std::time::Duration;

use kiln_core::codegen::strategy::{Choice, Tuning, TuningParseError};
use kiln_core::codegen::{compile, CodegenTarget};
use kiln_core::tensor::eval::Value;
use kiln_core::tensor::TensorModule;

use crate::cache::{fnv1a, write_atomic};
use crate::{Device, Error, Program, Result};

/// The tuning file of a device in cache directory `dir`.
pub fn tuning_file(
    dir: &Path,
    vendor_id: u32,
    device_id: u32,
    name: &str,
    driver: Option<&str>,
) -> PathBuf {
    let h = fnv1a(format!("{name}\0{}", driver.unwrap_or("")).as_bytes());
    dir.join("tuning")
        .join(format!("{vendor_id:04x}-{device_id:04x}-{h:016x}.tune"))
}

/// A tuning file that is ignored: the warning to report.
#[derive(Debug, thiserror::Error)]
pub enum LoadTuningError {
    /// The file cannot be read.
    #[error("ignoring {}: {reason}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: std::io::Error,
    },
    /// The file does not parse.
    #[error("ignoring {}: {reason}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: TuningParseError,
    },
}

/// The tuning in `path`: empty if there is no file; `Err` (a warning to
/// report, the file then ignored) if it cannot be read or parsed.
pub fn load_tuning(path: &Path) -> std::result::Result<Tuning, LoadTuningError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Tuning::parse(&text).map_err(|reason| LoadTuningError::Parse {
            path: path.to_path_buf(),
            reason,
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Tuning::new()),
        Err(reason) => Err(LoadTuningError::Read {
            path: path.to_path_buf(),
            reason,
        }),
    }
}

/// Writes `tuning` to `path` atomically (its folder made if needed).
pub fn save_tuning(path: &Path, tuning: &Tuning) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    write_atomic(path, tuning.to_text().as_bytes())
}

impl Device {
    /// This device's tuning file, where the device has a cache directory.
    pub fn tuning_path(&self) -> Option<PathBuf> {
        let info = self.info();
        let dir = self.cache_dir()?;
        Some(tuning_file(
            dir,
            info.identity.vendor_id,
            info.identity.device_id,
            &info.name,
            info.driver_name.as_deref(),
        ))
    }

    /// The strategies tuned for this device (empty without a file; a file
    /// that cannot be used is reported in [`warnings`](Self::warnings)).
    /// The file is read once per device, when first needed: every program
    /// compiled on the device consults it, and a file `kiln tune` writes
    /// later serves devices opened after it.
    pub fn tuning(&self) -> Tuning {
        self.inner
            .tuning
            .get_or_init(|| {
                let Some(path) = self.tuning_path() else {
                    return Tuning::new();
                };
                load_tuning(&path).unwrap_or_else(|w| {
                    self.inner.warn(w.to_string());
                    Tuning::new()
                })
            })
            .clone()
    }
}

/// One candidate's outcome.
#[derive(Clone, Debug)]
pub struct CandidateResult {
    /// The candidate.
    pub choice: Choice,
    /// Median GPU time of the dispatch's kernels per call.
    pub gpu: Option<Duration>,
    /// Why it was not timed (compile or run failure, different results).
    pub error: Option<String>,
}

/// The tuning of one dispatch.
#[derive(Clone, Debug)]
pub struct DispatchTuning {
    /// The dispatch's name.
    pub dispatch: String,
    /// Its shape's key.
    pub key: String,
    /// Every candidate, the heuristic's first.
    pub results: Vec<CandidateResult>,
    /// The fastest correct candidate.
    pub best: Choice,
}

impl DispatchTuning {
    /// The heuristic's choice.
    pub fn heuristic(&self) -> Choice {
        self.results[0].choice
    }

    /// A note for the tuning file: the winner's and the heuristic's times.
    pub fn note(&self) -> String {
        let ms = |c: Choice| {
            self.results
                .iter()
                .find(|r| r.choice == c)
                .and_then(|r| r.gpu)
                .map_or("?".to_string(), |d| {
                    format!("{:.3} ms", d.as_secs_f64() * 1e3)
                })
        };
        format!(
            "{} (heuristic {}: {})",
            ms(self.best),
            self.heuristic().to_text(),
            ms(self.heuristic())
        )
    }
}

fn tune_error(function: &str, message: impl Into<String>) -> Error {
    Error::Program {
        function: function.to_owned(),
        message: message.into(),
    }
}

/// Tunes every dispatch with more than one candidate of `function` of
/// `module` on `device` (opened with profiling on, for per-dispatch GPU
/// times), called with `args`: each candidate compiled, checked against
/// the heuristic's results, and timed over `runs` calls after a warm-up.
/// `progress` hears about each candidate. Nothing is written: the caller
/// merges the results into the device's [`Tuning`].
pub fn tune_function(
    device: &Device,
    module: &TensorModule,
    function: &str,
    args: &[Value],
    runs: usize,
    mut progress: impl FnMut(&str),
) -> Result<Vec<DispatchTuning>> {
    if !device.options().profile {
        return Err(tune_error(
            function,
            "tuning needs per-dispatch GPU times: open the device with profiling on",
        ));
    }
    let mut plain = crate::target::device_target(device);
    plain.tuning = None;
    let compiled = compile(module, &plain).map_err(|e| Error::Compile {
        kernel: "tensor program".to_owned(),
        message: e.to_string(),
    })?;
    let f = compiled
        .function(function)
        .ok_or_else(|| tune_error(function, "no such function"))?;
    let todo: Vec<(String, String, Vec<Choice>)> = f
        .dispatches
        .iter()
        .filter(|d| d.candidates.len() > 1)
        .map(|d| (d.name.clone(), d.tuning_key.clone(), d.candidates.clone()))
        .collect();
    let reference = Program::load(device, compiled)?.run(function, args)?;
    let mut out = Vec::new();
    for (dispatch, key, candidates) in todo {
        let mut results = Vec::new();
        for choice in candidates {
            let mut t = Tuning::new();
            t.insert(&key, choice, "");
            let target: CodegenTarget = plain.clone().with_tuning(t);
            let r = measure(
                device, module, &target, function, args, &reference, &dispatch, runs,
            );
            let (gpu, error) = match r {
                Ok(d) => (Some(d), None),
                Err(e) => (None, Some(e.to_string())),
            };
            progress(&format!(
                "{dispatch}: {} {}",
                choice.to_text(),
                match (&gpu, &error) {
                    (Some(d), _) => format!("{:.3} ms", d.as_secs_f64() * 1e3),
                    (_, Some(e)) => format!("rejected: {e}"),
                    _ => String::new(),
                }
            ));
            results.push(CandidateResult { choice, gpu, error });
        }
        let best = results
            .iter()
            .filter_map(|r| r.gpu.map(|g| (g, r.choice)))
            .min_by_key(|(g, _)| *g)
            .map(|(_, c)| c)
            .ok_or_else(|| tune_error(function, format!("{dispatch}: no candidate ran")))?;
        out.push(DispatchTuning {
            dispatch,
            key,
            results,
            best,
        });
    }
    Ok(out)
}

/// Why a candidate strategy is rejected, not timed.
#[derive(Debug, thiserror::Error)]
pub enum Rejection {
    /// It does not compile.
    #[error(transparent)]
    Compile(#[from] kiln_core::codegen::CodegenError),
    /// It does not load or run.
    #[error(transparent)]
    Run(#[from] Error),
    /// Its results differ from the heuristic strategy's.
    #[error(transparent)]
    Disagrees(#[from] agree::Disagreement),
    /// The device wrote no timestamps for the dispatch's kernels.
    #[error("the device wrote no timestamps")]
    NoTimestamps,
}

/// The median GPU time per call of `dispatch`'s kernels with `target`, or
/// why the candidate is rejected.
#[allow(clippy::too_many_arguments, reason = "one measurement's inputs")]
fn measure(
    device: &Device,
    module: &TensorModule,
    target: &CodegenTarget,
    function: &str,
    args: &[Value],
    reference: &[Value],
    dispatch: &str,
    runs: usize,
) -> std::result::Result<Duration, Rejection> {
    let compiled = compile(module, target)?;
    let program = Program::load(device, compiled)?;
    let got = program.run(function, args)?;
    agree::agree(&got, reference)?;
    device.take_profile();
    let mut times = Vec::new();
    for _ in 0..runs.max(1) {
        program.run(function, args)?;
        let t: Option<Duration> = device
            .take_profile()
            .iter()
            .filter(|r| {
                r.kernel
                    .strip_prefix(dispatch)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('_'))
            })
            .map(|r| r.gpu_time)
            .sum();
        times.push(t.ok_or(Rejection::NoTimestamps)?);
    }
    times.sort();
    Ok(times[times.len() / 2])
}
